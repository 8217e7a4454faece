"""Run until the answer is clear: play in rounds and stop once the grid's question is
answered, or at a cap.

The question: is every grid slot's win share known to within ``PRECISION`` (the
half-width of its 95% interval), or is some slot shown to win outside its fair
share? The run looks at its figures only at fixed checkpoints (each about half as
many games again as the last, whole multiples of ``ROUND`` games) and, because
looking more than once, at six slots, gives chance many tries at a false alarm,
a slot is called outside its fair share only at a level corrected for every
checkpoint the cap allows and every slot (Bonferroni: 5% / (checkpoints x 6)),
so the chance of a false "unfair" stays at most 5% however the run stops. Precision needs no
correction: how wide an interval is hardly depends on where it lies. The same
seed and cap give the same games and the same stop.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace

from trackside.engine.balance.executors import Executor, executor_for
from trackside.engine.balance.hints import FIRST_TURN_EDGE
from trackside.engine.balance.report import SLOTS, BalanceReport
from trackside.engine.balance.runner import BalanceRun, Totals, run_totals
from trackside.engine.balance.wording import percent_range
from trackside.engine.intervals import corrected_z, wilson

PRECISION = 0.03  # half-width of every slot's 95% interval that answers the question
ROUND = 60  # checkpoints are whole multiples of this: every rotation of up to six bot kinds
FIRST_LOOK = 120  # games before the first look
GROWTH = 1.5  # each checkpoint about this many times the games of the last


@dataclass(frozen=True)
class Clarity:
    """Where a run stands: whether its question is answered, the answer, and (when
    not) what it is waiting for."""

    clear: bool
    answer: str
    waiting: str


def checkpoints(max_games: int) -> list[int]:
    """The game counts at which a run of at most ``max_games`` looks at its figures."""
    looks: list[int] = []
    at = min(FIRST_LOOK, max_games)
    while at < max_games:
        looks.append(at)
        at = max(at + ROUND, math.ceil(at * GROWTH / ROUND) * ROUND)
    looks.append(max_games)
    return looks


def fair_band(slot: int) -> tuple[float, float]:
    """The win shares a slot may have on a fair circuit: 1 in 6, up to what playing
    first gives the pole (R-RACE-1), and down to the others' part of what it leaves."""
    fair = 1 / SLOTS
    if slot == 0:
        return fair, fair + FIRST_TURN_EDGE
    return (1 - fair - FIRST_TURN_EDGE) / (SLOTS - 1), fair


def looks_z(looks: int) -> float:
    """The normal quantile that keeps a false "outside its fair share" at 5% (``ERROR``) over
    ``looks`` looks at every slot."""
    return corrected_z(max(1, looks) * SLOTS)


def unfair_slot(report: BalanceReport, z: float) -> str:
    """The first slot whose interval at ``z`` lies wholly outside its fair band, in
    words; "" when none does."""
    n = report.games
    for slot, wins in enumerate(report.slot_wins):
        low, high = wilson(wins, n, z)
        band_low, band_high = fair_band(slot)
        if n and (low > band_high or high < band_low):
            way = "more" if low > band_high else "less"
            return (
                f"grid slot {slot + 1} wins {way} than its fair share: "
                f"{percent_range(wins / n, low, high)} of races (an interval made wider "
                "for the run's many looks)"
            )
    return ""


def clarity(report: BalanceReport, looks: int) -> Clarity:
    """Whether ``report`` answers the question, looked at for one of ``looks`` times."""
    unfair = unfair_slot(report, looks_z(looks))
    if unfair:
        return Clarity(True, unfair, "")
    n = report.games
    widths = [(wilson(wins, n)[1] - wilson(wins, n)[0]) / 2 for wins in report.slot_wins]
    widest = max(range(SLOTS), key=lambda k: widths[k])
    if n and widths[widest] <= PRECISION:
        return Clarity(
            True, f"every grid slot's share is known to ±{100 * PRECISION:.0f} points", ""
        )
    return Clarity(
        False,
        "",
        f"slot {widest + 1}'s share: ±{100 * widths[widest]:.1f} points, "
        f"need ±{100 * PRECISION:.0f}",
    )


def run_until_clear(
    run: BalanceRun,
    workers: int | Executor = 1,
    progress: Callable[[int, str], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> Totals:
    """Play ``run`` (its ``games`` the cap) in rounds up to each checkpoint and stop once
    ``clarity`` says the question is answered. ``progress(games, waiting)`` after each
    part played; the report's ``answer`` says why it stopped."""
    with executor_for(workers) as executor:  # one set of worker processes for every look
        return _run_until_clear(run, executor, progress, cancelled)


def _run_until_clear(
    run: BalanceRun,
    workers: Executor,
    progress: Callable[[int, str], None] | None,
    cancelled: Callable[[], bool] | None,
) -> Totals:
    looks = checkpoints(run.games)
    totals = Totals(run.empty_report(), run.empty_stats())
    total = totals.report
    waiting = "the first look"
    for stop in looks:
        played = total.games
        part = replace(run, seed=run.seed + played, games=stop - played)

        def step(k: int, played: int = played, waiting: str = waiting) -> None:
            if progress:
                progress(played + k, waiting)

        totals.merge(run_totals(part, workers, step, cancelled))
        if total.cancelled:
            break
        state = clarity(total, len(looks))
        if state.clear:
            total.answer = state.answer
            break
        waiting = state.waiting
    else:
        total.answer = f"the cap of {run.games:,} games, still waiting for {waiting}"
    if progress:
        progress(total.games, "")
    return totals
