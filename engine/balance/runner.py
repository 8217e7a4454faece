"""Playing the bot games of a balance run: here, in worker processes or on a cluster.

Game i is set up from seed ``seed + i`` and its seats get the bot kinds
rotated by i, so that seat order and bot kind are told apart; the games are
played by the one loop of ``engine/simulate.py`` (``play_games``), in parts
handed to an executor (``executors.py``: local worker processes or a Dask
cluster) by ``played_parts``, for Suggest fixes, two variants compared
(``paired_parts``) and sweeps too. Wherever the games run, the same run gives
the same totals.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from trackside import __version__
from trackside.engine.balance import players as lab_players
from trackside.engine.balance.executors import (
    TASK_GAMES,
    Executor,
    check_part,
    executor_for,
    plays_here,
    versioned,
)
from trackside.engine.balance.report import BalanceReport
from trackside.engine.game import Game, Series, Variant
from trackside.engine.simulate import BotRun, Stats, play_games
from trackside.engine.track.model import Track

Part = TypeVar("Part")  # what a task of games adds up to


@dataclass(frozen=True)
class BalanceRun:
    """What to play: the circuit, the variant, the table and how many games."""

    track: Track
    variant: Variant
    players: int
    games: int
    seed: int = 0
    # The lab's bots as they are when the run is made (tests set them to greedy ones).
    bots: tuple[str, ...] = field(default_factory=lambda: lab_players.LAB_BOTS)
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
    workers: int | Executor = 1,
    progress: Callable[[int], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> BalanceReport:
    """Play the run (here, in ``workers`` local processes, or on the executor given);
    ``progress(k)`` after each finished part, ``cancelled()`` stops early (the report
    then holds the games played and says it was cancelled)."""
    return run_totals(run, workers, progress, cancelled).report


def run_totals(
    run: BalanceRun,
    workers: int | Executor = 1,
    progress: Callable[[int], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> Totals:
    """``run_balance`` with the ``trackside simulate`` statistics of the same games."""
    began = time.perf_counter()
    if plays_here(workers):  # game by game: progress and Cancel at once
        totals = play_range(run, 0, run.games, progress, cancelled)
    else:
        totals = Totals(run.empty_report(), run.empty_stats())
        with executor_for(workers) as executor:
            parts = chunks(run.games, size=executor.task_games)
            tasks = [(0, first, stop) for first, stop in parts]
            for _k, part in played_parts(play_range, [run], tasks, executor, cancelled):
                totals.merge(part)
                if progress:
                    progress(totals.report.games)
        totals.report.cancelled = totals.report.games < run.games
    totals.report.seconds = totals.stats.seconds = time.perf_counter() - began
    return totals


def chunks(games: int, first: int = 0, size: int = TASK_GAMES) -> Iterator[tuple[int, int]]:
    """Games ``first`` to ``games - 1`` in the parts handed to workers, ``size`` games
    each: ``(first, stop)``."""
    for start in range(first, games, size):
        yield start, min(games, start + size)


def played_parts(
    play: Callable[[BalanceRun, int, int], Part],
    runs: Sequence[BalanceRun],
    tasks: Sequence[tuple[int, int, int]],
    workers: int | Executor = 1,
    cancelled: Callable[[], bool] | None = None,
) -> Iterator[tuple[int, Part]]:
    """``play(runs[r], first, stop)`` for each task ``(r, first, stop)``: here, in
    ``workers`` local processes, or on the executor given (``executors.py``), given
    with the task's index as each finishes (in task order when played here); no more
    once ``cancelled()``, and the tasks still out are then stopped."""
    with executor_for(workers) as executor:
        shared = executor.share(tuple(runs))
        todo = deque(enumerate(tasks))
        out: dict[Any, int] = {}
        try:
            while todo or out:
                stop = bool(cancelled and cancelled())
                while todo and len(out) < executor.slots() and not stop:
                    k, (r, first, last) = todo.popleft()
                    task = (__version__, _play_task, play, shared, r, first, last)
                    out[executor.submit(versioned, *task)] = k
                if stop:
                    return
                for task in executor.finished(out, timeout=0.2):
                    k = out.pop(task)
                    yield k, check_part(executor.result(task), executor.where)
        finally:
            if out:
                executor.cancel(list(out))


def _play_task(
    play: Callable[[BalanceRun, int, int], Part],
    runs: Sequence[BalanceRun],
    r: int,
    first: int,
    stop: int,
) -> Part:
    """A worker's task: games ``first`` to ``stop - 1`` of ``runs[r]``."""
    return play(runs[r], first, stop)


def paired_parts(
    play: Callable[[BalanceRun, int, int], Part],
    runs: Sequence[BalanceRun],
    workers: int | Executor = 1,
    progress: Callable[[int], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> list[list[Part]]:
    """Every game of every run as ``play(run, first, stop)`` parts, handed to the
    executor by ``played_parts`` chunk by chunk across the runs: per run, its parts in
    game order. ``progress(k)`` with the games played so far (all runs told);
    ``cancelled()`` stops early, and then every run keeps only the chunks that every
    run played, so that the runs stay game for game alike (paired)."""
    longest = max((run.games for run in runs), default=0)
    parts: dict[tuple[int, int], Part] = {}
    done = 0
    with executor_for(workers) as executor:
        tasks = [
            (r, first, min(stop, run.games))
            for first, stop in chunks(longest, size=executor.task_games)
            for r, run in enumerate(runs)
            if first < run.games
        ]
        for k, part in played_parts(play, runs, tasks, executor, cancelled):
            r, first, stop = tasks[k]
            parts[(r, first)] = part
            done += stop - first
            if progress:
                progress(done)
    every = range(len(runs))
    common = sorted({first for _r, first in parts if all((r, first) in parts for r in every)})
    return [[parts[(r, first)] for first in common] for r in every]
