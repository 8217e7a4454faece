"""Where cars jam: the heat map's most-blocked spaces gathered into stretches of track.

A stretch is a run of spaces, in race order, where moves often end blocked (the
car wanted to go on but the spaces ahead were taken), with how many lanes wide
the track is there and just ahead, and where it is that narrow: a chicane or a
bend one lane wide shows up as one stretch, not as a list of its spaces.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

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
# Where the track is narrowest, from a stretch: on every row of it ("there"), on some
# of its rows ("within"), or only on the rows just ahead of it ("ahead").
Narrowest = Literal["there", "within", "ahead"]


@dataclass(frozen=True)
class Stretch:
    """Spaces in race order, blocked moves per race ending on them, the fewest lanes the
    track has there and just ahead (None when not known), and where it is that narrow:
    ``narrowest`` its spaces in race order (every space of the rows that narrow), and
    ``where`` whether they are the stretch's own rows or the rows ahead of it."""

    spaces: tuple[str, ...]
    per_race: float
    lanes: int | None
    narrowest: tuple[str, ...] = ()
    where: Narrowest = "there"

    @property
    def shown(self) -> tuple[str, ...]:
        """The spaces a hint about the stretch shows: its own, then those where the track
        narrows, when that is not the whole stretch."""
        narrowing = self.narrowest if self.where != "there" else ()
        return tuple(dict.fromkeys(self.spaces + narrowing))


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
    rows: dict[int, list[str]] = {}  # steps to the finish -> the spaces that far
    for space, i in sorted(geometry.index.items(), key=lambda s: (geometry.lanes[s[1]], s[0])):
        rows.setdefault(to_finish[i], []).append(space)
    found = []
    for run in _runs(sorted(blocked, key=lambda b: (-b[0], b[1]))):
        per_race = sum(report.blocked[space] for _steps, space in run) / n
        if per_race >= JAM_NOTICE:
            found.append(_narrowing(run, per_race, rows))
    return sorted(found, key=lambda s: -s.per_race)[:3]


def _narrowing(run: list[tuple[int, str]], per_race: float, rows: dict[int, list[str]]) -> Stretch:
    """The stretch of ``run`` (blocked spaces, furthest from the finish first) with the
    fewest lanes of its rows and the AHEAD rows after it, and where that is."""
    first, last = run[0][0], run[-1][0]
    own = [s for s in range(first, last - 1, -1) if rows.get(s)]
    ahead = [s for s in range(last - 1, max(1, last - AHEAD) - 1, -1) if rows.get(s)]
    spaces = tuple(space for _steps, space in run)
    if not own + ahead:
        return Stretch(spaces, per_race, None)
    lanes = min(len(rows[s]) for s in own + ahead)
    narrow = [s for s in own + ahead if len(rows[s]) == lanes]
    where: Narrowest = (
        "ahead" if not set(narrow) & set(own) else "there" if set(own) <= set(narrow) else "within"
    )
    narrowest = tuple(space for s in narrow for space in rows[s])
    return Stretch(spaces, per_race, lanes, narrowest, where)


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
