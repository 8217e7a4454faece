"""The lap start of a closed circuit, and lines across the track at a space.

The **lap start** is where a lap of a closed circuit begins and ends: the first
point of the racing line (``centerline.points[0]``). Progress is measured from
it, a step over it starts a new lap, and no space may lie across it (the
``across-seam`` check). Moving the lap start re-orders the racing line's
points so that they begin at the new place; the line itself does not change.
"""

from __future__ import annotations

import itertools
import math

import numpy as np

from trackside.engine.track.geometry import TrackGeometry
from trackside.engine.track.model import Centerline, Point

# Points closer than this (mm) are the same point when the racing line is re-ordered.
SAME_POINT_MM = 1e-3


def centerline_starting_at(centerline: Centerline, progress: float) -> Centerline:
    """The closed racing line with its points re-ordered to start ``progress`` mm along
    it (a point is added there unless one is already there). An open line, or one of
    fewer than three points, comes back unchanged."""
    pts = [(float(x), float(y)) for x, y in centerline.points]
    if not centerline.closed or len(pts) < 3:
        return Centerline(closed=centerline.closed, points=list(centerline.points))
    ring = [*pts, pts[0]]
    lengths = [math.dist(a, b) for a, b in itertools.pairwise(ring)]
    total = sum(lengths)
    if total == 0:
        return Centerline(closed=True, points=list(centerline.points))
    along = float(progress) % total  # a numpy number would reach the file: YAML refuses it
    start = 0.0
    for k, seg in enumerate(lengths):
        if along <= start + seg or k == len(lengths) - 1:
            t = 0.0 if seg == 0 else min(1.0, max(0.0, (along - start) / seg))
            a, b = ring[k], ring[k + 1]
            q = (round(a[0] + t * (b[0] - a[0]), 3), round(a[1] + t * (b[1] - a[1]), 3))
            nxt = (k + 1) % len(pts)
            if math.dist(q, a) <= SAME_POINT_MM:
                order = pts[k:] + pts[:k]
            elif math.dist(q, b) <= SAME_POINT_MM:
                order = pts[nxt:] + pts[:nxt]
            else:
                order = [q, *pts[k + 1 :], *pts[: k + 1]]
            return Centerline(closed=True, points=order)
        start += seg
    raise AssertionError("unreachable: the last segment always matches")


def edge_progress(g: TrackGeometry, i: int, near: float | None = None) -> float:
    """Progress of the rear edge of space i, or of its front edge when ``near`` (a
    progress, e.g. of a click) is closer to the front."""
    rear, front = float(g.rear[i]), float(g.front[i])
    if near is not None and abs(g.delta(near, front)) < abs(g.delta(near, rear)):
        return _wrap(g, front)
    return _wrap(g, rear)


def clean_lap_start(g: TrackGeometry, progress: float) -> float:
    """The place nearest ``progress`` where a lap may start: a space edge that no space
    lies across. ``progress`` itself when no edge is clean (the validator then says so)."""
    if not g.wraps or not g.good:
        return float(progress)
    good = np.array(g.good)
    rear = np.array(g.rear)[good]
    span = np.array(g.front)[good] - rear
    half = g.length / 2
    candidates = sorted(
        {round(_wrap(g, p), 6) for p in (*rear, *(rear + span))},
        key=lambda p: abs(g.delta(progress, p)),
    )
    for p in candidates:
        behind = (rear - p + half) % g.length - half  # rear edges relative to p
        if not np.any((behind < -g.tol) & (behind + span > g.tol)):
            return float(p)
    return float(progress)


def point_and_normal(g: TrackGeometry, progress: float) -> tuple[Point, Point]:
    """The racing line's point ``progress`` mm along it, and the unit vector across the
    track there."""
    line = g.centerline
    if g.length == 0:
        return (0.0, 0.0), (0.0, 1.0)
    p = _wrap(g, progress) if g.wraps else min(max(progress, 0.0), g.length)
    here = line.interpolate(p)
    step = min(0.5, g.length / 4)
    a = line.interpolate(_wrap(g, p - step) if g.wraps else max(0.0, p - step))
    b = line.interpolate(_wrap(g, p + step) if g.wraps else min(g.length, p + step))
    dx, dy = b.x - a.x, b.y - a.y
    norm = math.hypot(dx, dy) or 1.0
    return (float(here.x), float(here.y)), (dy / norm, -dx / norm)


def _wrap(g: TrackGeometry, progress: float) -> float:
    return progress % g.length if g.wraps and g.length > 0 else progress
