"""Where cars jam: the heat map's most-blocked spaces gathered into stretches of track.

A stretch is a run of spaces, in race order, where moves often end blocked (the
car wanted to go on but the spaces ahead were taken), with how many lanes wide
the track is there and just ahead: a chicane or a bend one lane wide shows up
as one stretch, not as a list of its spaces.
"""

from __future__ import annotations

from dataclasses import dataclass

from trackside.engine.balance.edits import steps_to_line
from trackside.engine.balance.report import BalanceReport
from trackside.engine.game.board import Board
from trackside.engine.track.geometry import FINISH
from trackside.engine.track.model import Track
from trackside.engine.track.movement import FAR

JAM_NOTICE = 0.5  # blocked moves per race in one stretch worth a word
JAM_SPACE = 0.1  # blocked moves per race that make a space part of a stretch
JAM_GAP = 2  # steps between two blocked spaces of one stretch, at most
AHEAD = 2  # steps ahead of a stretch whose width counts (the jam is caused there)


@dataclass(frozen=True)
class Stretch:
    """Spaces in race order, blocked moves per race ending on them, and the fewest
    lanes the track has there and just ahead (None when not known)."""

    spaces: tuple[str, ...]
    per_race: float
    lanes: int | None


def jammed_stretches(report: BalanceReport, track: Track | None = None) -> list[Stretch]:
    """The stretches where moves end blocked at least JAM_NOTICE times a race, most
    blocked first. Without the ``track`` each space is its own stretch."""
    n = max(1, report.games)
    if track is None:
        return [
            Stretch((space,), count / n, None)
            for space, count in report.blocked.most_common(3)
            if count / n >= JAM_NOTICE
        ]
    geometry = Board.of(track).geometry
    to_finish = steps_to_line(geometry, FINISH)
    blocked = [
        (to_finish[geometry.index[space]], space)
        for space, count in report.blocked.items()
        if count / n >= JAM_SPACE and space in geometry.index
    ]
    blocked = [(steps, space) for steps, space in blocked if steps < FAR]
    row_width: dict[int, int] = {}
    for steps in to_finish:
        row_width[steps] = row_width.get(steps, 0) + 1
    found = []
    for run in _runs(sorted(blocked, key=lambda b: (-b[0], b[1]))):
        per_race = sum(report.blocked[space] for _steps, space in run) / n
        if per_race < JAM_NOTICE:
            continue
        last = run[-1][0]
        widths = [row_width.get(s, 0) for s in range(max(1, last - AHEAD), run[0][0] + 1)]
        lanes = min((w for w in widths if w), default=None)
        found.append(Stretch(tuple(space for _steps, space in run), per_race, lanes))
    return sorted(found, key=lambda s: -s.per_race)[:3]


def _runs(blocked: list[tuple[int, str]]) -> list[list[tuple[int, str]]]:
    """Blocked spaces (steps to the finish, id), furthest first, cut where a gap of
    more than JAM_GAP steps separates two of them."""
    runs: list[list[tuple[int, str]]] = []
    for steps, space in blocked:
        if runs and runs[-1][-1][0] - steps <= JAM_GAP:
            runs[-1].append((steps, space))
        else:
            runs.append([(steps, space)])
    return runs
