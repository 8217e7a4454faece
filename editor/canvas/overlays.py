"""Analysis overlays on the canvas: forward-move arrows and a car's legal moves.

Both read the scene's cached ``TrackGeometry`` (engine.track.geometry), so what
they show is exactly what the rules engine and the validator use (R-MOVE-1,
R-MOVE-2: forward neighbours; R-MOVE-4: legal moves; R-FIN-1: finishing).
"""

from __future__ import annotations

import functools
import math
from typing import Protocol

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from trackside.editor.canvas.items import Z_OVERLAY, BoundedItem, SpaceItem, arrow_polygon
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


class MovesItem(BoundedItem):
    """The legal moves of one car: end spaces filled, paths drawn, other cars marked."""

    def __init__(self, scene: OverlayHost) -> None:
        super().__init__()
        self.track_scene = scene
        self.origin: int | None = None
        self.cars: set[int] = set()
        self._car_colours: dict[int, QColor] = {}  # space index -> colour of its test car
        self.moves: list[Move] = []
        self.setZValue(Z_OVERLAY - 2)

    @property
    def car_colours(self) -> dict[int, QColor]:
        """The colour of the test car on each space (others are drawn in the plain colour)."""
        return dict(self._car_colours)

    def set_car_colours(self, colours: dict[int, QColor]) -> None:
        """Draw the test car on each space of ``colours`` in its colour."""
        if colours != self._car_colours:  # asked on every hover: repaint only on a change
            self._car_colours = dict(colours)
            self.update()

    def show_moves(self, origin: int | None, cars: set[int], moves: list[Move]) -> None:
        """Show these moves of the car on ``origin`` with other cars on ``cars``."""
        # Only the area of the moves shown is repainted, not the whole board.
        self.origin, self.cars, self.moves = origin, set(cars), list(moves)
        self.set_bounds(self._extent())

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
                rect = rect.united(items[i].outline_rect())
        for i in {*self.cars, *([self.origin] if self.origin is not None else [])}:
            if i < g.n:
                x, y = g.centroids[i]
                rect = rect.united(QRectF(x - 12, y - 12, 24, 24))
        return rect.adjusted(-2, -2, 2, 2) if not rect.isNull() else rect

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        # Painted on every hover: pens and brushes are made once (_Ink), points once per space.
        items = self.track_scene.space_items
        g = self.track_scene.geometry()
        if g is None:
            return
        ink = _ink()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        ends: dict[int, QBrush] = {}
        for move in self.moves:
            brush = ink.finished if move.finished else ink.blocked if move.blocked else ink.end
            ends.setdefault(move.end, brush)
        painter.setPen(Qt.PenStyle.NoPen)
        for i, brush in ends.items():
            if i < len(items):
                painter.setBrush(brush)
                painter.drawPolygon(items[i].polygon())
        if self.origin is not None and self.origin < g.n:
            centroids = g.centroids
            points: dict[int, QPointF] = {}
            at = points[self.origin] = QPointF(*centroids[self.origin])
            painter.setPen(ink.path)
            painter.setBrush(Qt.BrushStyle.NoBrush)
            for move in self.moves:
                path = QPainterPath(at)
                for i in move.path:
                    point = points.get(i)
                    if point is None:
                        point = points[i] = QPointF(*centroids[i])
                    path.lineTo(point)
                painter.drawPath(path)
            painter.setPen(ink.ring)
            painter.drawEllipse(at, 10.5, 10.5)
            _car(painter, at, ORIGIN)
        for i in self.cars:
            if i < g.n:
                _car(painter, QPointF(*g.centroids[i]), self._car_colours.get(i, CAR))


class _Ink:
    """The pens and brushes of the moves overlay, made once."""

    def __init__(self) -> None:
        self.end, self.finished, self.blocked = QBrush(END), QBrush(FINISHED), QBrush(BLOCKED)
        self.path = QPen(QColor(255, 255, 255, 95), 0.6)
        self.path.setCapStyle(Qt.PenCapStyle.RoundCap)
        self.ring = QPen(RING, 1.6)
        self.car_outline = QPen(QColor("#101418"), 0.6)
        self.windscreen = QBrush(QColor(255, 255, 255, 200))
        self.wheels = QBrush(QColor("#101418"))


@functools.cache
def _ink() -> _Ink:
    """The overlay's pens and brushes (made at first paint, when Qt is up)."""
    return _Ink()


def _car(painter: QPainter, at: QPointF, colour: QColor) -> None:
    ink = _ink()
    painter.setPen(ink.car_outline)
    painter.setBrush(colour)
    x, y = at.x(), at.y()
    painter.drawRoundedRect(QRectF(x - 7, y - 4, 14, 8), 2.5, 2.5)
    painter.setBrush(ink.windscreen)
    painter.drawRect(QRectF(x + 1, y - 2.5, 3.5, 5))
    painter.setBrush(ink.wheels)
    for dx in (-4.5, 3.5):
        for dy in (-5, 4):
            painter.drawRect(QRectF(x + dx, y + dy, 2.5, 1.2))
