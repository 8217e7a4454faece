#!/usr/bin/env python3
"""Benchmark: whole games per second on a bundled circuit, on one core.

Prints games per second for four greedy bots (target: 200 games/s),
then four random bots, then the rules engine alone (each seat takes the first
legal option, no bot at all) so that the bots' share of the time shows, then
how many game copies per second ``Game.copy`` makes (bots that search copy
the game at every decision they try). With
``--profile`` it also prints the functions where the greedy games spend their
time (cProfile, sorted by own time).

Times are CPU seconds of this process (``time.process_time``), so that other
work on a shared machine disturbs the figures less; the board build is wall time.

Run from the repository root: ``python benchmarks/simulate.py [--games N]``.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from trackside.engine.bots import bot_seed, drive, make_bot
from trackside.engine.game import Board, Game, load_variant
from trackside.engine.resources import tracks_dir
from trackside.engine.track.model import load_track


def timed(run) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of ``run()``."""
    cpu, wall = time.process_time(), time.perf_counter()
    run()
    return time.process_time() - cpu, time.perf_counter() - wall


def bot_games(board: Board, variant, kind: str, games: int, players: int, seed: int) -> None:
    """Play ``games`` games with one ``kind`` bot per seat."""
    for i in range(seed, seed + games):
        game = Game.new(board, variant, players, i)
        drive(game, [make_bot(kind, bot_seed(i, p, kind)) for p in range(players)])


def engine_games(board: Board, variant, games: int, players: int, seed: int) -> None:
    """Play ``games`` games taking the first legal option: the engine alone."""
    for i in range(seed, seed + games):
        game = Game.new(board, variant, players, i)
        while not game.over:
            for p in game.due():
                game.apply(game.options(p)[0])


def copy_states(board: Board, variant, games: int, players: int, seed: int) -> list[Game]:
    """Games caught at every 7th decision step, from set-up to the end."""
    states = []
    for i in range(seed, seed + games):
        game = Game.new(board, variant, players, i)
        steps = 0
        while not game.over:
            for p in game.due():
                game.apply(game.options(p)[0])
            steps += 1
            if steps % 7 == 0:
                states.append(game.copy())
    return states


def copy_all(states: list[Game], rounds: int) -> None:
    """Copy every state ``rounds`` times."""
    for _ in range(rounds):
        for state in states:
            state.copy()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--track", default=str(tracks_dir() / "harbour-loop.yaml"))
    parser.add_argument("--variant", default="standard")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeat", type=int, default=3, help="runs per figure; best is shown")
    parser.add_argument("--profile", action="store_true", help="profile the greedy games")
    args = parser.parse_args()

    variant = load_variant(args.variant)
    began = time.perf_counter()
    board = Board(load_track(args.track), variant.use_finish)
    print(
        f"{board.track.name}: {len(board.ids)} spaces; board built in "
        f"{time.perf_counter() - began:.3f} s"
    )
    print(
        f"{args.games} games, {args.variant}, {args.players} players, one core, "
        f"best of {args.repeat}:"
    )
    runs = [
        (
            "greedy bots",
            lambda: bot_games(board, variant, "greedy", args.games, args.players, args.seed),
        ),
        (
            "random bots",
            lambda: bot_games(board, variant, "random", args.games, args.players, args.seed),
        ),
        (
            "engine alone (first option)",
            lambda: engine_games(board, variant, args.games, args.players, args.seed),
        ),
    ]
    for name, run in runs:
        times = [timed(run) for _ in range(args.repeat)]
        cpu, wall = min(t[0] for t in times), min(t[1] for t in times)
        print(
            f"  {name:<28} {args.games / cpu:8.1f} games/s CPU "
            f"({1000 * cpu / args.games:.2f} ms per game), {args.games / wall:.1f} games/s wall"
        )
    states = copy_states(board, variant, max(1, args.games // 10), args.players, args.seed)
    rounds = 10
    cpu = min(timed(lambda: copy_all(states, rounds))[0] for _ in range(args.repeat))
    copies = rounds * len(states)
    print(
        f"  {'game copies':<28} {copies / cpu:8.0f} copies/s CPU "
        f"({1e6 * cpu / copies:.2f} us per copy, {copies} copies)"
    )
    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
        bot_games(board, variant, "greedy", args.games, args.players, args.seed)
        profiler.disable()
        text = io.StringIO()
        pstats.Stats(profiler, stream=text).sort_stats("tottime").print_stats(25)
        print(text.getvalue())
    return 0


if __name__ == "__main__":
    sys.exit(main())
