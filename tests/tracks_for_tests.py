"""Small tracks built in code for the model, movement and validator tests.

Spaces are laid in rows along a racing line: a row spans the track between two
stations (arc lengths along the line); its lanes split the width. Straights
give rectangles, curves wedges. Ids are the lane letter and the row number
from 1 (``a1`` is lane 0 of the first row, ``b3`` lane 1 of the third).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from pathlib import Path

from trackside.engine.track.model import Centerline, Space, Track, save_track

Pose = Callable[[float], tuple[float, float, float, float]]  # x, y, left-normal x, y


def lane_id(lane: int, row: int) -> str:
    """The id of the space in ``lane`` of ``row`` (rows from 0)."""
    return f"{'abcdefgh'[lane]}{row + 1}"


def straight_track(
    rows: int = 12,
    lanes: int | Sequence[int] = 2,
    length: float = 40.0,
    width: float = 30.0,
    grid_rows: int | None = None,
    bets: Sequence[int] | None = None,
    finish: int | None = None,
) -> Track:
    """An open straight track along +x of ``rows`` rows of rectangles."""
    total = rows * length

    def pose(s: float) -> tuple[float, float, float, float]:
        return s, 0.0, 0.0, 1.0

    return _build(
        pose,
        total,
        rows,
        lanes,
        width,
        closed=False,
        points=[(0.0, 0.0), (total, 0.0)],
        grid_rows=grid_rows,
        bets=bets,
        finish=finish,
        name="Test Straight",
    )


def stadium_track(
    rows: int = 40,
    lanes: int | Sequence[int] = 3,
    width: float = 30.0,
    straight: float = 400.0,
    radius: float = 150.0,
    degrees_per_point: float = 1.0,
    grid_rows: int | None = None,
    bets: Sequence[int] | None = None,
    finish: int | None = None,
) -> Track:
    """A closed stadium loop, counter-clockwise: two straights and two half circles.

    The seam is the start of the lower straight; ``degrees_per_point`` sets how
    densely the curves of the centerline are sampled.
    """
    arc = math.pi * radius
    total = 2 * straight + 2 * arc

    def pose(s: float) -> tuple[float, float, float, float]:
        s %= total
        if s < straight:
            return s, -radius, 0.0, 1.0
        s -= straight
        if s < arc:
            a = -math.pi / 2 + s / radius
            return (
                straight + radius * math.cos(a),
                radius * math.sin(a),
                -math.cos(a),
                -math.sin(a),
            )
        s -= arc
        if s < straight:
            return straight - s, radius, 0.0, -1.0
        s -= straight
        a = math.pi / 2 + s / radius
        return radius * math.cos(a), radius * math.sin(a), -math.cos(a), -math.sin(a)

    step = radius * math.radians(degrees_per_point)
    n_arc = max(1, round(arc / step))
    stations = [0.0, straight]
    stations += [straight + arc * k / n_arc for k in range(1, n_arc + 1)]
    stations += [2 * straight + arc]
    stations += [2 * straight + arc + arc * k / n_arc for k in range(1, n_arc)]
    points = [pose(s)[:2] for s in stations]
    return _build(
        pose,
        total,
        rows,
        lanes,
        width,
        closed=True,
        points=points,
        grid_rows=grid_rows,
        bets=bets,
        finish=finish,
        name="Test Stadium",
    )


def _build(
    pose: Pose,
    total: float,
    rows: int,
    lanes: int | Sequence[int],
    width: float,
    closed: bool,
    points: list,
    grid_rows: int | None,
    bets: Sequence[int] | None,
    finish: int | None,
    name: str,
) -> Track:
    counts = [lanes] * rows if isinstance(lanes, int) else list(lanes)
    assert len(counts) == rows
    step = total / rows
    half = width * max(counts) / 2

    def at(s: float, offset: float) -> tuple[float, float]:
        x, y, nx, ny = pose(s)
        return (round(x + offset * nx, 4), round(y + offset * ny, 4))

    spaces = []
    for row, count in enumerate(counts):
        s0, s1 = row * step, (row + 1) * step
        for lane in range(count):
            inner = width * count / 2 - lane * width
            outer = inner - width
            corners = [at(s0, inner), at(s1, inner), at(s1, outer), at(s0, outer)]
            spaces.append(Space(lane_id(lane, row), lane, corners))
    if grid_rows is None:
        grid_rows = min(rows, math.ceil(6 / counts[0]))
    grid = [
        lane_id(lane, row) for row in reversed(range(grid_rows)) for lane in range(counts[row])
    ][:6]
    if bets is None:
        bets = [rows * 3 // 10, rows * 5 // 10, rows * 7 // 10]
    if finish is None:
        finish = rows - 2

    def line(station: int) -> tuple:
        s = station * step
        return (at(s, half + 5.0), at(s, -half - 5.0))

    return Track(
        name=name,
        centerline=Centerline(closed, [tuple(round(v, 4) for v in p) for p in points]),
        spaces=spaces,
        start_grid=grid,
        betting_lines=[line(b) for b in bets],
        finish_line=line(finish),
    )


# What File > New, Blank, Save writes before anything is drawn: a track file with
# every key and none of the parts a race needs.
BLANK_DRAFT = """\
format: trackside-track/1
name: Draft
centerline:
  closed: true
  points: []
spaces: []
start_grid: []
betting_lines:
- [[0, 0], [0, 0]]
- [[0, 0], [0, 0]]
- [[0, 0], [0, 0]]
finish_line: [[0, 0], [0, 0]]
"""

LONG_NAME = ("Grand Prix de la Côte d'Émeraude " * 7)[:200]  # as long as a name may be


def stadium_files(folder: Path, names: Sequence[str]) -> list[Path]:
    """The stadium saved once under each name, to compare what a name changes."""
    paths = []
    for k, name in enumerate(names):
        track = stadium_track()
        track.name = name
        path = folder / f"stadium-{k}.yaml"
        save_track(track, path)
        paths.append(path)
    return paths


def narrow_loop() -> Track:
    """A closed loop of three lanes as the editor's Lanes tool creates it (its layout
    kept), one piece of its back straight a single lane wide: cars queue before it. The
    grid from the lap start, the finish on the last edge before it, the betting lines on
    the edges nearest a quarter, half and three quarters of the way."""
    from trackside.engine.track.lanes import Arc, Straight, make_track, pick_grid
    from trackside.engine.track.layout import KeptLayout
    from trackside.engine.track.loop_fit import build_kept

    pieces = (Straight(480), Arc(150, 180), Straight(160), Straight(160, lanes=1))
    pieces += (Straight(160), Arc(150, 180))
    kept = KeptLayout(
        start=(200, 400),
        heading=0,
        pieces=pieces,
        lanes=3,
        space_length=40,
        lane_width=30,
        stagger=0,
        close=True,
        racing_line=True,
    )
    built = build_kept(kept)
    grid = pick_grid(built)
    pole = max(built.space(g).front for g in grid)
    finish = built.boundaries[-1].progress
    betting = [pole + share * (finish - pole) for share in (0.25, 0.5, 0.75)]
    track = make_track(built, "Narrow Loop", betting, finish, grid)
    track.lane_layouts = [kept]
    return track
