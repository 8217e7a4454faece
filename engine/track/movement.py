"""Legal car movement (R-MOVE, R-FIN) over a track's forward graph: the one walk.

A car moving n enters n spaces one after another, each a free forward space
of the last (R-MOVE-4); a step past the finish line ends the move (R-FIN-1);
a car with no free forward space stops there, blocked, if it has moved at
all. ``MoveGraph`` walks that rule once, layer by layer, and every question
about moves is asked of that walk: every path (``moves``, for the movement
preview and ``trackside moves``), one move per distinct outcome
(``outcomes``, for the rules engine), how many paths there are
(``count_moves``), and whether one given path is a move (``follow``). A move
and its outcome are one type, ``Move``.

Like python-chess's legal move generation, moves are a view computed on
demand from the position (the occupied spaces); nothing is cached per turn.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NamedTuple

from trackside.engine.track.geometry import FINISH, TrackGeometry

ALL_LINES = 0b1111  # the three betting lines and the finish line (bit 3)
# What distinguishes a move for the rules: end, finished, blocked, lines crossed, rectangular.
Outcome = tuple[int, bool, bool, int, bool]
# A move's fields, in ``Move`` order.
MoveFields = tuple[tuple[int, ...], bool, bool, int, bool]
# One step from a space: (next space, lines crossed, next is rectangular, step finishes).
Step = tuple[int, int, bool, bool]
# A walker of the walk: (space, path, lines crossed, all rectangular, paths merged).
Walker = tuple[int, tuple[int, ...], int, bool, int]


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
        found = [move for move, _ in self._walk(start, n, occupied, merge=False)]
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
        return [move for move, _ in self._walk(start, n, occupied, keep_lines, keep_rect)]

    def count_moves(self, start: int, n: int, occupied: set[int]) -> int:
        """How many moves ``moves`` lists, counted without listing them: walks that
        reach one space are merged and counted together, so the count takes time
        in proportion to ``n`` times the track's steps."""
        return sum(count for _, count in self._walk(start, n, occupied, 0, False, counting=True))

    def follow(self, start: int, path: tuple[int, ...], n: int, occupied: set[int]) -> Move | None:
        """The move of a car on ``start`` moving ``n`` that enters ``path``, or None
        when that path is not a legal move (R-MOVE-4, R-FIN-1)."""
        found = self._walk(start, n, occupied, merge=False, along=path)
        return found[0][0] if found and found[0][0].path == path else None

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
    ) -> list[list[Any]]:
        """The walk of R-MOVE-4: the legal moves of the car on ``start`` moving
        ``n``, each as [move, the number of paths it stands for (with ``counting``)].

        Layer k holds the walkers that have entered k spaces. With ``merge``,
        walkers that reach the same space in the same state (the lines in
        ``keep_lines`` crossed, all spaces rectangular if ``keep_rect``) go on
        as one, the first path standing for all, and so do moves with the same
        outcome; without it every path is its own move. ``along`` keeps only
        the walk that enters those spaces in turn."""
        steps = self.steps
        # Walkers by their state (or path): (space, path, lines crossed, rectangular, paths).
        layer: dict[object, Walker] = {(): (start, (), 0, True, 1)}
        found: dict[object, list[Any]] = {}  # moves by outcome (or path): [move, paths]
        for k in range(n):
            want = None if along is None else (along[k] if k < len(along) else -1)
            nxt: dict[object, Walker] = {}
            for here, path, crossed, rect, count in layer.values():
                free = False
                for b, mask, rb, fin in steps[here]:
                    if b in occupied:
                        continue
                    free = True
                    if want is not None and b != want:
                        continue
                    c2 = crossed | (mask & keep_lines)
                    r2 = rect and (rb or not keep_rect)
                    walked = None if merge else (*path, b)
                    if fin:  # R-FIN-1: the step past the finish line ends the move
                        key: object = (b, c2, r2) if merge else walked
                        if key not in found:
                            move = (walked or (*path, b), True, False, c2, r2)
                            found[key] = [tuple.__new__(Move, move), count]
                        elif counting:
                            found[key][1] += count
                    else:
                        key = (b, c2, r2) if merge else walked
                        if key not in nxt:
                            nxt[key] = (b, walked or (*path, b), c2, r2, count)
                        elif counting:
                            w = nxt[key]
                            nxt[key] = (b, w[1], c2, r2, w[4] + count)
                if not free and k:  # R-MOVE-4: no free space ahead, the car stops blocked
                    key = (here, True, crossed, rect) if merge else path
                    _note(found, key, (path, False, True, crossed, rect), count)
            layer = nxt
        for here, path, crossed, rect, count in layer.values():
            key = (here, False, crossed, rect) if merge else path
            _note(found, key, (path, False, False, crossed, rect), count)
        return list(found.values())


def _note(found: dict[object, list[Any]], key: object, move: MoveFields, count: int) -> None:
    """Keep the first move of each outcome (with ``counting``, add up its paths)."""
    if key not in found:
        found[key] = [tuple.__new__(Move, move), count]
    else:
        found[key][1] += count


def _steps_of(start: int, path: tuple[int, ...]) -> list[tuple[int, int]]:
    """The steps of a path from ``start``: (space left, space entered)."""
    return list(zip((start, *path), path, strict=False))  # the first is one longer
