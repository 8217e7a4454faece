"""Suggest fixes: candidate edits played on the circuit's own seeds, ranked by paired
differences with intervals."""

from __future__ import annotations

import pytest
from tracks_for_tests import straight_track

from trackside.engine.balance import BalanceRun, run_balance
from trackside.engine.balance.edits import Proposal
from trackside.engine.balance.fixes import candidate_proposals, clear_gain, play_all, try_fixes
from trackside.engine.records import open_variant

GAMES = 80


@pytest.fixture(scope="module")
def too_long() -> BalanceRun:
    """A three-lane straight whose finish lies about ten rows too far on."""
    track = straight_track(rows=60, lanes=3, finish=56)
    return BalanceRun(track, open_variant("standard"), 4, GAMES, seed=11)


@pytest.fixture(scope="module")
def search(too_long):
    return try_fixes(too_long)


def test_the_circuit_as_it_is_plays_the_games_a_plain_run_plays(search, too_long):
    assert search.base == run_balance(too_long)
    assert not search.cancelled


def test_candidates_are_the_finish_moves_and_what_the_hints_propose(search, too_long):
    proposals = candidate_proposals(search.base, too_long.track)
    assert Proposal("line", 2) in proposals and Proposal("line", -2) in proposals
    assert any(p.steps >= 8 for p in proposals if p.kind == "line")  # the stall hint's
    texts = [t.edit.text for t in search.trials]
    assert any(text.startswith("Finish line 2 spaces later") for text in texts)
    assert not any(text.startswith("Grid") for text in texts)  # nothing behind its grid


def test_the_fixes_are_ranked_as_the_list_says(search):
    """RANKING: the fixes that lower the problem score beyond noise first, by how far;
    then those better beyond noise in their first figure with nothing worse; the rest."""

    def tier(trial) -> int:
        if trial.lowers_problems():
            return 0
        return 1 if clear_gain(trial, search.base) is not None else 2

    tiers = [tier(t) for t in search.trials]
    assert tiers == sorted(tiers) and 2 in tiers and min(tiers) < 2
    first = [t.problems.change for t in search.trials if tier(t) == 0]
    assert first == sorted(first)
    best = search.trials[0]
    assert best.edit.proposal.kind == "line" and best.edit.proposal.steps >= 8
    assert best.stalled.after < best.stalled.before and not best.stalled.noise
    assert best.stalled.low <= best.stalled.change <= best.stalled.high < 0
    later = next(t for t in search.trials if t.edit.proposal.steps < 0)
    assert later.stalled.change > 0  # a longer race stalls more cars
    assert best.games == GAMES and best.report.games == GAMES


def test_paired_games_are_tighter_than_two_independent_runs(search):
    """The same deals on both circuits: the interval of the change in stalled cars is
    narrower than the two runs' own intervals would make it."""
    best = search.trials[0]
    before, after = search.base.stalled.interval(), best.report.stalled.interval()
    unpaired = ((before[1] - before[0]) ** 2 + (after[1] - after[0]) ** 2) ** 0.5
    assert best.stalled.high - best.stalled.low < unpaired


def test_the_same_seed_gives_the_same_ranking(search, too_long):
    again = try_fixes(too_long, report=None)
    assert [t.edit.text for t in again.trials] == [t.edit.text for t in search.trials]
    assert again.trials[0].problems == search.trials[0].problems


def test_a_cancelled_search_keeps_its_circuits_paired(too_long):
    runs = [too_long, too_long]
    done: list[int] = []
    played = play_all(runs, progress=done.append, cancelled=lambda: len(done) >= 5)
    assert len(played[0].winner) == len(played[1].winner) == 20
    assert played[0].winner == played[1].winner


def test_the_search_writes_plain_data(search):
    data = search.to_dict()
    assert data["format"] == "trackside-fixes/2" and data["games"] == GAMES
    first = data["fixes"][0]
    assert first["fix"] == search.trials[0].edit.text
    assert set(first["stalled"]) == {"before", "after", "change", "interval", "noise"}
    assert first["report"]["format"] == "trackside-balance/2"
