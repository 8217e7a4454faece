"""Moving, turning and mirroring a track or part of it: pure geometry on the track model.

A ``Transform`` is an affine map of the board's plane (millimetres, x to the right,
y down). Mapping a space keeps its corners in the same turning sense: a mirror
reverses the order of the corners after the first, so a space listed clockwise
stays clockwise. The racing line keeps its order, so a mirrored loop is driven the
other way round on the board (a clockwise copy of an anticlockwise circuit) while
every space keeps its place in the race. Coordinates are rounded to 0.000001 mm,
which takes away the noise of floating point and keeps the precision of the file.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, replace

from trackside.engine.track.layout import KeptLayout, mirrored, tidy
from trackside.engine.track.model import (
    Background,
    Centerline,
    Label,
    Number,
    Point,
    Segment,
    Space,
    Track,
)

# cos and sin of quarter turns, exact, so that four turns of 90 degrees give back the track.
_QUARTERS = ((1, 0), (0, 1), (-1, 0), (0, -1))


@dataclass(frozen=True)
class Transform:
    """The affine map x' = a x + b y + c, y' = d x + e y + f."""

    a: float = 1.0
    b: float = 0.0
    c: float = 0.0
    d: float = 0.0
    e: float = 1.0
    f: float = 0.0

    def point(self, p: Point) -> Point:
        """Where the map takes ``p`` (rounded, see ``round_mm``)."""
        x, y = float(p[0]), float(p[1])
        return (
            round_mm(self.a * x + self.b * y + self.c),
            round_mm(self.d * x + self.e * y + self.f),
        )

    @property
    def flips(self) -> bool:
        """True for a mirror image (the map reverses the turning sense)."""
        return self.a * self.e - self.b * self.d < 0

    @property
    def turn(self) -> float:
        """How far the map turns a direction, in degrees counter-clockwise as seen."""
        # y is down, so a visible counter-clockwise turn takes +x towards -y.
        return math.degrees(math.atan2(-self.d, self.a))


def round_mm(value: float) -> Number:
    """Round to 0.000001 mm, and write a whole number without '.0'."""
    r = round(float(value), 6)
    return int(r) if r == int(r) else r


def translation(dx: float, dy: float) -> Transform:
    """Move by (dx, dy) mm."""
    return Transform(c=dx, f=dy)


def rotation(degrees: float, centre: Point) -> Transform:
    """Turn by ``degrees`` counter-clockwise as seen on the board, about ``centre``."""
    cos: float
    sin: float
    if float(degrees) % 90 == 0:
        cos, sin = _QUARTERS[int(float(degrees) // 90) % 4]
    else:
        cos, sin = math.cos(math.radians(degrees)), math.sin(math.radians(degrees))
    cx, cy = float(centre[0]), float(centre[1])
    # On screen (y down) a visible counter-clockwise turn: x' = x cos + y sin, y' = -x sin + y cos.
    return Transform(
        a=cos,
        b=sin,
        c=cx - cos * cx - sin * cy,
        d=-sin,
        e=cos,
        f=cy + sin * cx - cos * cy,
    )


def mirror_left_right(centre: Point) -> Transform:
    """Mirror across the vertical line through ``centre`` (left becomes right)."""
    return Transform(a=-1.0, c=2 * float(centre[0]))


def mirror_top_bottom(centre: Point) -> Transform:
    """Mirror across the horizontal line through ``centre`` (top becomes bottom)."""
    return Transform(e=-1.0, f=2 * float(centre[1]))


def bounds_centre(points: Iterable[Point]) -> Point:
    """The centre of the bounding box of ``points`` ((0, 0) for none)."""
    xs, ys = [], []
    for x, y in points:
        xs.append(float(x))
        ys.append(float(y))
    if not xs:
        return (0, 0)
    return (round_mm((min(xs) + max(xs)) / 2), round_mm((min(ys) + max(ys)) / 2))


def map_corners(corners: list[Point], tf: Transform) -> list[Point]:
    """A space's corners mapped, in the same turning sense as before."""
    out = [tf.point(p) for p in corners]
    if tf.flips and len(out) > 2:
        out = [out[0], *reversed(out[1:])]
    return out


def upright(corners: list[Point]) -> list[Point]:
    """The corners turned about their centre so that the box around them is the
    smallest one, its longer side level: a rectangle's sides come out horizontal
    and vertical, so a ruler along the box measures its length and its width."""
    points = [(float(x), float(y)) for x, y in corners]
    if len(points) < 2:
        return list(corners)
    best: tuple[float, list[tuple[float, float]]] | None = None
    for (x0, y0), (x1, y1) in zip(points, points[1:] + points[:1], strict=True):
        if (x0, y0) == (x1, y1):
            continue
        angle = math.atan2(y1 - y0, x1 - x0)
        turned = _turned(points, -angle)
        xs, ys = [x for x, _ in turned], [y for _, y in turned]
        area = (max(xs) - min(xs)) * (max(ys) - min(ys))
        if best is None or area < best[0] - 1e-9:
            best = (area, turned)
    if best is None:
        return list(corners)
    turned = best[1]
    xs, ys = [x for x, _ in turned], [y for _, y in turned]
    if max(ys) - min(ys) > max(xs) - min(xs) + 1e-9:
        turned = _turned(turned, math.pi / 2)
    return [(round_mm(x), round_mm(y)) for x, y in turned]


def _turned(points: list[tuple[float, float]], radians: float) -> list[tuple[float, float]]:
    """``points`` turned by ``radians`` about their bounding box's centre."""
    cx, cy = bounds_centre(points)
    cos, sin = math.cos(radians), math.sin(radians)
    out = []
    for x, y in points:
        dx, dy = x - float(cx), y - float(cy)
        out.append((float(cx) + dx * cos - dy * sin, float(cy) + dx * sin + dy * cos))
    return out


def map_space(space: Space, tf: Transform) -> Space:
    """A copy of ``space`` with its corners mapped (id, lane, kind and label kept)."""
    return replace(space, corners=map_corners(space.corners, tf))


def map_segment(segment: Segment, tf: Transform) -> Segment:
    """A betting or finish line mapped (an unset line, both ends equal, stays unset)."""
    return (tf.point(segment[0]), tf.point(segment[1]))


def map_label(label: Label, tf: Transform) -> Label:
    """A label moved and turned with the board; a mirrored label still reads left to right."""
    angle = float(label.angle or 0)
    if tf.flips:
        # A mirror is a top-bottom flip (angle to -angle) then a turn; the text is then
        # turned the short way to read left to right again.
        turned = (tf.turn - angle) % 180
        turned = turned - 180 if turned > 90 else turned
    else:
        turned = (angle + tf.turn) % 360
        turned = turned - 360 if turned > 180 else turned
    new_angle: Number | None = round_mm(turned)
    if new_angle == 0 and label.angle is None:
        new_angle = None
    return replace(label, at=tf.point(label.at), angle=new_angle)


def map_background(background: Background, tf: Transform) -> Background:
    """The tracing picture carried along with the board: its corner moved, and its turn
    and mirroring composed with the map's, so it stays under what was traced on it."""
    # The picture's own axes after its turn and mirror (y down, turn counter-clockwise
    # as seen): x along (cos, -sin), y along (sin, cos), x flipped when mirrored.
    rad = math.radians(float(background.turn))
    flip = -1.0 if background.mirrored else 1.0
    ax, ay = flip * math.cos(rad), flip * -math.sin(rad)
    bx, by = math.sin(rad), math.cos(rad)
    # The same axes after the map's linear part.
    ax, ay = tf.a * ax + tf.b * ay, tf.d * ax + tf.e * ay
    bx, by = tf.a * bx + tf.b * by, tf.d * bx + tf.e * by
    mirrored = ax * by - ay * bx < 0
    if mirrored:  # unflip x to read the turn off it
        ax, ay = -ax, -ay
    turn = round_mm(math.degrees(math.atan2(-ay, ax)))
    return replace(
        background,
        at=tf.point(background.at),
        turn=turn or 0,
        mirrored=mirrored,
    )


def map_centerline(centerline: Centerline, tf: Transform) -> Centerline:
    """The racing line mapped point by point, in the same (driving) order."""
    return Centerline(closed=centerline.closed, points=[tf.point(p) for p in centerline.points])


def map_kept_layout(kept: KeptLayout, tf: Transform) -> KeptLayout:
    """The lane layout of the spaces moved, turned or mirrored by ``tf``: its start and
    heading mapped, and in a mirror its arcs turning and its kept lanes lying the other way."""
    heading = tf.turn - kept.heading if tf.flips else kept.heading + tf.turn
    x, y = tf.point(kept.start)
    pieces = tuple(mirrored(p) for p in kept.pieces) if tf.flips else kept.pieces
    return replace(kept, start=(tidy(x), tidy(y)), heading=tidy(heading % 360), pieces=pieces)


def map_track(track: Track, tf: Transform) -> Track:
    """The whole circuit mapped: spaces, racing line, lines, labels, the background
    and the kept lane layouts."""
    out = track.copy()
    out.spaces = [map_space(sp, tf) for sp in track.spaces]
    out.centerline = map_centerline(track.centerline, tf)
    out.betting_lines = [map_segment(seg, tf) for seg in track.betting_lines]
    out.finish_line = map_segment(track.finish_line, tf)
    out.labels = [map_label(lb, tf) for lb in track.labels]
    if track.background is not None:
        out.background = map_background(track.background, tf)
    out.lane_layouts = [map_kept_layout(kept, tf) for kept in track.lane_layouts]
    return out


def track_centre(track: Track) -> Point:
    """The centre of the bounding box of the spaces (of the racing line if none)."""
    points = [p for sp in track.spaces for p in sp.corners] or list(track.centerline.points)
    return bounds_centre(points)


def fresh_ids(ids: Iterable[str], taken: Iterable[str]) -> dict[str, str]:
    """A new id for each of ``ids`` that is not in ``taken`` nor given twice.

    An id still free is kept; one already used becomes its letters followed by the
    number after the highest in use with those letters ('s3' gives 's31' when 's1'
    to 's30' are used), so an id that was deleted is not given to another space.
    """
    used = set(taken)
    highest: dict[str, int] = {}
    for sid in used:
        stem = sid.rstrip("0123456789")
        digits = sid[len(stem) :]
        if digits:
            highest[stem] = max(highest.get(stem, 0), int(digits))
    out: dict[str, str] = {}
    for old in ids:
        if old in out:
            continue
        new = old
        if new in used:
            stem = old.rstrip("0123456789") or old
            n = highest.get(stem, 0) + 1
            while f"{stem}{n}" in used:
                n += 1
            new = f"{stem}{n}"
            highest[stem] = n
        used.add(new)
        out[old] = new
    return out
