"""The balance lab's engine: totals that merge exactly, intervals, hints, comparisons."""

from __future__ import annotations

import copy
import json
import random

import pytest

from trackside.engine.balance import BalanceReport, BalanceRun, compare, hints, run_balance
from trackside.engine.balance.report import SLOTS
from trackside.engine.balance.runner import play_one, play_range
from trackside.engine.bots.tables import track_tables
from trackside.engine.game.board import Board
from trackside.engine.intervals import mean_interval, proportions_differ, wilson
from trackside.engine.records import open_track, open_variant
from trackside.engine.track.movement import FAR


@pytest.fixture(scope="module")
def quarry_run() -> BalanceRun:
    return BalanceRun(open_track("quarry-hairpin"), open_variant("standard"), 4, 40, seed=7)


@pytest.fixture(scope="module")
def quarry_report(quarry_run) -> BalanceReport:
    return run_balance(quarry_run)


def test_wilson_interval_matches_the_textbook_values():
    low, high = wilson(5, 10)
    assert round(low, 4) == 0.2366 and round(high, 4) == 0.7634
    assert wilson(0, 10)[0] == 0.0 and round(wilson(0, 10)[1], 4) == 0.2775
    assert wilson(0, 0) == (0.0, 1.0)
    low, high = mean_interval(total=30, squares=100, count=10)
    assert low < 3 < high


def test_proportions_beyond_noise():
    assert proportions_differ(60, 100, 30, 100)
    assert not proportions_differ(31, 100, 30, 100)


def test_parts_of_a_run_merge_into_exactly_the_whole_run(quarry_run):
    whole = play_range(quarry_run, 0, 12)
    first, second = play_range(quarry_run, 0, 5), play_range(quarry_run, 5, 12)
    second.merge(first)  # in either order
    assert second.report == whole.report
    assert whole.report.games == 12
    timing = {"seconds": 0, "games_per_second": 0}
    assert second.stats.to_dict() | timing == whole.stats.to_dict() | timing


def test_the_same_seed_gives_the_same_totals_with_worker_processes(quarry_run):
    run = BalanceRun(quarry_run.track, quarry_run.variant, 4, 20, seed=3)
    assert run_balance(run, workers=2) == run_balance(run, workers=1)


def test_a_report_round_trips_through_json(quarry_report):
    data = json.loads(json.dumps(quarry_report.to_dict()))
    assert BalanceReport.from_dict(data) == quarry_report
    assert data["format"] == "trackside-balance/2"
    assert len(data["grid_slots"]) == SLOTS and data["grid_slots"][0]["space"]


def test_figures_add_up(quarry_report, quarry_run):
    r = quarry_report
    assert r.games == quarry_run.games
    assert sum(r.slot_wins) == r.games  # one winning car per race
    shares = [s for s, _lo, _hi in r.slot_shares()]
    assert r.balance == pytest.approx(1 - (max(shares) - min(shares)))
    assert sum(share for share, _lo, _hi in r.seat_shares()) == pytest.approx(1.0)
    for share, low, high in r.slot_shares():
        assert low <= share <= high
    assert all(t.count == r.games for t in r.slot_places)  # every car placed every race
    assert r.stalled.total == sum(r.stall_spaces.values())


def test_heat_counts_every_move_end(quarry_run):
    game, kinds = play_one(quarry_run, 0)
    report = quarry_run.empty_report()
    report.add_game(game, kinds)
    moves = [e for e in game.log if e.kind == "move"]
    assert sum(report.ends.values()) == len(moves)
    assert sum(report.blocked.values()) == sum(1 for e in moves if e.data.get("blocked"))


def test_the_order_a_file_lists_its_spaces_in_changes_no_game():
    """Bots choose between equally good paths by where the spaces lie, not by
    which the file lists first: listed in another order, a circuit plays the same games
    and shows the same heat map (the first listed of two spaces side by side took
    every tie, and was hot on the heat map)."""
    track = open_track("quarry-hairpin")
    moved = copy.deepcopy(track)
    random.Random(3).shuffle(moved.spaces)
    variant = open_variant("standard")
    first = run_balance(BalanceRun(track, variant, 4, 30, seed=7))
    second = run_balance(BalanceRun(moved, variant, 4, 30, seed=7))
    assert second.ends == first.ends and second.blocked == first.blocked
    assert second == first


def test_seats_rotate_bot_kinds_between_games():
    run = BalanceRun(
        open_track("harbour-loop"),
        open_variant("standard"),
        3,
        3,
        bots=("greedy", "random", "random"),
    )
    assert run.kinds(0) == ["greedy", "random", "random"]
    assert run.kinds(1) == ["random", "random", "greedy"]
    report = run_balance(run)
    assert report.kind_seats == {"greedy": 3, "random": 6}


def test_cancel_stops_early_and_says_so(quarry_run):
    done: list[int] = []
    report = run_balance(quarry_run, progress=done.append, cancelled=lambda: len(done) >= 3)
    assert report.games == 3 and report.cancelled
    assert done == [1, 2, 3]


def test_steps_to_finish_count_down_towards_the_line():
    """The steps short of the finish that stalls are measured in (shared with the bots)."""
    board = Board.of(open_track("harbour-loop"))
    steps = track_tables(board).togo
    pole = board.grid[0]
    assert steps[pole] < FAR and steps[pole] > 10
    for a, outs in enumerate(board.steps):
        for b, _lines, _rect, finishes in outs:
            if finishes:
                assert steps[a] == 1
            elif steps[b] < FAR:
                assert steps[a] < FAR and steps[a] <= steps[b] + 1


def test_quarry_hairpin_hints_name_where_its_cars_stall(quarry_report):
    """About 0.4 stalled cars a race: under the goal, so said as information, with the
    spaces where they stall."""
    found = hints(quarry_report, quarry_report_track())
    stall = next(h for h in found if "stall" in h.text)
    assert stall.severity == "info" and stall.spaces and stall.proposal is None
    assert "A circuit should stall fewer than 0.5 a race" in stall.text
    warnings = [h.severity == "warning" for h in found]
    assert warnings == sorted(warnings, reverse=True)  # most serious first


def quarry_report_track():
    return open_track("quarry-hairpin")


def test_too_few_games_say_so(quarry_run):
    report = play_range(quarry_run, 0, 2).report
    (only,) = hints(report)
    assert "at least" in only.text


def test_compare_sees_a_real_change_and_ignores_itself(quarry_report):
    assert not any(c.significant for c in compare(quarry_report, quarry_report))
    skewed = BalanceReport.from_dict(quarry_report.to_dict())
    skewed.slot_wins = [skewed.games] + [0] * (SLOTS - 1)
    changes = {c.figure: c for c in compare(quarry_report, skewed)}
    assert changes["grid slot 1 win share"].significant
    assert changes["balance"].significant and changes["balance"].delta < 0


def test_the_first_player_is_the_one_the_race_names_not_seat_one(quarry_run):
    """R-RACE-1: the first-player share counts the wins of the pole car's owner, the
    player the race says plays first, whichever seat that is."""
    report = quarry_run.empty_report()
    firsts, first_wins = set(), 0.0
    for i in range(40):
        game, kinds = play_one(quarry_run, i)
        report.add_game(game, kinds)
        first = next(e for e in game.log if e.kind == "race").data["seat"]
        firsts.add(first)
        if first in game.result.winners:
            first_wins += 1 / len(game.result.winners)
    assert len(firsts) > 1  # the pole's owner is not always seat 1
    assert report.first_player_share()[0] == pytest.approx(first_wins / 40)


def test_bulk_play_gives_back_the_collector_settings_it_found():
    """Games in bulk collect garbage less often, and only while they are played."""
    import gc

    from trackside.engine.simulate import few_collections

    before = gc.get_threshold()
    with few_collections():
        assert gc.get_threshold()[0] > before[0]
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0
