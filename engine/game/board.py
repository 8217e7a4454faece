"""A track prepared for play: geometry and move graph built once, then shared."""

from __future__ import annotations

from typing import Any, ClassVar

from trackside.engine.track.geometry import TrackGeometry
from trackside.engine.track.model import Track
from trackside.engine.track.movement import ALL_LINES, Move, MoveGraph, Step

CACHE_LIMIT = 20_000  # remembered move choices per board (about 1 kB each)
# A move per distinct outcome keyed by the path's space ids, and a memo for what
# callers derive from them (the engine keeps its option lists there).
Choices = tuple[dict[tuple[str, ...], Move], dict[Any, Any]]


class Board:
    """Per-track tables the rules engine reads on every move.

    Build one per track and finish mode (``Board.of(track, use_finish)``
    caches it) and share it across games: games never modify it.
    """

    def __init__(self, track: Track, use_finish: bool = True):
        self.track = track
        self.use_finish = use_finish
        self.geometry = TrackGeometry(track)
        self.graph = MoveGraph(self.geometry, use_finish)
        self.ids: list[str] = self.geometry.ids
        self.index: dict[str, int] = self.geometry.index
        self.grid: list[int] = [self.index[s] for s in track.start_grid]
        self.lanes: list[int] = self.geometry.lanes
        self.progress: list[float] = self.geometry.centroid_progress
        self.length: float = self.geometry.length
        # Per space: (next space, lines crossed, next is rectangular, step finishes).
        self.steps: list[tuple[Step, ...]] = self.graph.steps
        self._bits = [1 << i for i in range(self.geometry.n)]  # the bit of each space in masks
        self._reach: dict[tuple[int, int], int] = {}
        self._choices: dict[tuple[int, int, int, int, bool], Choices] = {}
        # Steps that pass the seam start a new lap (long distance).
        self.wraps: set[tuple[int, int]] = {
            (a, b)
            for a in range(self.geometry.n)
            for b in self.graph.forward[a]
            if self.geometry.wraps_seam(a, b)
        }

    def reach(self, start: int, n: int) -> int:
        """Bitmask of the spaces a car on ``start`` could enter within ``n`` steps."""
        mask = self._reach.get((start, n))
        if mask is None:
            mask, frontier = 0, {start}
            for _ in range(n):
                frontier = {b for a in frontier for b in self.graph.forward[a]}
                for b in frontier:
                    mask |= 1 << b
            self._reach[(start, n)] = mask
        return mask

    def memo_choices(
        self,
        start: int,
        n: int,
        occupied: set[int],
        keep_lines: int = ALL_LINES,
        keep_rect: bool = True,
    ) -> Choices:
        """``MoveGraph.outcomes`` keyed by the path's space ids, remembered per traffic
        pattern, and a memo dict remembered with them, where callers keep what they
        derive from those choices.

        Only the occupied spaces within reach matter, so the answer is cached on
        them; games on one board share the cache (do not modify the result)."""
        occupied_mask = sum(map(self._bits.__getitem__, occupied))  # spaces are distinct bits
        reach = self._reach.get((start, n))
        if reach is None:
            reach = self.reach(start, n)
        key = (start, n, occupied_mask & reach, keep_lines, keep_rect)
        entry = self._choices.get(key)
        if entry is None:
            ids = self.ids
            found = {
                tuple([ids[i] for i in m[0]]): m
                for m in self.graph.outcomes(start, n, occupied, keep_lines, keep_rect)
            }
            if len(self._choices) >= CACHE_LIMIT:
                self._choices.clear()
            entry = self._choices[key] = (found, {})
        return entry

    _cache: ClassVar[dict[tuple[int, bool], Board]] = {}

    @classmethod
    def of(cls, track: Track, use_finish: bool = True) -> Board:
        """The shared board of ``track`` (built on first use)."""
        key = (id(track), use_finish)
        board = cls._cache.get(key)
        if board is None or board.track is not track:
            board = cls(track, use_finish)
            if len(cls._cache) >= 16:  # an editor makes new tracks all the time
                del cls._cache[next(iter(cls._cache))]
            cls._cache[key] = board
        return board
