#!/usr/bin/env python3
"""Benchmark: whole games per second on each bundled circuit and the world tour, on one core.

For every bundled circuit (standard variant) and for the world-tour variant
it prints games per second with four greedy bots (goal: 200 games/s), with
four random bots, and for the rules engine alone (goal: 400 games/s): each
seat takes a uniformly random legal option, with no bot, view or request at
all, so that the bots' share of the time shows. A world tour plays several
races per game: its figures are races per second, against the same goals.
Then how many game copies per second ``Game.copy`` makes (bots that search
copy the game at every decision they try), and what counting a finished game
costs the balance lab on each circuit: the whole balance report, its rule
figures (powers, auction, betting) alone, and greedy games per second with the
counting (against the same goal). With ``--profile`` it also prints
the functions where the greedy games spend their time (cProfile, own time).

Times are CPU seconds of this process (``time.process_time``, best of
``--repeat`` runs), so that other work on a shared machine disturbs the
figures less.

Run from the repository root: ``python benchmarks/simulate.py [--games N]
[--track FILE]``.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from trackside.engine import native
from trackside.engine.balance.rules import RuleTotals
from trackside.engine.balance.runner import BalanceRun
from trackside.engine.game import Game, Series, Variant, load_variant
from trackside.engine.records import new_game
from trackside.engine.resources import tracks_dir
from trackside.engine.simulate import BotRun, few_collections, play_games
from trackside.engine.track.model import Track, load_track

GREEDY_GOAL = 200.0  # four-player greedy games per second
ENGINE_GOAL = 400.0  # four-player games per second of the engine alone

NewGame = Callable[[int], Game | Series]
Table = tuple[tuple[Track, ...], Variant]  # the circuits and the variant played


def cpu(run: Callable[[], object]) -> float:
    """CPU seconds of ``run()``."""
    began = time.process_time()
    run()
    return time.process_time() - began


def bot_games(table: Table, kind: str, games: int, players: int, seed: int) -> None:
    """Play ``games`` games with one ``kind`` bot per seat, as ``trackside simulate`` does."""
    tracks, variant = table
    run = BotRun(tracks, variant, players, games, seed, (kind,))
    play_games(run, 0, games, lambda game, kinds: None)


def engine_games(new: NewGame, games: int, seed: int) -> None:
    """Play ``games`` games taking a random legal option: the engine alone."""
    with few_collections():
        for i in range(seed, seed + games):
            _random_game(new(i), random.Random(i).randrange)


def _random_game(game: Game | Series, pick: Callable[[int], int]) -> None:
    while not game.over:
        for p in game.due():
            options = game.options(p)
            game.apply(options[pick(len(options))])


def copy_states(new: NewGame, games: int, seed: int) -> list[Game | Series]:
    """Games caught at every 7th decision step, from set-up to the end."""
    states = []
    for i in range(seed, seed + games):
        game = new(i)
        steps = 0
        while not game.over:
            for p in game.due():
                game.apply(game.options(p)[0])
            steps += 1
            if steps % 7 == 0:
                states.append(game.copy())
    return states


def copy_all(states: list[Game | Series], rounds: int) -> None:
    """Copy every state ``rounds`` times."""
    for _ in range(rounds):
        for state in states:
            state.copy()


def counting(
    name: str, track: Track, variant: Variant, args: argparse.Namespace, greedy: float
) -> None:
    """Print what counting a finished greedy game costs the balance lab: the whole
    balance report, its rule figures alone, and the ``greedy`` games per second once
    each is counted."""
    run = BalanceRun(track, variant, args.players, args.games, args.seed)
    played: list[tuple[Game, list[str]]] = []

    def keep(game: Game | Series, kinds: list[str]) -> None:
        assert isinstance(game, Game)
        played.append((game, kinds))

    play_games(run.bot_run, 0, args.games, keep)
    games = played

    def whole() -> None:
        report = run.empty_report()
        for game, kinds in games:
            report.add_game(game, kinds)

    def rules() -> None:
        totals = RuleTotals()
        for game, _kinds in games:
            totals.add(game)

    report_cost = min(cpu(whole) for _ in range(args.repeat)) / len(games)
    rules_cost = min(cpu(rules) for _ in range(args.repeat)) / len(games)
    with_counting = 1 / (1 / greedy + report_cost)
    print(
        f"{name:<16} report {1000 * report_cost:.3f} ms a game, of which rule figures "
        f"{1e6 * rules_cost:.0f} us; greedy games with counting {with_counting:.1f}/s "
        f"{verdict(with_counting, GREEDY_GOAL)}",
        flush=True,
    )


def verdict(rate: float, goal: float) -> str:
    return "pass" if rate >= goal else "MISS"


def bench(name: str, table: Table, args: argparse.Namespace) -> float:
    """Print one line of figures for the games on ``table``; the greedy games per second."""
    n, players, seed = args.games, args.players, args.seed
    tracks, variant = table
    races = len(tracks)

    def new(i: int) -> Game | Series:
        return new_game(tracks, variant, players, i)

    def best(run: Callable[[], object]) -> float:
        return min(cpu(run) for _ in range(args.repeat))

    greedy = n * races / best(lambda: bot_games(table, "greedy", n, players, seed))
    rand = n * races / best(lambda: bot_games(table, "random", n, players, seed))
    engine = n * races / best(lambda: engine_games(new, n, seed))
    states = copy_states(new, max(1, n // 10), seed)
    rounds = 10
    copies = rounds * len(states) / best(lambda: copy_all(states, rounds))
    print(
        f"{name:<16} {greedy:7.1f} {verdict(greedy, GREEDY_GOAL):<4} {rand:9.1f} "
        f"{engine:9.1f} {verdict(engine, ENGINE_GOAL):<4} {copies:9.0f}",
        flush=True,
    )
    return greedy


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--track", help="one circuit file instead of every bundled one")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeat", type=int, default=3, help="runs per figure; best is shown")
    parser.add_argument("--no-tour", action="store_true", help="skip the world-tour variant")
    parser.add_argument("--profile", action="store_true", help="profile the greedy games")
    args = parser.parse_args()
    print(f"engine: {native.status()}", flush=True)

    standard = load_variant("standard")
    files = [Path(args.track)] if args.track else sorted(tracks_dir().glob("*.yaml"))
    tracks = [load_track(path) for path in files]
    print(
        f"{args.players} players, {args.games} games per figure, CPU time of one core, "
        f"best of {args.repeat}; games per second (world tour: races per second)"
    )
    print(
        f"{'':<16} {'greedy':>7} {GREEDY_GOAL:<4.0f} {'random':>9} {'engine':>9} "
        f"{ENGINE_GOAL:<4.0f} {'copies/s':>9}"
    )
    greedy = [
        bench(path.stem, ((track,), standard), args)
        for path, track in zip(files, tracks, strict=True)
    ]
    if not args.no_tour:
        tour = load_variant("world-tour")
        bench("world tour", (tuple(load_track(path) for path in tour.series), tour), args)
    print("\nCounting a finished game for the balance lab (CPU time per game):")
    for path, track, rate in zip(files, tracks, greedy, strict=True):
        counting(path.stem, track, standard, args, rate)
    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
        bot_games(((tracks[0],), standard), "greedy", args.games, args.players, args.seed)
        profiler.disable()
        text = io.StringIO()
        pstats.Stats(profiler, stream=text).sort_stats("tottime").print_stats(25)
        print(text.getvalue())
    return 0


if __name__ == "__main__":
    sys.exit(main())
