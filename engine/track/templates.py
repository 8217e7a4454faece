"""Circuits to start from: an oval and a peanut (the figure-eight shape without its
crossing), built with the lane builder, each a valid closed track.

A figure eight proper crosses itself, and a flat board cannot: where the two
stretches cross their spaces would overlap and the racing line cross itself,
both errors (docs/validation.md). The peanut keeps the shape, two lobes and a
waist, without the crossing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from trackside.engine.track.lanes import (
    Arc,
    LaneLayout,
    Straight,
    build_lanes,
    make_track,
    pick_grid,
)
from trackside.engine.track.model import Track

RUNOFF_ROWS = 3  # rows between the finish line and the lap start
BETTING = (0.3, 0.55, 0.8)  # betting lines, as shares of the way from the pole to the finish


@dataclass(frozen=True)
class Template:
    """A circuit to start from: its name, a sentence about it, and how to build it."""

    name: str
    description: str
    build: Callable[[], Track]


def from_layout(layout: LaneLayout, name: str, description: str) -> Track:
    """A finished track from a closed layout: the grid just after the lap start, the
    finish ``RUNOFF_ROWS`` rows before it, the betting lines spread between."""
    result = build_lanes(layout)
    grid = pick_grid(result)
    pole = result.space(grid[0]).front
    finish = next(b.progress for b in result.boundaries if b.row == result.rows - RUNOFF_ROWS)
    betting = [pole + share * (finish - pole) for share in BETTING]
    return make_track(
        result, name, betting=betting, finish=finish, grid=grid, description=description
    )


def oval(straight: float = 360.0) -> Track:
    """Two straights (``straight`` mm each) and two half circles, three lanes."""
    half = (Straight(straight), Arc(150, 180))
    layout = LaneLayout(pieces=half + half, start=(220.0, 440.0), closed=True, lanes=3)
    return from_layout(layout, "Oval", "Two straights and two bends: a circuit to start from.")


def peanut() -> Track:
    """Two lobes joined by a waist that bends in on both sides, three lanes."""
    # Each half (a waist side, then a lobe) turns 180 degrees, so the second half, the
    # first turned round, brings the racing line back to its start.
    waist = (Arc(150, 30), Arc(150, -60), Arc(150, 30))
    half = (Straight(120), *waist, Straight(80), Arc(170, 180))
    layout = LaneLayout(pieces=half + half, start=(240.0, 500.0), closed=True, lanes=3)
    return from_layout(
        layout,
        "Peanut",
        "The figure-eight shape without its crossing: two lobes and a waist.",
    )


TEMPLATES = (
    Template("Oval", "two straights and two bends", oval),
    Template(
        "Peanut",
        "the figure-eight shape without its crossing (a flat board cannot cross itself)",
        peanut,
    ),
)
