"""Legal car movement (R-MOVE, R-FIN) over a track's forward graph: the one walk.

A car moving n enters n spaces one after another, each a free forward space
of the last (R-MOVE-4); a step past the finish line ends the move (R-FIN-1);
a car with no free forward space stops there, blocked, if it has moved at
all. ``MoveGraph`` walks that rule once, layer by layer, and every question
about moves is asked of that walk: every path (``moves``, for the movement
preview and ``trackside moves``), one move per distinct outcome
(``outcomes``, for the rules engine), how many paths there are
(``count_moves``), and whether one given path is a move (``follow``). A move
and its outcome are one type, ``Move``. Beside the walk, ``fewest_steps``
counts the fewest steps from each space to a goal (the finish for the bots, a
line for the balance lab), other cars ignored; ``FAR`` when it cannot be reached.

Like python-chess's legal move generation, moves are a view computed on
demand from the position (the occupied spaces); nothing is cached per turn.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from typing import NamedTuple

from trackside.engine.track.geometry import FINISH, TrackGeometry

ALL_LINES = 0b1111  # the three betting lines and the finish line (bit 3)
FAR = 10_000  # steps to a goal from a space that cannot reach it
# What distinguishes a move for the rules: end, finished, blocked, lines crossed, rectangular.
Outcome = tuple[int, bool, bool, int, bool]
# A move's fields, in ``Move`` order.
MoveFields = tuple[tuple[int, ...], bool, bool, int, bool]
# One step from a space: (next space, lines crossed, next is rectangular, step finishes).
Step = tuple[int, int, bool, bool]
# A walker of the walk: (space, lines crossed, all rectangular), and its path when
# walkers in one state are not merged.
WalkerKey = tuple[int, int, bool] | tuple[int, int, bool, tuple[int, ...]]


class Move(NamedTuple):
    """One legal move of a car, and its outcome.

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
        beyond = self.beyond_finish
        # The steps from each space, worked out once: the walk reads them at every step.
        self.steps: list[tuple[Step, ...]] = [
            tuple(
                (b, self.cross[(a, b)], self.rect[b], beyond[b] and not beyond[a])
                for b in self.forward[a]
            )
            for a in range(n)
        ]
        # Each step's place among the forward spaces it starts from (the order of ``moves``).
        self._rank = {
            (a, b): k for a, ahead in enumerate(self.forward) for k, b in enumerate(ahead)
        }

    def free_forward(self, space: int, occupied: Iterable[int] | set[int]) -> list[int]:
        """Forward neighbours of ``space`` that are not occupied."""
        return [b for b in self.forward[space] if b not in occupied]

    def moves(self, start: int, n: int, occupied: set[int]) -> list[Move]:
        """Every legal move of the car on ``start`` moving ``n`` (R-MOVE-4), one
        per path, in path order (each step in the order of the forward spaces).

        ``occupied`` holds the spaces of the other cars. An empty list means
        the car cannot move at all and stays where it is.
        """
        rank = self._rank
        found = list(self._walk(start, n, occupied, merge=False)[0].values())
        found.sort(key=lambda move: [rank[a, b] for a, b in _steps_of(start, move.path)])
        return found

    def outcomes(
        self,
        start: int,
        n: int,
        occupied: set[int],
        keep_lines: int = ALL_LINES,
        keep_rect: bool = True,
    ) -> list[Move]:
        """One legal move per distinct outcome of a car on ``start`` moving ``n``
        (R-MOVE-4, R-FIN-1). Only the lines in ``keep_lines`` (and, with
        ``keep_rect``, the rectangular flag) tell outcomes apart, and are
        reported; walks that reach the same space in the same state are merged."""
        return list(self._walk(start, n, occupied, keep_lines, keep_rect)[0].values())

    def count_moves(self, start: int, n: int, occupied: set[int]) -> int:
        """How many moves ``moves`` lists, counted without listing them: walks that
        reach one space are merged and counted together, so the count takes time
        in proportion to ``n`` times the track's steps."""
        found, paths = self._walk(start, n, occupied, 0, False, counting=True)
        return sum(paths[end] for end in found)

    def follow(self, start: int, path: tuple[int, ...], n: int, occupied: set[int]) -> Move | None:
        """The move of a car on ``start`` moving ``n`` that enters ``path``, or None
        when that path is not a legal move (R-MOVE-4, R-FIN-1)."""
        return self._walk(start, n, occupied, merge=False, along=path)[0].get(path)

    def _walk(
        self,
        start: int,
        n: int,
        occupied: set[int],
        keep_lines: int = ALL_LINES,
        keep_rect: bool = True,
        merge: bool = True,
        along: tuple[int, ...] | None = None,
        counting: bool = False,
    ) -> tuple[dict[object, Move], dict[object, int]]:
        """The walk of R-MOVE-4: the legal moves of the car on ``start`` moving
        ``n``, by outcome (or by path), and with ``counting`` the number of
        paths each stands for.

        Layer k holds the walkers that have entered k spaces. With ``merge``,
        walkers that reach the same space in the same state (the lines in
        ``keep_lines`` crossed, all spaces rectangular if ``keep_rect``) go on
        as one, the first path standing for all, and so do moves with the same
        outcome; without it every path is its own move, found by its path.
        ``along`` keeps only the walker on those spaces."""
        steps = self.steps
        any_rect = not keep_rect
        new = tuple.__new__
        # Walkers by (space, lines crossed, rectangular), and their path when not merged.
        layer: dict[WalkerKey, tuple[int, ...]] = {(start, 0, True): ()}
        found: dict[object, Move] = {}
        paths: dict[object, int] = {(start, 0, True): 1}  # with ``counting``
        for k in range(n):
            nxt: dict[WalkerKey, tuple[int, ...]] = {}
            for key, path in layer.items():
                here, crossed, rect = key[0], key[1], key[2]
                free = False
                for b, mask, rb, fin in steps[here]:
                    if b in occupied:
                        continue
                    free = True
                    c2 = crossed | (mask & keep_lines)
                    r2 = rect and (rb or any_rect)
                    if fin:  # R-FIN-1: the step past the finish line ends the move
                        end: object = (b, c2, r2) if merge else (*path, b)
                        if end not in found:
                            found[end] = new(Move, ((*path, b), True, False, c2, r2))
                    else:
                        end = (b, c2, r2) if merge else (b, c2, r2, (*path, b))
                        if end not in nxt:
                            nxt[end] = (*path, b)
                    if counting:
                        paths[end] = paths.get(end, 0) + paths[key]
                if not free and k:  # R-MOVE-4: no free space ahead, blocked where it is
                    end = (here, True, crossed, rect) if merge else path
                    if end not in found:
                        found[end] = new(Move, (path, False, True, crossed, rect))
                    if counting:
                        paths[end] = paths.get(end, 0) + paths[key]
            if along is not None:  # only the walker on the path given goes on
                nxt = {key: path for key, path in nxt.items() if path == along[: k + 1]}
            layer = nxt
        for key, path in layer.items():
            end = (key[0], False, key[1], key[2]) if merge else path
            if end not in found:
                found[end] = new(Move, (path, False, False, key[1], key[2]))
            if counting:
                paths[end] = paths.get(end, 0) + paths[key]
        return found, paths


def _steps_of(start: int, path: tuple[int, ...]) -> list[tuple[int, int]]:
    """The steps of a path from ``start``: (space left, space entered)."""
    return list(zip((start, *path), path, strict=False))  # the first is one longer


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
