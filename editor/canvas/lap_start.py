"""The lap start marker: a green bar across a closed circuit where a lap begins.

The lap start is the first point of the racing line (docs/glossary.md). The
marker is drawn across every lane there, with an arrow in the driving
direction; it is never printed. It follows the document's signals; the select
tool drags it (``show_preview`` while dragging), and the command that moves it
re-orders the racing line.
"""

from __future__ import annotations

import math
from itertools import chain

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt, QTimer
from PySide6.QtGui import (
    QBrush,
    QColor,
    QPainter,
    QPainterPath,
    QPen,
    QPolygonF,
)
from PySide6.QtWidgets import QStyleOptionGraphicsItem, QWidget

from trackside.editor.canvas.items import Z_LINE, BoundedItem, NameTag
from trackside.editor.document.track_document import TrackDocument
from trackside.engine.track.model import Point, Track

COLOUR = QColor("#13b86b")
TIP = (
    "Lap start: where a lap of a closed circuit begins and ends (the first point of the "
    "racing line). Drag it with the Select tool, or right-click a space and choose "
    "Set Lap Start Here."
)
ON_EDGE_MM = 1.0  # corners this close to the bar lie on it
LANE_GAP_MM = 40.0  # corners further apart along the bar belong to another stretch of track
HALF_WIDTH_MM = 20.0  # the bar's half length where no space edge lies on it
HIT_PIXELS = 6.0


def track_span(corners: np.ndarray, at: Point, normal: Point) -> tuple[float, float]:
    """How far the track reaches each way across ``at`` along ``normal`` (mm): the
    space corners on that line, in one run from the racing line outwards."""
    if len(corners) == 0:
        return -HALF_WIDTH_MM, HALF_WIDTH_MM
    rel = corners - np.array(at)
    across = rel @ np.array(normal)
    along = rel @ np.array((-normal[1], normal[0]))
    on = np.sort(across[np.abs(along) <= ON_EDGE_MM])
    if len(on) == 0:
        return -HALF_WIDTH_MM, HALF_WIDTH_MM
    low = high = int(np.argmin(np.abs(on)))
    while low > 0 and on[low] - on[low - 1] <= LANE_GAP_MM:
        low -= 1
    while high < len(on) - 1 and on[high + 1] - on[high] <= LANE_GAP_MM:
        high += 1
    lo, hi = float(min(on[low], 0.0)), float(max(on[high], 0.0))
    if hi - lo < 1.0:
        return -HALF_WIDTH_MM, HALF_WIDTH_MM
    return lo, hi


def lap_start_place(track: Track) -> tuple[Point, Point, Point] | None:
    """Where ``track``'s lap starts: the first point of its racing line, the driving
    direction there and the unit vector across the track; None on an open circuit."""
    cl = track.centerline
    pts = cl.points
    if not cl.closed or len(pts) < 3:
        return None
    first, second, last = pts[0], pts[1], pts[-1]
    dx, dy = float(second[0]) - float(last[0]), float(second[1]) - float(last[1])
    norm = math.hypot(dx, dy) or 1.0
    return (float(first[0]), float(first[1])), (dx / norm, dy / norm), (dy / norm, -dx / norm)


def bar_ends(track: Track, at: Point, normal: Point) -> tuple[Point, Point]:
    """The ends of a bar across ``track`` at ``at`` along ``normal``, spanning its lanes."""
    spaces = track.spaces
    flat = chain.from_iterable(chain.from_iterable(sp.corners for sp in spaces))
    count = 2 * sum(len(sp.corners) for sp in spaces)
    corners = np.fromiter(flat, dtype=float, count=count).reshape(-1, 2)
    lo, hi = track_span(corners, at, normal)
    return (
        (at[0] + lo * normal[0], at[1] + lo * normal[1]),
        (at[0] + hi * normal[0], at[1] + hi * normal[1]),
    )


class LapStartItem(BoundedItem):
    """The lap start of the document's track (hidden on a point-to-point track)."""

    def __init__(self, doc: TrackDocument, owner=None):
        super().__init__()
        self.doc = doc
        self.setZValue(Z_LINE + 1)
        self.setToolTip(TIP)
        self.setAcceptHoverEvents(True)
        self.ends: tuple[Point, Point] | None = None
        self.direction: Point = (1.0, 0.0)
        self.label = NameTag("Lap start", COLOUR.darker(115), self)
        self.label.setToolTip(TIP)
        self._previewing = False
        self._timer = QTimer(owner)
        self._timer.setSingleShot(True)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self.refresh)
        # Many signals in one edit: refresh once. Spaces edited in place (moves, nudges)
        # do not move the lap start, so only these signals redraw it.
        doc.centerlineChanged.connect(self._timer.start)
        doc.trackReplaced.connect(self._timer.start)
        doc.spaceAdded.connect(self._timer.start)
        doc.spaceRemoved.connect(self._timer.start)
        self.refresh()

    # -- where it is -----------------------------------------------------------
    def refresh(self) -> None:
        """Put the marker on the first point of the racing line (hidden when open)."""
        if self._previewing:
            return
        place = lap_start_place(self.doc.track)
        if place is None:
            self._place(None, (1.0, 0.0), (0.0, 1.0))
            return
        self._place(*place)

    def show_preview(self, at: Point, normal: Point) -> None:
        """Show the marker at ``at`` (while it is dragged), until ``end_preview``."""
        self._previewing = True
        self._place(at, (-normal[1], normal[0]), normal)

    def end_preview(self) -> None:
        """Back to where the document says the lap starts."""
        self._previewing = False
        self.refresh()

    def _place(self, at: Point | None, direction: Point, normal: Point) -> None:
        if at is None:
            self.ends = None
            self.set_bounds(QRectF())
            self.setVisible(False)
            return
        self.ends = bar_ends(self.doc.track, at, normal)
        self.direction = direction
        self.set_bounds(self._extent())
        # Beyond the kerb (mm) and then a few pixels more: a gap in mm alone shrank to
        # nothing zoomed out, and the tag, its size fixed on screen, lay over the track.
        outer = self.ends[1]
        self.label.setPos(QPointF(outer[0] + 6 * normal[0], outer[1] + 6 * normal[1]))
        self.label.set_away(normal)
        self.setVisible(True)

    def hit(self, pos: QPointF, pixel_mm: float) -> bool:
        """True when ``pos`` (mm) is on the marker, within a few screen pixels."""
        if self.ends is None or not self.isVisible():
            return False
        (ax, ay), (bx, by) = self.ends
        dx, dy = bx - ax, by - ay
        den = dx * dx + dy * dy
        along = (pos.x() - ax) * dx + (pos.y() - ay) * dy
        t = 0.0 if den == 0 else max(0.0, min(1.0, along / den))
        gap = math.hypot(ax + t * dx - pos.x(), ay + t * dy - pos.y())
        return gap <= HIT_PIXELS * pixel_mm

    # -- painting ----------------------------------------------------------------
    def _arrow(self) -> QPolygonF:
        assert self.ends is not None
        (ax, ay), (bx, by) = self.ends
        mx, my = (ax + bx) / 2, (ay + by) / 2
        size = max(4.0, min(12.0, math.hypot(bx - ax, by - ay) / 6))
        ux, uy = self.direction
        nx, ny = -uy, ux
        return QPolygonF(
            [
                QPointF(mx + ux * size * 1.6, my + uy * size * 1.6),
                QPointF(mx + nx * size * 0.7, my + ny * size * 0.7),
                QPointF(mx - nx * size * 0.7, my - ny * size * 0.7),
            ]
        )

    def _extent(self) -> QRectF:
        """What ``paint`` covers: the bar and the arrow, with room for the pens."""
        if self.ends is None:
            return QRectF()
        poly = self._arrow()
        for x, y in self.ends:
            poly.append(QPointF(x, y))
        return poly.boundingRect().adjusted(-4, -4, 4, 4)

    def shape(self) -> QPainterPath:
        path = QPainterPath()
        if self.ends is not None:
            path.addPolygon(self._arrow())
        return path

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        if self.ends is None:
            return
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        a, b = (QPointF(*self.ends[0]), QPointF(*self.ends[1]))
        for colour, width in ((QColor("#ffffff"), 8.0), (COLOUR, 5.0)):
            pen = QPen(colour, width, Qt.PenStyle.SolidLine, Qt.PenCapStyle.FlatCap)
            pen.setCosmetic(True)
            painter.setPen(pen)
            painter.drawLine(a, b)
        outline = QPen(QColor("#ffffff"), 1.5)
        outline.setCosmetic(True)
        painter.setPen(outline)
        painter.setBrush(QBrush(COLOUR))
        painter.drawPolygon(self._arrow())
