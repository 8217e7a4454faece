"""Run until the answer is clear: checkpoints, the question, an honest error rate, and
the same games as a fixed run."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from trackside.engine.balance import BalanceReport, BalanceRun, run_balance
from trackside.engine.balance.report import SLOTS
from trackside.engine.balance.sequential import (
    ROUND,
    checkpoints,
    clarity,
    fair_band,
    looks_z,
    run_until_clear,
    unfair_slot,
)
from trackside.engine.intervals import ERROR, Z95
from trackside.engine.records import open_track, open_variant


def _report(slot_wins: list[int]) -> BalanceReport:
    report = BalanceReport("oval", "standard", 4, ["greedy"], games=sum(slot_wins))
    report.slot_wins = list(slot_wins)
    return report


def test_checkpoints_grow_by_half_in_whole_rotations_up_to_the_cap():
    looks = checkpoints(4000)
    assert looks[0] == 120 and looks[-1] == 4000
    assert all(n % ROUND == 0 for n in looks[:-1])
    assert all(1.4 <= b / a <= 1.7 for a, b in itertools.pairwise(looks[:-1]))
    assert checkpoints(50) == [50]


def test_a_wide_share_is_what_the_run_waits_for():
    state = clarity(_report([56, 33, 33, 33, 23, 22]), looks=10)  # 200 games
    assert not state.clear
    assert state.waiting.startswith("slot 1's share: ±6.") and state.waiting.endswith("need ±3")


def test_every_share_known_to_three_points_answers_the_question():
    state = clarity(_report([260, 150, 150, 150, 145, 145]), looks=10)  # 1,000 games
    assert state.clear and state.answer == "every grid slot's share is known to ±3 points"


def test_a_slot_is_called_unfair_only_at_the_corrected_level():
    """50 of 200 wins for slot 3 (25%) lies outside the fair band at a plain 95%, but
    not at the level corrected for ten looks at six slots; 90 of 200 does."""
    plain = _report([40, 30, 50, 30, 25, 25])
    assert not clarity(plain, looks=10).clear
    unfair = _report([30, 20, 90, 20, 20, 20])
    state = clarity(unfair, looks=10)
    assert state.clear and state.answer.startswith("grid slot 3 wins more than its fair share")


def test_the_chance_of_a_false_unfair_stays_under_five_percent_however_it_stops():
    """Fair circuits at the very edges of their bands (the worst case for a false alarm),
    looked at every checkpoint up to 10,000 games: called unfair in at most 5% of runs,
    while a plain 95% interval at every look would cry wolf far more often."""
    rng = np.random.default_rng(7)
    edges = [fair_band(0)[1]] + [fair_band(k)[0] for k in range(1, SLOTS)]
    shares = np.array(edges) / sum(edges)
    looks = checkpoints(10_000)
    runs = 500
    wins = np.zeros((runs, SLOTS), dtype=int)
    false, naive = np.zeros(runs, bool), np.zeros(runs, bool)
    played = 0
    for stop in looks:
        wins += rng.multinomial(stop - played, shares, size=runs)
        played = stop
        for r in range(runs):
            report = _report(wins[r].tolist())
            false[r] = false[r] or bool(unfair_slot(report, looks_z(len(looks))))
            naive[r] = naive[r] or bool(unfair_slot(report, Z95))
    assert false.mean() <= ERROR
    assert naive.mean() > 3 * ERROR


@pytest.fixture(scope="module")
def harbour() -> BalanceRun:
    return BalanceRun(open_track("harbour-loop"), open_variant("standard"), 4, 300, seed=3)


def test_a_run_until_clear_plays_the_games_a_fixed_run_plays(harbour):
    waits: list[tuple[int, str]] = []
    totals = run_until_clear(harbour, progress=lambda k, w: waits.append((k, w)))
    report = totals.report
    assert report.answer and report.games in checkpoints(300)
    fixed = run_balance(BalanceRun(harbour.track, harbour.variant, 4, report.games, seed=3))
    assert report == fixed  # the same seeds, bots and totals: deterministic for a seed
    assert totals.stats.games == report.games
    assert any(w.startswith("slot ") for _k, w in waits)


def test_a_cap_reached_says_what_it_still_waited_for(harbour):
    report = run_until_clear(BalanceRun(harbour.track, harbour.variant, 4, 150, seed=200)).report
    assert report.games == 150
    assert report.answer.startswith("the cap of 150 games, still waiting for slot ")
