"""The comparison overlay: spaces added, removed and moved since another version.

It draws over the spaces, from a ``TrackDiff`` (engine/track/diff.py) and the
two tracks: added spaces filled green, removed ones (no longer in the document)
as red hatched outlines where they were, moved ones in orange with their old
place dashed and an arrow to the new one, renamed or changed ones outlined in
blue, and lines that moved dashed where they were.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QPainter, QPen, QPolygonF
from PySide6.QtWidgets import QStyleOptionGraphicsItem, QWidget

from trackside.editor.canvas.items import Z_OVERLAY, BoundedItem
from trackside.engine.track.diff import TrackDiff
from trackside.engine.track.model import Point, Track

ADDED = QColor("#3fb950")
REMOVED = QColor("#ff5c5c")
MOVED = QColor("#ff9f1a")
CHANGED = QColor("#58a6ff")
LEGEND = (
    (ADDED, "added"),
    (REMOVED, "removed (where it was)"),
    (MOVED, "moved (dashed: where it was)"),
    (CHANGED, "renamed, or lane, kind or label changed"),
)


def polygon(corners: list[Point]) -> QPolygonF:
    """Corners as a Qt polygon (mm)."""
    return QPolygonF([QPointF(float(x), float(y)) for x, y in corners])


def _centre(corners: list[Point]) -> QPointF:
    n = max(1, len(corners))
    return QPointF(sum(float(x) for x, _ in corners) / n, sum(float(y) for _, y in corners) / n)


class CompareOverlay(BoundedItem):
    """Highlights the differences between an older track and the document's."""

    def __init__(self) -> None:
        super().__init__()
        self.setZValue(Z_OVERLAY - 8)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.old: Track | None = None
        self.new: Track | None = None
        self.diff: TrackDiff | None = None
        self.setVisible(False)

    def show_diff(self, old: Track, new: Track, diff: TrackDiff) -> None:
        """Draw the differences from ``old`` to ``new`` (the document's track)."""
        self.old, self.new, self.diff = old, new, diff
        rect = QRectF()
        for corners in self._shapes():
            rect = rect.united(polygon(corners).boundingRect())
        self.set_bounds(rect.adjusted(-10, -10, 10, 10))

    def clear(self) -> None:
        """Draw nothing."""
        self.old = self.new = self.diff = None
        self.set_bounds(QRectF())

    def _shapes(self):
        if self.old is None or self.new is None:
            return
        yield from (sp.corners for sp in self.old.spaces)
        yield from (sp.corners for sp in self.new.spaces)

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        diff, old, new = self.diff, self.old, self.new
        if diff is None or old is None or new is None:
            return
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        before = {sp.id: sp.corners for sp in old.spaces}
        after = {sp.id: sp.corners for sp in new.spaces}
        for sid in diff.removed:
            _shape(painter, before[sid], REMOVED, Qt.BrushStyle.BDiagPattern, Qt.PenStyle.DashLine)
        for sid in diff.added:
            if sid in after:
                _shape(painter, after[sid], ADDED, Qt.BrushStyle.SolidPattern)
        for sid in diff.moved:
            if sid in after and sid in before:
                _shape(painter, before[sid], MOVED, None, Qt.PenStyle.DashLine)
                _shape(painter, after[sid], MOVED, Qt.BrushStyle.SolidPattern)
                painter.setPen(QPen(MOVED, 0.8))
                painter.drawLine(_centre(before[sid]), _centre(after[sid]))
        for sid in diff.changed + [new_id for _old, new_id in diff.renamed]:
            if sid in after:
                _shape(painter, after[sid], CHANGED, None)
        old_lines = [*old.betting_lines, old.finish_line]
        for k in diff.lines:
            a, b = old_lines[k]
            pen = QPen(MOVED, 1.2, Qt.PenStyle.DashLine)
            painter.setPen(pen)
            painter.drawLine(QPointF(float(a[0]), float(a[1])), QPointF(float(b[0]), float(b[1])))


def _shape(
    painter: QPainter,
    corners: list[Point],
    colour: QColor,
    brush: Qt.BrushStyle | None,
    pen_style: Qt.PenStyle = Qt.PenStyle.SolidLine,
) -> None:
    pen = QPen(colour, 1.4, pen_style)
    pen.setCosmetic(False)
    painter.setPen(pen)
    if brush is None:
        painter.setBrush(Qt.BrushStyle.NoBrush)
    else:
        fill = QColor(colour)
        fill.setAlpha(110 if brush == Qt.BrushStyle.SolidPattern else 200)
        painter.setBrush(QBrush(fill, brush))
    painter.drawPolygon(polygon(corners))
