"""Scene items: one per space, one per line, the racing line and the tarmac.

Items paint through ``editor.canvas.painting`` so the canvas looks like the printed
board; they hold no track data of their own and read the document each time
they paint. The scene creates, updates and removes them from the document's
signals.
"""

from __future__ import annotations

import contextlib
import copy
import functools
import math

from PySide6.QtCore import (
    QCoreApplication,
    QObject,
    QPointF,
    QRectF,
    QRunnable,
    Qt,
    QThreadPool,
    Signal,
)
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QFontMetricsF,
    QPainter,
    QPainterPath,
    QPainterPathStroker,
    QPen,
    QPolygonF,
)
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsRectItem,
    QStyleOptionGraphicsItem,
    QWidget,
)

from trackside.editor.canvas import painting
from trackside.editor.document.track_document import TrackDocument, is_unset
from trackside.engine.track.geometry import FINISH, is_rectangle
from trackside.engine.track.model import Space

SELECTION = QColor("#2f8cff")
HOVER = QColor("#8ec5ff")
PROBLEM = QColor("#ff4d4d")
POINTED = QColor("#ffcf40")  # shown for a moment (a hint, new spaces), not selected

Z_SURFACE, Z_SPACE, Z_RACING, Z_LINE, Z_OVERLAY = -20, 0, 5, 10, 50


def cosmetic_pen(colour: QColor | str, width: float = 1.5, style=Qt.PenStyle.SolidLine) -> QPen:
    """A pen whose width is in screen pixels whatever the zoom."""
    pen = QPen(QColor(colour), width, style)
    pen.setCosmetic(True)
    return pen


def points_rect(points, margin: float) -> QRectF:
    """The rectangle round ``points`` (x, y pairs), widened by ``margin`` on every side;
    empty for no points."""
    if not points:
        return QRectF()
    poly = QPolygonF([QPointF(float(x), float(y)) for x, y in points])
    return poly.boundingRect().adjusted(-margin, -margin, margin, margin)


class BoundedItem(QGraphicsItem):
    """An item that draws within a rectangle worked out when what it shows changes.

    ``boundingRect`` answers with the kept rectangle (Qt asks it on every repaint, so it
    is not worked out then); ``set_bounds`` replaces it and repaints the area the item
    leaves and the area it takes.
    """

    def __init__(self, parent: QGraphicsItem | None = None):
        super().__init__(parent)
        self._bounds = QRectF()

    def set_bounds(self, rect: QRectF) -> None:
        """Draw within ``rect`` from now on."""
        self.prepareGeometryChange()
        self._bounds = rect
        self.update()

    def boundingRect(self) -> QRectF:
        return self._bounds


class _SurfaceJob(QRunnable):
    """Builds a surface from a copy of the corners on a worker thread."""

    def __init__(self, generation: int, corners: list[list[tuple[float, float]]], relay: _Relay):
        super().__init__()
        self.generation, self.corners, self.relay = generation, corners, relay

    def run(self) -> None:
        try:
            surface: painting.Surface | None = painting.surface_of(self.corners)
        except Exception:  # a hostile shape: the next edit (or flush) tries again
            surface = None
        with contextlib.suppress(RuntimeError):  # the item is gone: nobody waits
            self.relay.built.emit(self.generation, surface)


class _Relay(QObject):
    built = Signal(int, object)


@functools.cache
def _tarmac_pool() -> QThreadPool:
    """The one worker thread that builds tarmac for every scene, made on first use."""
    pool = QThreadPool()
    pool.setMaxThreadCount(1)
    return pool


class SurfaceItem(BoundedItem):
    """The tarmac, run-off and kerbs under all spaces, rebuilt when spaces change.

    After an edit the tarmac is rebuilt on a worker thread (``refresh_later``):
    the spaces move at once and the tarmac follows when it is ready, so a
    large circuit never holds the pointer up. A result made from corners that
    have changed since is dropped.
    """

    def __init__(self, doc: TrackDocument):
        super().__init__()
        self.doc = doc
        self.setZValue(Z_SURFACE)
        # The tarmac's picture of the visible part is kept: small repaints (hover, drag)
        # blit it instead of filling and clipping the whole track's paths again.
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        self._surface: painting.Surface | None = None
        self._generation = 0
        self._shown = 0  # the generation on screen
        # One pool for every scene, alive as long as the program: a scene collected while
        # a rebuild runs neither waits for it nor deletes the pool under it (that crashed
        # a test process now and then). The relay is held by this item and by each job,
        # so a job that ends after the scene is gone reports to a live object, ignored.
        self._pool = _tarmac_pool()
        self._relay = _Relay()
        self._relay.built.connect(self._built)
        self.refresh()

    def refresh(self) -> None:
        """Recompute the surface from the document's spaces, now."""
        self._generation += 1
        self._show(painting.track_surface(self.doc.track))
        self._shown = self._generation

    def replace_later(self) -> None:
        """For a new track: no tarmac until the worker has built it (see ``refresh_later``)."""
        self._surface = None
        self.set_bounds(QRectF())
        self.refresh_later()

    def refresh_later(self) -> None:
        """Recompute the surface on a worker thread; shown when done (unless stale)."""
        self._generation += 1
        corners = [list(sp.corners) for sp in self.doc.track.spaces]
        self._pool.start(_SurfaceJob(self._generation, corners, self._relay))

    def wait(self) -> None:
        """Block until a background rebuild has been shown (scripts and tests)."""
        self._pool.waitForDone()
        QCoreApplication.sendPostedEvents()

    @property
    def pending(self) -> bool:
        """True while a background rebuild has not been shown yet."""
        return self._shown != self._generation

    def _built(self, generation: int, surface: painting.Surface | None) -> None:
        if generation == self._generation and surface is not None:
            with contextlib.suppress(RuntimeError):  # the scene (and this item) went meanwhile
                self._show(surface)
                self._shown = generation

    def _show(self, surface: painting.Surface) -> None:
        self._surface = surface
        x0, y0, x1, y1 = surface.bounds
        self.set_bounds(QRectF(x0, y0, x1 - x0, y1 - y0).adjusted(-5, -5, 5, 5))

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        if self._surface is not None:
            painting.paint_surface(painter, self._surface)


class SpaceItem(QGraphicsRectItem):
    """One space, drawn as on the board, with selection and problem highlights.

    A ``QGraphicsRectItem`` for its bounds alone: the rectangle (the space's extent and a
    margin, no pen) is its ``boundingRect``, answered by Qt itself. Qt asks each space in
    a repainted area for it several times; a Python ``boundingRect`` made every one of
    those asks a call into Python, which was most of repainting the whole board.
    """

    def __init__(self, doc: TrackDocument, space: Space):
        super().__init__()
        self.doc = doc
        # The Space object itself, not its place in the list: the item stays with its
        # space when spaces before it are deleted or put back.
        self._space = space
        self.grid_slot: int | None = None
        self.slot_id: str | None = None  # the id the grid slot was given for
        self.show_id = True
        self.problem = False
        self.pointed = False  # outlined to be seen, without being selected
        self.hovered = False
        self.setZValue(Z_SPACE)
        # Each space keeps its picture at the current zoom: a repaint of the whole board
        # (an overlay, the tarmac) blits pictures instead of drawing every space again.
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIsSelectable, True)
        self.setAcceptHoverEvents(True)
        self.setPen(Qt.PenStyle.NoPen)  # the bounds are the rectangle, not widened by a pen
        self._poly = QPolygonF()
        self._outline = QRectF()
        self._preview: Space | None = None
        self.refresh()

    @property
    def space(self) -> Space:
        """The engine ``Space`` this item shows."""
        return self._space

    @property
    def index(self) -> int:
        """Where the item's space is in the track's list of spaces now."""
        return self.doc.position(self._space)

    def preview_corners(self, corners: list | None) -> None:
        """Draw the space with these corners until called with None (live feedback of a drag)."""
        if corners is None:
            self._preview = None
        else:
            self._preview = copy.copy(self.space)
            self._preview.corners = [tuple(c) for c in corners]
        self.refresh()

    def refresh(self) -> None:
        """Re-read the corners from the document."""
        self.prepareGeometryChange()
        space = self._preview or self.space
        self._poly = QPolygonF([QPointF(float(x), float(y)) for x, y in space.corners])
        self._outline = self._poly.boundingRect()
        self.setRect(self._outline.adjusted(-3, -3, 3, 3))
        self.rectangular = is_rectangle(space.corners)
        self.update()

    def polygon(self) -> QPolygonF:
        """The space's outline in mm."""
        return QPolygonF(self._poly)

    def outline_rect(self) -> QRectF:
        """The extent of the space's outline in mm (``polygon().boundingRect()``)."""
        return QRectF(self._outline)

    def shape(self) -> QPainterPath:
        path = QPainterPath()
        path.addPolygon(self._poly)
        path.closeSubpath()
        return path

    def hoverEnterEvent(self, event) -> None:
        self.hovered = True
        self.update()

    def hoverLeaveEvent(self, event) -> None:
        self.hovered = False
        self.update()

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        if self._poly.size() < 3:
            painter.setPen(cosmetic_pen(PROBLEM, 2))
            painter.drawPolyline(self._poly)
            return
        try:
            painting.paint_space(
                painter,
                self._preview or self.space,
                rectangular=self.rectangular,
                grid_slot=self.grid_slot,
                show_id=self.show_id,
                pixels_per_mm=QStyleOptionGraphicsItem.levelOfDetailFromTransform(
                    painter.worldTransform()
                ),
            )
        except Exception:  # a hostile polygon must never break painting
            painter.setPen(cosmetic_pen(PROBLEM, 2))
            painter.drawPolygon(self._poly)
        if self.problem:  # a tint and a solid edge: dashes would read as the red kerbs
            painter.setBrush(QBrush(QColor(229, 72, 77, 70)))
            painter.setPen(cosmetic_pen(PROBLEM, 2.5))
            painter.drawPolygon(self._poly)
        if self.isSelected():
            painter.setBrush(QBrush(QColor(47, 140, 255, 60)))
            painter.setPen(cosmetic_pen(SELECTION, 2.5))
            painter.drawPolygon(self._poly)
        elif self.pointed:
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.setPen(cosmetic_pen(POINTED, 2.5, Qt.PenStyle.DashLine))
            painter.drawPolygon(self._poly)
        elif self.hovered:
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.setPen(cosmetic_pen(HOVER, 1.5))
            painter.drawPolygon(self._poly)


class LineItem(QGraphicsItem):
    """A betting line (k = 0-2, numbered 1-3) or the chequered finish line (k = 3)."""

    def __init__(self, doc: TrackDocument, k: int):
        super().__init__()
        self.doc = doc
        self.k = k
        self.problem = False
        self.setZValue(Z_LINE)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIsSelectable, True)
        self._path = QPainterPath()
        self.refresh()

    @property
    def segment(self):
        """The line's two end points in mm."""
        return self.doc.lines()[self.k]

    def refresh(self) -> None:
        """Re-read the segment from the document."""
        self.prepareGeometryChange()
        seg = self.segment
        path = QPainterPath()
        if not is_unset(seg):
            path.moveTo(float(seg[0][0]), float(seg[0][1]))
            path.lineTo(float(seg[1][0]), float(seg[1][1]))
        stroker = QPainterPathStroker()
        stroker.setWidth(6.0)
        self._path = stroker.createStroke(path) if not path.isEmpty() else QPainterPath()
        self.setVisible(not is_unset(seg))
        self.update()

    @property
    def badges(self) -> painting.Badges | None:
        """Where this betting line's numbered badges go, clear of the earlier lines'
        (None for the finish or a line not placed)."""
        if self.k == FINISH:
            return None
        return painting.badge_places(self.doc.lines())[self.k]

    def badge_rects(self) -> list[QRectF]:
        """What the badges cover (mm, scene coordinates)."""
        return [painting.badge_box(c) for c in self.badges or ()]

    def boundingRect(self) -> QRectF:
        r = painting.DEFAULT_STYLE.badge_radius * 2 + 3
        rect = self._path.boundingRect().adjusted(-r, -r, r, r)
        for badge in self.badge_rects():
            rect = rect.united(badge.adjusted(-1, -1, 1, 1))
        return rect

    def shape(self) -> QPainterPath:
        return self._path

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        painting.paint_line(painter, self.segment, self.k, badges=self.badges)
        if self.problem or self.isSelected():
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.setPen(
                cosmetic_pen(SELECTION if self.isSelected() else PROBLEM, 2, Qt.PenStyle.DashLine)
            )
            painter.drawPath(self._path)


class RacingLineItem(BoundedItem):
    """The racing line (centerline) with arrows in the driving direction."""

    def __init__(self, doc: TrackDocument):
        super().__init__()
        self.doc = doc
        self.setZValue(Z_RACING)
        self.refresh()

    def refresh(self) -> None:
        """Re-read the centerline from the document."""
        self.set_bounds(points_rect(self.doc.track.centerline.points, 6))

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        cl = self.doc.track.centerline
        painting.paint_racing_line(painter, cl.points, cl.closed)


class SnapMarker(QGraphicsItem):
    """A small screen-sized marker where the cursor snapped, shaped by snap kind."""

    SIZE = 7.0

    def __init__(self):
        super().__init__()
        self.kind = "grid"
        self.setZValue(Z_OVERLAY + 10)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations, True)
        self.setVisible(False)

    def show_at(self, pos: QPointF, kind: str) -> None:
        """Show the marker at ``pos`` for a snap of this kind (grid, corner, edge, racing)."""
        self.kind = kind
        self.setPos(pos)
        self.setVisible(True)
        self.update()

    def boundingRect(self) -> QRectF:
        s = self.SIZE + 2
        return QRectF(-s, -s, 2 * s, 2 * s)

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        s = self.SIZE
        colour = {
            "corner": "#ff3df2",
            "edge": "#00e0ff",
            "racing": "#ff9a3c",
            "grid": "#ffffff",
        }.get(self.kind, "#ffffff")
        painter.setPen(QPen(QColor("#101010"), 3))
        self._mark(painter, s)
        painter.setPen(QPen(QColor(colour), 1.5))
        self._mark(painter, s)

    def _mark(self, painter: QPainter, s: float) -> None:
        painter.setBrush(Qt.BrushStyle.NoBrush)
        if self.kind == "corner":
            painter.drawRect(QRectF(-s / 1.4, -s / 1.4, 2 * s / 1.4, 2 * s / 1.4))
        elif self.kind == "edge":
            painter.drawPolygon(
                QPolygonF([QPointF(0, -s), QPointF(s, 0), QPointF(0, s), QPointF(-s, 0)])
            )
        elif self.kind == "racing":
            painter.drawEllipse(QPointF(0, 0), s * 0.8, s * 0.8)
        else:
            painter.drawLine(QPointF(-s, 0), QPointF(s, 0))
            painter.drawLine(QPointF(0, -s), QPointF(0, s))


class NameTag(QGraphicsItem):
    """A small name tag in ``colour``, the same size on screen at any zoom: centred on its
    place, or, given a direction ``away`` (a unit vector), lying just beyond its place
    that way (a tag at the end of a line, clear of it)."""

    GAP_PX = 4.0

    def __init__(
        self,
        text: str,
        colour: QColor,
        parent: QGraphicsItem | None = None,
        away: tuple[float, float] = (0.0, 0.0),
    ):
        super().__init__(parent)
        self.text = text
        self.colour = QColor(colour)
        self.font = QFont()
        self.font.setBold(True)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations, True)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        # Measured once: an item that ignores the zoom is asked for its bounds on every
        # repaint of the canvas, wherever it is (the scene's index cannot place it).
        metrics = QFontMetricsF(self.font)
        self._size = (metrics.horizontalAdvance(self.text) + 12, metrics.height() + 4)
        self._rect = self.rect_towards(away)

    def rect_towards(self, away: tuple[float, float], beyond: float = 0.0) -> QRectF:
        """Where the tag would lie (screen pixels around its place) given ``away``,
        ``beyond`` pixels further out that way."""
        w, h = self._size
        ux, uy = away
        reach = [(w / 2 + self.GAP_PX) / abs(ux)] if ux else []
        reach += [(h / 2 + self.GAP_PX) / abs(uy)] if uy else []
        t = min(reach, default=0.0) + (beyond if ux or uy else 0.0)
        return QRectF(t * ux - w / 2, t * uy - h / 2, w, h)

    def set_away(self, away: tuple[float, float], beyond: float = 0.0) -> None:
        """Lie as ``rect_towards`` says."""
        self.prepareGeometryChange()
        self._rect = self.rect_towards(away, beyond)

    def boundingRect(self) -> QRectF:
        return QRectF(self._rect)

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        rect = self.boundingRect()
        painter.setPen(QPen(QColor("#ffffff"), 1.2))
        painter.setBrush(QBrush(self.colour))
        painter.drawRoundedRect(rect, rect.height() / 2, rect.height() / 2)
        painter.setFont(self.font)
        painter.setPen(QColor("#ffffff"))
        painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, self.text)


def arrow_polygon(a: QPointF, b: QPointF, size: float) -> QPolygonF:
    """A small arrow head at ``b`` pointing away from ``a`` (for tool previews)."""
    angle = math.atan2(b.y() - a.y(), b.x() - a.x())
    left = QPointF(b.x() - size * math.cos(angle - 0.45), b.y() - size * math.sin(angle - 0.45))
    right = QPointF(b.x() - size * math.cos(angle + 0.45), b.y() - size * math.sin(angle + 0.45))
    return QPolygonF([b, left, right])
