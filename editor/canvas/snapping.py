"""Where a pointer position snaps: corners, edges, the racing line, the mm grid.

Pure geometry on the document's track (no Qt), so tools and tests can ask
the same question. Corners win over edges, edges over the racing line, and
the grid is the fallback; Ctrl held turns snapping off (the tools decide).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass, field

from trackside.engine.track import across
from trackside.engine.track.model import Point, Track


@dataclass
class SnapSettings:
    """Which targets snap, and the grid step in mm."""

    grid: bool = True
    corners: bool = True
    edges: bool = True
    racing_line: bool = True
    grid_step: float = 5.0


@dataclass
class Snap:
    """A snapped position and what it snapped to ('corner', 'edge', 'racing', 'grid' or 'none')."""

    x: float
    y: float
    kind: str
    space: int | None = None
    extra: dict = field(default_factory=dict)


class SnapIndex:
    """The spaces of a track filed by the grid cells their bounding boxes cover, so that
    a snap looks only at the spaces near the pointer.

    It answers which spaces may hold a corner or an edge within a reach of a point
    (a superset, in list order); the nearest-corner and nearest-edge searches then
    run over those alone and find exactly what a search over every space finds.
    ``update`` files one space again after its corners changed; the owner builds a
    new index when spaces come or go (their places shift).
    """

    MAX_CELLS = 4096  # a reach wider than this many cells looks at every space

    def __init__(self, track: Track) -> None:
        self.track = track
        self.cell = _cell_size(track)
        self._cells: dict[tuple[int, int], set[int]] = {}
        self._span: list[tuple[int, int, int, int] | None] = []
        self._everywhere: set[int] = set()  # corners no cell can hold (inf, nan)
        for i in range(len(track.spaces)):
            self._span.append(None)
            self.update(i)

    def update(self, i: int) -> None:
        """File space ``i`` again under the cells of its current corners."""
        old = self._span[i]
        if old is not None:
            for key in _keys(old):
                self._cells[key].discard(i)
        self._everywhere.discard(i)
        self._span[i] = None
        corners = self.track.spaces[i].corners
        if not corners:
            return
        try:
            xs = [float(c[0]) for c in corners]
            ys = [float(c[1]) for c in corners]
            span = (
                math.floor(min(xs) / self.cell),
                math.floor(min(ys) / self.cell),
                math.floor(max(xs) / self.cell),
                math.floor(max(ys) / self.cell),
            )
        except (OverflowError, ValueError, TypeError, IndexError):
            self._everywhere.add(i)
            return
        if (span[2] - span[0] + 1) * (span[3] - span[1] + 1) > self.MAX_CELLS:
            self._everywhere.add(i)
            return
        self._span[i] = span
        for key in _keys(span):
            self._cells.setdefault(key, set()).add(i)

    def near(self, x: float, y: float, radius: float) -> list[int]:
        """The spaces whose bounding box comes within ``radius`` of (x, y), in list order."""
        try:
            span = (
                math.floor((x - radius) / self.cell),
                math.floor((y - radius) / self.cell),
                math.floor((x + radius) / self.cell),
                math.floor((y + radius) / self.cell),
            )
        except (OverflowError, ValueError):
            return list(range(len(self.track.spaces)))
        if (span[2] - span[0] + 1) * (span[3] - span[1] + 1) > self.MAX_CELLS:
            return list(range(len(self.track.spaces)))
        found = set(self._everywhere)
        for key in _keys(span):
            found.update(self._cells.get(key, ()))
        return sorted(found)


def _keys(span: tuple[int, int, int, int]) -> list[tuple[int, int]]:
    x0, y0, x1, y1 = span
    return [(cx, cy) for cx in range(x0, x1 + 1) for cy in range(y0, y1 + 1)]


def _cell_size(track: Track) -> float:
    """About the size of a typical space: each space then sits in a few cells."""
    sizes = []
    for sp in track.spaces[:: max(1, len(track.spaces) // 200)]:  # a sample is enough
        try:
            xs = [float(c[0]) for c in sp.corners]
            ys = [float(c[1]) for c in sp.corners]
            size = max(max(xs) - min(xs), max(ys) - min(ys))
        except (ValueError, TypeError, IndexError):
            continue
        if math.isfinite(size) and size > 0:
            sizes.append(size)
    return max(1.0, sorted(sizes)[len(sizes) // 2]) if sizes else 50.0


def snap_point(
    track: Track,
    x: float,
    y: float,
    radius: float,
    settings: SnapSettings,
    exclude: set[int] | frozenset = frozenset(),
    index: SnapIndex | None = None,
) -> Snap:
    """The snapped position for (x, y); ``radius`` is the reach in mm (a few pixels).

    ``index`` (of this very track, up to date) makes the answer quick on a large
    track; it never changes it.
    """
    if settings.corners:
        hit = nearest_corner(track, x, y, radius, exclude, index)
        if hit:
            return hit
    if settings.edges:
        hit = nearest_edge_point(track, x, y, radius, exclude, index)
        if hit:
            return hit
    if settings.racing_line:
        on_line = nearest_on_polyline(
            track.centerline.points, track.centerline.closed, x, y, radius
        )
        if on_line:
            return Snap(on_line[0], on_line[1], "racing")
    if settings.grid and settings.grid_step > 0:
        g = settings.grid_step
        return Snap(round(x / g) * g, round(y / g) * g, "grid")
    return Snap(x, y, "none")


def _near_spaces(
    track: Track,
    x: float,
    y: float,
    radius: float,
    exclude: set[int] | frozenset,
    index: SnapIndex | None,
) -> Iterator[tuple[int, list[Point]]]:
    """Each space that may come within ``radius`` of (x, y), not in ``exclude``, and its
    corners: those the index finds there, else every space."""
    spaces = track.spaces
    for i in index.near(x, y, radius) if index is not None else range(len(spaces)):
        if i not in exclude:
            yield i, spaces[i].corners


def nearest_corner(
    track: Track,
    x: float,
    y: float,
    radius: float,
    exclude: set[int] | frozenset = frozenset(),
    index: SnapIndex | None = None,
) -> Snap | None:
    """The nearest corner of a space (not in ``exclude``) within ``radius``."""
    near = (i for i, _corners in _near_spaces(track, x, y, radius, exclude, index))
    hit = across.nearest_corner(track, x, y, radius, near)
    if hit is None:
        return None
    i, k, cx, cy = hit
    return Snap(cx, cy, "corner", i, {"corner": k})


def nearest_edge_point(
    track: Track,
    x: float,
    y: float,
    radius: float,
    exclude: set[int] | frozenset = frozenset(),
    index: SnapIndex | None = None,
) -> Snap | None:
    """The nearest point on an edge of a space (not in ``exclude``) within ``radius``."""
    best, best_d = None, radius
    for i, pts in _near_spaces(track, x, y, radius, exclude, index):
        for k in range(len(pts)):
            a, b = pts[k], pts[(k + 1) % len(pts)]
            px, py, d = _project(x, y, a, b)
            if d <= best_d:
                best, best_d = Snap(px, py, "edge", i, {"edge": k}), d
    return best


def nearest_on_polyline(
    points: list, closed: bool, x: float, y: float, radius: float
) -> tuple[float, float] | None:
    """The nearest point of a polyline within ``radius``, or None."""
    n = len(points)
    if n < 2:
        return None
    best, best_d = None, radius
    last = n if closed else n - 1
    for k in range(last):
        px, py, d = _project(x, y, points[k], points[(k + 1) % n])
        if d <= best_d:
            best, best_d = (px, py), d
    return best


def nearest_edge_of_space(corners: list, x: float, y: float) -> tuple[int, float, float, float]:
    """For one space: (edge index, projected x, y, distance) of the edge nearest (x, y)."""
    best = (0, float(x), float(y), math.inf)
    for k in range(len(corners)):
        px, py, d = _project(x, y, corners[k], corners[(k + 1) % len(corners)])
        if d < best[3]:
            best = (k, px, py, d)
    return best


def _project(x: float, y: float, a, b) -> tuple[float, float, float]:
    ax, ay = float(a[0]), float(a[1])
    bx, by = float(b[0]), float(b[1])
    dx, dy = bx - ax, by - ay
    den = dx * dx + dy * dy
    t = 0.0 if den == 0 else max(0.0, min(1.0, ((x - ax) * dx + (y - ay) * dy) / den))
    px, py = ax + t * dx, ay + t * dy
    return px, py, math.hypot(px - x, py - y)
