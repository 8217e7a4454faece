#!/usr/bin/env python3
"""Measure a bot's strength: one seat of KIND against greedy bots, on each circuit.

For each bundled circuit, plays G standard four-player games with the bot
kinds ``KIND,greedy,greedy,greedy`` rotated over the seats game after game
(the balance runner's rotation, so that seat order and bot kind are told
apart), and prints each kind's share of the wins with its 95% Wilson
interval (a shared win is split), then the CPU time the run took (this
process and its workers). Results are printed after every block of games (circuits take turns), so
an interrupted run still says what it measured. The same seed gives the same
totals whatever the number of workers.

Run from the repository root:
``python benchmarks/strength.py --bot strong --games 2000 --workers 2``.
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from trackside.engine.balance.runner import BalanceRun, Totals, run_totals
from trackside.engine.game import load_variant
from trackside.engine.records import open_track

CIRCUITS = ("harbour-loop", "estuary-sweep", "quarry-hairpin")
BLOCK = 100  # games per block (a multiple of the four seats, so rotation is kept)


def cpu_seconds() -> float:
    """CPU time of this process and of its finished workers."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bot", default="strong", help="the kind measured (default strong)")
    parser.add_argument("--games", type=int, default=2000, help="games per circuit")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--tracks", default=",".join(CIRCUITS))
    args = parser.parse_args()
    variant = load_variant("standard")
    kinds = (args.bot, "greedy", "greedy", "greedy")
    names = args.tracks.split(",")
    tracks = {name: open_track(name) for name in names}
    totals: dict[str, Totals] = {}
    cpu, wall = cpu_seconds(), time.perf_counter()
    for first in range(0, args.games, BLOCK):  # circuit after circuit, block by block
        games = min(BLOCK, args.games - first)
        for name in names:
            run = BalanceRun(
                tracks[name], variant, 4, games, args.seed + first, kinds, track_name=name
            )
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
            print(f"{name}: {done} games  {line}  (so far: {used})", flush=True)


if __name__ == "__main__":
    main()
