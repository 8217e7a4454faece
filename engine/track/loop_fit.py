"""Closing a lane layout into a loop, and building a kept layout as it was created.

When the turns of a layout add up to a whole turn but its end misses its
start, ``fit_loop`` changes the lengths of straights so that the line comes
home exactly: the straights the designer chose (``Straight.closes``), else
the fewest and smallest changes among those not kept as typed. A straight
kept as typed is never changed; when the loop cannot close, the fit says so
and by how much. ``build_kept`` builds a ``KeptLayout`` the way the editor's
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

from trackside.engine.text import listed
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
    """The outcome of closing a layout: the closed layout and the straights whose
    length was fitted, or no layout and why not. ``miss`` is how far (mm) the end
    misses the start when the turns make a whole turn but the straights allowed
    to change cannot close the gap (0 otherwise)."""

    layout: LaneLayout | None
    fitted: tuple[int, ...] = ()
    note: str = ""
    miss: float = 0.0


def closing_candidates(layout: LaneLayout) -> tuple[list[int], bool]:
    """The straights the fitter may change, and whether the designer chose them:
    those marked ``closes`` if any, else every straight not kept as typed."""
    straights = [(k, p) for k, p in enumerate(layout.pieces) if isinstance(p, Straight)]
    chosen = [k for k, p in straights if p.closes]
    if chosen:
        return chosen, True
    return [k for k, p in straights if p.closes is None], False


def fit_loop(layout: LaneLayout) -> LoopFit:
    """The layout closed into a loop by lengthening or shortening the straights the
    designer chose to close it (else any straight not kept as typed: the smallest
    change), or no layout and the reason. The turns must add up to ±360 degrees."""
    turn = sum(p.turn for p in layout.pieces)
    dist, _dh = closure_gap(layout)
    if abs(abs(turn) - 360.0) > 1e-6:
        return LoopFit(None, note=f"the turns add up to {turn:g}°; ±360° closes the loop")
    if dist <= layout.closure_tolerance:
        return LoopFit(replace(layout, closed=True))
    candidates, chosen = closing_candidates(layout)
    best: tuple[float, LaneLayout, tuple[int, ...], str] | None = None
    for candidate, fitted, how in _closings(layout, candidates):
        change = sum(
            abs(a.path_length - b.path_length)
            for a, b in zip(layout.pieces, candidate.pieces, strict=False)
        )
        if best is None or change < best[0]:
            best = (change, candidate, fitted, how)
    if best is None:
        return LoopFit(None, note=_why_open(layout, candidates, chosen, dist), miss=dist)
    _change, closed, fitted, how = best
    return LoopFit(replace(closed, closed=True), fitted, how)


def _why_open(layout: LaneLayout, candidates: list[int], chosen: bool, dist: float) -> str:
    """Why no straight closes the loop, with how far the end misses the start."""
    end = trace(layout)[-1]
    miss = (
        f"the loop does not close with these values: its end misses its start by "
        f"{dist:.1f} mm ({_where(end.x - layout.start[0], end.y - layout.start[1])})"
    )
    if chosen:
        who = _pieces_named(candidates)
        return (
            f"{miss}, and {who} chosen to close it cannot take that up; choose another "
            "straight (two at an angle close any gap) or change a value"
        )
    if not any(isinstance(p, Straight) for p in layout.pieces):
        return f"{miss}; add a straight, or make opposite arcs the same radius"
    if not candidates:
        return f"{miss}; every straight is kept as typed: choose one to close the loop"
    return f"{miss}; choose a straight to close it, or change a value"


def _where(dx: float, dy: float) -> str:
    """Where the end lies from the start, in words as seen on the board (y down)."""
    parts = []
    if abs(dx) >= 0.05:
        parts.append(f"{abs(dx):.1f} mm to the {'right' if dx > 0 else 'left'}")
    if abs(dy) >= 0.05:
        parts.append(f"{abs(dy):.1f} mm {'below' if dy > 0 else 'above'}")
    return " and ".join(parts) or "less than 0.1 mm"


def _pieces_named(indices: list[int]) -> str:
    numbers = [str(k + 1) for k in indices]
    return f"piece {numbers[0]}" if len(numbers) == 1 else f"pieces {listed(numbers)}"


def _closings(
    layout: LaneLayout, candidates: list[int]
) -> Iterator[tuple[LaneLayout, tuple[int, ...], str]]:
    """Candidate closed layouts: one straight along the gap, or two at an angle,
    changing only the straights in ``candidates``."""
    poses = trace(layout)
    end = poses[-1]
    gx, gy = layout.start[0] - end.x, layout.start[1] - end.y
    for k in candidates:
        piece = layout.pieces[k]
        if not isinstance(piece, Straight):
            continue
        h = math.radians(poses[k].heading)
        ux, uy = math.cos(h), -math.sin(h)  # board coordinates: y down
        if abs(ux * gy - uy * gx) <= 0.005:
            new = piece.length + ux * gx + uy * gy
            if new >= layout.space_length / 2:
                pieces = list(layout.pieces)
                pieces[k] = replace(piece, length=new)
                yield (
                    replace(layout, pieces=tuple(pieces)),
                    (k,),
                    f"Piece {k + 1} is {new:.1f} mm long to close the loop",
                )
    for i, j in itertools.combinations(candidates, 2):
        try:
            fitted = close_loop(layout, (i, j))
        except LayoutError:
            continue
        yield (
            fitted,
            (i, j),
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
