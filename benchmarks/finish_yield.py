#!/usr/bin/env python3
"""Measure the yield of a space the finish moves: the table of docs/balance.md, "Why a
stall hint converges", and the figure behind ``FINISH_YIELD``.

For each circuit (a straight of three lanes with its finish 56 rows on, the oval
template with straights 8 rows longer, the peanut template, Quarry Hairpin as
bundled) it plays G standard four-player games on the circuit as it is and with
its finish 4, 8 and 12 spaces earlier, moved as the stall hint's proposal moves
it (``make_edit``), every run on the same seeds (paired). It prints one Markdown
row per circuit: the stalled cars a race with their 95% interval, each moved
finish's figure with what ``stalled_after_finish_moved`` predicted from the run
before; then a row of the yields the measured figures imply (for each, the
``FINISH_YIELD`` at which the prediction comes down to it: a smaller yield
predicts more stalled cars, that one and larger ones no more); and a summary: in how
many cases the prediction is at or above the measured figure, within 0.1 of it,
and both.

Run from the repository root:
``python benchmarks/finish_yield.py --bots strong --games 400 --workers 2``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from tracks_for_tests import straight_track  # noqa: E402  (after the path is set)

from trackside.engine.balance.edits import Proposal, make_edit  # noqa: E402
from trackside.engine.balance.hints import (  # noqa: E402
    FINISH_YIELD,
    stalled_after_finish_moved,
)
from trackside.engine.balance.report import BalanceReport  # noqa: E402
from trackside.engine.balance.runner import BalanceRun, run_balance  # noqa: E402
from trackside.engine.game import Variant, load_variant  # noqa: E402
from trackside.engine.records import open_track  # noqa: E402
from trackside.engine.track.model import Track  # noqa: E402
from trackside.engine.track.templates import oval, peanut  # noqa: E402

MOVES = (4, 8, 12)  # spaces the finish is moved earlier
CLOSE = 0.1  # a prediction this near the measured figure is a good one
ROW = 40.0  # the lane builder's space length, mm


def long_oval() -> Track:
    """The oval template with each straight 8 rows longer."""
    return oval(360.0 + 8 * ROW)


CIRCUITS: tuple[tuple[str, Callable[[], Track]], ...] = (
    (
        "a straight of three lanes, finish 56 rows on",
        lambda: straight_track(rows=60, lanes=3, finish=56),
    ),
    ("the oval template, straights 8 rows longer", long_oval),
    ("the peanut template", peanut),
    ("Quarry Hairpin", lambda: open_track("quarry-hairpin")),
)


@dataclass(frozen=True)
class Moved:
    """The finish moved ``steps`` earlier (as made; asked ``asked``): what was measured
    (mean and 95% interval) and predicted."""

    asked: int
    steps: int
    measured: tuple[float, float, float]
    predicted: float
    implied: float | None

    @property
    def above(self) -> bool:
        """The prediction is at or above the measured figure."""
        return self.predicted >= self.measured[0]

    @property
    def close(self) -> bool:
        """The prediction is within CLOSE of the measured figure."""
        return abs(self.predicted - self.measured[0]) <= CLOSE


def implied_yield(before: BalanceReport, steps: int, stalled: int) -> float | None:
    """The least ``FINISH_YIELD`` whose prediction for the finish ``steps`` earlier is
    at or under ``stalled`` (cars stalled in as many games as ``before``): every smaller
    yield predicts more, so a prediction is at or above the measured figure exactly when
    its yield is at most this one. The prediction counts whole spaces short, so this is
    a multiple of 1 / ``steps``. None when no yield predicts so few (the cars that could
    not reach the finish at all stay stalled)."""
    shorts = before.stall_short
    never = before.stalled.total - sum(shorts.values())
    for short in range(max(shorts, default=0) + 1):
        if never + sum(n for s, n in shorts.items() if s > short) <= stalled:
            return short / steps
    return None


def play(track: Track, variant: Variant, args: argparse.Namespace, name: str) -> BalanceReport:
    """The stall figures of ``args.games`` games on ``track``, seeds from ``args.seed``."""
    bots = tuple(args.bots.split(","))
    run = BalanceRun(track, variant, 4, args.games, args.seed, bots, track_name=name)
    return run_balance(run, args.workers)


def measure(
    name: str, track: Track, variant: Variant, args: argparse.Namespace
) -> tuple[BalanceReport, list[Moved]]:
    """The circuit as it is and with each move of its finish."""
    before = play(track, variant, args, name)
    moved = []
    for asked in MOVES:
        edit = make_edit(track, Proposal("line", asked))
        if edit is None:
            raise SystemExit(f"{name}: the finish cannot be moved {asked} spaces earlier")
        steps = edit.proposal.steps
        after = play(edit.track, variant, args, name).stalled
        low, high = after.interval()
        moved.append(
            Moved(
                asked,
                steps,
                (after.mean, low, high),
                stalled_after_finish_moved(before, steps),
                implied_yield(before, steps, after.total),
            )
        )
    return before, moved


def figure(mean: float, low: float, high: float) -> str:
    """A mean with its 95% interval: "0.70 (0.62-0.78)"."""
    return f"{mean:.2f} ({low:.2f}-{high:.2f})"


def cell(m: Moved) -> str:
    """A moved finish's measured figure, and what was predicted."""
    made = "" if m.steps == m.asked else f" [moved {m.steps}]"
    return f"{figure(*m.measured)}, {m.predicted:.2f} predicted{made}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400, help="games per circuit and finish")
    parser.add_argument(
        "--bots", default="strong", help="bot kinds, comma-separated: greedy, strong, strong:2"
    )
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    variant = load_variant("standard")
    print(f"{args.games} games each, bots {args.bots}, seed {args.seed}, yield {FINISH_YIELD}")
    print("| circuit | stalled cars a race | finish 4 spaces earlier | 8 earlier | 12 earlier |")
    print("|---|---|---|---|---|")
    found: list[tuple[str, list[Moved]]] = []
    for name, build in CIRCUITS:
        before, moved = measure(name, build(), variant, args)
        stalled = before.stalled
        cells = " | ".join(cell(m) for m in moved)
        print(f"| {name} | {figure(stalled.mean, *stalled.interval())} | {cells} |", flush=True)
        found.append((name, moved))
    print("\nThe yield each measured figure implies (- where no yield predicts so few):")
    print("| circuit | 4 earlier | 8 earlier | 12 earlier |")
    print("|---|---|---|---|")
    for name, moved in found:
        implied = " | ".join("-" if m.implied is None else f"{m.implied:.2f}" for m in moved)
        print(f"| {name} | {implied} |")
    cases = [m for _name, moved in found for m in moved]
    above = [m for m in cases if m.above]
    close = [m for m in cases if m.close]
    both = [m for m in above if m.close]
    yields = sorted(m.implied for m in cases if m.implied is not None)
    span = f"{yields[0]:.2f} to {yields[-1]:.2f}" if yields else "none"
    print(
        f"\nWith {FINISH_YIELD} the prediction is at or above the measured figure in "
        f"{len(above)} of {len(cases)} cases, within {CLOSE} of it in {len(close)}, "
        f"both in {len(both)}; the implied yields run {span}."
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
