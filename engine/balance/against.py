"""Two variants side by side: both played on the same games, every figure's change
(and two circuits under one variant, ``compare_runs``).

Game i of each variant is set up from seed ``seed + i`` and dealt by
``paired_deal`` (``engine/game/setup.py``): one set of shuffles that both
variants share as far as their rules allow (the same Speed-8 order, grid and
power order always; the same speed cards when the decks are the same size,
cut into hands by each variant's own hand rule), with the same bots in the
same seats. The games are played chunk by chunk across the two variants, so a
comparison stopped early keeps only games that both variants played.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from trackside.engine.balance.compare import Change, compare
from trackside.engine.balance.executors import Executor
from trackside.engine.balance.report import BalanceReport
from trackside.engine.balance.runner import BalanceRun, Totals, paired_parts, play_range
from trackside.engine.game import Game, Variant

FORMAT = "trackside-comparison/1"


@dataclass(frozen=True)
class VariantComparison:
    """Two runs' reports on the same games (two variants, two circuits or two sets of
    bots), and each figure's change from the first to the second."""

    before: BalanceReport  # the run compared with (--against, the panel's)
    after: BalanceReport  # the run measured against it
    changes: list[Change]
    cancelled: bool = False
    seconds: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        """Both reports and the changes, as plain data (``simulate --against --report``)."""
        return {
            "format": FORMAT,
            "track": self.before.track,
            "tracks": [self.before.track, self.after.track],
            "variants": [self.before.variant, self.after.variant],
            "players": self.before.players,
            "bots": self.before.bots,
            "seed": self.before.seed,
            "games": self.before.games,
            "paired": True,
            "cancelled": self.cancelled,
            "seconds": round(self.seconds, 3),
            "only_in": only_in(self.before, self.after),
            "changes": [
                {
                    "figure": c.figure,
                    "unit": c.unit,
                    "before": round(c.before, 4),
                    "after": round(c.after, 4),
                    "change": round(c.delta, 4),
                    "interval": None
                    if c.interval is None
                    else [round(c.interval[0], 4), round(c.interval[1], 4)],
                    "noise": not c.significant,
                }
                for c in self.changes
            ],
            "a": self.before.to_dict(),
            "b": self.after.to_dict(),
        }


def compare_variants(
    run: BalanceRun,
    other: Variant,
    workers: int | Executor = 1,
    progress: Callable[[int], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> VariantComparison:
    """Play ``run`` under its variant and under ``other`` on the same games (paired),
    here, in ``workers`` local processes or on the executor given;
    ``progress(k)`` with the games played so far by both (2 x games in all),
    ``cancelled()`` stops early and keeps the games both variants played."""
    runs = (replace(run, paired=True), replace(run, variant=other, paired=True))
    return compare_runs(runs, workers, progress, cancelled)


def compare_runs(
    runs: tuple[BalanceRun, BalanceRun],
    workers: int | Executor = 1,
    progress: Callable[[int], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> VariantComparison:
    """Play two runs of as many games on the same games (game i of both from seed
    ``seed + i``, the same bots in the same seats) and every figure's change from the
    first to the second: two variants on one circuit (``compare_variants``) or two
    circuits, such as two versions of one, under one variant (``simulate --against
    TRACK``); ``progress`` and ``cancelled`` as for ``compare_variants``."""
    began = time.perf_counter()
    for one in runs:  # a table either run cannot be played at is refused first
        Game.new(one.track, one.variant, one.players, one.seed)
    reports = []
    played = paired_parts(play_range, runs, workers, progress, cancelled)
    for one, parts in zip(runs, played, strict=True):
        totals = Totals(one.empty_report(), one.empty_stats())
        for part in parts:
            totals.merge(part)
        reports.append(totals.report)
    before, after = reports
    stopped = before.games < runs[0].games
    before.cancelled = after.cancelled = stopped
    seconds = time.perf_counter() - began
    share_time(seconds, before, after)
    return VariantComparison(before, after, compare(before, after), stopped, seconds)


def share_time(seconds: float, *reports: BalanceReport) -> None:
    """Share the wall time of runs played side by side among their reports, as their
    games took it (the parts' own times add up to more than the wall time when the
    runs are played in several workers at once)."""
    played = sum(report.seconds for report in reports)
    for report in reports:
        report.seconds = seconds * report.seconds / played if played else 0.0


# The rule figures' groups, with whether a report's rules have them.
RULE_GROUPS: dict[str, Callable[[BalanceReport], bool]] = {
    "powers": lambda report: bool(report.rules.powers),
    "auction": lambda report: report.rules.auction,
    "betting": lambda report: report.rules.betting,
    "winner decided by the last betting line": lambda report: report.rules.last_line_applies,
}


def only_in(before: BalanceReport, after: BalanceReport) -> dict[str, list[str]]:
    """The groups of rule figures only one variant has (so not compared), under "a"
    for the first variant and "b" for the other."""
    out: dict[str, list[str]] = {}
    for group, has in RULE_GROUPS.items():
        if has(before) != has(after):
            out.setdefault("a" if has(before) else "b", []).append(group)
    if before.rules.powers and after.rules.powers:  # both have powers, not the same ones
        for side, mine, other in (("a", before, after), ("b", after, before)):
            for name in mine.rules.powers:
                if name not in other.rules.powers:
                    out.setdefault(side, []).append(f"the {name} power")
    return out
