"""The lane builder: spaces and a dense centerline from a racing line of pieces.

A layout is a racing line made of straights and arcs, starting at a point
with a heading, with a lane count per piece. ``build_lanes`` turns it into the
spaces of a track: rectangles on straights, wedges in curves whose ends are
radial to the arc's centre, and the dense centerline docs/design.md asks for.

Conventions (the editor's lane tool and ``tools/make_tracks.py`` rely on them):

- Units are millimetres in track-file coordinates: x to the right, **y down**
  (docs/track-format.md). Headings and turn angles are degrees counter-
  clockwise *as seen on the board*: heading 0 runs along +x, heading 90 up the
  board (towards -y). An arc's ``angle`` is + for a left turn as the driver
  sees it on the board, - for right; its ``radius`` is the radius of the
  racing line itself. (Internally the builder works in y-up maths
  coordinates and flips y on the way in and out.)
- Each piece holds a whole number of rows: ``rows`` if given, else its length
  divided by ``space_length``, rounded (at least 1). The row length of a piece
  is its length divided by its rows, so spaces on different pieces may differ
  slightly from ``space_length``; every row boundary is square to the line.
- Lanes are centred on the racing line. A piece with more or fewer lanes
  than the layout's ``lanes`` may instead keep its lanes to the left or right
  (``keep``, as seen driving along; docs/glossary.md, *kept lanes*): its
  lanes then line up with the left or right lanes of the layout's width, so
  where the count drops those lanes carry on and the others end, and where it
  grows the new lanes appear on the other side. Every lane of one piece must
  touch at least one lane of the next (along an edge, or at a corner, which
  is a diagonal step), so that forward neighbours exist across the change
  (R-MOVE-1): a change between 1 and 4 centred lanes at once, or by two lanes
  kept to one side, would leave a lane with no neighbour and is refused.
- Lane 0 is the innermost lane of the circuit: the lane on the left of the
  racing line when the line turns left overall (a loop driven anticlockwise
  as seen on the board), on the right when it turns right overall
  (``LaneLayout.inner`` overrides it).
  Lane indices count from the inside within each piece, except in a piece
  with fewer lanes than the layout that keeps its outer ones: its lanes keep
  the indices of the layout's lanes they line up with (from three lanes into
  two kept outside: lanes 1 and 2 carry on, lane 0 ends), so a lane that
  carries on keeps its letter and shade.
- Space ids are the lane letter (a = lane 0, b, c, d) and the row number, rows
  counted from 1 at the start of the line (the seam of a closed loop):
  ``a1``, ``c12``. A single-file stretch holds only ``a`` spaces.
- Stagger moves lane k forward by (k - (n - 1) / 2) * stagger row lengths, so
  the lanes are staggered symmetrically about the racing line; the first and
  last space of each lane in a piece absorb the shift, so all lanes still meet
  on a common edge at every piece boundary (where lines, the seam and width
  changes can be placed cleanly).
- Space corners run along the inner side from the rear to the front, then back
  along the outer side: rectangles are [rear-inner, front-inner, front-outer,
  rear-outer]; wedges add points on their curved sides (at most
  ``wedge_step`` degrees apart, and wherever a neighbouring lane has a corner,
  so that neighbours share their edges exactly and never overlap).
- The centerline turns at most ``max_turn`` degrees at each point. Projection
  onto a polyline is off by about offset x turn / 2 on the inside of a curve
  (docs/design.md), and worse near the centre of a tight arc, so in an arc the
  centerline is the polygon whose edges touch the arc at every row boundary
  (and at even steps between): a corner on a row boundary then projects onto
  exactly that boundary, so side-by-side spaces have the same front and never
  count as forward of each other.
- ``front`` and ``rear`` progress are exact distances along the racing line;
  ``TrackGeometry`` measures along the polyline, which differs by a relative
  1e-4 or less (and the file rounds corners to 0.001 mm).

Typical use (the editor rebuilds a preview on every mouse move; a 100-space
section takes a few milliseconds)::

    layout = LaneLayout(pieces=(Straight(400), Arc(200, 180), Straight(400),
                                Arc(200, 180)), closed=True, lanes=3)
    result = build_lanes(layout)
    track = make_track(result, "Oval", betting=[500, 1000, 1500],
                       finish=result.length - 80)
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from trackside.engine.text import plural
from trackside.engine.track.geometry import BETTING_LINE_COUNT
from trackside.engine.track.layout import KEEP_CHOICES as KEEP_CHOICES
from trackside.engine.track.layout import MAX_LANES as MAX_LANES
from trackside.engine.track.layout import Arc as Arc
from trackside.engine.track.layout import LaneLayout as LaneLayout
from trackside.engine.track.layout import LayoutError as LayoutError
from trackside.engine.track.layout import Piece as Piece
from trackside.engine.track.layout import Straight as Straight
from trackside.engine.track.model import MAX_SPACES, Centerline, Point, Segment, Space, Track

LANE_LETTERS = "abcdef"
GRID_SIZE = 6
MIN_ROW_LENGTH = 5.0
_KEY_DIGITS = 9


@dataclass(frozen=True)
class Pose:
    """A point on the racing line and the driving direction there (degrees)."""

    x: float
    y: float
    heading: float


@dataclass(frozen=True)
class LaneSpace:
    """One built space: its id, lane, row, piece and corners, and where it lies
    along the racing line (``rear`` and ``front`` progress in mm)."""

    id: str
    lane: int
    row: int
    piece: int
    corners: tuple[Point, ...]
    rear: float
    front: float
    curved: bool

    def to_space(self, digits: int | None = 3) -> Space:
        """The track-file form, corners rounded to ``digits`` decimals (None: exact)."""
        pts = [(_round(x, digits), _round(y, digits)) for x, y in self.corners]
        return Space(id=self.id, lane=self.lane, corners=pts)


@dataclass(frozen=True)
class Boundary:
    """An edge across the whole track that every lane shares: a clean place for a line."""

    progress: float
    inner: Point
    outer: Point
    row: int


@dataclass(frozen=True)
class PieceSpan:
    """Where a piece lies along the racing line and how it was divided."""

    index: int
    start: float
    end: float
    rows: int
    lanes: int
    row_length: float
    stagger: float
    start_pose: Pose
    end_pose: Pose
    first_row: int


@dataclass
class LaneResult:
    """What ``build_lanes`` returns.

    ``spaces`` in order piece by piece, lane by lane, row by row;
    ``centerline`` the dense racing line (without repeating the first point on
    a loop); ``length`` the lap or line length in mm; ``inner`` the side of
    lane 0; ``pieces`` where each piece lies and how it was divided;
    ``boundaries`` the edges across the whole track, sorted by progress, where
    lines can go; ``end`` the pose at the end of the line and ``gap`` its
    distance from the start (0 on a loop); ``rows`` the number of rows.
    """

    spaces: list[LaneSpace]
    centerline: list[Point]
    closed: bool
    length: float
    inner: str
    pieces: list[PieceSpan]
    boundaries: list[Boundary]
    end: Pose
    gap: float
    rows: int
    _by_id: dict[str, int] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        self._by_id = {sp.id: i for i, sp in enumerate(self.spaces)}

    def space(self, space_id: str) -> LaneSpace:
        """The space with this id."""
        return self.spaces[self._by_id[space_id]]

    def track_spaces(self, digits: int | None = 3) -> list[Space]:
        """The spaces in track-file form."""
        return [sp.to_space(digits) for sp in self.spaces]

    def track_centerline(self, digits: int | None = 3) -> Centerline:
        """The centerline in track-file form."""
        return Centerline(
            closed=self.closed,
            points=[(_round(x, digits), _round(y, digits)) for x, y in self.centerline],
        )


@dataclass(frozen=True)
class CrossLine:
    """A segment across the track on a shared edge, and its progress."""

    segment: Segment
    progress: float
    row: int


# -- tracing the racing line ---------------------------------------------


@dataclass(frozen=True)
class _Frame:
    """Start pose of a piece in radians, with what is needed to walk along it."""

    x: float
    y: float
    h: float
    piece: Piece

    def centre(self) -> tuple[float, float]:
        """The centre of an arc piece."""
        p = self.piece
        if not isinstance(p, Arc):
            raise TypeError("a straight piece has no centre")
        sign = 1.0 if p.angle > 0 else -1.0
        r = float(p.radius)
        return (self.x - sign * r * math.sin(self.h), self.y + sign * r * math.cos(self.h))

    def at(self, s: float) -> tuple[float, float, float]:
        """Point and heading (radians) at distance ``s`` along the piece."""
        p = self.piece
        if isinstance(p, Straight):
            return (self.x + s * math.cos(self.h), self.y + s * math.sin(self.h), self.h)
        sign = 1.0 if p.angle > 0 else -1.0
        r = float(p.radius)
        cx, cy = self.centre()
        h = self.h + sign * s / r
        return (cx + sign * r * math.sin(h), cy - sign * r * math.cos(h), h)


def _frames(layout: LaneLayout) -> tuple[list[_Frame], Pose]:
    """The start frame of every piece (y-up maths coordinates) and the pose at
    the end of the line (board coordinates)."""
    x, y = _start(layout)
    h = math.radians(layout.heading)
    frames = []
    for piece in layout.pieces:
        frame = _Frame(x, y, h, piece)
        frames.append(frame)
        x, y, h = frame.at(piece.path_length)
    return frames, _pose(x, y, h)


def _start(layout: LaneLayout) -> tuple[float, float]:
    """The start point in the builder's y-up coordinates."""
    return float(layout.start[0]), -float(layout.start[1])


def _board(x: float, y: float) -> Point:
    """A point of the builder's y-up coordinates in board coordinates (y down)."""
    return (x, -y + 0.0)


def _pose(x: float, y: float, h: float) -> Pose:
    """A pose in y-up coordinates (heading in radians) as a board pose."""
    bx, by = _board(x, y)
    return Pose(bx, by, math.degrees(h))


def trace(layout: LaneLayout) -> list[Pose]:
    """The pose at the start of every piece, then the pose at the end of the line."""
    _check_pieces(layout)
    frames, end = _frames(layout)
    return [_pose(f.x, f.y, f.h) for f in frames] + [end]


def closure_gap(layout: LaneLayout) -> tuple[float, float]:
    """How far the end of the line misses its start: (distance mm, heading degrees
    in (-180, 180])."""
    _check_pieces(layout)
    _, end = _frames(layout)
    dist = math.hypot(end.x - layout.start[0], end.y - layout.start[1])
    return dist, _wrap_degrees(end.heading - layout.heading)


def close_loop(layout: LaneLayout, adjust: tuple[int, int]) -> LaneLayout:
    """The layout with the lengths of the two straights ``adjust`` changed so that
    the line ends exactly where it starts (the turns must already add up to a
    whole number of turns)."""
    _check_pieces(layout)
    _dist, dh = closure_gap(layout)
    if abs(dh) > 1e-6:
        raise LayoutError(
            f"the turns add up to {_total_turn(layout):g}°, {dh:+.3f}° away from a closed loop",
            "change arc angles so they add up to ±360°",
        )
    i, j = adjust
    straights: dict[int, Straight] = {}
    for k in (i, j):
        piece = layout.pieces[k] if 0 <= k < len(layout.pieces) else None
        if not isinstance(piece, Straight):
            raise LayoutError(f"piece {k + 1} is not a straight; close_loop adjusts two straights")
        straights[k] = piece
    frames, end = _frames(layout)
    # in board coordinates (y down) a straight at heading h runs along (cos h, -sin h)
    ux, uy = math.cos(frames[i].h), -math.sin(frames[i].h)
    vx, vy = math.cos(frames[j].h), -math.sin(frames[j].h)
    det = ux * vy - uy * vx
    if abs(det) < 1e-6:
        raise LayoutError(
            f"pieces {i + 1} and {j + 1} are parallel; pick two straights at an angle"
        )
    gx, gy = layout.start[0] - end.x, layout.start[1] - end.y
    di = (gx * vy - gy * vx) / det
    dj = (ux * gy - uy * gx) / det
    pieces = list(layout.pieces)
    for k, d in ((i, di), (j, dj)):
        new = straights[k].length + d
        if new < layout.space_length / 2:
            raise LayoutError(
                f"closing the loop would make piece {k + 1} {new:.1f} mm long",
                "pick other straights, or lengthen the line so that they "
                "stay at least half a space long",
            )
        pieces[k] = replace(straights[k], length=new)
    return replace(layout, pieces=tuple(pieces))


# -- building -------------------------------------------------------------


def build_lanes(layout: LaneLayout) -> LaneResult:
    """Build the spaces and the dense centerline of a layout.

    Raises ``LayoutError`` for a layout that cannot give legal spaces: lane
    counts out of range or jumping from 1 to 4, arcs too tight for their lanes,
    a closed line whose end misses its start.
    """
    _check_pieces(layout)
    frames, end = _frames(layout)
    inner = _inner_side(layout)
    side = -1.0 if inner == "left" else 1.0  # outer normal = side * left normal
    gap = math.hypot(end.x - layout.start[0], end.y - layout.start[1])
    if layout.closed:
        _check_closure(layout, end, gap)
    plans = _plan(layout, inner)
    builder = _Builder(layout, side)
    spans: list[PieceSpan] = []
    boundaries: list[Boundary] = []
    centerline: list[Point] = []
    start = 0.0
    row0 = 0
    for index, (frame, plan) in enumerate(zip(frames, plans, strict=False)):
        length = frame.piece.path_length
        stations = _Stations(frame, length, _end_station(layout, frames, index))
        builder.piece(index, plan, stations, start, row0)
        centerline.extend(_centerline_points(layout, frame, plan, stations))
        span_end = stations.get(length)
        spans.append(
            PieceSpan(
                index,
                start,
                start + length,
                plan.rows,
                plan.lanes,
                plan.row_length,
                plan.stagger,
                _pose(frame.x, frame.y, frame.h),
                _pose(*span_end),
                row0 + 1,
            )
        )
        boundaries.extend(_boundaries(layout, plans, index, stations, start, row0, side))
        start += length
        row0 += plan.rows
    if not layout.closed:
        centerline.append((end.x, end.y))
    return LaneResult(
        spaces=builder.spaces,
        centerline=_dedupe(centerline),
        closed=layout.closed,
        length=start,
        inner=inner,
        pieces=spans,
        boundaries=boundaries,
        end=end,
        gap=0.0 if layout.closed else gap,
        rows=row0,
    )


def _end_station(
    layout: LaneLayout, frames: list[_Frame], index: int
) -> tuple[float, float, float] | None:
    """The exact start of the next piece (the seam after the last piece of a
    loop), so that both pieces compute their shared corners from one pose."""
    if index + 1 < len(frames):
        nxt = frames[index + 1]
        return (nxt.x, nxt.y, nxt.h)
    if not layout.closed:
        return None
    seam, frame = frames[0], frames[index]
    turns = round((frame.at(frame.piece.path_length)[2] - seam.h) / (2 * math.pi))
    return (seam.x, seam.y, seam.h + 2 * math.pi * turns)


@dataclass(frozen=True)
class _Plan:
    rows: int
    lanes: int
    length: float
    stagger: float
    offset: float = 0.0  # lane widths the lanes' middle lies outside the racing line
    first: int = 0  # the lane index of the piece's innermost lane

    def extent(self, width: float) -> tuple[float, float]:
        """The lateral offsets (mm, + outwards) of the inner and outer edge of the lanes."""
        if self.offset == 0:
            half = self.lanes * width / 2
            return -half, half
        return (self.offset - self.lanes / 2) * width, (self.offset + self.lanes / 2) * width

    @property
    def row_length(self) -> float:
        return self.length / self.rows

    def shift(self, lane: int) -> float:
        """Forward shift of a lane's row boundaries, in row lengths."""
        if self.lanes == 1:
            return 0.0
        return (lane - (self.lanes - 1) / 2) * self.stagger

    def cuts(self, lane: int) -> list[float]:
        """Row boundaries of a lane, as distances along the piece."""
        shift = self.shift(lane)
        inner = [(j + shift) * self.row_length for j in range(1, self.rows)]
        return [0.0, *inner, self.length]


def _plan(layout: LaneLayout, inner: str) -> list[_Plan]:
    plans = []
    for index, piece in enumerate(layout.pieces):
        length = piece.path_length
        rows = piece.rows if piece.rows is not None else max(1, round(length / layout.space_length))
        lanes = piece.lanes if piece.lanes is not None else layout.lanes
        stagger = float(piece.stagger if piece.stagger is not None else layout.stagger)
        offset = _offset(layout, piece, lanes, inner)
        first = layout.lanes - lanes if offset > 0 and lanes < layout.lanes else 0
        plan = _Plan(rows, lanes, length, stagger, offset, first)
        _check_plan(layout, index, piece, plan, inner)
        plans.append(plan)
    _check_size(plans)
    count = len(plans)
    pairs = range(count if layout.closed else count - 1)
    for i in pairs:
        _check_change(layout, plans[i], plans[(i + 1) % count], (i + 1) % count)
    return plans


def _offset(layout: LaneLayout, piece: Piece, lanes: int, inner: str) -> float:
    """How many lane widths the middle of a piece's lanes lies outside the racing
    line: 0 when centred, else so that its edge on the kept side lines up with
    that edge of the layout's lanes."""
    if piece.keep in (None, "centre") or lanes == layout.lanes:
        return 0.0
    towards_inner = piece.keep == inner
    return (lanes - layout.lanes) / 2 if towards_inner else (layout.lanes - lanes) / 2


def _check_change(layout: LaneLayout, a: _Plan, b: _Plan, index: int) -> None:
    """Every lane on each side of a piece boundary must touch a lane on the other
    side (a corner is enough: a diagonal step), or a car there is stuck."""
    if a.offset == 0 and b.offset == 0:
        if abs(a.lanes - b.lanes) > 2:
            raise LayoutError(
                f"piece {index + 1}: the lanes go from {a.lanes} to {b.lanes} at once, "
                "which leaves the outer lanes without a forward neighbour (a car moves only "
                "straight or diagonally ahead)",
                "change the lane count by at most 2 between pieces",
            )
        return
    a_in, a_out = a.extent(1.0)
    b_in, b_out = b.extent(1.0)
    eps = 1e-9
    if (
        a_in + 1 < b_in - eps
        or b_in + 1 < a_in - eps
        or a_out - 1 > b_out + eps
        or b_out - 1 > a_out + eps
    ):
        raise LayoutError(
            f"piece {index + 1}: the lanes go from {a.lanes} to {b.lanes} with the lanes kept "
            "to one side, which leaves a lane that touches none of the next piece's (a car "
            "moves only straight or diagonally ahead)",
            "keep the centre lanes where two lanes end or begin at once, or change "
            "the lane count one lane at a time",
        )


class _Stations:
    """Poses along one piece, computed once per distance so that shared corners
    are bit-for-bit identical."""

    def __init__(self, frame: _Frame, length: float, end: tuple[float, float, float] | None):
        self.frame = frame
        self.length = length
        self.cache: dict[float, tuple[float, float, float]] = {
            _key(0.0): (frame.x, frame.y, frame.h)
        }
        if end is not None:
            self.cache[_key(length)] = end

    def get(self, s: float) -> tuple[float, float, float]:
        k = _key(s)
        pose = self.cache.get(k)
        if pose is None:
            pose = self.frame.at(k)
            self.cache[k] = pose
        return pose


class _Builder:
    """Accumulates spaces piece by piece, sharing the corners of piece boundaries."""

    def __init__(self, layout: LaneLayout, side: float):
        self.layout = layout
        self.side = side
        self.width = float(layout.lane_width)
        self.spaces: list[LaneSpace] = []
        self._edge: dict[tuple[float, float], Point] = {}
        self._total = sum(p.path_length for p in layout.pieces)

    def corner(self, stations: _Stations, s: float, u: float, boundary: float | None) -> Point:
        """The point at lateral offset ``u`` (toward the outside) at distance ``s``."""
        x, y, h = stations.get(s)
        point = _board(x - self.side * u * math.sin(h), y + self.side * u * math.cos(h))
        if boundary is not None:  # reuse the exact point on a piece boundary
            point = self._edge.setdefault((_key(boundary), u), point)
        return point

    def piece(self, index: int, plan: _Plan, stations: _Stations, start: float, row0: int) -> None:
        """Add the spaces of one piece, lane by lane, rear to front."""
        n = plan.lanes
        cuts = [plan.cuts(k) for k in range(n)]
        piece = stations.frame.piece
        curved = isinstance(piece, Arc)
        length = stations.length
        arcs = (
            _arc_points(self.layout, piece, plan, length, cuts) if isinstance(piece, Arc) else None
        )
        for k in range(n):
            u_in = (k - n / 2 + plan.offset) * self.width
            u_out = (k + 1 - n / 2 + plan.offset) * self.width
            for j in range(plan.rows):
                s0, s1 = cuts[k][j], cuts[k][j + 1]
                if arcs is None:
                    inner_s, outer_s = [s0, s1], [s1, s0]
                else:
                    inner_s = _between(arcs[k], s0, s1)
                    outer_s = _between(arcs[k + 1], s0, s1)[::-1]
                pts = [self._point(stations, s, u_in, start, length) for s in inner_s]
                pts += [self._point(stations, s, u_out, start, length) for s in outer_s]
                lane = plan.first + k
                self.spaces.append(
                    LaneSpace(
                        id=f"{LANE_LETTERS[lane]}{row0 + j + 1}",
                        lane=lane,
                        row=row0 + j + 1,
                        piece=index,
                        corners=tuple(pts),
                        rear=start + s0,
                        front=start + s1,
                        curved=curved,
                    )
                )

    def _point(self, stations: _Stations, s: float, u: float, start: float, length: float) -> Point:
        on_boundary = None
        if _key(s) == _key(0.0):
            on_boundary = start
        elif _key(s) == _key(length):
            on_boundary = start + length
        if on_boundary is not None and self.layout.closed and abs(on_boundary - self._total) < 1e-6:
            on_boundary = 0.0  # the seam: the last piece ends on the first one's corners
        return self.corner(stations, s, u, on_boundary)


def _arc_points(
    layout: LaneLayout, piece: Arc, plan: _Plan, length: float, cuts: list[list[float]]
) -> list[list[float]]:
    """Distances along the piece of the points on each lane edge (inner edge of
    lane 0 first): the corners of the lanes on both sides, plus a point at
    least every ``wedge_step`` degrees, so neighbours share their curved edges."""
    per_row = abs(piece.angle) / plan.rows
    steps = plan.rows * max(1, math.ceil(per_row / layout.wedge_step - 1e-9))
    subdiv = {_key(length * i / steps) for i in range(steps + 1)}
    out = []
    for edge in range(plan.lanes + 1):
        pts = set(subdiv)
        for lane in (edge - 1, edge):
            if 0 <= lane < plan.lanes:
                pts.update(_key(s) for s in cuts[lane])
        out.append(sorted(pts))
    return out


def _between(keys: list[float], s0: float, s1: float) -> list[float]:
    """The sorted keys from s0 to s1 inclusive."""
    return keys[bisect.bisect_left(keys, _key(s0)) : bisect.bisect_right(keys, _key(s1))]


def _centerline_points(
    layout: LaneLayout, frame: _Frame, plan: _Plan, stations: _Stations
) -> list[Point]:
    """The piece's start point, then for an arc the corners of the polygon
    whose edges touch the arc at every row boundary (and at steps of at most
    ``max_turn`` degrees between them).

    Every row boundary is then the midpoint of an edge that touches the arc,
    and the polyline lies outside the arc elsewhere, so a corner on the radial
    of a row boundary projects onto that boundary exactly, on either side of
    the line and however tight the arc."""
    x, y, _h = stations.get(0.0)
    pts = [_board(x, y)]
    piece = frame.piece
    if isinstance(piece, Arc):
        per_row = abs(piece.angle) / plan.rows
        steps = plan.rows * max(1, math.ceil(per_row / layout.max_turn - 1e-9))
        scale = 1.0 / math.cos(math.radians(abs(piece.angle)) / steps / 2)
        cx, cy = frame.centre()
        length = stations.length
        for i in range(steps):
            px, py, _ = frame.at(length * (i + 0.5) / steps)
            pts.append(_board(cx + (px - cx) * scale, cy + (py - cy) * scale))
    return pts


def _boundaries(
    layout: LaneLayout,
    plans: list[_Plan],
    index: int,
    stations: _Stations,
    start: float,
    row0: int,
    side: float,
) -> list[Boundary]:
    """Edges across the track shared by every lane: the piece's start, and every
    row boundary when its lanes are not staggered; the line's end when open."""
    plan = plans[index]
    width = float(layout.lane_width)
    count = len(plans)
    inside, outside = plan.extent(width)
    first_in, first_out = inside, outside
    if index > 0 or layout.closed:
        prev_in, prev_out = plans[index - 1].extent(width)
        first_in, first_out = min(inside, prev_in), max(outside, prev_out)
    out = []

    def edge(s: float, lo: float, hi: float, row: int) -> Boundary:
        x, y, h = stations.get(s)
        nx, ny = -side * math.sin(h), side * math.cos(h)
        return Boundary(
            start + s,
            _board(x + lo * nx, y + lo * ny),
            _board(x + hi * nx, y + hi * ny),
            row,
        )

    out.append(edge(0.0, first_in, first_out, row0))
    if plan.lanes == 1 or plan.stagger == 0:
        for j in range(1, plan.rows):
            out.append(edge(j * plan.row_length, inside, outside, row0 + j))
    if index == count - 1 and not layout.closed:
        out.append(edge(stations.length, inside, outside, row0 + plan.rows))
    return out


# -- helpers for lines and the grid --------------------------------------


def line_across(result: LaneResult, progress: float) -> CrossLine:
    """A segment across the whole track on the shared edge nearest ``progress``
    (mm along the racing line), so that it cuts no space: for betting and
    finish lines. On a closed loop ``progress`` wraps around the lap."""
    if not result.boundaries:
        raise LayoutError("the track has no edge shared by all its lanes")
    length = result.length

    def distance(b: Boundary) -> float:
        d = abs(b.progress - progress)
        if result.closed:
            d %= length
            d = min(d, length - d)
        return d

    best = min(result.boundaries, key=distance)
    return CrossLine((best.inner, best.outer), best.progress, best.row)


def pick_grid(
    result: LaneResult,
    after: float = 0.0,
    lanes: Sequence[int] | None = None,
    count: int = GRID_SIZE,
) -> list[str]:
    """The ids of the first ``count`` spaces from progress ``after`` on (the seam
    by default), in grid order: pole (furthest forward) first, the inner lane
    first within a row. ``lanes`` limits the choice to those lane indices."""
    pool = [
        sp
        for sp in result.spaces
        if sp.rear >= after - 1e-6 and (lanes is None or sp.lane in lanes)
    ]
    pool.sort(key=lambda sp: (sp.rear, sp.lane))
    chosen = pool[:count]
    if len(chosen) < count:
        raise LayoutError(
            f"only {plural(len(chosen), 'space')} after progress {after:g} for the grid"
        )
    chosen.sort(key=lambda sp: (-sp.front, sp.lane))
    return [sp.id for sp in chosen]


def make_track(
    result: LaneResult,
    name: str,
    betting: Sequence[float],
    finish: float,
    grid: Sequence[str] | None = None,
    author: str | None = None,
    description: str | None = None,
    tolerance: float | None = None,
    digits: int | None = 3,
) -> Track:
    """A track from built lanes: betting and finish lines on the shared edges
    nearest the given progress values, the grid from ``pick_grid`` unless given."""
    if len(betting) != BETTING_LINE_COUNT:
        raise LayoutError(f"a track has {BETTING_LINE_COUNT} betting lines, got {len(betting)}")

    def seg(p: float) -> Segment:
        a, b = line_across(result, p).segment
        return (
            (_round(a[0], digits), _round(a[1], digits)),
            (_round(b[0], digits), _round(b[1], digits)),
        )

    return Track(
        name=name,
        centerline=result.track_centerline(digits),
        spaces=result.track_spaces(digits),
        start_grid=list(grid) if grid is not None else pick_grid(result),
        betting_lines=[seg(p) for p in betting],
        finish_line=seg(finish),
        author=author,
        description=description,
        tolerance=tolerance,
    )


# -- checks ---------------------------------------------------------------


def _check_pieces(layout: LaneLayout) -> None:
    if not layout.pieces:
        raise LayoutError("the layout has no pieces")
    for index, piece in enumerate(layout.pieces):
        if isinstance(piece, Straight):
            if not piece.length > 0:
                raise LayoutError(
                    f"piece {index + 1} (straight): length must be positive, got {piece.length}"
                )
        elif isinstance(piece, Arc):
            if not piece.radius > 0:
                raise LayoutError(
                    f"piece {index + 1} (arc): radius must be positive, got {piece.radius}"
                )
            if piece.angle == 0 or abs(piece.angle) > 360:
                raise LayoutError(
                    f"piece {index + 1} (arc): angle must be between -360 and 360 "
                    f"degrees and not 0, got {piece.angle}"
                )
        else:
            kind = type(piece).__name__
            raise LayoutError(f"piece {index + 1} is a {kind}, not a Straight or Arc")
    for name in ("space_length", "lane_width", "max_turn", "wedge_step"):
        if not getattr(layout, name) > 0:
            raise LayoutError(f"{name} must be positive, got {getattr(layout, name)}")
    if layout.inner not in (None, "left", "right"):
        raise LayoutError(f"inner must be 'left' or 'right', got {layout.inner!r}")


def _check_size(plans: list[_Plan]) -> None:
    """Refuse, before building, a layout with more spaces than a track file holds."""
    total = sum(plan.rows * plan.lanes for plan in plans)
    if total > MAX_SPACES:
        raise LayoutError(
            f"the layout would make {total:,} spaces, more than a track holds ({MAX_SPACES:,})",
            "shorten its pieces or make the spaces longer",
        )


def _check_plan(layout: LaneLayout, index: int, piece: Piece, plan: _Plan, inner: str) -> None:
    where = f"piece {index + 1} ({_describe(piece)})"
    if piece.keep not in (None, *KEEP_CHOICES):
        raise LayoutError(
            f"{where}: keep must be one of {', '.join(KEEP_CHOICES)}, got {piece.keep!r}"
        )
    if not isinstance(plan.lanes, int) or not 1 <= plan.lanes <= MAX_LANES:
        raise LayoutError(f"{where}: lanes must be 1 to {MAX_LANES}, got {plan.lanes}")
    if not isinstance(plan.rows, int) or plan.rows < 1:
        raise LayoutError(f"{where}: rows must be a whole number from 1, got {plan.rows}")
    if plan.row_length < MIN_ROW_LENGTH:
        raise LayoutError(
            f"{where}: its {plural(plan.rows, 'row')} would be {plan.row_length:.2f} mm long",
            f"make the piece longer or give it fewer rows (at least {MIN_ROW_LENGTH:g} mm each)",
        )
    if isinstance(piece, Arc):
        toward_centre = plan.lanes * layout.lane_width / 2
        if plan.offset != 0:  # the side nearer the arc's centre is the one that counts
            lo, hi = plan.extent(layout.lane_width)
            toward_centre = -lo if (piece.angle > 0) == (inner == "left") else hi
        inside = float(piece.radius) - toward_centre
        if inside < layout.lane_width / 4:
            need = toward_centre + layout.lane_width / 4
            raise LayoutError(
                f"{where}: the inner edge of the lanes would be {inside:.1f} mm "
                "from the arc's centre",
                f"use a radius of at least {need:g} mm",
            )
    if plan.lanes > 1 and plan.stagger != 0:
        worst = abs(plan.stagger) * (plan.lanes - 1) / 2
        if worst > 0.5:
            raise LayoutError(
                f"{where}: stagger {plan.stagger:g} shifts the outer lanes by {worst:g} rows",
                f"use at most {1 / (plan.lanes - 1):g}",
            )
        if abs(plan.stagger) * plan.row_length < 2.0:
            raise LayoutError(
                f"{where}: stagger {plan.stagger:g} moves neighbouring lanes only "
                f"{abs(plan.stagger) * plan.row_length:.2f} mm apart, too little to "
                "tell forward from sideways",
                "use 0 or a larger stagger",
            )


def _check_closure(layout: LaneLayout, end: Pose, gap: float) -> None:
    dh = _wrap_degrees(end.heading - layout.heading)
    if gap > layout.closure_tolerance or abs(dh) > 0.01:
        raise LayoutError(
            f"the racing line does not close: its end is {gap:.2f} mm from its start "
            f"(dx {layout.start[0] - end.x:+.2f}, dy {layout.start[1] - end.y:+.2f}) and its "
            f"heading is {dh:+.2f}° off (the turns add up to {_total_turn(layout):g}°)",
            "make the turns add up to ±360° and use close_loop() to fit two straights",
        )


def _inner_side(layout: LaneLayout) -> str:
    if layout.inner is not None:
        return layout.inner
    return "left" if _total_turn(layout) >= 0 else "right"


def _total_turn(layout: LaneLayout) -> float:
    return sum(p.turn for p in layout.pieces)


def _describe(piece: Piece) -> str:
    if isinstance(piece, Straight):
        return f"straight {piece.length:g} mm"
    return f"arc r={piece.radius:g} mm, {piece.angle:+g}°"


def _wrap_degrees(d: float) -> float:
    return 180.0 - ((180.0 - d) % 360.0)


def _key(s: float) -> float:
    return round(s, _KEY_DIGITS) + 0.0


def _round(v: float, digits: int | None) -> float:
    if digits is None:
        return float(v)
    return round(float(v), digits) + 0.0


def _dedupe(points: list[Point]) -> list[Point]:
    out: list[Point] = []
    for p in points:
        if not out or math.dist(p, out[-1]) > 1e-9:
            out.append(p)
    return out
