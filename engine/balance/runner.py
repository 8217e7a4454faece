"""Playing the bot games of a balance run, in this process or in worker processes.

Game i is set up from seed ``seed + i`` and its seats get the bot kinds
rotated by i, so that seat order and bot kind are told apart; the games are
played by the one loop of ``engine/simulate.py`` (``play_games``), in parts
handed to worker processes by ``played_parts`` (for Suggest fixes too).
Whatever the number of workers, the same run gives the same totals.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from multiprocessing import get_context
from typing import TypeVar

from trackside.engine.balance.players import LAB_BOTS
from trackside.engine.balance.report import BalanceReport
from trackside.engine.game import Game, Series, Variant
from trackside.engine.simulate import BotRun, Stats, play_games
from trackside.engine.track.model import Track

CHUNK = 10  # games per task handed to a worker
Part = TypeVar("Part")  # what a task of games adds up to


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
    paired: bool = False  # dealt as every variant compared is (``paired_deal``)

    @property
    def bot_run(self) -> BotRun:
        """The games to play: one race each on the circuit."""
        return BotRun(
            (self.track,),
            self.variant,
            self.players,
            self.games,
            self.seed,
            self.bots,
            self.rotate,
            series=False,
            paired=self.paired,
        )

    def kinds(self, game_index: int) -> list[str]:
        """The bot kind per seat in game ``game_index`` (rotated each game)."""
        return self.bot_run.kinds(game_index)

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
    game = run.bot_run.play(game_index)
    assert isinstance(game, Game)
    return game, run.kinds(game_index)


@dataclass
class Totals:
    """What a run (or a part of it) adds up to: the balance report and the simulate stats."""

    report: BalanceReport
    stats: Stats

    def add(self, game: Game | Series, kinds: list[str]) -> None:
        """Count one finished race played by bots of ``kinds``."""
        assert isinstance(game, Game)  # a balance run races once per game
        self.report.add_game(game, kinds)
        self.stats.add(game)

    def merge(self, other: Totals) -> None:
        """Add another part of the same run."""
        self.report.merge(other.report)
        self.stats.merge(other.stats)


def play_range(
    run: BalanceRun,
    first: int,
    stop: int,
    progress: Callable[[int], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> Totals:
    """The totals of games ``first`` to ``stop - 1`` (a worker's task, or the whole
    run here); ``progress(k)`` after the k-th, ``cancelled()`` stops early."""
    totals = Totals(run.empty_report(), run.empty_stats())
    began = time.perf_counter()
    if not play_games(run.bot_run, first, stop, totals.add, progress, cancelled):
        totals.report.cancelled = True
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
        totals = play_range(run, 0, run.games, progress, cancelled)
    else:
        totals = _run_in_workers(run, workers, progress, cancelled)
    totals.report.seconds = totals.stats.seconds = time.perf_counter() - began
    return totals


def chunks(games: int) -> Iterator[tuple[int, int]]:
    """Games 0 to ``games - 1`` in the parts handed to workers: ``(first, stop)`` each."""
    for first in range(0, games, CHUNK):
        yield first, min(games, first + CHUNK)


def played_parts(
    play: Callable[[BalanceRun, int, int], Part],
    tasks: Sequence[tuple[BalanceRun, int, int]],
    workers: int = 1,
    cancelled: Callable[[], bool] | None = None,
) -> Iterator[tuple[int, Part]]:
    """``play(run, first, stop)`` for each task, in ``workers`` worker processes when
    more than one, given with the task's index as each finishes (in task order when
    played here); no more once ``cancelled()``."""
    if workers <= 1:
        for k, task in enumerate(tasks):
            if cancelled and cancelled():
                return
            yield k, play(*task)
        return
    # Spawned, not forked: safe beside the editor's threads, and the same on every OS.
    with ProcessPoolExecutor(workers, mp_context=get_context("spawn")) as pool:
        todo = list(enumerate(tasks))
        running: dict[Future[Part], int] = {}
        while todo or running:
            while todo and len(running) < 2 * workers and not (cancelled and cancelled()):
                k, task = todo.pop(0)
                running[pool.submit(play, *task)] = k
            if cancelled and cancelled():
                for future in running:
                    future.cancel()
                return
            finished, _ = wait(running, timeout=0.2, return_when=FIRST_COMPLETED)
            for future in finished:
                yield running.pop(future), future.result()


def paired_parts(
    play: Callable[[BalanceRun, int, int], Part],
    runs: Sequence[BalanceRun],
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> list[list[Part]]:
    """Every game of every run as ``play(run, first, stop)`` parts, chunk by chunk
    across the runs, in worker processes if asked: per run, its parts in game order.
    ``progress(k)`` with the games played so far (all runs told); ``cancelled()`` stops
    early, and then every run keeps only the chunks that every run played, so that the
    runs stay game for game alike (paired)."""
    longest = max((run.games for run in runs), default=0)
    tasks = [
        (r, first, min(stop, run.games))
        for first, stop in chunks(longest)
        for r, run in enumerate(runs)
        if first < run.games
    ]
    games = [(runs[r], first, stop) for r, first, stop in tasks]
    parts: dict[tuple[int, int], Part] = {}
    done = 0
    for k, part in played_parts(play, games, workers, cancelled):
        r, first, stop = tasks[k]
        parts[(r, first)] = part
        done += stop - first
        if progress:
            progress(done)
    every = range(len(runs))
    common = sorted({first for _r, first in parts if all((r, first) in parts for r in every)})
    return [[parts[(r, first)] for first in common] for r in every]


def _run_in_workers(
    run: BalanceRun,
    workers: int,
    progress: Callable[[int], None] | None,
    cancelled: Callable[[], bool] | None,
) -> Totals:
    totals = Totals(run.empty_report(), run.empty_stats())
    tasks = [(run, first, stop) for first, stop in chunks(run.games)]
    for _k, part in played_parts(play_range, tasks, workers, cancelled):
        totals.merge(part)
        if progress:
            progress(totals.report.games)
    totals.report.cancelled = totals.report.games < run.games
    return totals
