"""Every legal path to one end space, drawn over the movement preview."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import QStyleOptionGraphicsItem, QWidget

from trackside.editor.canvas.items import Z_OVERLAY, BoundedItem
from trackside.engine.track.movement import Move

if TYPE_CHECKING:
    from trackside.editor.canvas.scene import TrackScene

PATH_COLOURS = ("#ffffff", "#52d1ff", "#ff9a3c", "#c77dff", "#3ddc84", "#ff5d8f")


class EndPathsItem(BoundedItem):
    """Every legal path to one end space, each in its own colour, over the preview."""

    def __init__(self, scene: TrackScene) -> None:
        super().__init__()
        self.track_scene = scene
        self.setZValue(Z_OVERLAY - 1)
        self.origin: int | None = None
        self.paths: list[tuple[int, ...]] = []

    def show_paths(self, origin: int | None, moves: list[Move]) -> None:
        """Draw these moves' paths from ``origin`` (none: hide)."""
        paths = [m.path for m in moves] if origin is not None else []
        if origin == self.origin and paths == self.paths:
            return  # the pointer moved within the same space: nothing to redraw
        self.origin = origin
        self.paths = paths
        self.set_bounds(self._extent())

    def _extent(self) -> QRectF:
        """What ``paint`` covers: the spaces on the paths, widened by the pens and nudges."""
        items = self.track_scene.space_items
        if self.origin is None:  # nothing shown: nothing to paint, nothing to measure
            return QRectF()
        rect = QRectF()
        for i in {self.origin, *(i for path in self.paths for i in path)}:
            if i < len(items):
                rect = rect.united(items[i].outline_rect())
        # Pens and nudges are a few screen pixels wide whatever the zoom.
        pad = (8 + 2.5 * len(self.paths)) * self.track_scene.pixel_mm()
        return rect.adjusted(-pad, -pad, pad, pad)

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        if self.origin is None:
            return
        g = self.track_scene.geometry()
        if g is None or self.origin >= g.n:
            return
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        px = 1.0 / (painter.worldTransform().m11() or 1.0)
        items = self.track_scene.space_items
        if self.paths and self.paths[0][-1] < len(items):
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.setPen(QPen(QColor("#ffffff"), 3 * px, Qt.PenStyle.DashLine))
            painter.drawPolygon(items[self.paths[0][-1]].polygon())
        for k, path in enumerate(self.paths):
            if any(i >= g.n for i in path):
                continue
            # Paths that share spaces are nudged apart so each stays visible.
            shift = (k - (len(self.paths) - 1) / 2) * 2.5 * px
            pts = [QPointF(*g.centroids[i]) + QPointF(shift, shift) for i in (self.origin, *path)]
            line = QPainterPath(pts[0])
            for p in pts[1:]:
                line.lineTo(p)
            pen = QPen(QColor(PATH_COLOURS[k % len(PATH_COLOURS)]), 3 * px)
            pen.setCapStyle(Qt.PenCapStyle.RoundCap)
            pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
            painter.setPen(QPen(QColor("#101418"), 5.5 * px))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawPath(line)
            painter.setPen(pen)
            painter.drawPath(line)
            painter.setBrush(QColor(PATH_COLOURS[k % len(PATH_COLOURS)]))
            for p in pts[1:]:
                painter.drawEllipse(p, 3 * px, 3 * px)
