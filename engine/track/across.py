"""Lines across the track: a rough line fitted to the track's edges, and a line across
every lane at one edge of a space (where a betting or finish line is placed).

The editor's line tools and the balance lab's suggested fixes place lines the
same way, through these functions.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from shapely.geometry import LineString

from trackside.engine.track.geometry import TrackGeometry
from trackside.engine.track.lap_start import edge_progress, point_and_normal
from trackside.engine.track.model import Segment, Track

CORNER_SHARE = 0.3  # a fitted end moves to a corner within this share of the space's size

Corner = tuple[int, int, float, float]  # space index, corner index, x, y


def nearest_corner(
    track: Track, x: float, y: float, radius: float, spaces: Iterable[int] | None = None
) -> Corner | None:
    """The corner nearest (x, y) within ``radius`` among ``spaces`` (indices; every space
    when None): its space, its place in the space's corners and where it is."""
    best: Corner | None = None
    best_d = radius
    for i in range(len(track.spaces)) if spaces is None else spaces:
        for k, (cx, cy) in enumerate(track.spaces[i].corners):
            d = math.hypot(float(cx) - x, float(cy) - y)
            if d <= best_d:
                best, best_d = (i, k, float(cx), float(cy)), d
    return best


def fit_across_track(
    geometry: TrackGeometry, start: tuple[float, float], end: tuple[float, float], reach: float
) -> tuple[tuple[float, float], tuple[float, float]]:
    """A line dragged roughly across the track, trimmed or stretched to its edges.

    The line keeps its direction; its ends move to where it leaves the run of
    touching spaces it crosses (the one it overlaps most), then to a corner of
    a space within ``reach`` mm, since lines lie on space edges. A line that
    crosses no space comes back unchanged.
    """
    length = math.dist(start, end)
    if length < 1e-9:
        return start, end
    ux, uy = (end[0] - start[0]) / length, (end[1] - start[1]) / length
    run = _covered_run(geometry, start, (ux, uy), length)
    if run is None:
        return start, end
    trimmed = [(start[0] + ux * s, start[1] + uy * s) for s in run]
    ends = []
    for x, y in trimmed:
        hit = nearest_corner(geometry.track, x, y, reach)
        ends.append((hit[2], hit[3]) if hit else (x, y))
    # Corners taken one end at a time can skew the line through spaces (the validator's
    # line-cuts-space); then it stays trimmed as drawn.
    if geometry.cut_spaces((ends[0], ends[1])):
        return trimmed[0], trimmed[1]
    return ends[0], ends[1]


def fit_drag_across(
    geometry: TrackGeometry, start: tuple[float, float], end: tuple[float, float], reach: float
) -> tuple[tuple[float, float], tuple[float, float]] | None:
    """A line dragged across the track, laid on the edges of the spaces it crosses.

    The drag is fitted as ``fit_across_track`` fits it; when that line would run
    through spaces (its ends near corners of different rows, or spaces whose edges
    do not line up with the drag, as in a bend), it goes instead to the row edge
    nearest the drag among those of the spaces it crosses, across every lane. None
    when no such edge lies across the track without running through a space. A
    drag that crosses no space comes back unchanged.
    """
    fitted = fit_across_track(geometry, start, end, reach)
    cut = geometry.cut_spaces(fitted)
    if not cut:
        return fitted
    mid = ((fitted[0][0] + fitted[1][0]) / 2, (fitted[0][1] + fitted[1][1]) / 2)
    here = geometry.progress(*mid)
    edges = sorted(
        {(round(float(p), 6), i) for i in cut for p in (geometry.rear[i], geometry.front[i])},
        key=lambda edge: (abs(geometry.delta(here, edge[0])), edge),
    )
    for progress, space in edges:
        line = line_across(geometry, space, progress)
        if line is not None and not geometry.cut_spaces(line):
            return (float(line[0][0]), float(line[0][1])), (float(line[1][0]), float(line[1][1]))
    return None


def line_across(g: TrackGeometry, space: int, near: float | None = None) -> Segment | None:
    """A line across the track at the edge of space ``space`` nearest ``near`` (a
    progress; its rear edge without): square to the racing line there, over every
    lane. None when no line can be fitted there."""
    if space >= g.n or g.polygons[space] is None or g.length == 0:
        return None
    progress = edge_progress(g, space, near)
    (x, y), (nx, ny) = point_and_normal(g, progress)
    reach = CORNER_SHARE * g.size(space)
    start, end = fit_across_track(g, (x - nx, y - ny), (x + nx, y + ny), reach)
    if start == (x - nx, y - ny):  # no space along it: nothing to fit to
        return None
    return start, end


def _covered_run(
    geometry: TrackGeometry,
    origin: tuple[float, float],
    direction: tuple[float, float],
    length: float,
) -> tuple[float, float] | None:
    """The stretch (distances from ``origin``) of the line covered by touching spaces."""
    ux, uy = direction
    ox, oy = origin
    far = max(length, 200.0)
    probe = LineString(
        [(ox - ux * far, oy - uy * far), (ox + ux * (length + far), oy + uy * (length + far))]
    )
    tol = geometry.tol
    stretches: list[tuple[float, float]] = []
    for i in geometry.good:
        polygon = geometry.polygons[i]
        if polygon is None:  # never for a good space; the list also holds the bad ones
            continue
        cut = polygon.intersection(probe)
        for part in getattr(cut, "geoms", [cut]):
            coords = list(getattr(part, "coords", []))
            if len(coords) < 2:
                continue
            along = [(x - ox) * ux + (y - oy) * uy for x, y in coords]
            if max(along) - min(along) > tol:
                stretches.append((min(along), max(along)))
    runs: list[list[float]] = []
    for a, b in sorted(stretches):
        if runs and a <= runs[-1][1] + tol:
            runs[-1][1] = max(runs[-1][1], b)
        else:
            runs.append([a, b])
    overlap = [(min(b, length) - max(a, 0.0), (a, b)) for a, b in runs]
    best = max(overlap, default=None)
    if best is None or best[0] <= 0:
        return None
    return best[1]
