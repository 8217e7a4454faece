"""Geometry derived from a track: progress, adjacency, the forward graph, lines.

Everything here follows the track model of docs/design.md and is computed with
shapely. Spaces are addressed by their index in ``track.spaces``; spaces whose
polygon is unusable (too few distinct corners, self-intersecting, no area)
take no part in adjacency and are listed in ``bad_polygons``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np
import shapely
from shapely.geometry import LineString, Point, Polygon

from trackside.engine.track.model import Point as Corner
from trackside.engine.track.model import Segment, Space, Track

RIGHT_ANGLE_TOLERANCE_DEG = 1.0
# The lines of a track, by index: the three betting lines in race order, then the
# finish line. The one source of these names and numbers (the editor uses them too).
BETTING_LINE_COUNT = 3
FINISH = BETTING_LINE_COUNT
LINE_NAMES = ("betting line 1", "betting line 2", "betting line 3", "finish line")
LINE_COUNT = len(LINE_NAMES)


def line_name(k: int) -> str:
    """Line k as a sentence names it: 'betting line 2' or 'the finish line'."""
    return LINE_NAMES[k] if k != FINISH else f"the {LINE_NAMES[k]}"


@dataclass(frozen=True)
class Overlap:
    """Two spaces whose polygons share more than tolerance squared of area."""

    a: int
    b: int
    area: float


class GeometryCache:
    """What one ``TrackGeometry`` may take from the last one built with this cache.

    For a track checked again and again as it is edited (the editor's issues
    list): a space that is the very same object, with the same corners, as in
    the last geometry gets its polygon back, and a pair of such spaces the
    result of its overlap test, instead of working them out again. Anything
    else (a new or changed space, another tolerance) is worked out afresh, so
    a geometry made with a cache equals one made without. Not thread-safe: one
    cache for one thread at a time.
    """

    def __init__(self) -> None:
        self.tol: float | None = None
        # id(space) -> (the space, its corners then, its polygon, why it is unusable)
        self.shapes: dict[int, tuple[Space, tuple[Corner, ...], Polygon | None, str | None]] = {}
        # pair_key(space, space) of two neighbouring spaces -> the area they share
        self.pairs: dict[int, float] = {}

    def kept(self, spaces: Sequence[Space], tol: float) -> list[bool]:
        """Per space: unchanged since the last geometry (same object, same corners)."""
        if tol != self.tol:
            self.tol, self.shapes, self.pairs = tol, {}, {}
        shapes = self.shapes
        out = []
        for sp in spaces:
            entry = shapes.get(id(sp))
            out.append(entry is not None and entry[0] is sp and entry[1] == _frozen(sp.corners))
        return out


class TrackGeometry:
    """The derived geometry of one track (docs/design.md, track model).

    Attributes are plain lists indexed by space index; ``lines`` holds the
    three betting lines then the finish line (index ``FINISH``). ``cache``
    (see ``GeometryCache``) lets it reuse what an earlier geometry of the same,
    edited, track worked out.
    """

    def __init__(self, track: Track, cache: GeometryCache | None = None):
        self.track = track
        self.tol = track.tol
        self._cache = cache
        self._kept = cache.kept(track.spaces, track.tol) if cache is not None else None
        self.ids = [sp.id for sp in track.spaces]
        self.index: dict[str, int] = {}
        for i, sid in enumerate(self.ids):
            self.index.setdefault(sid, i)
        self.n = len(self.ids)
        self.lanes = [sp.lane for sp in track.spaces]
        self._build_centerline()
        self._build_polygons()
        self._build_progress()
        self._build_adjacency()
        self._build_forward()
        self._build_lines()

    @cached_property
    def rectangular(self) -> list[bool]:
        """Per space: 4 corners at right angles (R-POW-DET); the game asks, validation not."""
        return [is_rectangle(sp.corners) for sp in self.track.spaces]

    # -- centerline -----------------------------------------------------
    def _build_centerline(self) -> None:
        pts = [tuple(map(float, p)) for p in self.track.centerline.points]
        self.closed = bool(self.track.centerline.closed)
        if self.closed and len(pts) > 1 and pts[0] != pts[-1]:
            pts.append(pts[0])
        self.centerline = LineString(pts) if len(pts) >= 2 else LineString()
        self.length = float(self.centerline.length)
        # Wrapping needs a loop with some length; a degenerate line cannot wrap.
        self.wraps = self.closed and self.length > 2 * self.tol

    def progress(self, x: float, y: float) -> float:
        """Distance along the centerline of the centerline point nearest (x, y)."""
        if self.length == 0:
            return 0.0
        return float(self.centerline.project(Point(x, y)))

    def delta(self, a: float, b: float) -> float:
        """b - a, wrapped into (-L/2, L/2] on a closed track."""
        d = b - a
        if self.wraps:
            half = self.length / 2
            d = half - ((half - d) % self.length)
        return d

    # -- spaces ---------------------------------------------------------
    def _build_polygons(self) -> None:
        if self._cache is None or self._kept is None:
            self.polygons, self.bad_polygons = _polygons(self.track.spaces, self.tol)
        else:
            self.polygons, self.bad_polygons = _cached_polygons(
                self.track.spaces, self.tol, self._cache, self._kept
            )
        self.good = [i for i, p in enumerate(self.polygons) if p is not None]
        self._sizes = [0.0] * self.n
        self.centroids: list[tuple[float, float]] = []
        for sp in self.track.spaces:
            if sp.corners:
                xs = [float(p[0]) for p in sp.corners]
                ys = [float(p[1]) for p in sp.corners]
                self.centroids.append((sum(xs) / len(xs), sum(ys) / len(ys)))
            else:  # a space still being drawn in the editor
                self.centroids.append((0.0, 0.0))
        if self.good:
            good = np.array([self.polygons[i] for i in self.good], dtype=object)
            areas = shapely.area(good).tolist()
            centres = shapely.get_coordinates(shapely.centroid(good)).tolist()
            for i, area, (x, y) in zip(self.good, areas, centres, strict=True):
                self._sizes[i] = math.sqrt(area)
                self.centroids[i] = (x, y)

    def size(self, i: int) -> float:
        """The size of space i: the square root of its area (0 when unusable)."""
        return self._sizes[i]

    def _build_progress(self) -> None:
        n, length = self.n, self.length
        self.centroid_progress = [0.0] * n
        self.front = [0.0] * n
        self.rear = [0.0] * n
        self.offset = [0.0] * n
        self.straddles_seam: list[bool] = [False] * n
        if n == 0 or length == 0:
            return
        cxy = np.array(self.centroids, dtype=float)
        cprog, dist = self._locate(cxy)
        self.offset = dist.tolist()
        # A space without corners (half-drawn in the editor) stands at its centroid.
        shapes = [sp.corners or [self.centroids[i]] for i, sp in enumerate(self.track.spaces)]
        counts = [len(c) for c in shapes]
        corners = np.array([c for shape in shapes for c in shape], dtype=float).reshape(-1, 2)
        # Neighbours share corners: each distinct point is located once (found
        # as complex numbers: sorting those is far quicker than sorting rows).
        _, first, back = np.unique(
            corners[:, 0] + 1j * corners[:, 1], return_index=True, return_inverse=True
        )
        kprog = self._locate(corners[first])[0][back.reshape(-1)]
        owner = np.repeat(np.arange(n), counts)
        if self.wraps:
            # a corner counts on its space's side of the seam (within L/2 of the centroid)
            c = cprog[owner]
            half = length / 2
            kprog = np.where(
                kprog - c > half, kprog - length, np.where(c - kprog > half, kprog + length, kprog)
            )
        starts = np.concatenate(([0], np.cumsum(counts)[:-1]))
        fronts = np.maximum.reduceat(kprog, starts).tolist()
        rears = np.minimum.reduceat(kprog, starts).tolist()
        self.centroid_progress = cprog.tolist()
        self.front, self.rear = fronts, rears
        if self.wraps:
            tol = self.tol
            candidates = [r < -tol or f > length + tol for f, r in zip(fronts, rears, strict=False)]
            if any(candidates):
                span = self._seam_span()
                self.straddles_seam = [
                    c and self._across(i, span) for i, c in enumerate(candidates)
                ]

    def _across(self, i: int, span: LineString | None) -> bool:
        """Whether space ``i`` lies across ``span`` (``_seam_span``) for more than
        tolerance. Its corners' progress alone says no such thing: a space far off the
        line (in the infield of an oval) has corners nearest to both sides of the loop,
        and so seems to span the seam."""
        polygon = self.polygons[i]
        if polygon is None or span is None:
            return False
        return float(polygon.intersection(span).length) > self.tol

    def _seam_span(self) -> LineString | None:
        """Where the lanes cross the lap start: the stretch of the line square to the
        racing line at its first point that the spaces cover without a gap (of more than
        tolerance) about the point, or the covered stretch nearest it. A space off the
        track in line with the lap start (in an oval's infield) lies on the line but
        beyond a gap, and so not across the lap start. None when there is no such line."""
        if not self.good:
            return None
        step = min(0.5, self.length / 4)
        before = self.centerline.interpolate(self.length - step)
        after = self.centerline.interpolate(step)
        dx, dy = after.x - before.x, after.y - before.y
        norm = math.hypot(dx, dy)
        if norm == 0:
            return None
        x, y = self.centerline.coords[0]
        ux, uy = dy / norm, -dx / norm
        # As far out as any space reaches: every space that meets the line meets this.
        reach = max(self.offset[i] + 2 * self._sizes[i] for i in self.good)
        line = LineString([(x - ux * reach, y - uy * reach), (x + ux * reach, y + uy * reach)])
        covered = []
        for k in self._good_tree.query(line, predicate="intersects").tolist():
            for part in shapely.get_parts(self.polygons[self.good[k]].intersection(line)):
                along = [(px - x) * ux + (py - y) * uy for px, py in part.coords]
                if along and max(along) - min(along) > 0:
                    covered.append((min(along), max(along)))
        # Lanes drawn with a little room between them still carry the track across
        # the line; a stray space is further off than half a space.
        gap = max(self.tol, 0.5 * float(np.median([self._sizes[i] for i in self.good])))
        runs = _runs(sorted(covered), gap)
        if not runs:
            return None
        low, high = min(runs, key=lambda run: max(run[0], -run[1], 0.0))
        return LineString([(x + ux * low, y + uy * low), (x + ux * high, y + uy * high)])

    def _locate(self, xy: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Progress along the centerline and distance to it of each point.

        The same as shapely's ``project`` (the nearest centerline point, the
        first along the line on a tie), but shapely tests every segment for
        every point; an STRtree of the segments finds the nearest ones first.
        """
        pts = np.asarray(self.centerline.coords, dtype=float)
        a, d = pts[:-1], np.diff(pts, axis=0)
        seglen = np.hypot(d[:, 0], d[:, 1])
        start = np.concatenate(([0.0], np.cumsum(seglen)[:-1]))
        real = np.flatnonzero(seglen > 0)
        tree = shapely.STRtree(shapely.linestrings(np.stack([a[real], pts[1:][real]], axis=1)))
        found = tree.query_nearest(shapely.points(xy), all_matches=True)
        order = np.lexsort((found[1], found[0]))
        point, seg = found[0][order], found[1][order]
        first = np.concatenate(([True], point[1:] != point[:-1]))
        point, seg = point[first], real[seg[first]]
        rel = xy[point] - a[seg]
        t = np.clip(np.einsum("ij,ij->i", rel, d[seg]) / seglen[seg] ** 2, 0.0, 1.0)
        progress = np.zeros(len(xy))
        distance = np.zeros(len(xy))
        progress[point] = start[seg] + t * seglen[seg]
        gap = rel - t[:, None] * d[seg]
        distance[point] = np.hypot(gap[:, 0], gap[:, 1])
        return progress, distance

    def _build_adjacency(self) -> None:
        self.adjacent: list[set[int]] = [set() for _ in range(self.n)]
        self.overlaps: list[Overlap] = []
        if len(self.good) < 2:
            return
        polys = [self.polygons[i] for i in self.good]
        tree = self._good_tree
        left, right = tree.query(polys, predicate="dwithin", distance=self.tol)
        keep = left < right
        left, right = left[keep], right[keep]
        if len(left) == 0:
            return
        arr = np.array(polys, dtype=object)
        areas = self._shared_areas(arr, left, right)
        limit = self.tol * self.tol
        for a, b, area in zip(left.tolist(), right.tolist(), areas.tolist(), strict=False):
            i, j = self.good[a], self.good[b]
            if area > limit:
                self.overlaps.append(Overlap(i, j, float(area)))
            else:
                self.adjacent[i].add(j)
                self.adjacent[j].add(i)

    def _shared_areas(self, arr: np.ndarray, left: np.ndarray, right: np.ndarray) -> np.ndarray:
        """For each pair of good polygons (by place in ``arr``), the area they share."""
        cache, kept = self._cache, self._kept
        areas = np.zeros(len(left))
        todo = np.ones(len(left), dtype=bool)
        keys: list[int] = []
        if cache is not None and kept is not None:
            spaces, good, was = self.track.spaces, self.good, cache.pairs
            for k, (a, b) in enumerate(zip(left.tolist(), right.tolist(), strict=True)):
                i, j = good[a], good[b]
                keys.append(_pair_key(spaces[i], spaces[j]))
                if kept[i] and kept[j]:
                    area = was.get(keys[k])
                    if area is not None:
                        todo[k], areas[k] = False, area
        # Only polygons whose insides meet can overlap: most pairs share an edge
        # (they touch) or only come close, and the exact predicates say so for
        # far less than working out the intersection.
        a, b = arr[left[todo]], arr[right[todo]]
        inside = shapely.intersects(a, b)
        inside[inside] = ~shapely.touches(a[inside], b[inside])
        fresh = np.zeros(len(a))
        fresh[inside] = shapely.area(shapely.intersection(a[inside], b[inside]))
        areas[todo] = fresh
        if cache is not None:  # only this geometry's pairs: the others may be gone
            cache.pairs = dict(zip(keys, areas.tolist(), strict=True))
        return areas

    def _build_forward(self) -> None:
        tol = self.tol
        self.forward: list[tuple[int, ...]] = []
        for i in range(self.n):
            ahead = [j for j in self.adjacent[i] if self.delta(self.front[i], self.front[j]) > tol]
            self.forward.append(tuple(sorted(ahead)))

    # -- lines ----------------------------------------------------------
    def _build_lines(self) -> None:
        t = self.track
        self.lines: list[Segment] = [*list(t.betting_lines), t.finish_line]
        self.line_crossings: list[list[float]] = []
        for seg in self.lines:
            self.line_crossings.append(self._crossings(seg))
        self.line_progress: list[float | None] = [
            (c[0] if c else None) for c in self.line_crossings
        ]
        self.cuts: list[list[int]] = [self.cut_spaces(seg) for seg in self.lines]
        self.beyond: list[list[bool]] = []
        for lp in self.line_progress:
            if lp is None:
                self.beyond.append([False] * self.n)
            else:
                self.beyond.append([c > lp for c in self.centroid_progress])

    def _crossings(self, seg: Segment) -> list[float]:
        """Progress of each point where the segment meets the centerline."""
        if self.length == 0:
            return []
        line = segment_line(seg)
        if line.length == 0:
            return []
        hit = line.intersection(self.centerline)
        points: list[Point] = []
        for part in getattr(hit, "geoms", [hit]):
            if part.is_empty:
                continue
            if part.geom_type == "Point":
                points.append(part)
            else:  # collinear overlap: use its midpoint
                points.append(part.interpolate(0.5, normalized=True))
        return sorted({round(float(self.centerline.project(p)), 6) for p in points})

    @cached_property
    def _good_tree(self) -> shapely.STRtree:
        """A search tree of the usable polygons, in the order of ``good``."""
        return shapely.STRtree([self.polygons[i] for i in self.good])

    def cut_spaces(self, seg: Segment) -> list[int]:
        """Spaces whose interior the segment runs through for more than tolerance."""
        line = segment_line(seg)
        if line.length == 0 or not self.good:
            return []
        cut = []
        for k in sorted(self._good_tree.query(line, predicate="intersects").tolist()):
            i = self.good[k]
            poly = self.polygons[i]
            if poly is None:
                continue
            inner = poly.buffer(-self.tol / 2)
            if not inner.is_empty and inner.intersection(line).length > self.tol:
                cut.append(i)
        return cut

    def crossed(self, a: int, b: int) -> int:
        """Bit k set when a step from a to b crosses line k (R-BET-1)."""
        mask = 0
        for k, beyond in enumerate(self.beyond):
            if beyond[b] and not beyond[a]:
                mask |= 1 << k
        return mask

    def wraps_seam(self, a: int, b: int) -> bool:
        """True when a forward step from a to b passes the seam (a new lap)."""
        return (
            self.wraps and self.centroid_progress[b] < self.centroid_progress[a] - self.length / 2
        )

    def touches(self, i: int, seg: Segment) -> bool:
        """True when the segment passes within tolerance of space i."""
        poly = self.polygons[i]
        if poly is None:
            return False
        return bool(poly.distance(segment_line(seg)) <= self.tol)

    def step_on_line(self, a: int, b: int, seg: Segment) -> bool:
        """True when a step from space a to space b passes over the segment.

        Where a and b share an edge (or a corner: a diagonal step), all of it must
        lie on the segment within tolerance; a line that stops part way along the
        edge lets the car slip past its end. Spaces that only come within
        tolerance of each other fall back to both touching the segment.
        """
        pa, pb = self.polygons[a], self.polygons[b]
        if pa is None or pb is None:
            return False
        shared = pa.boundary.intersection(pb.boundary)
        if shared.is_empty:
            return self.touches(a, seg) and self.touches(b, seg)
        line = segment_line(seg)
        return all(
            Point(x, y).distance(line) <= self.tol
            for x, y in shapely.get_coordinates(shared).tolist()
        )


def _runs(intervals: Sequence[tuple[float, float]], gap: float) -> list[tuple[float, float]]:
    """Sorted ``intervals`` joined where they overlap or lie at most ``gap`` apart."""
    runs: list[tuple[float, float]] = []
    for low, high in intervals:
        if runs and low <= runs[-1][1] + gap:
            runs[-1] = (runs[-1][0], max(runs[-1][1], high))
        else:
            runs.append((low, high))
    return runs


def segment_line(seg: Segment) -> LineString:
    """A betting or finish line segment as a shapely line."""
    return LineString([tuple(map(float, seg[0])), tuple(map(float, seg[1]))])


def _distinct(corners: Sequence[Corner]) -> list[tuple[float, float]]:
    """The corners without repeats (a corner again at once, or the first at the end)."""
    pts = [(float(x), float(y)) for x, y in corners]
    distinct: list[tuple[float, float]] = []
    for p in pts:
        if not distinct or math.dist(p, distinct[-1]) > 1e-9:
            distinct.append(p)
    if len(distinct) > 1 and math.dist(distinct[0], distinct[-1]) <= 1e-9:
        distinct.pop()
    return distinct


def _polygons(spaces: Sequence[Space], tol: float) -> tuple[list[Polygon | None], dict[int, str]]:
    """Each space's polygon (None when unusable) and why the unusable ones are,
    made by shapely's array functions in one go."""
    rings = [_distinct(sp.corners) for sp in spaces]
    bad = {i: "fewer than 3 distinct corners" for i, ring in enumerate(rings) if len(ring) < 3}
    usable = [i for i, ring in enumerate(rings) if len(ring) >= 3]
    polygons: list[Polygon | None] = [None] * len(spaces)
    if not usable:
        return polygons, bad
    coords = np.array([p for i in usable for p in rings[i]], dtype=float)
    owner = np.repeat(np.arange(len(usable)), [len(rings[i]) for i in usable])
    made = shapely.polygons(shapely.linearrings(coords, indices=owner))
    valid = shapely.is_valid(made).tolist()
    areas = shapely.area(made).tolist()
    for i, poly, ok, area in zip(usable, made.tolist(), valid, areas, strict=True):
        if not ok:
            bad[i] = f"not a simple polygon ({shapely.is_valid_reason(poly)})"
        elif area <= tol * tol:
            bad[i] = f"area {area:.2f} mm² is too small"
        else:
            polygons[i] = poly
    return polygons, dict(sorted(bad.items()))


def _frozen(corners: Sequence[Corner]) -> tuple[Corner, ...]:
    """The corners as a tuple of tuples (corners that are tuples already are shared)."""
    return tuple(c if type(c) is tuple else (c[0], c[1]) for c in corners)


def _pair_key(a: Space, b: Space) -> int:
    """One number for a pair of space objects (while both live): their ids side by side."""
    return (id(a) << 64) | id(b)


def _cached_polygons(
    spaces: Sequence[Space], tol: float, cache: GeometryCache, kept: list[bool]
) -> tuple[list[Polygon | None], dict[int, str]]:
    """``_polygons``, taking the kept spaces' polygons from ``cache`` and putting every
    space's in it for the next time."""
    was = cache.shapes
    changed = [i for i, same in enumerate(kept) if not same]
    made, made_bad = _polygons([spaces[i] for i in changed], tol)
    polygons: list[Polygon | None] = [None] * len(spaces)
    bad: dict[int, str] = {}
    shapes: dict[int, tuple[Space, tuple[Corner, ...], Polygon | None, str | None]] = {}
    for i, same in enumerate(kept):
        if same:
            entry = was[id(spaces[i])]
            polygons[i] = entry[2]
            if entry[3] is not None:
                bad[i] = entry[3]
            shapes[id(spaces[i])] = entry
    for k, i in enumerate(changed):
        polygons[i] = made[k]
        reason = made_bad.get(k)
        if reason is not None:
            bad[i] = reason
        sp = spaces[i]
        shapes[id(sp)] = (sp, _frozen(sp.corners), made[k], reason)
    cache.shapes = shapes
    return polygons, dict(sorted(bad.items()))


def is_rectangle(corners: Sequence[Corner]) -> bool:
    """4 corners, every angle 90 degrees within 1 degree (R-POW-DET)."""
    if len(corners) != 4:
        return False
    pts = [(float(x), float(y)) for x, y in corners]
    for k in range(4):
        ax, ay = pts[k - 1]
        bx, by = pts[k]
        cx, cy = pts[(k + 1) % 4]
        u = (ax - bx, ay - by)
        v = (cx - bx, cy - by)
        nu, nv = math.hypot(*u), math.hypot(*v)
        if nu == 0 or nv == 0:
            return False
        cos = max(-1.0, min(1.0, (u[0] * v[0] + u[1] * v[1]) / (nu * nv)))
        if abs(math.degrees(math.acos(cos)) - 90.0) > RIGHT_ANGLE_TOLERANCE_DEG:
            return False
    return True
