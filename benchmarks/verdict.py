#!/usr/bin/env python3
"""Does the balance lab's verdict change with the players' strength? The table of
docs/balance.md, "The lab's bots".

For each bundled circuit (standard variant, four players) it plays G games with
each table of bots given (default: four greedy bots, four of the default strong
setting, and ``stronger_bots`` of that: twice the search), the same seeds for
every table (paired), and prints one Markdown row per circuit and table: each
grid slot's win share, the first player's share and the stalled cars per
race, each with its 95% interval, and the CPU time per game. The lab's default
bots should be the fastest table whose figures agree with the one that
searches twice as much.

Run from the repository root:
``python benchmarks/verdict.py --games 2000 --workers 2``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from strength import cpu_seconds

from trackside.engine.balance.players import stronger_bots
from trackside.engine.balance.runner import BalanceRun, run_balance
from trackside.engine.game import load_variant
from trackside.engine.records import open_track

CIRCUITS = ("harbour-loop", "quarry-hairpin", "estuary-sweep")


def share(figure: list[float]) -> str:
    """A share and its interval, in points: "23.1 (21.3-25.0)"."""
    value, low, high = (100 * x for x in figure)
    return f"{value:.1f} ({low:.1f}-{high:.1f})"


def row(name: str, bots: str, report: dict, cpu: float) -> str:
    """One table row of a run's report (``BalanceReport.to_dict``)."""
    slots = " | ".join(share(s["win_share"]) for s in report["grid_slots"])
    stalled = report["stalled_per_race"]
    return (
        f"| {name} | {bots} | {report['games']} | {slots} | "
        f"{share(report['first_player']['win_share'])} | "
        f"{stalled['mean']:.2f} ({stalled['low']:.2f}-{stalled['high']:.2f}) | "
        f"{1000 * cpu / report['games']:.0f} |"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="games per circuit and table")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--tracks", default=",".join(CIRCUITS))
    parser.add_argument(
        "--bots",
        action="append",
        help="a table of bots (repeat); default greedy, strong and stronger_bots(strong)",
    )
    args = parser.parse_args()
    tables = args.bots or ["greedy", "strong", ",".join(stronger_bots(("strong",)))]
    variant = load_variant("standard")
    print(
        "| circuit | bots | games | slot 1 | slot 2 | slot 3 | slot 4 | slot 5 | slot 6 "
        "| first player | stalled per race | ms CPU a game |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for name in args.tracks.split(","):
        track = open_track(name)
        for bots in tables:
            run = BalanceRun(
                track, variant, 4, args.games, args.seed, tuple(bots.split(",")), track_name=name
            )
            cpu, wall = cpu_seconds(), time.perf_counter()
            report = run_balance(run, args.workers).to_dict()
            used = cpu_seconds() - cpu
            print(row(name, bots, report, used), flush=True)
            print(f"  ({time.perf_counter() - wall:.0f} s wall)", file=sys.stderr, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
