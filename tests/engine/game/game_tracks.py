"""Tracks built in code for rules tests: straight open strips and a closed ring.

Spaces are unit squares of SIZE mm; ids are ``<lane letter><row>`` (``a0``,
``b12``...), lane a innermost. The start grid is rows 0-1 (pole ``a1``), and the
three betting lines and the finish line lie on row edges.
"""

from __future__ import annotations

import math

from trackside.engine.game import Board
from trackside.engine.track.model import Centerline, Space, Track

SIZE = 10.0


def straight(
    rows: int = 90,
    lanes: int = 3,
    lines: tuple[int, int, int, int] = (20, 40, 60, 80),
    grid: list[str] | None = None,
) -> Track:
    """An open straight: ``rows`` rows of ``lanes`` square spaces; betting
    lines and the finish line just before the rows in ``lines``."""
    spaces = []
    for r in range(rows):
        for k in range(lanes):
            x0, y0 = r * SIZE, k * SIZE
            spaces.append(
                Space(
                    f"{'abcdef'[k]}{r}",
                    k,
                    [(x0, y0), (x0 + SIZE, y0), (x0 + SIZE, y0 + SIZE), (x0, y0 + SIZE)],
                )
            )
    width = lanes * SIZE

    def line(row: int):
        return ((row * SIZE, -1.0), (row * SIZE, width + 1.0))

    mid = width / 2
    grid = grid or ["a1", "b1", "c1", "a0", "b0", "c0"]
    return Track(
        name="Test straight",
        centerline=Centerline(False, [(-SIZE, mid), (rows * SIZE + SIZE, mid)]),
        spaces=spaces,
        start_grid=grid,
        betting_lines=[line(lines[0]), line(lines[1]), line(lines[2])],
        finish_line=line(lines[3]),
    )


def ring(rows: int = 60, lanes: int = 3, radius: float = 300.0) -> Track:
    """A closed circular track: ``rows`` wedge spaces per lane (not rectangular),
    the grid just after the seam, betting lines at quarter turns, finish at 7/8."""
    spaces = []
    width = 12.0
    for r in range(rows):
        a0, a1 = 2 * math.pi * r / rows, 2 * math.pi * (r + 1) / rows
        for k in range(lanes):
            r0, r1 = radius + k * width, radius + (k + 1) * width
            pts = [
                (r0 * math.cos(a0), r0 * math.sin(a0)),
                (r1 * math.cos(a0), r1 * math.sin(a0)),
                (r1 * math.cos(a1), r1 * math.sin(a1)),
                (r0 * math.cos(a1), r0 * math.sin(a1)),
            ]
            spaces.append(
                Space(f"{'abcdef'[k]}{r}", k, [(round(x, 6), round(y, 6)) for x, y in pts])
            )
    mid = radius + lanes * width / 2
    n = 720
    centre = [
        (mid * math.cos(2 * math.pi * i / n), mid * math.sin(2 * math.pi * i / n)) for i in range(n)
    ]

    def line(row: int):
        a = 2 * math.pi * row / rows
        return (
            (round((radius - 5) * math.cos(a), 6), round((radius - 5) * math.sin(a), 6)),
            (
                round((radius + lanes * width + 5) * math.cos(a), 6),
                round((radius + lanes * width + 5) * math.sin(a), 6),
            ),
        )

    return Track(
        name="Test ring",
        centerline=Centerline(True, centre),
        spaces=spaces,
        start_grid=["a1", "b1", "c1", "a0", "b0", "c0"],
        betting_lines=[line(rows // 4), line(rows // 2), line(3 * rows // 4)],
        finish_line=line(7 * rows // 8),
    )


_BOARDS: dict = {}


def board(kind: str = "straight", use_finish: bool = True) -> Board:
    """A shared board of a test track (built once per test run)."""
    key = (kind, use_finish)
    if key not in _BOARDS:
        _BOARDS[key] = Board(straight() if kind == "straight" else ring(), use_finish)
    return _BOARDS[key]
