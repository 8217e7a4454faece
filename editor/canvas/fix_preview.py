"""A fix's preview on the canvas: what a fix the Balance panel lists would change,
drawn over the board without changing it.

It compares the circuit as it is with the circuit the fix makes
(``engine/track/diff.py``) and draws, in a pink no mark of the board uses: each
line the fix moves dashed at its new place, beside the line as it is, with an
arrow from the one to the other and a tag ("Finish (fix 1)", "Bet 2 (fix 1)");
a grid moved back as its new slots outlined and numbered, and the lap start it moves as a
dashed bar; the spaces a lane fix adds outlined, those it moves outlined dashed
at their new place, and those it removes greyed and crossed. It takes no
clicks: nothing of it can be selected or edited.
"""

from __future__ import annotations

import math
from collections.abc import Iterator

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPen, QPolygonF
from PySide6.QtWidgets import QStyleOptionGraphicsItem, QWidget

from trackside.editor.canvas.compare_overlay import polygon
from trackside.editor.canvas.items import Z_OVERLAY, BoundedItem, NameTag, arrow_polygon
from trackside.editor.canvas.lap_start import bar_ends, lap_start_place
from trackside.editor.canvas.painting import draw_text
from trackside.engine.track.diff import diff_tracks
from trackside.engine.track.geometry import FINISH
from trackside.engine.track.model import Point, Segment, Track

PREVIEW = QColor("#ff4fd8")  # pink: no line, slot, selection or other overlay uses it
TAG = PREVIEW.darker(150)
UNDER = QColor(20, 20, 20, 170)  # under the dashes, so they read on tarmac and on lines
GONE = QColor(30, 30, 30, 170)  # a space the fix removes, greyed
MARGIN_MM = 6.0


def line_tag(k: int) -> str:
    """A line's name on its tag: "Finish", or "Bet 1" to "Bet 3"."""
    return "Finish" if k == FINISH else f"Bet {k + 1}"


def _mid(segment: Segment) -> QPointF:
    (ax, ay), (bx, by) = segment
    return QPointF((float(ax) + float(bx)) / 2, (float(ay) + float(by)) / 2)


def _pen(colour: QColor, width: float, dashed: bool = False) -> QPen:
    """A pen as wide in screen pixels at any zoom (the preview reads at any zoom)."""
    pen = QPen(colour, width, Qt.PenStyle.DashLine if dashed else Qt.PenStyle.SolidLine)
    pen.setCosmetic(True)
    pen.setCapStyle(Qt.PenCapStyle.FlatCap)
    return pen


class FixPreviewItem(BoundedItem):
    """What one fix would change, over the board; hidden while no fix is previewed."""

    def __init__(self) -> None:
        super().__init__()
        self.setZValue(Z_OVERLAY - 4)  # over the lines and the heat map, under tool overlays
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.setVisible(False)
        self.lines: dict[int, tuple[Segment, Segment]] = {}  # line -> (as it is, moved)
        self.slots: list[list[Point]] = []  # the new grid's spaces, pole first
        self.lap_start: tuple[Point, Point] | None = None  # the new lap start's bar
        self.added: list[list[Point]] = []
        self.moved: list[list[Point]] = []  # at their new place
        self.removed: list[list[Point]] = []
        self.tags: list[NameTag] = []

    # -- what it shows ---------------------------------------------------------------
    def show_change(self, before: Track, after: Track, fix: str) -> None:
        """Draw what changes from ``before`` (the circuit as it is) to ``after``, each tag
        naming ``fix`` ("fix 1")."""
        self.clear()
        diff = diff_tracks(before, after)
        old_lines = [*before.betting_lines, before.finish_line]
        new_lines = [*after.betting_lines, after.finish_line]
        self.lines = {k: (old_lines[k], new_lines[k]) for k in diff.lines}
        spaces_now = {sp.id: sp.corners for sp in after.spaces}
        spaces_was = {sp.id: sp.corners for sp in before.spaces}
        if diff.grid:
            self.slots = [spaces_now[s] for s in after.start_grid if s in spaces_now]
        place, was = lap_start_place(after), lap_start_place(before)
        if diff.racing_line and place is not None and (was is None or place[0] != was[0]):
            self.lap_start = bar_ends(after, place[0], place[2])
        self.added = [spaces_now[s] for s in diff.added]
        self.moved = [spaces_now[s] for s in dict.fromkeys(diff.moved + diff.changed)]
        self.removed = [spaces_was[s] for s in diff.removed]
        self._tag_all(fix, len(diff.added), len(diff.moved), len(diff.removed))
        self.set_bounds(self.extent())
        self.setVisible(True)

    def clear(self) -> None:
        """Draw nothing."""
        for tag in self.tags:
            if tag.scene() is not None:
                tag.scene().removeItem(tag)
            else:  # Qt detaches an item given no parent; PySide6's stubs leave None out
                tag.setParentItem(None)  # type: ignore[arg-type]
        self.tags = []
        self.lines, self.slots, self.lap_start = {}, [], None
        self.added, self.moved, self.removed = [], [], []
        self.set_bounds(QRectF())
        self.setVisible(False)

    @property
    def showing(self) -> bool:
        """True while a fix is previewed."""
        return self.isVisible() and not self._bounds.isEmpty()

    def tag_texts(self) -> list[str]:
        """The words of the tags shown, in the order they were made."""
        return [tag.text for tag in self.tags]

    def extent(self) -> QRectF:
        """What the preview covers on the board (mm), without its tags."""
        rect = QRectF()
        for shape in self._shapes():
            rect = rect.united(shape.boundingRect())
        return (
            rect.adjusted(-MARGIN_MM, -MARGIN_MM, MARGIN_MM, MARGIN_MM) if rect.isValid() else rect
        )

    def _shapes(self) -> Iterator[QPolygonF]:
        for old, new in self.lines.values():
            yield polygon([*old, *new])
        if self.lap_start is not None:
            yield polygon(list(self.lap_start))
        for corners in (*self.slots, *self.added, *self.moved, *self.removed):
            yield polygon(corners)

    def _tag_all(self, fix: str, added: int, moved: int, removed: int) -> None:
        for k, (_old, new) in self.lines.items():
            self._tag(f"{line_tag(k)} ({fix})", new[0], _away(new[0], new[1]))
        if self.slots:
            rect = QRectF()
            for corners in self.slots:
                rect = rect.united(polygon(corners).boundingRect())
            self._tag(f"Grid ({fix})", QPointF(rect.center().x(), rect.bottom()), (0.0, 1.0))
        if self.lap_start is not None:
            self._tag(
                f"Lap start ({fix})", self.lap_start[1], _away(self.lap_start[1], self.lap_start[0])
            )
        counts = [(added, "added"), (moved, "moved"), (removed, "removed")]
        said = [f"{n} {what}" for n, what in counts if n]
        if said:
            shapes = self.added or self.moved or self.removed
            rect = QRectF()
            for corners in shapes:
                rect = rect.united(polygon(corners).boundingRect())
            at = QPointF(rect.center().x(), rect.top())
            self._tag(f"Spaces: {', '.join(said)} ({fix})", at, (0.0, -1.0))

    def _tag(self, text: str, at: Point | QPointF, away: tuple[float, float] = (0.0, 0.0)) -> None:
        tag = NameTag(text, TAG, self, away)
        tag.setPos(at if isinstance(at, QPointF) else QPointF(float(at[0]), float(at[1])))
        self.tags.append(tag)

    # -- painting --------------------------------------------------------------------
    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        for corners in self.removed:
            _removed(painter, polygon(corners))
        fill = QColor(PREVIEW)
        fill.setAlpha(70)
        for corners in self.added:
            painter.setBrush(fill)
            painter.setPen(_pen(PREVIEW, 2.5))
            painter.drawPolygon(polygon(corners))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        for corners in (*self.moved, *self.slots):
            _dashed(painter, [polygon(corners)], closed=True)
        for number, corners in enumerate(self.slots, 1):
            _slot_number(painter, number, polygon(corners).boundingRect())
        if self.lap_start is not None:
            a, b = self.lap_start
            _dashed(painter, [polygon([a, b])], closed=False, width=4.0)
        for old, new in self.lines.values():
            _dashed(painter, [polygon(list(new))], closed=False, width=4.0)
            _arrow(painter, _mid(old), _mid(new))


def _dashed(painter: QPainter, shapes: list[QPolygonF], closed: bool, width: float = 2.5) -> None:
    """Pink dashes over a dark stroke, readable on tarmac, on lines and on the grid."""
    for pen in (_pen(UNDER, width + 2.5), _pen(PREVIEW, width, dashed=True)):
        painter.setPen(pen)
        for shape in shapes:
            if closed:
                painter.drawPolygon(shape)
            else:
                painter.drawPolyline(shape)


def _slot_number(painter: QPainter, number: int, box: QRectF) -> None:
    """A new grid slot's number, in its top-left quarter: clear of the number the slot
    may show now, at its centre."""
    size = min(box.width(), box.height())
    at = QPointF(box.left() + size * 0.25, box.top() + size * 0.25)
    draw_text(painter, str(number), at, size * 0.22, PREVIEW, bold=True, halo=UNDER)


def _removed(painter: QPainter, shape: QPolygonF) -> None:
    """A space the fix removes: greyed, crossed corner to corner, outlined dashed."""
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(GONE)
    painter.drawPolygon(shape)
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.setPen(_pen(PREVIEW, 2.0))
    n = shape.count()
    if n >= 4:
        painter.drawLine(shape.at(0), shape.at(n // 2))
        painter.drawLine(shape.at(n // 4), shape.at(n // 4 + n // 2))
    _dashed(painter, [shape], closed=True, width=1.5)


def _arrow(painter: QPainter, a: QPointF, b: QPointF) -> None:
    """From where a line is to where the fix puts it, when they lie apart."""
    length = math.hypot(b.x() - a.x(), b.y() - a.y())
    if length < 2 * MARGIN_MM:
        return
    painter.setPen(_pen(PREVIEW, 1.5))
    painter.drawLine(a, b)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(PREVIEW)
    painter.drawPolygon(arrow_polygon(a, b, min(8.0, length / 3)))
    painter.setBrush(Qt.BrushStyle.NoBrush)


def _away(end: Point, start: Point) -> tuple[float, float]:
    """The unit vector from ``start`` to ``end`` (a tag beyond ``end``, clear of the line)."""
    dx, dy = float(end[0]) - float(start[0]), float(end[1]) - float(start[1])
    norm = math.hypot(dx, dy)
    return (dx / norm, dy / norm) if norm else (0.0, -1.0)
