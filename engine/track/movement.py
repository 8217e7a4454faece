"""Legal car movement (R-MOVE, R-FIN) over a track's forward graph.

Like python-chess's legal move generation, moves are a view computed on
demand from the position (the occupied spaces); nothing is cached per turn.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass

from trackside.engine.track.geometry import FINISH, TrackGeometry

FAR = 10_000  # steps to a goal from a space that cannot reach it
# What distinguishes a move for the rules: end, finished, blocked, lines crossed, rectangular.
Outcome = tuple[int, bool, bool, int, bool]


@dataclass(frozen=True)
class Move:
    """One legal move of a car.

    ``path`` lists the spaces entered, in order. ``finished`` is set when the
    last one is beyond the finish line (R-FIN-1); ``blocked`` when the car
    stopped short because no forward space was free (R-MOVE-4); ``crossed``
    has bit k set for each line k crossed on the way (R-BET-1), bit 3 for the
    finish line; ``rectangular`` when every entered space is rectangular.
    """

    path: tuple[int, ...]
    finished: bool
    blocked: bool
    crossed: int
    rectangular: bool

    @property
    def end(self) -> int:
        return self.path[-1]

    def outcome(self) -> Outcome:
        """What distinguishes this move for the rules: end, flags, lines crossed."""
        return (self.path[-1], self.finished, self.blocked, self.crossed, self.rectangular)


class MoveGraph:
    """Forward moves on one track; ``use_finish=False`` ignores the finish line
    (long distance), so cars run on lap after lap on a closed track."""

    def __init__(self, geometry: TrackGeometry, use_finish: bool = True):
        self.geometry = geometry
        self.use_finish = use_finish
        self.forward = geometry.forward
        self.rect = geometry.rectangular
        n = geometry.n
        self.beyond_finish = list(geometry.beyond[FINISH]) if use_finish else [False] * n
        self.cross: dict[tuple[int, int], int] = {}
        for a in range(n):
            for b in self.forward[a]:
                mask = geometry.crossed(a, b)
                if not use_finish:
                    mask &= ~(1 << FINISH)
                self.cross[(a, b)] = mask

    def free_forward(self, space: int, occupied: Iterable[int] | set[int]) -> list[int]:
        """Forward neighbours of ``space`` that are not occupied."""
        return [b for b in self.forward[space] if b not in occupied]

    def moves(self, start: int, n: int, occupied: set[int]) -> list[Move]:
        """Every legal move of the car on ``start`` moving ``n`` (R-MOVE-4).

        ``occupied`` holds the spaces of the other cars. An empty list means
        the car cannot move at all and stays where it is.
        """
        out: list[Move] = []
        self._walk(start, n, occupied, [], 0, True, out, None)
        return out

    def count_moves(self, start: int, n: int, occupied: set[int]) -> int:
        """How many moves ``moves`` lists, counted without listing them: the moves
        onward from a space depend only on that space and the spaces left, so
        the count takes time in proportion to ``n`` times the track's steps."""
        memo: dict[tuple[int, int], int] = {}

        def onward(here: int, left: int, entered: bool) -> int:
            if left == 0:
                return 1
            if entered and (here, left) in memo:
                return memo[(here, left)]
            ahead = self.free_forward(here, occupied)
            total = sum(
                1
                if self.beyond_finish[b] and not self.beyond_finish[here]
                else onward(b, left - 1, True)
                for b in ahead
            )
            if not ahead and entered:
                total = 1  # blocked where it stands (R-MOVE-4)
            if entered:
                memo[(here, left)] = total
            return total

        return onward(start, n, False)

    def outcomes(self, start: int, n: int, occupied: set[int]) -> list[Move]:
        """One legal move per distinct outcome (end space, finished, blocked,
        lines crossed, all-rectangular), without listing every path."""
        out: list[Move] = []
        self._walk(start, n, occupied, [], 0, True, out, set())
        distinct: dict[Outcome, Move] = {}
        for move in out:
            distinct.setdefault(move.outcome(), move)
        return list(distinct.values())

    def _walk(
        self,
        here: int,
        left: int,
        occupied: set[int],
        path: list[int],
        crossed: int,
        rect: bool,
        out: list[Move],
        seen: set[tuple[int, int, int, bool]] | None,
    ) -> None:
        if seen is not None:
            state = (here, left, crossed, rect)
            if state in seen:
                return
            seen.add(state)
        if left == 0:
            out.append(Move(tuple(path), False, False, crossed, rect))
            return
        ahead = [b for b in self.forward[here] if b not in occupied]
        if not ahead:
            if path:
                out.append(Move(tuple(path), False, True, crossed, rect))
            return
        for b in ahead:
            path.append(b)
            mask = crossed | self.cross[(here, b)]
            r = rect and self.rect[b]
            if self.beyond_finish[b] and not self.beyond_finish[here]:
                out.append(Move(tuple(path), True, False, mask, r))
            else:
                self._walk(b, left - 1, occupied, path, mask, r, out, seen)
            path.pop()


def fewest_steps(n: int, steps: Iterable[tuple[int, int, bool]]) -> list[int]:
    """Per space of ``n``, the fewest steps that reach a goal (other cars ignored), given
    the steps ``(a, b, reaches)`` from space ``a`` to ``b``, ``reaches`` when that step
    reaches the goal itself; ``FAR`` from a space that cannot. A breadth-first search
    over the steps reversed."""
    back: list[list[int]] = [[] for _ in range(n)]
    togo = [FAR] * n
    queue: deque[int] = deque()
    for a, b, reaches in steps:
        if reaches:
            if togo[a] != 1:
                togo[a] = 1
                queue.append(a)
        else:
            back[b].append(a)
    while queue:
        b = queue.popleft()
        for a in back[b]:
            if togo[a] > togo[b] + 1:
                togo[a] = togo[b] + 1
                queue.append(a)
    return togo
