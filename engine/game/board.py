"""A track prepared for play: geometry and move graph built once, then shared."""
from __future__ import annotations

from ..geometry import TrackGeometry
from ..movement import MoveGraph
from ..track import Track


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
        # Steps that pass the seam start a new lap (long distance).
        self.wraps: set[tuple[int, int]] = {
            (a, b) for a in range(self.geometry.n) for b in self.graph.forward[a]
            if self.geometry.wraps_seam(a, b)}

    _cache: dict[tuple[int, bool], "Board"] = {}

    @classmethod
    def of(cls, track: Track, use_finish: bool = True) -> "Board":
        """The shared board of ``track`` (built on first use)."""
        key = (id(track), use_finish)
        board = cls._cache.get(key)
        if board is None or board.track is not track:
            board = cls(track, use_finish)
            cls._cache[key] = board
        return board
