"""Many bot games and their statistics, for designers (``trackside simulate``).

A ``BotRun`` says which games: game i is set up from seed ``seed + i`` with
one bot per seat; ``play_games`` is the one loop that plays them, for
``simulate``, the balance lab (``engine/balance/runner.py``, in worker
processes too), Suggest fixes (``engine/balance/fixes.py``) and the
benchmarks. ``simulate`` gathers: wins and mean
winnings by seat, wins by start-grid slot (the slot the winning car started
from), mean cards played per race, stalled cars per race, when each betting
line is first crossed (mean card number) and the spaces where cars most
often end a move blocked.
"""

from __future__ import annotations

import gc
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from trackside.engine.bots import drive, seat_bots
from trackside.engine.game import Game, Series, Variant
from trackside.engine.game.setup import paired_deal
from trackside.engine.intervals import wilson
from trackside.engine.records import new_game
from trackside.engine.tallies import Tally
from trackside.engine.track.model import Track

BULK_THRESHOLD = 100_000  # allocations between young-generation collections in bulk play


@contextmanager
def few_collections() -> Iterator[None]:
    """Collect garbage less often while bots play games in bulk (as ``trackside
    simulate`` and the balance lab do); the old settings come back after."""
    # A game makes and drops hundreds of thousands of small objects: at Python's
    # default threshold (700) the cycle collector runs thousands of times a game,
    # each time walking what the program set up before (frozen out of it here).
    old = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(BULK_THRESHOLD, old[1], old[2])
    try:
        yield
    finally:
        gc.set_threshold(*old)
        gc.unfreeze()


@dataclass(frozen=True)
class BotRun:
    """Bot games to play: game i on ``tracks`` (a series for several tracks or a
    variant with its own, unless ``series`` says otherwise), set up from seed
    ``seed + i``, with a bot of ``bots[seat]`` per seat (cycled when shorter;
    with ``rotate`` the kinds move one seat on game after game, so that seat
    order and bot kind are told apart). With ``paired`` each race is dealt by
    ``paired_deal``, the shuffles every variant shares, so that two variants
    compared play the same games as far as their rules allow (one race a game)."""

    tracks: tuple[Track, ...]
    variant: Variant
    players: int
    games: int
    seed: int = 0
    bots: tuple[str, ...] = ("greedy",)
    rotate: bool = False
    series: bool | None = None
    paired: bool = False

    def kinds(self, index: int) -> list[str]:
        """The bot kind per seat in game ``index``."""
        turn = index if self.rotate else 0
        return [self.bots[(seat + turn) % len(self.bots)] for seat in range(self.players)]

    def play(self, index: int) -> Game | Series:
        """Game ``index`` played to its end by its bots, each seeded from the game's seed."""
        seed = self.seed + index
        variant = self.variant
        deals = [paired_deal(variant, variant.deck, self.players, seed)] if self.paired else []
        game = new_game(
            list(self.tracks), self.variant, self.players, seed, deals, series=self.series
        )
        drive(game, seat_bots(seed, self.kinds(index)))
        return game


def play_games(
    run: BotRun,
    first: int,
    stop: int,
    count: Callable[[Game | Series, list[str]], None],
    progress: Callable[[int], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> bool:
    """Play games ``first`` to ``stop - 1`` of ``run``, giving each finished game and
    its bot kinds to ``count``; ``progress(k)`` after the k-th. False when
    ``cancelled()`` stopped it early."""
    with few_collections():
        for done, index in enumerate(range(first, stop), 1):
            if cancelled and cancelled():
                return False
            count(run.play(index), run.kinds(index))
            if progress:
                progress(done)
    return True


@dataclass
class Stats:
    """Totals over the simulated games; ``to_dict`` gives the figures (the text report,
    with intervals, is ``cli/simulate_text.py``). A mean is kept as a ``Tally`` (its sum,
    sum of squares and count give its interval); the seats' lists are made for
    ``players`` when not given."""

    variant: str
    tracks: list[str]
    players: int
    bots: list[str]
    seed: int
    games: int = 0
    races: int = 0
    seconds: float = 0.0
    wins: list[float] = field(default_factory=list)
    winnings: list[Tally] = field(default_factory=list)  # per seat, over games
    slot_wins: list[int] = field(default_factory=lambda: [0] * 6)
    cards: Tally = field(default_factory=Tally)  # cards played, over races
    stalled: Tally = field(default_factory=Tally)  # stalled cars, over races
    # Per betting line, the card number at which it was first crossed, over the races
    # that crossed it.
    lines: list[Tally] = field(default_factory=lambda: [Tally() for _ in range(3)])
    blocked: Counter[str] = field(default_factory=Counter)

    def __post_init__(self) -> None:
        if not self.wins:
            self.wins = [0.0] * self.players
        if not self.winnings:
            self.winnings = [Tally() for _ in range(self.players)]

    def add(self, game: Game | Series) -> None:
        """Count one finished game (or series)."""
        races = game.games if isinstance(game, Series) else [game]
        result = game.result
        if result is None:
            raise ValueError("only a finished game has statistics")
        self.games += 1
        for seat in result.winners:
            self.wins[seat] += 1 / len(result.winners)  # a shared win is split
        for seat, s in enumerate(result.scores):
            self.winnings[seat].add(s)
        for race in races:
            self._add_race(race, len(races) > 1 or len(self.tracks) > 1)

    def merge(self, other: Stats) -> None:
        """Add the totals of another part of the same run (worker processes)."""
        self.games += other.games
        self.races += other.races
        self.seconds += other.seconds
        for seat in range(len(self.wins)):
            self.wins[seat] += other.wins[seat]
            self.winnings[seat].merge(other.winnings[seat])
        for slot in range(len(self.slot_wins)):
            self.slot_wins[slot] += other.slot_wins[slot]
        self.cards.merge(other.cards)
        self.stalled.merge(other.stalled)
        for mine, theirs in zip(self.lines, other.lines, strict=True):
            mine.merge(theirs)
        self.blocked.update(other.blocked)

    def _add_race(self, race: Game, named: bool) -> None:
        self.races += 1
        res = race.result
        if res is None:
            raise ValueError("only a finished race has statistics")
        if res.ranking:
            self.slot_wins[race.deal.grid.index(res.ranking[0])] += 1
        self.stalled.add(len(res.stalled))
        cards = 0
        prefix = f"{race.board.track.name}:" if named else ""
        for event in race.log:
            kind = event.kind
            if kind == "play":
                cards += 1
            elif kind == "cross":
                self.lines[event.data["line"]].add(cards)
            elif kind == "move" and event.data.get("blocked"):
                self.blocked[prefix + event.data["path"][-1]] += 1
        self.cards.add(cards)

    def to_dict(self) -> dict[str, Any]:
        """The figures as plain data (``--json``)."""
        games, races = max(1, self.games), max(1, self.races)  # divisors
        return {
            "games": self.games,
            "races": self.races,
            "seconds": round(self.seconds, 3),
            "games_per_second": round(self.games / self.seconds, 1) if self.seconds else None,
            "variant": self.variant,
            "tracks": self.tracks,
            "players": self.players,
            "seed": self.seed,
            "seats": [
                {
                    "seat": seat,
                    "bot": self.bots[seat],
                    "wins": round(self.wins[seat], 3),
                    "win_rate": round(self.wins[seat] / games, 4),
                    "win_rate_interval": _rounded(wilson(self.wins[seat], self.games), 4),
                    "mean_winnings": round(self.winnings[seat].total / games, 3),
                    "mean_winnings_interval": _rounded(_mean_ends(self.winnings[seat]), 3),
                }
                for seat in range(self.players)
            ],
            "grid_slots": [
                {
                    "slot": k + 1,
                    "wins": self.slot_wins[k],
                    "win_rate": round(self.slot_wins[k] / races, 4),
                    "win_rate_interval": _rounded(wilson(self.slot_wins[k], self.races), 4),
                }
                for k in range(6)
            ],
            "mean_cards_played": round(self.cards.total / races, 2),
            "mean_cards_played_interval": _rounded(count_interval(self.cards), 2),
            "stalled_per_race": round(self.stalled.total / races, 3),
            "stalled_per_race_interval": _rounded(count_interval(self.stalled), 3),
            "betting_lines": [
                {
                    "line": k + 1,
                    "crossed_in": tally.count,
                    "mean_card": round(tally.mean, 2) if tally.count else None,
                    "mean_card_interval": _rounded(count_interval(tally), 2),
                }
                for k, tally in enumerate(self.lines)
            ],
            "blocked_spaces": [{"space": s, "count": n} for s, n in self.top_blocked()],
        }

    def top_blocked(self, n: int = 10) -> list[tuple[str, int]]:
        """The spaces where moves most often ended blocked, most first (ties by id)."""
        return sorted(self.blocked.items(), key=lambda item: (-item[1], item[0]))[:n]


Ends = tuple[float, float] | None  # a figure's 95% interval; None when nothing counted it


def count_interval(tally: Tally) -> Ends:
    """The 95% interval of a count's mean (cards, stalled cars), never below none;
    None when nothing was counted."""
    return tally.count_interval() if tally.count else None


def _mean_ends(tally: Tally) -> Ends:
    return tally.interval() if tally.count else None


def _rounded(ends: Ends, digits: int) -> list[float] | None:
    """An interval as ``--json`` gives it: ``[low, high]``, rounded as its figure is."""
    return None if ends is None else [round(ends[0], digits), round(ends[1], digits)]


def simulate(
    tracks: Sequence[Track],
    variant: Variant,
    players: int,
    games: int,
    seed: int = 0,
    bots: Sequence[str] = ("greedy",),
    track_names: Sequence[str] = (),
    progress: Callable[[int], None] | None = None,
) -> Stats:
    """Play ``games`` bot games and gather their statistics. ``bots`` lists the
    bot kind per seat (cycled when shorter); ``progress(k)`` is called after each game."""
    run = BotRun(tuple(tracks), variant, players, games, seed, tuple(bots))
    names = list(track_names) or [t.name for t in tracks]
    stats = Stats(variant.name, names, players, run.kinds(0), seed)
    began = time.perf_counter()
    play_games(run, 0, games, lambda game, _kinds: stats.add(game), progress)
    stats.seconds = time.perf_counter() - began
    return stats
