#!/usr/bin/env python3
"""Generate the bundled circuits in ``tracks/`` with the lane builder.

Run from the repository root::

    python tools/make_tracks.py           # (re)write tracks/*.yaml
    python tools/make_tracks.py --check   # exit 1 if a file differs from what this makes

Every circuit is an original design: a closed loop whose seam (the first
centerline point) lies on its main straight, with the start grid just after
the seam, betting lines 1-3 in race order and the finish line a few rows
before the seam. Each is checked with ``engine.track.validate`` before it is written,
and keeps its lane layout (``lane_layouts``), checked to build the same spaces as
the editor's Lanes tool builds them, so that a copy can be laid out again.
"""

from __future__ import annotations

import argparse
import math
import sys
from dataclasses import dataclass, replace
from pathlib import Path

from trackside.engine.errors import TracksideError
from trackside.engine.track.lanes import (
    Arc,
    LaneLayout,
    LaneResult,
    Straight,
    build_lanes,
    close_loop,
    make_track,
    pick_grid,
)
from trackside.engine.track.layout import KeptLayout
from trackside.engine.track.loop_fit import build_kept
from trackside.engine.track.model import Track
from trackside.engine.track.validate import validate_track
from trackside.engine.yamlio import write_atomic

# The repository (the package is installed from it: ``make setup``).
ROOT = Path(__file__).resolve().parent.parent

BOARD = (800.0, 550.0)
AUTHOR = "Trackside"


# Grid slots 1 to 6, pole first. The pole car's owner plays first (R-RACE-1),
# and that first turn is the pole's edge: with four abreast and two behind it
# won 26 to 30% of races on all three circuits. Measured with the balance lab
# (2,000 four-player greedy games per try, seeds 0 and 20000, the same seeds
# for every try):
#
# - Six abreast: the whole grid in one row of a six-lane start box (two rows
#   of six lanes from the seam, then the circuit's four), the pole in the third
#   lane. The back pair is level, so the pole's first turn is shared against
#   five equals and every other slot wins 13 to 16%: the pole wins 1.5 to 2
#   points less than with four abreast (Estuary Sweep: 25.4 and 25.9% against
#   27.2 and 27.7%). Harbour Loop and Estuary Sweep start this way.
# - Less blocking, then a longer race: each row a car may pass in wastes less
#   movement, so fewer cars stall, and the stalls saved pay for more rows. A
#   longer race lowers the pole's share by about a third of a point a row and
#   adds 0.04 to 0.05 stalled cars a row (Harbour Loop, six abreast: 45 rows,
#   25.1% and 0.32 stalled; 48 rows, 23.1% and 0.43; Estuary Sweep: 42 rows,
#   0.33 stalled; 45 rows, 0.49 and 0.51, too many). Quarry Hairpin has three
#   lanes on its floor instead of two (0.07 stalled cars fewer) and 48 rows
#   instead of 44; its crest is too close to the ledge, and the board too
#   short, for a six-lane start box, so it keeps four abreast. Its finish is
#   a row earlier than the others' (four rows of run-off): with four strong
#   bots (the lab's players) three rows left 0.51 and 0.50 stalled cars a
#   race on seeds 0 and 20000, four rows 0.46 and 0.47 (the strong bot that
#   tried three cards in two deals; the one that tries five in one leaves
#   0.47 and 0.46 with four rows).
#
# Tried before and dropped: a pole in an outer lane (about one point more), a
# grid of three abreast (one to two and a half points more), the back pair in
# the outer lanes or a staggered start straight (the last slot near 8%), the
# first bend's radius, a four-lane first bend, a narrowing just ahead of the
# grid, a narrower run to the finish (each less than a point). A pole one row
# back would win about 8 points less, but the grid lists its spaces front to
# back (the validator warns otherwise).
FOUR_ABREAST = ("b2", "c2", "a2", "d2", "b1", "c1")
SIX_ABREAST = ("c2", "d2", "b2", "e2", "a2", "f2")


@dataclass(frozen=True)
class Circuit:
    """One bundled circuit: its file, names and racing line.

    ``adjust`` names the two straights that ``close_loop`` lengthens or
    shortens so that the loop closes exactly; ``runoff`` is the number of rows
    between the finish line and the seam; ``betting`` places the three betting
    lines as fractions of the way from the pole to the finish; ``grid`` lists
    the six start spaces, pole first (None: the first six spaces after the seam).

    The lap lengths (``space_length``) are set by the balance lab, not by eye:
    4-player greedy games on the standard deck should rarely leave a car
    stalled short of the finish (README, "Bundled circuits").
    """

    file: str
    name: str
    description: str
    layout: LaneLayout
    adjust: tuple[int, int]
    runoff: int
    betting: tuple[float, float, float] = (0.3, 0.55, 0.8)
    grid: tuple[str, ...] | None = None
    expect_warnings: tuple[str, ...] = ()


HARBOUR_LOOP = Circuit(
    file="harbour-loop.yaml",
    name="Harbour Loop",
    description=(
        "A flowing three-lane circuit around a harbour basin: a six-abreast start "
        "on the quayside straight, two sweeping bends and a fast dip around the harbour mouth, "
        "with room to pass almost everywhere."
    ),
    layout=LaneLayout(
        pieces=(
            Straight(76, lanes=6),  # 0 six-lane start, from the seam, east
            Straight(112, lanes=4),  # 1 four-lane quayside straight (fitted)
            Arc(160, 90),  # 2 lighthouse bend, north
            Straight(100),  # 3 east side (fitted)
            Arc(125, 110),  # 4 top bend
            Arc(100, 30),  # 5 down towards the harbour mouth
            Straight(75),
            Arc(80, -100),  # 7 around the harbour mouth
            Straight(75),
            Arc(100, 30),
            Arc(125, 110),  # 10 the fish market bend, south
            Straight(66),  # 11 west side
            Arc(160, 90),  # 12 onto the quay, east
            Straight(111, lanes=4),  # 13 run-off after the finish, up to the seam
        ),
        closed=True,
        lanes=3,
        space_length=38.0,
        lane_width=37.0,
    ),
    adjust=(1, 3),
    runoff=3,
    grid=SIX_ABREAST,
)

QUARRY_HAIRPIN = Circuit(
    file="quarry-hairpin.yaml",
    name="Quarry Hairpin",
    description=(
        "A technical circuit that zig-zags down a quarry: a four-lane crest, "
        "three lanes down the quarry wall, along the floor and the ledge, "
        "two tight hairpins and, between them, a single-file cut through the rock where "
        "nobody can pass."
    ),
    layout=LaneLayout(
        pieces=(
            Straight(250, lanes=4),  # 0 four-lane crest straight from the seam, east (fitted)
            Arc(90, -90, lanes=3),  # 1 down the quarry wall, south
            Straight(240, lanes=3),  # 2 east wall (fitted)
            Arc(90, -90),  # 3 quarry floor, west
            Straight(280),  # 4
            Arc(60, -180),  # 5 lower hairpin, back east
            Straight(80),
            Straight(45, lanes=1),  # 7 the cut: single file
            Straight(60),
            Arc(60, 180),  # 9 upper hairpin, back west
            Straight(230, lanes=3),  # 10 ledge
            Arc(90, -90, lanes=3),  # 11 climb, north
            Arc(90, -90, lanes=3),  # 12 over the crest, east
            Straight(160, lanes=4),  # 13 run-off after the finish, up to the seam
        ),
        closed=True,
        lanes=3,
        space_length=44.0,
        lane_width=34.0,
    ),
    adjust=(0, 2),
    runoff=4,
    grid=FOUR_ABREAST,
    expect_warnings=("single-file",),
)

ESTUARY_SWEEP = Circuit(
    file="estuary-sweep.yaml",
    name="Estuary Sweep",
    description=(
        "A wide, fast circuit along an estuary: a six-abreast start on a four-lane "
        "main straight, staggered sweepers, and a two-lane dip over the old bridge "
        "where the field has to funnel before the long sweep home."
    ),
    layout=LaneLayout(
        pieces=(
            Straight(94, lanes=6),  # 0 six-lane start, from the seam, west
            Straight(206, lanes=4),  # 1 four-lane main straight (fitted)
            Arc(130, -90),  # 2 first bend, north
            Straight(100),  # 3 west bank (fitted)
            Arc(110, -90, stagger=0.3),  # 4 sweeper, east
            Arc(90, -70),  # 5 down to the bridge
            Straight(80, lanes=2),
            Arc(65, 140, lanes=2),  # 7 over the bridge
            Straight(80, lanes=2),
            Arc(90, -70),  # 9 back up
            Arc(185, -90, stagger=0.3),  # 10 the long sweep, south
            Straight(80),  # 11 east bank
            Arc(130, -90, lanes=4),  # 12 last bend, west
            Straight(150, lanes=4),  # 13 run-off after the finish, up to the seam
        ),
        closed=True,
        lanes=3,
        space_length=47.0,
        lane_width=34.0,
        heading=180.0,
    ),
    adjust=(1, 3),
    runoff=3,
    grid=SIX_ABREAST,
)

CIRCUITS = (HARBOUR_LOOP, QUARRY_HAIRPIN, ESTUARY_SWEEP)


def centred(layout: LaneLayout, board: tuple[float, float] = BOARD) -> LaneLayout:
    """The layout moved so that its spaces sit in the middle of the board."""
    result = build_lanes(layout)
    xs = [x for sp in result.spaces for x, _y in sp.corners]
    ys = [y for sp in result.spaces for _x, y in sp.corners]
    width, height = max(xs) - min(xs), max(ys) - min(ys)
    if width > board[0] or height > board[1]:
        raise SystemExit(
            f"the circuit is {width:.0f} x {height:.0f} mm, larger than the "
            f"{board[0]:.0f} x {board[1]:.0f} mm board"
        )
    dx = board[0] / 2 - (min(xs) + max(xs)) / 2
    dy = board[1] / 2 - (min(ys) + max(ys)) / 2
    # Whole millimetres keep the file readable; the loop closes exactly either way.
    start = (round(layout.start[0] + dx), round(layout.start[1] + dy))
    return replace(layout, start=start)


def finish_progress(result: LaneResult, runoff: int) -> float:
    """Progress of the shared edge ``runoff`` rows before the seam."""
    row = result.rows - runoff
    for boundary in result.boundaries:
        if boundary.row == row:
            return boundary.progress
    raise SystemExit(f"no edge shared by all lanes after row {row} for the finish line")


def kept(circuit: Circuit, start: tuple[float, float]) -> KeptLayout:
    """The circuit's layout as the track keeps it (``lane_layouts``), from the centred
    ``start``: its pieces as typed, the two it fits to close the loop marked, so that
    a copy can be laid out again in the editor and a lane added at a jam."""
    layout = circuit.layout
    fitted = {i for i in circuit.adjust if isinstance(layout.pieces[i], Straight)}
    pieces = tuple(
        replace(piece, closes=True) if i in fitted else piece
        for i, piece in enumerate(layout.pieces)
    )
    return KeptLayout(
        start=start,
        heading=layout.heading,
        pieces=pieces,
        lanes=layout.lanes,
        space_length=layout.space_length,
        lane_width=layout.lane_width,
        stagger=layout.stagger,
        close=layout.closed,
        racing_line=True,
    )


def same_spaces(track: Track, kept_layout: KeptLayout) -> bool:
    """Whether the kept layout, built as the editor builds it, gives the track's spaces
    (the same ids in the same order, corners within the file's rounding)."""
    built = build_kept(kept_layout).spaces
    return [sp.id for sp in built] == [sp.id for sp in track.spaces] and all(
        math.dist(a, b) < 0.001
        for new, old in zip(built, track.spaces, strict=True)
        for a, b in zip(new.corners, old.corners, strict=True)
    )


def build(circuit: Circuit) -> tuple[Track, LaneResult]:
    """The finished track of a circuit, its layout kept, and the lanes it was built from."""
    layout = centred(close_loop(circuit.layout, circuit.adjust))
    result = build_lanes(layout)
    grid = list(circuit.grid) if circuit.grid else pick_grid(result)
    pole = result.space(grid[0]).front
    finish = finish_progress(result, circuit.runoff)
    betting = [pole + f * (finish - pole) for f in circuit.betting]
    track = make_track(
        result,
        circuit.name,
        betting=betting,
        finish=finish,
        grid=grid,
        author=AUTHOR,
        description=circuit.description,
    )
    track.lane_layouts = [kept(circuit, layout.start)]
    if not same_spaces(track, track.lane_layouts[0]):
        raise SystemExit(f"{circuit.file}: the kept lane layout does not give the same spaces")
    return track, result


def check(circuit: Circuit, track: Track) -> list[str]:
    """Problems that stop a circuit from being bundled (validation errors or
    warnings that were not intended)."""
    report = validate_track(track)
    out = []
    for issue in report.issues:
        if issue.severity == "error" or issue.code not in circuit.expect_warnings:
            out.append(f"{circuit.file}: {issue.severity} {issue.code}: {issue.message}")
    return out


def main(argv: list[str] | None = None) -> int:
    """Write (or with --check compare) every bundled circuit."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--check",
        action="store_true",
        help="compare with the files in tracks/ instead of writing them",
    )
    parser.add_argument(
        "--out", type=Path, default=ROOT / "tracks", help="folder to write to (default: tracks/)"
    )
    args = parser.parse_args(argv)
    status = 0
    for circuit in CIRCUITS:
        try:
            track, result = build(circuit)
        except TracksideError as exc:
            print(f"{circuit.file}: {exc}", file=sys.stderr)
            status = 1
            continue
        problems = check(circuit, track)
        if problems:
            print("\n".join(problems), file=sys.stderr)
            status = 1
            continue
        text = track.to_yaml()
        path = args.out / circuit.file
        lanes = sorted({p.lanes for p in result.pieces})
        print(
            f"{circuit.file}: {circuit.name}, {result.rows} rows, lanes {lanes}, "
            f"{len(track.spaces)} spaces, lap {result.length:.0f} mm"
        )
        if args.check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                print(f"{path}: differs from what tools/make_tracks.py makes", file=sys.stderr)
                status = 1
        else:
            args.out.mkdir(parents=True, exist_ok=True)
            write_atomic(path, text)
    return status


if __name__ == "__main__":
    sys.exit(main())
