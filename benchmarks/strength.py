#!/usr/bin/env python3
"""Measure a bot's strength and speed: one seat of KIND against greedy bots, and
four KIND bots at a table, on each circuit.

Strength: for each circuit, plays G standard four-player games with the bot
kinds ``KIND,greedy,greedy,greedy`` rotated over the seats game after game
(the balance runner's rotation, so that seat order and bot kind are told
apart), and prints each kind's share of the wins with its 95% Wilson
interval (a shared win is split). Speed (``--speed-games S``, first): S games
of four KIND bots per circuit, played as the balance lab plays them (one run,
``--workers`` processes), and their wall time, with the CPU time per game and
games per second of one core (a 95% interval over the parts handed to the
workers). Strength results are printed after every block of games (circuits
take turns), so an interrupted run still says what it measured. The same
seed gives the same totals whatever the number of workers.

Circuits are bundled ones by name, circuit files, or ``switchback``: a circuit
built here that no fitting of the strong bot's value estimate uses
(``tools/fit_value.py`` also leaves out Estuary Sweep), for strength on a
circuit the bot was never tuned on.

Run from the repository root:
``python benchmarks/strength.py --bot strong --games 2000 --speed-games 1000 --workers 2``.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from trackside.engine import native
from trackside.engine.balance.runner import (
    BalanceRun,
    Totals,
    chunks,
    play_range,
    played_parts,
    run_totals,
)
from trackside.engine.game import load_variant
from trackside.engine.intervals import mean_interval
from trackside.engine.records import open_track
from trackside.engine.track.lanes import Arc, LaneLayout, Straight, close_loop
from trackside.engine.track.model import Track
from trackside.engine.track.templates import from_layout

CIRCUITS = ("harbour-loop", "estuary-sweep", "quarry-hairpin", "switchback")
BLOCK = 100  # games per block (a multiple of the four seats, so rotation is kept)
UNSEEN = "switchback"


def switchback() -> Track:
    """A circuit in no fitting set: a four-lane start straight, a two-lane
    hairpin and a chicane, three lanes elsewhere."""
    layout = LaneLayout(
        pieces=(
            Straight(200, lanes=4),  # start straight (fitted)
            Arc(100, 90),
            Straight(120),  # (fitted)
            Arc(70, 120, lanes=2),  # the hairpin, two lanes
            Straight(90, lanes=2),
            Arc(90, -60),  # the chicane
            Straight(100),
            Arc(110, 120),
            Straight(160),
            Arc(100, 90, lanes=4),
        ),
        start=(150.0, 480.0),
        closed=True,
        lanes=3,
        space_length=40.0,
        lane_width=34.0,
    )
    return from_layout(
        close_loop(layout, (0, 2)),
        "Switchback",
        "A circuit no strong-bot fitting uses: a two-lane hairpin and a chicane.",
    )


def circuit(name: str) -> Track:
    """A bundled circuit or file by name, or the circuit built here."""
    return switchback() if name == UNSEEN else open_track(name)


def cpu_seconds() -> float:
    """CPU time of this process and of its finished workers."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def timed_part(run: BalanceRun, first: int, stop: int) -> tuple[int, float]:
    """Games ``first`` to ``stop - 1`` of ``run`` played here: how many, and the CPU
    seconds this process took for them."""
    began = time.process_time()
    play_range(run, first, stop)
    return stop - first, time.process_time() - began


def speed(run: BalanceRun, workers: int) -> str:
    """Play ``run`` as the balance lab does (one pool of workers, parts of
    ``CHUNK`` games) and say its wall time, and its games per CPU second with a
    95% interval over the parts (the workers' start-up, paid once a run, left out)."""
    tasks = [(0, first, stop) for first, stop in chunks(run.games)]
    started = time.perf_counter()
    parts = [part for _k, part in played_parts(timed_part, [run], tasks, workers)]
    wall = time.perf_counter() - started
    rates = [games / cpu for games, cpu in parts]
    rate = statistics.fmean(rates)
    low, high = mean_interval(sum(rates), sum(r * r for r in rates), len(rates))
    cpu = sum(cpu for _games, cpu in parts)
    return (
        f"{run.games} games of four in {wall:.1f} s wall on {workers} worker(s) "
        f"({run.games / wall:.1f} games/s); one core: {rate:.1f} games/s "
        f"[{low:.1f}, {high:.1f}], {1000 * cpu / run.games:.0f} ms CPU a game"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bot", default="strong", help="the kind measured (default strong)")
    parser.add_argument("--games", type=int, default=2000, help="strength games per circuit")
    parser.add_argument(
        "--speed-games", type=int, default=0, help="games of four KIND bots per circuit"
    )
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--tracks", default=",".join(CIRCUITS))
    args = parser.parse_args()
    print(f"engine: {native.status()}", flush=True)
    variant = load_variant("standard")
    names = args.tracks.split(",")
    tracks = {name: circuit(name) for name in names}
    if args.speed_games:
        for name in names:
            run = BalanceRun(tracks[name], variant, 4, args.speed_games, args.seed, (args.bot,) * 4)
            print(f"{name}: speed, {speed(run, args.workers)}", flush=True)
    totals: dict[str, Totals] = {}
    cpu, wall = cpu_seconds(), time.perf_counter()
    for first in range(0, args.games, BLOCK):  # circuit after circuit, block by block
        for name in names:
            games = min(BLOCK, args.games - first)
            kinds = (args.bot, "greedy", "greedy", "greedy")
            run = BalanceRun(tracks[name], variant, 4, games, args.seed + first, kinds)
            part = run_totals(run, args.workers)
            if name in totals:
                totals[name].merge(part)
            else:
                totals[name] = part
            shares = totals[name].report.to_dict()["bot_kinds"]
            line = "  ".join(
                "{} {:.3f} [{:.3f}, {:.3f}]".format(kind, *s["win_share"])
                for kind, s in shares.items()
            )
            used = f"cpu {cpu_seconds() - cpu:.0f} s, wall {time.perf_counter() - wall:.0f} s"
            done = totals[name].report.games
            print(f"{name}: strength, {done} games  {line}  (so far: {used})", flush=True)


if __name__ == "__main__":
    main()
