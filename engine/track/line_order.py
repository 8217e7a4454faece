"""Which line is out of race order, when the betting and finish lines are not in it.

Lines 1, 2, 3 and the finish must lie in that order along the racing line. When
they do not, the lines to blame are the fewest whose moving puts the others back in
order: with betting line 1 moved past line 3, lines 2, 3 and the finish are still in
order, so line 1 is the one moved. When two sets are as few (two neighbouring lines
the wrong way round: either moved), the likelier is the one whose lines would go back
into the wider places among the others: a line moved a little past its neighbour
left a wide gap where it was, and the other line fits only the narrow one between
them. The other candidates are kept, to be named too.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations, pairwise


@dataclass(frozen=True)
class Misplaced:
    """A line out of race order: it lies ``after`` (or before) line ``past``, against
    the order; it belongs between lines ``slot`` (None: the start or the end of the
    track); ``instead`` are lines that may be the ones moved instead of it."""

    line: int
    after: bool
    past: int
    slot: tuple[int | None, int | None]
    instead: tuple[int, ...]


@dataclass(frozen=True)
class LineOrder:
    """Whether the lines are in race order: ``reversed`` when every line lies in
    reverse order (three or more of them), else the lines ``misplaced``, if any."""

    reversed: bool
    misplaced: tuple[Misplaced, ...]

    @property
    def ok(self) -> bool:
        return not self.reversed and not self.misplaced


def line_order(progress: Sequence[float | None], length: float) -> LineOrder:
    """The race order of the lines whose ``progress`` along the racing line (of
    ``length``) is known (None: the line does not cross it)."""
    lines = [k for k, p in enumerate(progress) if p is not None]
    at = {k: float(p) for k, p in enumerate(progress) if p is not None}
    if _in_order(lines, at):
        return LineOrder(False, ())
    if len(lines) >= 3 and _in_order(lines[::-1], at):
        return LineOrder(True, ())
    fewest = _fewest_moved(lines, at)
    moved = max(fewest, key=lambda m: _room(m, lines, at, length))
    kept = [k for k in lines if k not in moved]
    return LineOrder(
        False,
        tuple(_misplaced(k, kept, at, _instead(k, moved, fewest)) for k in moved),
    )


def _in_order(lines: Sequence[int], at: dict[int, float]) -> bool:
    return all(at[a] < at[b] for a, b in pairwise(lines))


def _fewest_moved(lines: list[int], at: dict[int, float]) -> list[tuple[int, ...]]:
    """Every smallest set of lines without which the others are in race order."""
    for size in range(1, len(lines)):
        found = [
            moved
            for moved in combinations(lines, size)
            if _in_order([k for k in lines if k not in moved], at)
        ]
        if found:
            return found
    return [tuple(lines[1:])]  # not reached: one line alone is always in order


def _room(moved: tuple[int, ...], lines: list[int], at: dict[int, float], length: float) -> float:
    """How wide the places are where the ``moved`` lines go back, among the others
    (their product: the sum of their logarithms)."""
    kept = [k for k in lines if k not in moved]
    total = 0.0
    for k in moved:
        before, after = _slot(k, kept)
        start = at[before] if before is not None else 0.0
        end = at[after] if after is not None else length
        total += math.log(max(end - start, 1e-9))
    return total


def _slot(k: int, kept: list[int]) -> tuple[int | None, int | None]:
    """The kept lines line ``k`` belongs between (None: the start or end of the track)."""
    before = max((j for j in kept if j < k), default=None)
    after = min((j for j in kept if j > k), default=None)
    return before, after


def _misplaced(
    k: int, kept: list[int], at: dict[int, float], instead: tuple[int, ...]
) -> Misplaced:
    """Line ``k``, moved, with the kept line it lies beyond against the order."""
    beyond = [j for j in kept if j > k and at[j] <= at[k]]
    if beyond:
        return Misplaced(k, True, max(beyond, key=lambda j: at[j]), _slot(k, kept), instead)
    short = [j for j in kept if j < k and at[j] >= at[k]]
    return Misplaced(k, False, min(short, key=lambda j: at[j]), _slot(k, kept), instead)


def _instead(k: int, moved: tuple[int, ...], fewest: list[tuple[int, ...]]) -> tuple[int, ...]:
    """The lines that, moved in place of ``k`` (the others of ``moved`` as they are),
    would put the rest in order as well."""
    others = set(moved) - {k}
    return tuple(
        sorted({j for m in fewest for j in m if j not in moved and set(m) - {j} == others})
    )
