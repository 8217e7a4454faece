"""Closing a lane layout into a loop, and building a kept layout as it was created.

When the turns of a layout add up to a whole turn but its end misses its
start, ``fit_loop`` changes the lengths of straights so that the line comes
home exactly. ``build_kept`` builds a ``KeptLayout`` the way the editor's
Create built it (fitted into a loop when its ``close`` setting says so), and
``kept_ids`` gives the track id of every space it makes.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from functools import lru_cache
from types import MappingProxyType

from trackside.engine.track.lanes import (
    LaneLayout,
    LaneResult,
    LayoutError,
    Straight,
    build_lanes,
    close_loop,
    closure_gap,
    trace,
)
from trackside.engine.track.layout import KeptLayout


@dataclass(frozen=True)
class LoopFit:
    """The outcome of closing a layout: the closed layout, or None and why not."""

    layout: LaneLayout | None
    note: str = ""


def fit_loop(layout: LaneLayout) -> LoopFit:
    """The layout closed into a loop by lengthening or shortening straights (the
    smallest change), or no layout and the reason. The turns must already add up
    to ±360 degrees."""
    turn = sum(p.turn for p in layout.pieces)
    if abs(abs(turn) - 360.0) > 1e-6:
        return LoopFit(None, f"the turns add up to {turn:g}°; ±360° closes the loop")
    dist, _dh = closure_gap(layout)
    if dist <= layout.closure_tolerance:
        return LoopFit(replace(layout, closed=True))
    best: tuple[float, LaneLayout, str] | None = None
    for candidate, how in _closings(layout):
        change = sum(
            abs(a.path_length - b.path_length)
            for a, b in zip(layout.pieces, candidate.pieces, strict=False)
        )
        if best is None or change < best[0]:
            best = (change, candidate, how)
    if best is None:
        return LoopFit(
            None,
            f"the end misses the start by {dist:.1f} mm and no straights can close "
            "the gap; make opposite arcs the same radius or add a straight",
        )
    return LoopFit(replace(best[1], closed=True), best[2])


def _closings(layout: LaneLayout) -> Iterator[tuple[LaneLayout, str]]:
    """Candidate closed layouts: one straight along the gap, or two at an angle."""
    poses = trace(layout)
    end = poses[-1]
    gx, gy = layout.start[0] - end.x, layout.start[1] - end.y
    straights = {k: p for k, p in enumerate(layout.pieces) if isinstance(p, Straight)}
    for k, piece in straights.items():
        h = math.radians(poses[k].heading)
        ux, uy = math.cos(h), math.sin(h)
        if abs(ux * gy - uy * gx) <= 0.005:
            new = piece.length + ux * gx + uy * gy
            if new >= layout.space_length / 2:
                pieces = list(layout.pieces)
                pieces[k] = replace(piece, length=new)
                yield (
                    replace(layout, pieces=tuple(pieces)),
                    f"Piece {k + 1} is {new:.1f} mm long to close the loop",
                )
    for i, j in itertools.combinations(straights, 2):
        try:
            fitted = close_loop(layout, (i, j))
        except LayoutError:
            continue
        yield (
            fitted,
            (
                f"Pieces {i + 1} and {j + 1} are {fitted.pieces[i].path_length:.1f} and "
                f"{fitted.pieces[j].path_length:.1f} mm long to close the loop"
            ),
        )


def build_kept(kept: KeptLayout) -> LaneResult:
    """The spaces of a kept layout as Create built them (``LayoutError`` if it cannot
    be built)."""
    layout = kept.lane_layout()
    if kept.settings.close:
        fitted = fit_loop(layout).layout
        if fitted is not None:
            layout = fitted
    return build_lanes(layout)


@lru_cache(maxsize=128)
def kept_ids(kept: KeptLayout) -> Mapping[str, str]:
    """The builder's id of every space the layout makes, mapped to its id in the
    track (renamed, or the same); only the renamed ones when it cannot be built.
    Cached per layout (it builds the spaces), so it is read-only."""
    renamed = kept.names()
    try:
        built = build_kept(kept)
    except LayoutError:
        return MappingProxyType(renamed)
    return MappingProxyType({sp.id: renamed.get(sp.id, sp.id) for sp in built.spaces})
