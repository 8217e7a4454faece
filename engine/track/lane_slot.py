"""Which lane a space drawn by hand fills, from where it lies across the track.

A lane is a place across the track: its spaces lie at one distance from the racing
line, measured square to it. A space drawn into a hole of lane 0 shares corners with
the spaces of lane 1 beside it as much as with those of lane 0 ahead and behind, so
the corners it snapped to cannot say which lane it fills; its centre's place across
the track can. Lanes are numbered across each row of spaces, so where the lane count
changes the lane ahead may carry another number: the spaces beside the new one, in
its row, say which number it takes; without any, the spaces ahead and behind at the
same place across the track do.

A space drawn into a lane of ids that are letters and a number (a1, a2...) carries
on that lane's ids.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

from trackside.engine.track.geometry import TrackGeometry
from trackside.engine.track.lap_start import point_and_normal
from trackside.engine.track.model import Point, Space
from trackside.engine.track.transform import bounds_centre, fresh_ids

# A lane's id: its letters, then its number along the lane (a1, b12).
_LANE_ID = re.compile(r"([A-Za-z]+)([0-9]+)")

NEAR_SIZES = 2.5  # how far (in sizes of the new space) a space may lie and be compared
ROW = 0.4  # spaces closer than this (in sizes) along the racing line share a row


@dataclass(frozen=True)
class _Near:
    lane: int
    across: float  # mm across the track from the new space (signed)
    along: float  # mm along the racing line from it (signed)
    distance: float  # mm from centre to centre


def lane_across(g: TrackGeometry, corners: Sequence[Point]) -> int | None:
    """The lane a new space with ``corners`` (not in ``g``) fills: next to the nearest
    space beside it in its row, else that of the nearest space ahead or behind at the
    same place across the track; None when the track has no racing line or no space
    lies near."""
    if g.length == 0 or len(corners) < 3:
        return None
    xs, ys = [float(x) for x, _ in corners], [float(y) for _, y in corners]
    centre = (sum(xs) / len(xs), sum(ys) / len(ys))
    size = math.sqrt(abs(_area(xs, ys)))  # as long as wide, for a square space
    near = _near(g, centre, size)
    if not near:
        return None
    rising = _lanes_rising(near)
    beside = [n for n in near if abs(n.along) < ROW * size and abs(n.across) > ROW * size]
    if beside and rising is not None:
        nearest = min(beside, key=lambda n: abs(n.across))
        step = 1 if (nearest.across > 0) == rising else -1  # its lane is ours plus step
        return max(0, nearest.lane - step)
    return min(near, key=lambda n: (abs(n.across), n.distance)).lane


def _near(g: TrackGeometry, centre: tuple[float, float], size: float) -> list[_Near]:
    """The spaces within ``NEAR_SIZES`` sizes of ``centre``, placed from it."""
    good = set(g.good)
    here = g.progress(*centre)
    across = _across(g, centre, here)
    near = []
    for i, at in enumerate(g.centroids):
        distance = math.dist(at, centre)
        if i in good and distance <= NEAR_SIZES * size:
            progress = g.progress(*at)
            place = _across(g, at, progress) - across
            near.append(_Near(g.lanes[i], place, g.delta(here, progress), distance))
    return near


def _area(xs: list[float], ys: list[float]) -> float:
    """The signed area of the polygon of corners ``xs``, ``ys`` (shoelace)."""
    n = len(xs)
    return sum(xs[k] * ys[(k + 1) % n] - xs[(k + 1) % n] * ys[k] for k in range(n)) / 2


def _lanes_rising(near: list[_Near]) -> bool | None:
    """Whether lane numbers rise across the track in the signed direction (None when
    the spaces near say nothing: all of one lane, or of one place across)."""
    mean_lane = sum(n.lane for n in near) / len(near)
    mean_place = sum(n.across for n in near) / len(near)
    together = sum((n.lane - mean_lane) * (n.across - mean_place) for n in near)
    return None if abs(together) < 1e-9 else together > 0


def _across(g: TrackGeometry, at: tuple[float, float], progress: float) -> float:
    """How far ``at`` (``progress`` mm along the racing line) lies across the track from
    it (signed: one side positive, the other negative)."""
    (px, py), (nx, ny) = point_and_normal(g, progress)
    return (at[0] - px) * nx + (at[1] - py) * ny


def lane_space_id(spaces: Sequence[Space], lane: int, corners: Sequence[Point]) -> str | None:
    """The id of a new space with ``corners`` in ``lane``, going on with that lane's ids:
    the letters of the id of the lane's space nearest to it, and the number after the
    highest in use with them (a49 beside a10 of a lane of a1 to a48); None when that
    id is not letters and a number, or the lane has no space."""
    centre = bounds_centre(corners)
    in_lane = [sp for sp in spaces if sp.lane == lane]
    if not in_lane:
        return None
    nearest = min(in_lane, key=lambda sp: math.dist(bounds_centre(sp.corners), centre))
    if not _LANE_ID.fullmatch(nearest.id):
        return None
    return fresh_ids([nearest.id], (sp.id for sp in spaces))[nearest.id]
