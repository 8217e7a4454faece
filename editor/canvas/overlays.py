"""Analysis overlays on the canvas: forward-move arrows and a car's legal moves.

Both read the scene's cached ``TrackGeometry`` (engine.track.geometry), so what
they show is exactly what the rules engine and the validator use (R-MOVE-1,
R-MOVE-2: forward neighbours; R-MOVE-4: legal moves; R-FIN-1: finishing).
"""

from __future__ import annotations

import math
from typing import Protocol

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QPainter, QPainterPath, QPen, QPolygonF
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from trackside.editor.canvas.items import Z_OVERLAY, SpaceItem, arrow_polygon
from trackside.engine.track.geometry import TrackGeometry
from trackside.engine.track.movement import Move

STRAIGHT = QColor(255, 255, 255, 210)
DIAGONAL = QColor(82, 209, 255, 150)
DEAD_END = QColor("#ff4d4d")
END = QColor(63, 185, 80, 150)
FINISHED = QColor(242, 194, 48, 170)
BLOCKED = QColor(255, 140, 40, 160)
CAR = QColor("#e5484d")
ORIGIN = QColor("#f4f4f0")  # white, as no test car is: the car that moves
RING = QColor("#ffe14d")  # the yellow ring of "this car moves", as in play


class OverlayHost(Protocol):
    """What an overlay reads from its scene (``TrackScene``, which imports this module)."""

    space_items: list[SpaceItem]

    def track_rect(self) -> QRectF: ...
    def geometry(self) -> TrackGeometry | None: ...


class ForwardArrowsItem(QGraphicsItem):
    """An arrow from every space to each forward neighbour; dead ends ringed in red."""

    def __init__(self, scene: OverlayHost) -> None:
        super().__init__()
        self.track_scene = scene
        self.setZValue(Z_OVERLAY - 5)
        self.setVisible(False)

    def boundingRect(self) -> QRectF:
        return self.track_scene.track_rect().adjusted(-20, -20, 20, 20)

    def refresh(self) -> None:
        """Redraw after the track changed."""
        self.prepareGeometryChange()
        self.update()

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        g = self.track_scene.geometry()
        if g is None:
            return
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        finish = g.beyond[3] if len(g.beyond) > 3 else [False] * g.n
        for i in range(g.n):
            if g.polygons[i] is None:
                continue
            a = QPointF(*g.centroids[i])
            if not g.forward[i] and not finish[i]:
                painter.setPen(QPen(DEAD_END, 1.6))
                painter.setBrush(Qt.BrushStyle.NoBrush)
                painter.drawEllipse(a, 5, 5)
            for j in g.forward[i]:
                b = QPointF(*g.centroids[j])
                straight = g.lanes[i] == g.lanes[j]
                _arrow(painter, a, b, STRAIGHT if straight else DIAGONAL, 0.8 if straight else 0.5)


def _arrow(painter: QPainter, a: QPointF, b: QPointF, colour: QColor, width: float = 0.8) -> None:
    length = math.hypot(b.x() - a.x(), b.y() - a.y())
    if length < 1e-6:
        return
    ux, uy = (b.x() - a.x()) / length, (b.y() - a.y()) / length
    start = QPointF(a.x() + ux * length * 0.22, a.y() + uy * length * 0.22)
    end = QPointF(b.x() - ux * length * 0.22, b.y() - uy * length * 0.22)
    pen = QPen(colour, width)
    pen.setCapStyle(Qt.PenCapStyle.RoundCap)
    painter.setPen(pen)
    painter.drawLine(start, end)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(colour)
    painter.drawPolygon(arrow_polygon(start, end, max(2.5, width * 4)))


class MovesItem(QGraphicsItem):
    """The legal moves of one car: end spaces filled, paths drawn, other cars marked."""

    def __init__(self, scene: OverlayHost) -> None:
        super().__init__()
        self.track_scene = scene
        self.origin: int | None = None
        self.cars: set[int] = set()
        self.car_colours: dict[int, QColor] = {}  # test car colours, set by editor.panels.movement
        self.moves: list[Move] = []
        self.setZValue(Z_OVERLAY - 2)

        self._rect = QRectF()

    def boundingRect(self) -> QRectF:
        return self._rect

    def show_moves(self, origin: int | None, cars: set[int], moves: list[Move]) -> None:
        """Show these moves of the car on ``origin`` with other cars on ``cars``."""
        # Only the area of the moves shown is repainted, not the whole board.
        self.prepareGeometryChange()
        self.origin, self.cars, self.moves = origin, set(cars), list(moves)
        self._rect = self._extent()
        self.update()

    def _extent(self) -> QRectF:
        """What ``paint`` covers: the end spaces, the paths, the cars and the ring."""
        g = self.track_scene.geometry()
        if g is None:
            return QRectF()
        items = self.track_scene.space_items
        spaces = {m.end for m in self.moves} | {i for m in self.moves for i in m.path}
        rect = QRectF()
        for i in spaces:
            if i < len(items):
                rect = rect.united(items[i].polygon().boundingRect())
        for i in {*self.cars, *([self.origin] if self.origin is not None else [])}:
            if i < g.n:
                x, y = g.centroids[i]
                rect = rect.united(QRectF(x - 12, y - 12, 24, 24))
        return rect.adjusted(-2, -2, 2, 2) if not rect.isNull() else rect

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        items = self.track_scene.space_items
        g = self.track_scene.geometry()
        if g is None:
            return
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        ends: dict[int, QColor] = {}
        for move in self.moves:
            colour = FINISHED if move.finished else BLOCKED if move.blocked else END
            ends.setdefault(move.end, colour)
        painter.setPen(Qt.PenStyle.NoPen)
        for i, colour in ends.items():
            if i < len(items):
                painter.setBrush(QBrush(colour))
                painter.drawPolygon(items[i].polygon())
        if self.origin is not None and self.origin < g.n:
            path_pen = QPen(QColor(255, 255, 255, 95), 0.6)
            path_pen.setCapStyle(Qt.PenCapStyle.RoundCap)
            for move in self.moves:
                pts = [QPointF(*g.centroids[self.origin])] + [
                    QPointF(*g.centroids[i]) for i in move.path
                ]
                path = QPainterPath(pts[0])
                for p in pts[1:]:
                    path.lineTo(p)
                painter.setPen(path_pen)
                painter.setBrush(Qt.BrushStyle.NoBrush)
                painter.drawPath(path)
            at = QPointF(*g.centroids[self.origin])
            painter.setPen(QPen(RING, 1.6))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawEllipse(at, 10.5, 10.5)
            _car(painter, at, ORIGIN)
        for i in self.cars:
            if i < g.n:
                _car(painter, QPointF(*g.centroids[i]), self.car_colours.get(i, CAR))


def _car(painter: QPainter, at: QPointF, colour: QColor) -> None:
    painter.setPen(QPen(QColor("#101418"), 0.6))
    painter.setBrush(colour)
    body = QRectF(at.x() - 7, at.y() - 4, 14, 8)
    painter.drawRoundedRect(body, 2.5, 2.5)
    painter.setBrush(QColor(255, 255, 255, 200))
    painter.drawRect(QRectF(at.x() + 1, at.y() - 2.5, 3.5, 5))
    painter.setBrush(QColor("#101418"))
    for dx in (-4.5, 3.5):
        for dy in (-5, 4):
            painter.drawRect(QRectF(at.x() + dx, at.y() + dy, 2.5, 1.2))


def car_polygon(at: QPointF) -> QPolygonF:
    """The outline of the test-car marker at ``at`` (for hit-testing)."""
    return QPolygonF(QRectF(at.x() - 7, at.y() - 4, 14, 8))
