"""Playing the bot games of a balance run, in this process or in worker processes.

Game i is set up from seed ``seed + i`` and its seats get the bot kinds
rotated by i, so that seat order and bot kind are told apart. Whatever the
number of workers, the same run gives the same totals.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from contextlib import contextmanager
from dataclasses import dataclass
from multiprocessing import get_context

from trackside.engine.balance.players import LAB_BOTS
from trackside.engine.balance.report import BalanceReport
from trackside.engine.bots import drive, seat_bots
from trackside.engine.game import Game, Variant
from trackside.engine.records import new_game
from trackside.engine.simulate import Stats
from trackside.engine.track.model import Track

CHUNK = 10  # games per task handed to a worker
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
class BalanceRun:
    """What to play: the circuit, the variant, the table and how many games."""

    track: Track
    variant: Variant
    players: int
    games: int
    seed: int = 0
    bots: tuple[str, ...] = LAB_BOTS
    track_name: str = ""
    rotate: bool = True  # seats take turns with the bot kinds; False: each seat keeps one

    def kinds(self, game_index: int) -> list[str]:
        """The bot kind per seat in game ``game_index`` (rotated each game)."""
        turn = game_index if self.rotate else 0
        return [self.bots[(seat + turn) % len(self.bots)] for seat in range(self.players)]

    def empty_stats(self) -> Stats:
        """The ``trackside simulate`` totals, before any game (seats keep their bots)."""
        return Stats(
            self.variant.name,
            [self.track_name or self.track.name],
            self.players,
            self.kinds(0),
            self.seed,
            wins=[0.0] * self.players,
            winnings=[0] * self.players,
        )

    def empty_report(self) -> BalanceReport:
        return BalanceReport(
            self.track_name or self.track.name,
            self.variant.name,
            self.players,
            list(self.bots),
            self.seed,
        )


def play_one(run: BalanceRun, game_index: int) -> tuple[Game, list[str]]:
    """Play game ``game_index`` of the run to its end."""
    seed = run.seed + game_index
    kinds = run.kinds(game_index)
    game = new_game([run.track], run.variant, run.players, seed, series=False)
    assert isinstance(game, Game)
    drive(game, seat_bots(seed, kinds))
    return game, kinds


@dataclass
class Totals:
    """What a run (or a part of it) adds up to: the balance report and the simulate stats."""

    report: BalanceReport
    stats: Stats

    def add(self, run: BalanceRun, index: int) -> None:
        """Play game ``index`` of ``run`` and count it."""
        game, kinds = play_one(run, index)
        self.report.add_game(game, kinds)
        self.stats.add(game)

    def merge(self, other: Totals) -> None:
        """Add another part of the same run."""
        self.report.merge(other.report)
        self.stats.merge(other.stats)


def play_range(run: BalanceRun, first: int, stop: int) -> Totals:
    """The totals of games ``first`` to ``stop - 1`` (a worker's task)."""
    totals = Totals(run.empty_report(), run.empty_stats())
    began = time.perf_counter()
    with few_collections():
        for index in range(first, stop):
            totals.add(run, index)
    totals.report.seconds = totals.stats.seconds = time.perf_counter() - began
    return totals


def run_balance(
    run: BalanceRun,
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> BalanceReport:
    """Play the run; ``progress(k)`` after each finished part, ``cancelled()`` stops
    early (the report then holds the games played and says it was cancelled)."""
    return run_totals(run, workers, progress, cancelled).report


def run_totals(
    run: BalanceRun,
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> Totals:
    """``run_balance`` with the ``trackside simulate`` statistics of the same games."""
    began = time.perf_counter()
    if workers <= 1:
        totals = _run_here(run, progress, cancelled)
    else:
        totals = _run_in_workers(run, workers, progress, cancelled)
    totals.report.seconds = totals.stats.seconds = time.perf_counter() - began
    return totals


def _run_here(
    run: BalanceRun,
    progress: Callable[[int], None] | None,
    cancelled: Callable[[], bool] | None,
) -> Totals:
    totals = Totals(run.empty_report(), run.empty_stats())
    with few_collections():
        for index in range(run.games):
            if cancelled and cancelled():
                totals.report.cancelled = True
                break
            totals.add(run, index)
            if progress:
                progress(totals.report.games)
    return totals


def _chunks(games: int) -> Iterator[tuple[int, int]]:
    for first in range(0, games, CHUNK):
        yield first, min(games, first + CHUNK)


def _run_in_workers(
    run: BalanceRun,
    workers: int,
    progress: Callable[[int], None] | None,
    cancelled: Callable[[], bool] | None,
) -> Totals:
    totals = Totals(run.empty_report(), run.empty_stats())
    # Spawned, not forked: safe beside the editor's threads, and the same on every OS.
    with ProcessPoolExecutor(workers, mp_context=get_context("spawn")) as pool:
        todo = list(_chunks(run.games))
        running: set[Future[Totals]] = set()
        while todo or running:
            while todo and len(running) < 2 * workers and not (cancelled and cancelled()):
                running.add(pool.submit(play_range, run, *todo.pop(0)))
            if cancelled and cancelled():
                totals.report.cancelled = True
                for future in running:
                    future.cancel()
                break
            done, running = wait(running, timeout=0.2, return_when=FIRST_COMPLETED)
            for future in done:
                totals.merge(future.result())
                if progress:
                    progress(totals.report.games)
    return totals
