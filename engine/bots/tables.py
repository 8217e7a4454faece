"""Per-track and per-deck tables that bots read on every decision, built once."""

from __future__ import annotations

from trackside.engine.game import Board, Card
from trackside.engine.game.cards import WILD_CODE
from trackside.engine.track.movement import fewest_steps


class TrackTables:
    """Cheap facts about a board: forward spaces, steps to the finish, lap length."""

    def __init__(self, board: Board):
        self.board = board
        n = len(board.ids)
        self.forward: list[tuple[int, ...]] = [
            tuple(s[0] for s in board.steps[a]) for a in range(n)
        ]
        # behind[b]: the spaces with ``b`` among their forward spaces.
        behind: list[list[int]] = [[] for _ in range(n)]
        for a in range(n):
            for b in dict.fromkeys(self.forward[a]):
                behind[b].append(a)
        self.behind: list[tuple[int, ...]] = [tuple(b) for b in behind]
        self.rect: list[bool] = list(board.geometry.rectangular)
        self.rect_share = sum(self.rect) / max(1, n)
        self.lanes = max(board.lanes) + 1 if n else 1
        self.lap_steps = max(1.0, n / self.lanes)
        self.progress = board.progress
        self.length = board.length or 1.0
        self.togo = _steps_to_finish(board, n) if board.use_finish else [0] * n
        # Per space: where its centre lies, as one whole number (hundredths of a
        # millimetre, so that the order of a space's corners does not change it).
        self.spots: list[int] = [
            (round(x * 100) & 0xFFFFFFFF) << 32 | (round(y * 100) & 0xFFFFFFFF)
            for x, y in board.geometry.centroids
        ]


def _steps_to_finish(board: Board, n: int) -> list[int]:
    """Fewest steps from each of the ``n`` spaces to a space beyond the finish line
    (other cars ignored)."""
    steps = board.steps
    return fewest_steps(
        n, ((a, b, finishes) for a in range(n) for b, _mask, _rect, finishes in steps[a])
    )


class DeckTables:
    """Card rows as (colour code, spaces), per card id (also split into colour
    rows, WILD numbers high first and a bitmask of colours), and each colour's
    total spaces in the regular deck."""

    def __init__(self, cards: tuple[Card, ...]):
        self.cards = cards
        self.rows: list[tuple[tuple[int, int], ...]] = [c.codes for c in cards]
        self.wilds: list[int] = [sum(1 for c, _ in r if c == WILD_CODE) for r in self.rows]
        self.colour_rows: list[tuple[tuple[int, int], ...]] = [
            tuple((c, n) for c, n in r if c != WILD_CODE) for r in self.rows
        ]
        self.wild_desc: list[tuple[int, ...]] = [
            tuple(sorted((n for c, n in r if c == WILD_CODE), reverse=True)) for r in self.rows
        ]
        self.top: list[int] = [r[0][0] if r else WILD_CODE for r in self.rows]  # printed top row
        self.mask: list[int] = [sum(1 << c for c, _ in r if c != WILD_CODE) for r in self.rows]
        # Per card and colour: the colour's spaces plus a quarter of each WILD row
        # (quarters add up exactly in floating point, in any order).
        self.spaces_for: list[tuple[float, ...]] = [
            tuple(
                float(sum(n if c == k else n / 4 if c == WILD_CODE else 0 for c, n in r))
                for k in range(6)
            )
            for r in self.rows
        ]
        regular = [r for c, r in zip(cards, self.rows, strict=False) if not c.speed8]
        self.size = len(regular)
        self.colour_total = [sum(n for r in regular for c, n in r if c == k) for k in range(6)]
        self.wild_total = sum(n for r in regular for c, n in r if c == WILD_CODE)
        # Per card id: its spaces per colour (COLOURS order), then its WILD spaces.
        self.spaces7: list[tuple[int, ...]] = [
            tuple(sum(n for c, n in r if c == k) for k in (*range(6), WILD_CODE)) for r in self.rows
        ]


_TRACKS: dict[int, TrackTables] = {}
_DECKS: dict[int, DeckTables] = {}


def track_tables(board: Board) -> TrackTables:
    """The tables of ``board`` (cached while the board lives)."""
    t = _TRACKS.get(id(board))
    if t is None or t.board is not board:
        t = _TRACKS[id(board)] = TrackTables(board)
    return t


def deck_tables(cards: tuple[Card, ...]) -> DeckTables:
    """The tables of a game's cards (cached per cards tuple)."""
    key = id(cards)
    t = _DECKS.get(key)
    if t is None or t.cards is not cards:
        t = _DECKS[key] = DeckTables(cards)
    return t
