"""How a track looks: one style and the functions that paint it with QPainter.

Everything is painted in track coordinates: millimetres, **x to the right and
y down** (the convention of SVG and Qt; track files use it too, see
``docs/track-format.md``). A caller maps millimetres to its device by setting
the painter's transform (a scene, an image at some dpi, a PDF page), so the
same functions serve the editor's scene items, the board view of play mode and
the PNG/SVG/PDF renderer.

Building blocks, each usable on its own (``style`` defaults to ``DEFAULT_STYLE``):

- ``paint_grass(painter, rect)``: the board's background;
- ``paint_surface(painter, surface)``: run-off, white edge line and red and
  white kerbs on curves, from ``track_surface(track)`` (costly: cache it per
  track and rebuild when spaces change);
- ``paint_space(painter, space, rectangular=, grid_slot=, show_id=, fill=)``:
  one space: lane shade, outline, the inner frame of a rectangular space
  (Determined, R-POW-DET), danger hatching, grid number (pole ringed), label, id;
- ``paint_line(painter, segment, k, badges=)``: betting line k (0-2, numbered
  1-3) or the chequered finish (k = 3); ``badge_places(lines)`` puts the betting
  lines' badges where no two overlap;
- ``paint_racing_line(painter, points, closed)``, ``paint_label(painter, label)``,
  ``draw_text``;
- ``paint_track(painter, track, show_ids=, show_racing_line=, surface=,
  background=)``: all of it in board order; ``board_bounds(track)`` is its extent;
- ``space_text_box``, ``badge_boxes``: what a space's texts and the betting lines'
  badges cover, for marks drawn over the board to keep clear of.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

import numpy as np
import shapely
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter, QPainterPath, QPen, QPolygonF
from shapely.geometry import LineString, MultiPolygon, Polygon

from trackside.engine.track.geometry import FINISH, is_rectangle
from trackside.engine.track.model import Label, Point, Segment, Space, Track


@dataclass(frozen=True)
class BoardStyle:
    """Colours and sizes (mm) of a printed board; vary it with ``dataclasses.replace``."""

    grass: str = "#6c9a4f"
    grass_dark: str = "#618d46"
    runoff: str = "#d8d2c0"
    edge: str = "#f4f4f0"
    kerb_a: str = "#c8352b"
    kerb_b: str = "#f4f4f0"
    lane_fills: tuple[str, ...] = ("#4b4f55", "#5b6068")
    space_outline: str = "#eeeeea"
    rect_mark: str = "#7d838c"
    danger: str = "#d9472b"
    grid_number: str = "#ffffff"
    pole: str = "#f2c230"
    betting: str = "#f2c230"
    betting_text: str = "#222222"
    finish_dark: str = "#1b1b1b"
    finish_light: str = "#fafafa"
    racing_line: str = "#ff9a3c"
    id_text: str = "#d9dce0"
    label_text: str = "#ffffff"
    label_halo: str = "#2b3a22"
    bar_frame: str = "#2b3a22"  # the scale bar's outline: dark on grass and on paper
    font_family: str = "DejaVu Sans"

    runoff_width: float = 7.0
    edge_width: float = 1.0
    kerb_width: float = 3.2
    kerb_stripe: float = 5.0
    outline_width: float = 0.5
    rect_inset: float = 2.2
    rect_mark_width: float = 0.35
    line_width: float = 1.6
    finish_square: float = 3.5
    badge_radius: float = 4.2
    racing_line_width: float = 0.9
    id_height: float = 2.6
    label_height: float = 8.0
    title_gap: float = 6.0
    title_height: float = 14.0
    subtitle_height: float = 4.2

    def lane_colour(self, lane: int) -> QColor:
        """Fill of a space in this lane: lanes alternate in shade."""
        return QColor(self.lane_fills[lane % len(self.lane_fills)])

    def on_white(self) -> BoardStyle:
        """This style for a board printed without its grass: the name plate and labels,
        white letters ringed in dark green to stand on grass, become dark green letters
        ringed in white, which read on white paper and on the tarmac alike."""
        return replace(self, label_text=self.label_halo, label_halo="#ffffff")


DEFAULT_STYLE = BoardStyle()

# On screen, texts shorter and rectangle marks closer to the edge than this are left out.
MIN_TEXT_PX, MIN_MARK_PX = 2.0, 1.0


# -- surface: the tarmac outline, run-off and kerbs ---------------------------


@dataclass
class Surface:
    """The tarmac (union of all spaces) and the ring runs that curve (for kerbs)."""

    tarmac: QPainterPath
    runoff: QPainterPath
    kerb_runs: list[QPolygonF]
    bounds: tuple[float, float, float, float]  # x0, y0, x1, y1 of the run-off, mm


def track_surface(track: Track, style: BoardStyle = DEFAULT_STYLE) -> Surface:
    """The tarmac outline and where kerbs go; costly, so cache it per track."""
    return surface_of([sp.corners for sp in track.spaces], style)


def surface_of(
    corners: Sequence[Sequence[tuple[float, float]]], style: BoardStyle = DEFAULT_STYLE
) -> Surface:
    """``track_surface`` from the spaces' corners alone (safe to run off the UI thread)."""
    polys = [p for p in (_shapely_polygon(c) for c in corners) if p is not None]
    if not polys:
        return Surface(QPainterPath(), QPainterPath(), [], (0.0, 0.0, 0.0, 0.0))
    # Closing (grow then shrink) seals the hairline gaps between neighbouring spaces.
    seal = 0.6
    tarmac = shapely.union_all([p.buffer(seal, join_style="mitre") for p in polys]).buffer(
        -seal, join_style="mitre"
    )
    if tarmac.is_empty:  # spaces thinner than the seal: closing would erase them all
        tarmac = shapely.union_all(polys)
    runoff = tarmac.buffer(style.runoff_width, quad_segs=8)
    rings = [ring for poly in _polygons(tarmac) for ring in (poly.exterior, *poly.interiors)]
    runs = [run for ring in rings for run in _curved_runs(ring)]
    x0, y0, x1, y1 = runoff.bounds if not runoff.is_empty else (0.0, 0.0, 0.0, 0.0)
    return Surface(_path(tarmac), _path(runoff), runs, (x0, y0, x1, y1))


def paint_surface(painter: QPainter, surface: Surface, style: BoardStyle = DEFAULT_STYLE) -> None:
    """Run-off around the tarmac, the white edge line, and red and white kerbs on curves."""
    painter.save()
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(QColor(style.runoff))
    painter.drawPath(surface.runoff)
    painter.setBrush(QColor(style.lane_fills[0]))
    painter.drawPath(surface.tarmac)
    # Kerbs and edge line lie outside the tarmac so they never hide a space.
    outside = surface.runoff.subtracted(surface.tarmac)
    painter.setClipPath(outside, Qt.ClipOperation.IntersectClip)
    painter.setBrush(Qt.BrushStyle.NoBrush)
    width = 2 * style.kerb_width
    for run in surface.kerb_runs:
        painter.setPen(_pen(style.kerb_b, width, cap=Qt.PenCapStyle.FlatCap))
        painter.drawPolyline(run)
        stripes = _pen(style.kerb_a, width, cap=Qt.PenCapStyle.FlatCap)
        stripes.setDashPattern([style.kerb_stripe / width, style.kerb_stripe / width])
        painter.setPen(stripes)
        painter.drawPolyline(run)
    painter.setPen(_pen(style.edge, 2 * style.edge_width))
    painter.drawPath(surface.tarmac)
    painter.restore()


# -- spaces ---------------------------------------------------------------------


def paint_space(
    painter: QPainter,
    space: Space,
    style: BoardStyle = DEFAULT_STYLE,
    *,
    rectangular: bool | None = None,
    grid_slot: int | None = None,
    show_id: bool = False,
    fill: QColor | None = None,
    pixels_per_mm: float | None = None,
) -> None:
    """One space: shaded by lane, outlined, marked if rectangular (R-POW-DET).

    ``grid_slot`` (1-6) prints the start position, 1 being the pole;
    ``fill`` overrides the lane shade (e.g. for a selection highlight).
    ``pixels_per_mm`` (on screen) leaves out what would be under a pixel or two
    there (texts, the rectangle mark), so a whole large track paints quickly;
    prints and exports give none and get every detail.
    """
    poly = _qpolygon(space.corners)
    if rectangular is None:
        rectangular = is_rectangle(space.corners)
    painter.save()
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(fill if fill is not None else style.lane_colour(space.lane))
    painter.drawPolygon(poly)
    if space.kind == "danger":
        _paint_hatch(painter, poly, QColor(style.danger))
    texts, frame = True, rectangular
    if pixels_per_mm is not None:
        tallest = 14.0 if grid_slot is not None else 4.0 if space.label else style.id_height
        texts = (grid_slot is not None or bool(space.label) or show_id) and (
            tallest * pixels_per_mm >= MIN_TEXT_PX
        )
        frame = rectangular and style.rect_inset * pixels_per_mm >= MIN_MARK_PX
    layout = (
        _layout(tuple((float(x), float(y)) for x, y in space.corners), style.rect_inset)
        if texts or frame
        else None
    )
    if frame and layout is not None and layout.inner:
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.setPen(_pen(style.rect_mark, style.rect_mark_width, join=Qt.PenJoinStyle.MiterJoin))
        painter.drawPolygon(_qpolygon(layout.inner))
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.setPen(_pen(style.space_outline, style.outline_width, join=Qt.PenJoinStyle.MiterJoin))
    painter.drawPolygon(poly)
    if texts and layout is not None:
        _paint_space_texts(painter, space, layout, style, grid_slot, show_id)
    painter.restore()


def paint_space_texts(
    painter: QPainter,
    space: Space,
    style: BoardStyle = DEFAULT_STYLE,
    grid_slot: int | None = None,
    *,
    show_id: bool = False,
    pixels_per_mm: float | None = None,
) -> None:
    """The texts ``paint_space`` prints on a space with the same arguments (its grid
    number and pole ring, its label, its id), alone and in the same places, for what is
    drawn over the spaces (the heat map) to keep them readable."""
    tallest = 14.0 if grid_slot is not None else 4.0 if space.label else style.id_height
    if pixels_per_mm is not None and tallest * pixels_per_mm < MIN_TEXT_PX:
        return
    layout = _layout(tuple((float(x), float(y)) for x, y in space.corners), style.rect_inset)
    if layout is not None:
        painter.save()
        _paint_space_texts(painter, space, layout, style, grid_slot, show_id)
        painter.restore()


@dataclass(frozen=True)
class _Layout:
    """Where things go inside one space: the inset frame and the room for text."""

    inner: tuple[tuple[float, float], ...]
    centre: tuple[float, float]
    radius: float


@lru_cache(maxsize=8192)
def _layout(corners: tuple[tuple[float, float], ...], inset: float) -> _Layout | None:
    """Cached per corner list: the editor repaints the same spaces many times."""
    shape = _shapely_polygon(list(corners))
    if shape is None:
        return None
    inner = shape.buffer(-inset, join_style="mitre")
    frame: tuple = ()
    if not inner.is_empty and inner.geom_type == "Polygon":
        frame = tuple(inner.exterior.coords)[:-1]
    centre, radius = _inscribed(shape)
    return _Layout(frame, centre, radius)


def _paint_hatch(painter: QPainter, poly: QPolygonF, colour: QColor) -> None:
    """Diagonal warning stripes inside the polygon (a danger space)."""
    painter.save()
    clip = QPainterPath()
    clip.addPolygon(poly)
    painter.setClipPath(clip, Qt.ClipOperation.IntersectClip)
    box = poly.boundingRect()
    painter.setPen(_pen(colour, 1.6, cap=Qt.PenCapStyle.FlatCap))
    x = box.left() - box.height()
    while x < box.right():
        painter.drawLine(QPointF(x, box.bottom()), QPointF(x + box.height(), box.top()))
        x += 4.5
    painter.restore()


def _space_text_lines(
    space: Space, layout: _Layout, style: BoardStyle, grid_slot: int | None, show_id: bool
) -> list[tuple[str, float, QColor, bool, QPointF]]:
    """The texts printed on a space, top to bottom: each with its cap height, colour,
    boldness and centre."""
    centre, radius = QPointF(*layout.centre), layout.radius
    lines: list[tuple[str, float, QColor, bool]] = []
    if grid_slot is not None:
        lines.append((str(grid_slot), min(radius * 1.1, 14.0), QColor(style.grid_number), True))
    if space.label:
        lines.append((space.label, min(radius * 0.45, 4.0), QColor(style.grid_number), True))
    if show_id:
        lines.append((space.id, min(radius * 0.5, style.id_height), QColor(style.id_text), False))
    gap = [0.45 * max(a[1], b[1]) for a, b in itertools.pairwise(lines)]
    total = sum(h for _t, h, _c, _b in lines) + sum(gap)
    y = centre.y() - total / 2
    placed = []
    for k, (text, height, colour, bold) in enumerate(lines):
        placed.append((text, height, colour, bold, QPointF(centre.x(), y + height / 2)))
        y += height + (gap[k] if k < len(gap) else 0.0)
    return placed


def _paint_space_texts(
    painter: QPainter,
    space: Space,
    layout: _Layout,
    style: BoardStyle,
    grid_slot: int | None,
    show_id: bool,
) -> None:
    if grid_slot == 1:
        _paint_pole_ring(painter, QPointF(*layout.centre), layout.radius, style)
    for text, height, colour, bold, at in _space_text_lines(
        space, layout, style, grid_slot, show_id
    ):
        draw_text(painter, text, at, height, colour, bold=bold, family=style.font_family)


def space_text_box(
    space: Space,
    style: BoardStyle = DEFAULT_STYLE,
    grid_slot: int | None = None,
    *,
    show_id: bool = False,
) -> QRectF:
    """What ``paint_space`` prints on a space with the same arguments covers (mm): its
    texts, and the pole's ring; empty when it prints nothing."""
    layout = _layout(tuple((float(x), float(y)) for x, y in space.corners), style.rect_inset)
    box = QRectF()
    if layout is None:
        return box
    for text, height, _colour, bold, at in _space_text_lines(
        space, layout, style, grid_slot, show_id
    ):
        half_w = text_width(text, height, bold, style.font_family) / 2
        # draw_text sizes capitals: descenders and the glyphs' sides reach a little further
        box = box.united(QRectF(at.x() - half_w, at.y() - height * 0.75, 2 * half_w, height * 1.5))
    if grid_slot == 1:
        r = _pole_ring_radius(layout.radius)
        box = box.united(QRectF(layout.centre[0] - r, layout.centre[1] - r, 2 * r, 2 * r))
    return box


def _pole_ring_radius(radius: float) -> float:
    """The outer edge of the pole's ring in a space with room ``radius`` (mm), its pen
    included."""
    r = radius * 0.92
    return r + max(0.6, r * 0.1) / 2


def _paint_pole_ring(painter: QPainter, centre: QPointF, radius: float, style: BoardStyle) -> None:
    r = radius * 0.92
    painter.save()
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.setPen(_pen(style.pole, max(0.6, r * 0.1)))
    painter.drawEllipse(centre, r, r)
    painter.restore()


# -- lines ----------------------------------------------------------------------


Badges = tuple[QPointF, QPointF]  # the centres of a betting line's two numbered badges
BADGE_GAP = 0.5  # mm of board between two lines' badges, so each reads as its own


def paint_line(
    painter: QPainter,
    segment: Segment,
    index: int,
    style: BoardStyle = DEFAULT_STYLE,
    badges: Badges | None = None,
) -> None:
    """Betting line ``index`` 0-2 (numbered 1-3), its badges at ``badges`` (by default
    just beyond its ends: ``badge_places`` keeps them clear of the other lines'), or the
    chequered finish (index 3)."""
    a, b = QPointF(*map(float, segment[0])), QPointF(*map(float, segment[1]))
    length = math.hypot(b.x() - a.x(), b.y() - a.y())
    if length == 0:
        return
    if index == FINISH:
        _paint_finish(painter, a, b, length, style)
    else:
        badges = badges or _badge_centres(segment, style.badge_radius, [])
        if badges is not None:
            _paint_betting(painter, a, b, badges, index + 1, style)


def _badge_centres(segment: Segment, r: float, taken: list[QPointF]) -> Badges | None:
    """Where a line's two numbered badges go: just beyond each end, or further out along
    the line, a badge's width at a time, where a badge in ``taken`` is already."""
    a, b = QPointF(*map(float, segment[0])), QPointF(*map(float, segment[1]))
    length = math.hypot(b.x() - a.x(), b.y() - a.y())
    if length == 0:
        return None
    ux, uy = (b.x() - a.x()) / length, (b.y() - a.y()) / length

    def beyond(end: QPointF, sign: float) -> QPointF:
        out = r + 0.5
        for _step in range(len(taken) + 1):
            centre = QPointF(end.x() + sign * ux * out, end.y() + sign * uy * out)
            if all(math.dist(_xy(centre), _xy(t)) >= 2 * r + BADGE_GAP for t in taken):
                break
            out += 2 * r + BADGE_GAP
        return centre

    return beyond(a, -1.0), beyond(b, 1.0)


def _xy(p: QPointF) -> tuple[float, float]:
    return p.x(), p.y()


def badge_places(
    lines: Sequence[Segment], style: BoardStyle = DEFAULT_STYLE
) -> list[Badges | None]:
    """The badges of each betting line in ``lines`` (the first three; None for one not
    placed): each line's clear of the badges of the lines before it, so two lines close
    together never print one number over the other."""
    taken: list[QPointF] = []
    places: list[Badges | None] = []
    for segment in lines[:FINISH]:
        badges = _badge_centres(segment, style.badge_radius, taken)
        places.append(badges)
        taken += badges or ()
    return places


def badge_boxes(lines: Sequence[Segment], style: BoardStyle = DEFAULT_STYLE) -> list[QRectF]:
    """What the numbered badges of the betting lines in ``lines`` cover (mm)."""
    return [badge_box(c, style) for badges in badge_places(lines, style) for c in badges or ()]


def badge_box(centre: QPointF, style: BoardStyle = DEFAULT_STYLE) -> QRectF:
    """What one numbered badge centred at ``centre`` covers (mm)."""
    r = style.badge_radius
    return QRectF(centre.x() - r, centre.y() - r, 2 * r, 2 * r)


def _paint_betting(
    painter: QPainter, a: QPointF, b: QPointF, badges: Badges, number: int, style: BoardStyle
) -> None:
    painter.save()
    painter.setPen(_pen("#1f1f1f", style.line_width + 0.7, cap=Qt.PenCapStyle.FlatCap))
    painter.drawLine(a, b)
    painter.setPen(_pen(style.betting, style.line_width, cap=Qt.PenCapStyle.FlatCap))
    painter.drawLine(a, b)
    r = style.badge_radius
    for centre in badges:
        painter.setPen(_pen("#1f1f1f", 0.5))
        painter.setBrush(QColor(style.betting))
        painter.drawEllipse(centre, r, r)
        draw_text(
            painter,
            str(number),
            centre,
            r * 1.25,
            QColor(style.betting_text),
            bold=True,
            family=style.font_family,
        )
    painter.restore()


def _paint_finish(
    painter: QPainter, a: QPointF, b: QPointF, length: float, style: BoardStyle
) -> None:
    count = max(2, round(length / style.finish_square))
    q = length / count
    angle = math.degrees(math.atan2(b.y() - a.y(), b.x() - a.x()))
    painter.save()
    painter.translate(a)
    painter.rotate(angle)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(QColor(style.finish_light))
    painter.drawRect(QRectF(0, -q, length, 2 * q))
    painter.setBrush(QColor(style.finish_dark))
    for i in range(count):
        for row in (0, 1):
            if (i + row) % 2 == 0:
                painter.drawRect(QRectF(i * q, -q + row * q, q, q))
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.setPen(_pen(style.finish_dark, 0.3))
    painter.drawRect(QRectF(0, -q, length, 2 * q))
    painter.restore()


# -- racing line, labels, text --------------------------------------------------


def paint_racing_line(
    painter: QPainter, points: list[Point], closed: bool, style: BoardStyle = DEFAULT_STYLE
) -> None:
    """The centerline, dashed, with arrows in the driving direction."""
    pts = [(float(x), float(y)) for x, y in points]
    if len(pts) < 2:
        return
    if closed and pts[0] != pts[-1]:
        pts.append(pts[0])
    painter.save()
    pen = _pen(style.racing_line, style.racing_line_width, cap=Qt.PenCapStyle.FlatCap)
    pen.setDashPattern([6.0, 4.0])
    painter.setPen(pen)
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.drawPolyline(QPolygonF([QPointF(x, y) for x, y in pts]))
    line = LineString(pts)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(QColor(style.racing_line))
    step = 120.0
    d = step / 2
    while d < line.length:
        p, q = line.interpolate(d), line.interpolate(min(line.length, d + 1.0))
        angle = math.degrees(math.atan2(q.y - p.y, q.x - p.x))
        painter.save()
        painter.translate(p.x, p.y)
        painter.rotate(angle)
        s = style.racing_line_width * 3.5
        painter.drawPolygon(
            QPolygonF([QPointF(s, 0), QPointF(-s, -s), QPointF(-s * 0.4, 0), QPointF(-s, s)])
        )
        painter.restore()
        d += step
    painter.restore()


def paint_label(painter: QPainter, label: Label, style: BoardStyle = DEFAULT_STYLE) -> None:
    """A label's text centred on its point; angle counter-clockwise as seen on the board."""
    height = float(label.size) if label.size is not None else style.label_height
    painter.save()
    painter.translate(float(label.at[0]), float(label.at[1]))
    if label.angle:
        painter.rotate(-float(label.angle))  # y is down, so a visible CCW turn is negative
    draw_text(
        painter,
        label.text,
        QPointF(0, 0),
        height,
        QColor(style.label_text),
        bold=True,
        family=style.font_family,
        halo=QColor(style.label_halo),
    )
    painter.restore()


_FONT_PX = 100  # text is laid out at this pixel size, then scaled to millimetres


def draw_text(
    painter: QPainter,
    text: str,
    centre: QPointF,
    height: float,
    colour: QColor,
    *,
    bold: bool = False,
    family: str = DEFAULT_STYLE.font_family,
    halo: QColor | None = None,
) -> None:
    """Text centred on ``centre`` whose capital letters are ``height`` mm tall."""
    if not text or height <= 0:
        return
    font = _font(family, bold)
    metrics = _metrics(family, bold)
    scale = height / metrics.capHeight()
    width = _advance(text, family, bold)
    painter.save()
    painter.translate(centre)
    painter.scale(scale, scale)
    origin = QPointF(-width / 2, metrics.capHeight() / 2)
    if halo is not None:
        path = QPainterPath()
        path.addText(origin, font, text)
        painter.setPen(_pen(halo, 0.18 * metrics.capHeight(), join=Qt.PenJoinStyle.RoundJoin))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawPath(path)
    painter.setFont(font)
    painter.setPen(colour)
    painter.drawText(origin, text)
    painter.restore()


def text_width(
    text: str, height: float, bold: bool = False, family: str = DEFAULT_STYLE.font_family
) -> float:
    """Width in mm of ``text`` drawn by ``draw_text`` at ``height``."""
    return _advance(text, family, bold) * height / _metrics(family, bold).capHeight()


_fonts: dict[tuple[str, bool], QFont] = {}
_font_metrics: dict[tuple[str, bool], QFontMetricsF] = {}


def _metrics(family: str, bold: bool) -> QFontMetricsF:
    """The metrics of ``_font(family, bold)``, made once."""
    key = (family, bold)
    if key not in _font_metrics:
        _font_metrics[key] = QFontMetricsF(_font(family, bold))
    return _font_metrics[key]


@lru_cache(maxsize=4096)
def _advance(text: str, family: str, bold: bool) -> float:
    """How far ``text`` reaches in ``_font(family, bold)`` (ids and numbers repeat)."""
    return _metrics(family, bold).horizontalAdvance(text)


def _font(family: str, bold: bool) -> QFont:
    key = (family, bold)
    if key not in _fonts:
        font = QFont(family)
        font.setPixelSize(_FONT_PX)
        font.setBold(bold)
        font.setHintingPreference(QFont.HintingPreference.PreferNoHinting)
        _fonts[key] = font
    return _fonts[key]


# -- the whole board -----------------------------------------------------------


def paint_track(
    painter: QPainter,
    track: Track,
    style: BoardStyle = DEFAULT_STYLE,
    *,
    show_ids: bool = False,
    show_racing_line: bool = False,
    surface: Surface | None = None,
    background: QRectF | None = None,
    title: bool = False,
) -> None:
    """The whole board: grass (over ``background``, if given), surface, spaces, grid, lines,
    labels, and with ``title`` a name plate and a 100 mm scale bar below the board."""
    surface = surface or track_surface(track, style)
    painter.save()
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    painter.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
    if background is not None:
        paint_grass(painter, background, style)
    if title:
        paint_title(painter, track, board_bounds(track, style, surface), style)
    paint_surface(painter, surface, style)
    slots = {sid: n for n, sid in enumerate(track.start_grid, 1)}
    for space in track.spaces:
        paint_space(painter, space, style, grid_slot=slots.get(space.id), show_id=show_ids)
        slots.pop(space.id, None)  # a repeated id is numbered once
    if show_racing_line:
        paint_racing_line(painter, track.centerline.points, track.centerline.closed, style)
    lines = [*list(track.betting_lines), track.finish_line]
    places = badge_places(lines, style)
    for k, seg in enumerate(lines):
        paint_line(painter, seg, k, style, places[k] if k < len(places) else None)
    for label in track.labels:
        paint_label(painter, label, style)
    painter.restore()


def paint_title(
    painter: QPainter,
    track: Track,
    board: tuple[float, float, float, float],
    style: BoardStyle = DEFAULT_STYLE,
) -> None:
    """The track's name and author (``_plate_subtitle``) below the board, and a 100 mm bar
    to check the scale.
    A name too long for the board's width is wrapped and, past two lines, cut short:
    the plate never makes the board wider."""
    plate = _title_plate(track, board, style)
    halo = QColor(style.label_halo)
    ink = QColor(style.label_text)
    x0 = board[0]
    for lines, height, bold in (
        (plate.name, style.title_height, True),
        (plate.subtitle, style.subtitle_height, False),
    ):
        for text, width, y in lines:
            centre = QPointF(x0 + width / 2, y)
            draw_text(
                painter, text, centre, height, ink, bold=bold, family=style.font_family, halo=halo
            )
    bar = plate.bar
    painter.save()
    painter.setPen(_pen(style.bar_frame, 0.3, join=Qt.PenJoinStyle.MiterJoin))
    for k in range(10):
        painter.setBrush(QColor(style.label_text if k % 2 else style.label_halo))
        painter.drawRect(QRectF(bar.left() + 10 * k, bar.top(), 10.0, bar.height()))
    painter.restore()
    draw_text(
        painter,
        "100 mm",
        QPointF(bar.center().x(), bar.top() - 3.2),
        2.6,
        ink,
        family=style.font_family,
        halo=halo,
    )


TITLE_LINES = 2  # lines of the name on the plate; a longer one ends in an ellipsis
SUBTITLE_LINES = 2
LINE_SPACING = 1.3  # baseline to baseline, in cap heights
BAR = 100.0  # mm: the scale bar beside or under the name
BAR_GAP = 12.0  # mm between the name and a bar beside it

PlateLine = tuple[str, float, float]  # text, width and centre y in mm


@dataclass
class _Plate:
    name: list[PlateLine]
    subtitle: list[PlateLine]
    bar: QRectF
    bottom: float
    right: float


def _title_plate(
    track: Track, board: tuple[float, float, float, float], style: BoardStyle
) -> _Plate:
    """Where the name plate goes: below the board, as wide as the board at most (or
    the bar); the bar beside the name when it fits on one line beside it, else under."""
    x0, _y0, x1, y1 = board
    subtitle = _plate_subtitle(track)
    family = style.font_family
    title_h, sub_h = style.title_height, style.subtitle_height
    name_w = text_width(track.name, title_h, bold=True, family=family)
    sub_w = text_width(subtitle, sub_h, family=family)
    beside = x1 - x0 >= max(name_w, sub_w) + BAR_GAP + BAR
    room = max(x1 - x0, BAR)
    names = wrap_text(track.name, title_h, room, bold=True, family=family, lines=TITLE_LINES)
    subs = wrap_text(subtitle, sub_h, room, family=family, lines=SUBTITLE_LINES)
    top = y1 + style.title_gap
    name = [
        (text, text_width(text, title_h, bold=True, family=family), y)
        for text, y in _spaced(names, top + title_h / 2, title_h)
    ]
    # clear of the name's descenders
    sub_top = name[-1][2] + title_h + sub_h / 2 if name else top + sub_h / 2
    sub = [
        (text, text_width(text, sub_h, family=family), y)
        for text, y in _spaced(subs, sub_top, sub_h)
    ]
    bottom = (sub[-1][2] if sub else sub_top) + sub_h * 0.8
    if beside:
        bar = QRectF(x1 - BAR, sub[0][2] - 1.2 if sub else sub_top - 1.2, BAR, 2.4)
    else:
        bar = QRectF(x0, bottom + 5.0, BAR, 2.4)
        bottom = bar.bottom() + 0.5
    widest = max((width for _text, width, _y in [*name, *sub]), default=0.0)
    return _Plate(name, sub, bar, bottom, max(x0 + widest, bar.right()))


def _plate_subtitle(track: Track) -> str:
    """The line under the name on the plate: "by Trackside  ·  true scale 1:1", or
    the scale alone for a circuit with no author (a designer's copy of a bundled one
    is no more Trackside's than anyone's, and no author is known to name)."""
    scale = "true scale 1:1"
    return f"by {track.author}  ·  {scale}" if track.author else scale


def _spaced(lines: list[str], first: float, height: float) -> list[tuple[str, float]]:
    """Each line with the centre y of its capitals, ``LINE_SPACING`` cap heights apart."""
    return [(text, first + k * LINE_SPACING * height) for k, text in enumerate(lines)]


def wrap_text(
    text: str,
    height: float,
    room: float,
    *,
    bold: bool = False,
    family: str = DEFAULT_STYLE.font_family,
    lines: int = 1,
) -> list[str]:
    """``text`` in at most ``lines`` lines no wider than ``room`` mm at ``height``,
    broken between words (within a word too long for a line); the last line ends in
    an ellipsis when the text is cut short."""

    def fits(candidate: str) -> bool:
        return text_width(candidate, height, bold, family) <= room

    if fits(text):
        return [text] if text else []
    out: list[str] = []
    rest = " ".join(text.split())
    while rest and len(out) < lines:
        if fits(rest):
            out.append(rest)
            return out
        cut = _longest_fit(rest, fits)
        space = rest.rfind(" ", 0, cut + 1)
        end = space if space > 0 else max(cut, 1)
        out.append(rest[:end].rstrip())
        rest = rest[end:].lstrip()
    if rest and out:
        out[-1] = _elided(out[-1] + " " + rest, fits)
    return out


def _longest_fit(text: str, fits: Callable[[str], bool]) -> int:
    """The length of the longest start of ``text`` that fits (0 if none)."""
    lo, hi = 0, len(text)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if fits(text[:mid]):
            lo = mid
        else:
            hi = mid - 1
    return lo


def _elided(text: str, fits: Callable[[str], bool]) -> str:
    """``text`` cut short with an ellipsis so that it fits."""
    if fits(text):
        return text
    keep = _longest_fit(text, lambda start: fits(start.rstrip() + "…"))
    return text[:keep].rstrip() + "…"


def paint_grass(painter: QPainter, rect: QRectF, style: BoardStyle = DEFAULT_STYLE) -> None:
    """The board's background: grass mown in broad stripes."""
    painter.save()
    painter.setPen(Qt.PenStyle.NoPen)
    painter.fillRect(rect, QColor(style.grass))
    painter.setBrush(QColor(style.grass_dark))
    band = 40.0
    x = math.floor(rect.left() / (2 * band)) * 2 * band
    while x < rect.right():
        painter.drawRect(QRectF(x, rect.top(), band, rect.height()).intersected(rect))
        x += 2 * band
    painter.restore()


def board_bounds(
    track: Track,
    style: BoardStyle = DEFAULT_STYLE,
    surface: Surface | None = None,
    title: bool = False,
) -> tuple[float, float, float, float]:
    """The extent (x0, y0, x1, y1) in mm of everything ``paint_track`` draws."""
    if title:
        board = board_bounds(track, style, surface)
        plate = _title_plate(track, board, style)
        return (board[0], board[1], max(board[2], plate.right), plate.bottom)
    surface = surface or track_surface(track, style)
    xs: list[float] = []
    ys: list[float] = []
    if surface.bounds != (0.0, 0.0, 0.0, 0.0):
        xs += [surface.bounds[0], surface.bounds[2]]
        ys += [surface.bounds[1], surface.bounds[3]]
    reach = style.badge_radius * 2 + 1.0
    for seg in [*list(track.betting_lines), track.finish_line]:
        for x, y in seg:
            xs += [float(x) - reach, float(x) + reach]
            ys += [float(y) - reach, float(y) + reach]
    for sp in track.spaces:
        xs += [float(x) for x, _ in sp.corners]
        ys += [float(y) for _, y in sp.corners]
    for label in track.labels:
        h = float(label.size) if label.size is not None else style.label_height
        half = max(text_width(label.text, h, bold=True, family=style.font_family) / 2, h)
        xs += [float(label.at[0]) - half, float(label.at[0]) + half]
        ys += [float(label.at[1]) - half, float(label.at[1]) + half]
    if not xs:
        return (0.0, 0.0, 0.0, 0.0)
    return (min(xs), min(ys), max(xs), max(ys))


# -- helpers -------------------------------------------------------------------


def _pen(
    colour: str | QColor,
    width: float,
    *,
    cap: Qt.PenCapStyle = Qt.PenCapStyle.RoundCap,
    join: Qt.PenJoinStyle = Qt.PenJoinStyle.RoundJoin,
) -> QPen:
    if isinstance(colour, str):  # a copy of a pen made once: callers may change theirs
        return QPen(_named_pen(colour, width, cap, join))
    pen = QPen(QColor(colour), width)
    pen.setCapStyle(cap)
    pen.setJoinStyle(join)
    return pen


@lru_cache(maxsize=256)
def _named_pen(colour: str, width: float, cap: Qt.PenCapStyle, join: Qt.PenJoinStyle) -> QPen:
    """A pen of a colour given by name, made once (the board repaints the same few)."""
    pen = QPen(QColor(colour), width)
    pen.setCapStyle(cap)
    pen.setJoinStyle(join)
    return pen


def _qpolygon(corners: Sequence[Sequence[float]]) -> QPolygonF:
    return QPolygonF([QPointF(float(x), float(y)) for x, y in corners])


def _shapely_polygon(corners: Sequence[tuple[float, float]]) -> Polygon | None:
    """A valid polygon for these corners, or None when they do not make one."""
    try:
        poly = Polygon([(float(x), float(y)) for x, y in corners])
    except (ValueError, TypeError):
        return None
    if poly.is_empty or not poly.is_valid or poly.area <= 0:
        return None
    return poly


def _polygons(geom) -> list[Polygon]:
    if isinstance(geom, Polygon):
        return [] if geom.is_empty else [geom]
    if isinstance(geom, MultiPolygon):
        return list(geom.geoms)
    return [g for g in getattr(geom, "geoms", []) if isinstance(g, Polygon)]


def _path(geom) -> QPainterPath:
    path = QPainterPath()
    path.setFillRule(Qt.FillRule.OddEvenFill)
    for poly in _polygons(geom):
        for ring in (poly.exterior, *poly.interiors):
            path.addPolygon(QPolygonF([QPointF(x, y) for x, y in ring.coords]))
            path.closeSubpath()
    return path


def _inscribed(shape: Polygon) -> tuple[tuple[float, float], float]:
    """Where text fits: the centroid if it is nearly as roomy as the best point, and the room."""
    circle = shapely.maximum_inscribed_circle(shape, tolerance=0.2)
    radius = math.dist(circle.coords[0], circle.coords[1])
    centroid = shape.centroid
    if shape.contains(centroid):
        room = shape.exterior.distance(centroid)
        if room >= 0.8 * radius:  # symmetric spaces: keep text in the middle
            return (centroid.x, centroid.y), room
    return tuple(circle.coords[0]), radius


def _curved_runs(
    ring, window: float = 50.0, max_radius: float = 450.0, corner_deg: float = 35.0
) -> list[QPolygonF]:
    """Stretches of a ring that curve tighter than ``max_radius`` mm (over ``window`` mm).

    Sharp corners (a turn of ``corner_deg`` within one 2 mm step, as where a
    track narrows to single file) are not curves and get no kerb.
    """
    line = LineString(ring.coords)
    total = line.length
    if total < 3 * window:
        return []
    step = 2.0
    n = int(total / step)
    # One vectorised GEOS call for all points (a Python loop of n calls was most of the cost).
    points = shapely.get_coordinates(shapely.line_interpolate_point(line, np.arange(n) * total / n))
    xy = [(float(x), float(y)) for x, y in points]
    ahead = np.roll(points, -1, axis=0) - points
    heads = np.arctan2(ahead[:, 1], ahead[:, 0])

    def turn(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        return np.abs((b - a + math.pi) % (2 * math.pi) - math.pi)

    half = max(1, int(window / 2 / step))
    limit = 2 * half * step / max_radius  # the turn of an arc of that radius over the window
    curved: list[bool] = (turn(np.roll(heads, half), np.roll(heads, -half)) > limit).tolist()
    # Near a sharp corner the window sees the corner's turn, not a curve: no kerb there.
    sharp = np.nonzero(turn(np.roll(heads, 1), heads) > math.radians(corner_deg))[0]
    for corner in sharp.tolist():
        for j in range(corner - half - 1, corner + half + 1):
            curved[j % n] = False
    if all(curved):
        return [QPolygonF([QPointF(*p) for p in [*xy, xy[0]]])]
    start = curved.index(False)  # walk from a straight point so no run wraps round
    runs: list[QPolygonF] = []
    current: list[int] = []
    for k in range(n + 1):
        i = (start + k) % n
        if curved[i] and k < n:
            current.append(i)
            continue
        if current:
            current.append(i)
            if len(current) * step > 20.0:
                runs.append(QPolygonF([QPointF(*xy[j]) for j in current]))
            current = []
    return runs
