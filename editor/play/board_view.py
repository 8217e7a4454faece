"""The board in play mode: the circuit as the editor draws it, cars, places, choices.

The view only renders what it is given (``set_state``) and reports clicks on
spaces (``spaceClicked``); it knows nothing about rules. Moves are animated
one after another (``animate``) along the spaces entered.
"""

from __future__ import annotations

import math
from dataclasses import replace

from PySide6.QtCore import QElapsedTimer, QPointF, QRectF, QSize, Qt, QTimer, Signal
from PySide6.QtGui import (
    QColor,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QPen,
    QPixmap,
    QPolygonF,
    QResizeEvent,
    QTransform,
)
from PySide6.QtWidgets import QSizePolicy, QWidget

from trackside.editor.canvas.painting import (
    DEFAULT_STYLE,
    Surface,
    board_bounds,
    draw_text,
    paint_grass,
    paint_track,
    track_surface,
)
from trackside.editor.play.cars import car_colour, car_footprint, ink, paint_car
from trackside.engine.game import COLOURS, Board
from trackside.engine.text import ordinal

PLACES_H = 44  # pixels: the strip of winners' places along the top
MARGIN = 12
# A car in a space smaller than the usual car shrinks to fit it, but never below this
# share of the usual size, so its colour and owner's mark stay readable.
SMALLEST_CAR = 0.5
# The printed board, without the pole's ring (in play a yellow ring means "this car moves")
# and with faint grid numbers (bold numbers on spaces mean "choose this path").
PLAY_STYLE = replace(DEFAULT_STYLE, pole="#00000000", grid_number="#40ffffff")


class BoardView(QWidget):
    """Paints a ``Board`` with cars on it; emits ``spaceClicked(space_id)``."""

    spaceClicked = Signal(str)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setMinimumSize(320, 240)
        self.setMouseTracking(True)
        self.board: Board | None = None
        self._surface: Surface | None = None
        self._bounds = (0.0, 0.0, 1.0, 1.0)
        self._cache: QPixmap | None = None
        self._xform = QTransform()
        self._polys: list[QPolygonF] = []
        self.positions: dict[str, str | None] = {}
        self.labels: dict[str, str] = {}
        self.places: list[str] = []
        self.places_total = 6
        self.places_title = ""
        self.place_notes: dict[str, str] = {}  # e.g. the lap of each car (long distance)
        self.mover: str | None = None
        self.lit: set[str] = set()  # legal end spaces
        self.marked: dict[str, str] = {}  # space id -> short text (second click choices)
        self.trail: list[str] = []  # spaces of the path under consideration
        self.anim_ms = 90
        self._shown: dict[str, QPointF | None] = {}
        self._queue: list[tuple[str, list[QPointF], list[float]]] = []
        self._usual_length = 10.0
        self._fitted: dict[int, float] = {}  # space index -> the car length that fits it
        self._clock = QElapsedTimer()
        self._frame = QTimer(self)
        self._frame.setInterval(16)
        self._frame.timeout.connect(self._advance_animation)

    # -- input --------------------------------------------------------------------
    def set_board(self, board: Board) -> None:
        """Show another circuit (a new game, or the next race of a tour)."""
        self.board = board
        self._surface = track_surface(board.track, PLAY_STYLE)
        self._bounds = board_bounds(board.track, PLAY_STYLE, self._surface)
        self._polys = [
            QPolygonF([QPointF(float(x), float(y)) for x, y in sp.corners])
            for sp in board.track.spaces
        ]
        self._queue.clear()
        self._shown.clear()
        self._fitted.clear()
        self._usual_length = self._median_length()
        self._cache = None
        self._layout()
        self.update()

    def set_state(
        self,
        positions: dict[str, str | None],
        labels: dict[str, str],
        places: list[str],
        mover: str | None = None,
    ) -> None:
        """Where the cars are (space id, None when finished), what is written on
        them, the winners' places so far and the car about to move."""
        self.positions, self.labels, self.places, self.mover = (
            dict(positions),
            dict(labels),
            list(places),
            mover,
        )
        queued = {car for car, _, _ in self._queue}
        for car, sid in positions.items():
            if car not in queued:
                self._shown[car] = self.centre(sid) if sid else None
        self.update()

    def set_choices(
        self,
        lit: set[str] | None = None,
        marked: dict[str, str] | None = None,
        trail: list[str] | None = None,
    ) -> None:
        """Light the legal end spaces, mark second-click spaces, draw a path trail."""
        self.lit = set(lit or ())
        self.marked = dict(marked or {})
        self.trail = list(trail or [])
        self.update()

    def animate(self, car: str, path: list[str]) -> None:
        """Queue a move of ``car`` through ``path`` (space ids entered)."""
        if self.board is None:
            return
        start = self._shown.get(car)
        points = [p for p in (self.centre(s) for s in path) if p is not None]
        if self.anim_ms <= 0 or start is None or not points:
            if points:
                self._shown[car] = points[-1]
            return
        lengths = [self._length_near(start)]
        lengths += [self.car_length_at(s) for s in path if self.centre(s) is not None]
        self._queue.append((car, [start, *points], lengths))
        self._shown[car] = start
        if not self._frame.isActive():
            self._clock.start()
            self._frame.start()

    @property
    def animating(self) -> bool:
        return bool(self._queue)

    def animation(self) -> tuple[str, int] | None:
        """The move being animated: its car and how many points it passes."""
        return (self._queue[0][0], len(self._queue[0][1])) if self._queue else None

    def shown_at(self, car: str) -> QPointF | None:
        """Where a car is drawn when no animation moves it (None: off the board)."""
        return self._shown.get(car)

    # -- geometry -------------------------------------------------------------------
    def centre(self, space_id: str | None) -> QPointF | None:
        """The centre (mm) of a space."""
        if self.board is None or space_id is None or space_id not in self.board.index:
            return None
        x, y = self.board.geometry.centroids[self.board.index[space_id]]
        return QPointF(x, y)

    def heading(self, at: QPointF) -> float:
        """The driving direction (degrees, y down) of the racing line nearest ``at``."""
        geo = self.board.geometry if self.board else None
        if geo is None or geo.length == 0:
            return 0.0
        d = geo.progress(at.x(), at.y())
        a = geo.centerline.interpolate(max(0.0, d - 3))
        b = geo.centerline.interpolate(min(geo.length, d + 3))
        return math.degrees(math.atan2(b.y - a.y, b.x - a.x))

    def car_length(self) -> float:
        """The usual car: most of the short side of a space of the median size."""
        return self._usual_length

    def _median_length(self) -> float:
        if self.board is None or not self.board.geometry.good:
            return 10.0
        polygons = self.board.geometry.polygons
        areas = sorted(poly.area for poly in polygons if poly is not None)
        return 0.85 * math.sqrt(areas[len(areas) // 2]) if areas else 10.0

    def car_length_at(self, space_id: str | None) -> float:
        """The length of a car in ``space_id``: the usual one, or smaller where that would
        spill out of the space (a wedge on a tight inner curve), down to SMALLEST_CAR."""
        usual = self._usual_length
        if self.board is None or space_id not in self.board.index:
            return usual
        k = self.board.index[space_id]
        if k not in self._fitted:
            centre = self.centre(space_id)
            polygon = self._polys[k]
            heading = self.heading(centre) if centre is not None else 0.0

            def fits(length: float) -> bool:
                outline = car_footprint(centre or QPointF(), heading, length)
                corners = (outline.at(i) for i in range(outline.count()))
                return all(polygon.containsPoint(p, Qt.FillRule.OddEvenFill) for p in corners)

            low, high = usual * SMALLEST_CAR, usual
            if fits(high):
                low = high
            else:
                for _ in range(12):  # to a thousandth of the usual size, plenty on screen
                    middle = (low + high) / 2
                    low, high = (middle, high) if fits(middle) else (low, middle)
            self._fitted[k] = low
        return self._fitted[k]

    def _length_near(self, point: QPointF) -> float:
        """The car length of the space under ``point`` (the usual one off the spaces)."""
        for k, polygon in enumerate(self._polys):
            if polygon.containsPoint(point, Qt.FillRule.OddEvenFill):
                return self.car_length_at(self.board.ids[k]) if self.board else self._usual_length
        return self._usual_length

    def space_at(self, pos: QPointF) -> str | None:
        """The id of the space under a widget point, or None."""
        inv, ok = self._xform.inverted()
        if not ok or self.board is None:
            return None
        p = inv.map(pos)
        for i, poly in enumerate(self._polys):
            if poly.containsPoint(p, Qt.FillRule.OddEvenFill):
                return self.board.ids[i]
        return None

    def widget_point(self, space_id: str) -> QPointF:
        """Where a space's centre is drawn in the widget (for tests and tooltips)."""
        c = self.centre(space_id)
        return self._xform.map(c) if c is not None else QPointF()

    def _layout(self) -> None:
        x0, y0, x1, y1 = self._bounds
        w, h = max(1.0, x1 - x0), max(1.0, y1 - y0)
        avail = QRectF(
            MARGIN,
            PLACES_H + MARGIN,
            self.width() - 2 * MARGIN,
            self.height() - PLACES_H - 2 * MARGIN,
        )
        scale = max(1e-3, min(avail.width() / w, avail.height() / h))
        dx = avail.left() + (avail.width() - w * scale) / 2 - x0 * scale
        dy = avail.top() + (avail.height() - h * scale) / 2 - y0 * scale
        self._xform = QTransform(scale, 0, 0, scale, dx, dy)

    # -- painting -------------------------------------------------------------------
    def sizeHint(self) -> QSize:
        return QSize(900, 640)

    def resizeEvent(self, event: QResizeEvent) -> None:
        self._cache = None
        self._layout()
        super().resizeEvent(event)

    def _background(self) -> QPixmap:
        if self._cache is not None and self._cache.size() == self.size() * self.devicePixelRatioF():
            return self._cache
        self._layout()
        ratio = self.devicePixelRatioF()
        pix = QPixmap(self.size() * ratio)
        pix.setDevicePixelRatio(ratio)
        pix.fill(QColor("#23272e"))
        p = QPainter(pix)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        inv, _ = self._xform.inverted()
        area = inv.mapRect(QRectF(0, PLACES_H, self.width(), self.height() - PLACES_H))
        p.setTransform(self._xform)
        paint_grass(p, area, PLAY_STYLE)
        if self.board is not None:
            paint_track(p, self.board.track, PLAY_STYLE, surface=self._surface)
        p.end()
        self._cache = pix
        return pix

    def paintEvent(self, event: QPaintEvent) -> None:
        p = QPainter(self)
        p.drawPixmap(0, 0, self._background())
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        if self.board is not None:
            p.save()
            p.setTransform(self._xform)
            self._paint_choices(p)
            self._paint_cars(p)
            p.restore()
        self._paint_places(p)
        p.end()

    def _paint_choices(self, painter: QPainter) -> None:
        if self.board is None:
            return
        index = self.board.index
        scale = self._xform.m11() or 1.0
        if len(self.trail) > 1:
            pts = [c for c in (self.centre(s) for s in self.trail) if c is not None]
            pen = QPen(QColor(255, 225, 77, 200), 3.0 / scale)
            pen.setStyle(Qt.PenStyle.DashLine)
            painter.setPen(pen)
            painter.drawPolyline(QPolygonF(pts))
        for sid in self.lit:
            if sid in index:
                painter.setPen(QPen(QColor("#ffe14d"), 3.0 / scale))
                painter.setBrush(QColor(255, 225, 77, 110))
                painter.drawPolygon(self._polys[index[sid]])
        for sid, text in self.marked.items():
            if sid in index:
                painter.setPen(QPen(QColor("#5ad1ff"), 3.0 / scale))
                painter.setBrush(QColor(90, 209, 255, 110))
                painter.drawPolygon(self._polys[index[sid]])
                c = self.centre(sid)
                if c is not None:
                    draw_text(
                        painter, text, c, self.car_length() * 0.35, QColor("#ffffff"), bold=True
                    )

    def _paint_cars(self, painter: QPainter) -> None:
        moving: dict[str, tuple[QPointF, float]] = {}
        if self._queue:
            car, pts, lengths = self._queue[0]
            t = self._clock.elapsed() / max(1, self.anim_ms)
            moving[car] = (self._along(pts, t), self._between(lengths, t))
        for car in COLOURS:
            if car in moving:
                at, length = moving[car]
            else:
                shown = self._shown.get(car)
                if shown is None:
                    continue
                at, length = shown, self.car_length_at(self.positions.get(car))
            paint_car(
                painter,
                at,
                self.heading(at),
                length,
                car,
                self.labels.get(car, ""),
                highlight=(car == self.mover and car not in moving),
            )

    @staticmethod
    def _between(values: list[float], t: float) -> float:
        """``values`` (one per point of a move) at ``t`` points along, as ``_along``."""
        if len(values) < 2:
            return values[0] if values else 10.0
        k = min(int(t), len(values) - 2)
        f = min(1.0, t - k)
        return values[k] + (values[k + 1] - values[k]) * f

    @staticmethod
    def _along(points: list[QPointF], t: float) -> QPointF:
        k = min(int(t), len(points) - 2)
        f = min(1.0, t - k)
        a, b = points[k], points[k + 1]
        return QPointF(a.x() + (b.x() - a.x()) * f, a.y() + (b.y() - a.y()) * f)

    def _advance_animation(self) -> None:
        if not self._queue:
            self._frame.stop()
            return
        car, pts, _lengths = self._queue[0]
        if self._clock.elapsed() >= self.anim_ms * (len(pts) - 1):
            self._queue.pop(0)
            sid = self.positions.get(car)
            still_queued = any(c == car for c, _, _ in self._queue)
            self._shown[car] = pts[-1] if still_queued else (self.centre(sid) if sid else None)
            self._clock.restart()
        self.update()

    def _paint_places(self, painter: QPainter) -> None:
        painter.fillRect(QRectF(0, 0, self.width(), PLACES_H), QColor("#1b1e23"))
        box = 84 if self.place_notes else 70
        x = MARGIN
        if self.places_title:
            painter.setPen(QColor("#dfe3ea"))
            painter.drawText(
                QRectF(x, 0, 150, PLACES_H), Qt.AlignmentFlag.AlignVCenter, self.places_title
            )
            x += 150
        for k in range(self.places_total):
            r = QRectF(x + k * (box + 6), 6, box, PLACES_H - 12)
            car = self.places[k] if k < len(self.places) else None
            painter.setPen(QPen(QColor("#5b6068"), 1))
            painter.setBrush(car_colour(car) if car else QColor("#2b2f36"))
            painter.drawRoundedRect(r, 5, 5)
            painter.setPen(ink(car) if car else QColor("#8b929c"))
            text = ordinal(k + 1)
            if car:
                text += " " + car
                if car in self.place_notes:
                    text += "\n" + self.place_notes[car]
            painter.drawText(r, Qt.AlignmentFlag.AlignCenter, text)

    # -- clicks -----------------------------------------------------------------------
    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            sid = self.space_at(event.position())
            if sid is not None:
                self.spaceClicked.emit(sid)
                return
        super().mousePressEvent(event)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        sid = self.space_at(event.position())
        clickable = sid is not None and (sid in self.lit or sid in self.marked)
        self.setCursor(
            Qt.CursorShape.PointingHandCursor if clickable else Qt.CursorShape.ArrowCursor
        )
        super().mouseMoveEvent(event)
