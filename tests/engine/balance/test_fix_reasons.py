"""What Suggest fixes says beyond its ranking: the kinds of fix it could not try and
why, what a fix makes worse, the parts of the problems it takes away, and a finish
fix that keeps the betting lines in proportion; grid hints that promise only what
Suggest can do; slot hints whose words and colour agree."""

from __future__ import annotations

import pytest
from tracks_for_tests import straight_track

from trackside.engine.balance import BalanceReport, BalanceRun, hints
from trackside.engine.balance.edits import ALONG, STAY, Proposal, line_shares, make_edit, why_not
from trackside.engine.balance.fixes import candidate_edits, try_fixes
from trackside.engine.balance.hints import SUGGEST_GRID, slots_beyond_chance, suggest_grid
from trackside.engine.records import open_track, open_variant
from trackside.engine.tallies import Tally


def with_stalls(report: BalanceReport, ones: int, twos: int = 0) -> BalanceReport:
    """``report`` whose games (its number) left ``ones`` races with one car stalled and
    ``twos`` with two, the rest none."""
    report.stalled = Tally(ones + 2 * twos, ones + 4 * twos, report.games)
    return report


def finish_behind_grid():
    """Quarry Hairpin with its finish three spaces later: one row behind the grid's back row,
    as on a designer's circuit whose finish line sits right behind the lap start."""
    edit = make_edit(open_track("quarry-hairpin"), Proposal("line", -3))
    assert edit is not None
    return edit.track


def test_a_grid_with_the_finish_right_behind_it_is_not_moved_and_says_why():
    track = finish_behind_grid()
    for rows in (1, 2):
        assert make_edit(track, Proposal("grid", rows)) is None
        assert why_not(track, Proposal("grid", rows)) == (
            "the finish line is only 1 row behind it (move the finish line earlier first)"
        )
    assert why_not(open_track("quarry-hairpin"), Proposal("grid", 1)) == ""


@pytest.fixture(scope="module")
def search():
    run = BalanceRun(finish_behind_grid(), open_variant("standard"), 4, 30, seed=3)
    return try_fixes(run)


def test_the_search_names_each_kind_of_fix_it_could_not_try(search):
    assert not any(t.edit.proposal.kind == "grid" for t in search.trials)
    assert (
        "The grid cannot move back: the finish line is only 1 row behind it (move the "
        "finish line earlier first)." in search.untried
    )
    assert search.to_dict()["untried"] == search.untried
    assert search.played == 30 * (len(search.trials) + 2)  # candidates chosen from 30 first


def test_a_grid_hint_does_not_promise_what_suggest_cannot_do():
    said = suggest_grid(finish_behind_grid())
    assert "Suggest fixes cannot move the grid back here" in said
    assert "measures" not in said
    assert suggest_grid(open_track("quarry-hairpin")) == SUGGEST_GRID


def test_each_fix_says_its_parts_and_what_it_makes_worse(search):
    for trial in search.trials:
        parts = dict(trial.parts())
        assert "stalls" in parts or trial.report.stalled.mean <= 0.5
        total = sum(m.change for m in parts.values())
        assert total == pytest.approx(trial.problems.change)
        for said in trial.worse():
            assert " was " in said or ", were " in said
    data = search.trials[0].to_dict()
    assert set(data) >= {"parts", "worse"}


def test_a_fix_that_moves_a_slot_away_from_its_fair_share_says_so():
    """Slot 6 of Quarry Hairpin wins 11%, under its band; a fix after which it wins
    less, beyond noise, is told as "but slot 6 wins ..%, was 11%"."""
    from trackside.engine.balance.fixes import Measured, Trial

    base = BalanceReport("q", "standard", 4, ["greedy"], games=200)
    edit = make_edit(open_track("quarry-hairpin"), Proposal("line", 2))
    fell = Measured(0.11, 0.06, -0.08, -0.01)
    noise = Measured(0.83, 0.75, -0.14, 0.0)
    same = Measured(1, 1, 0, 0)
    trial = Trial(edit, 200, same, noise, same, same, base, {"slot 5": fell, "balance": noise})
    assert trial.worse() == ["slot 6 wins 6%, was 11%"]


def test_a_finish_fix_that_leaves_the_betting_lines_out_of_proportion_is_tried_both_ways():
    """The finish 12 spaces earlier on a 56-row straight moves the third betting line
    from 80% of the race to 92%: the last bet comes where the race is all but decided.
    Suggest tries the finish alone and the finish with the lines kept in proportion;
    a finish 2 spaces earlier keeps them in proportion by itself and is tried once.
    Each of the two says what it does with the lines, so that they read apart (the
    finish alone once said nothing of them)."""
    track = straight_track(rows=60, lanes=3, finish=56)
    before = line_shares(track)
    edits = candidate_edits(track, [Proposal("line", 12), Proposal("line", 2)])
    texts = [e.text for e in edits]
    assert texts[0].startswith("Finish line 12 spaces earlier") and texts[0].endswith(STAY)
    assert texts[1] == texts[0].removesuffix(STAY) + ALONG
    moved = zip(line_shares(edits[0].track), before, strict=True)
    assert max(abs(a - b) for a, b in moved) > 0.05
    for kept, was in zip(line_shares(edits[1].track), before, strict=True):
        assert kept == pytest.approx(was, abs=0.05)
    assert len(edits) == 3 and ALONG not in texts[2] and STAY not in texts[2]


def test_a_share_more_than_fair_is_said_with_an_interval_that_leaves_fair_out():
    """A slot's share is said with its Wilson interval in full, never a symmetric "±",
    which about a share near its fair one read as a contradiction ("22% ± 6%, more than
    its fair 17%"). 22% of 240 races, whose 95% interval starts just above 1 in 6, is no
    longer warned of at all: with the six slots judged together it is within chance;
    22% of 600 races is beyond it."""
    for games, wins, said in (
        (240, [55, 54, 40, 31, 30, 30], None),
        (
            600,
            [140, 132, 90, 80, 79, 79],
            "wins 22.0% (18.9\u201325.5) of races, more than the fair 16.7%",
        ),
    ):
        report = BalanceReport("oval", "standard", 4, ["greedy"] * 4, games=games)
        report.slot_wins = wins
        report.seat_wins = [60 * games // 4] * 4
        report.line_reached = [games] * 3
        report.grid = ["a4", "b4", "c4", "d4", "a3", "b3"]
        slot2 = [h.text for h in hints(report) if h.text.startswith("Grid slot 2 ")]
        assert slot2 == [] if said is None else said in slot2[0] and "±" not in slot2[0]


def test_the_slots_marked_are_the_slots_a_hint_warns_about():
    """A slot 4 at 11% of 400 races (interval 8% to 15%) is under 1 in 6 but within what
    chance allows it beside a pole at 30%: no hint, so no mark either."""
    report = BalanceReport("oval", "standard", 4, ["greedy"] * 4, games=400)
    report.slot_wins = [120, 64, 64, 44, 54, 54]
    report.seat_wins = [60 * 100] * 4
    report.line_reached = [400] * 3
    report.grid = ["a4", "b4", "c4", "d4", "a3", "b3"]
    warned = {
        k
        for k in range(6)
        for h in hints(report)
        if h.severity == "warning" and h.text.startswith(f"Grid slot {k + 1} ")
    }
    assert slots_beyond_chance(report) == warned
    assert 3 not in warned


def test_a_search_where_no_fix_lessens_the_problems_beyond_noise_says_the_order_is_chance():
    """Fixes ranked first by chance are not advice: the search says so, says when
    the circuit has none of the problems at all, and says nothing when a fix helps."""
    from trackside.engine.balance.fixes import FixSearch, Measured, Trial

    base = with_stalls(BalanceReport("q", "standard", 4, ["strong"], games=200), 40)
    base.line_reached = [200] * 3
    edit = make_edit(open_track("quarry-hairpin"), Proposal("line", 2))
    same = Measured(1, 1, 0, 0)

    def trial(problems: Measured) -> Trial:  # the problem score, before and with the fix
        return Trial(edit, 200, problems, same, same, same, base)

    noise = trial(Measured(0.41, 0.40, -0.3, 0.2))
    helps = trial(Measured(0.41, 0.1, -0.5, -0.1))
    none = trial(Measured(0.0, 0.0, 0.0, 0.0))
    said = FixSearch(base, [noise, noise]).unclear()
    assert said.startswith(
        "No fix makes the circuit better beyond noise in 200 games, so the order of the list "
        "is chance."
    )
    assert (
        FixSearch(base, [none])
        .unclear()
        .startswith("In 200 games the circuit has none of the problems a fix could take away")
    )
    assert FixSearch(base, [helps, noise]).unclear() == ""
    assert FixSearch(base, [noise], cancelled=True).unclear() == ""
    assert FixSearch(base, [noise, noise]).to_dict()["unclear"] == said


def test_a_betting_line_is_said_missed_or_reached_by_its_whole_interval():
    """Betting line 3 reached in 192 of 200 races: 96% at the figure, over the aim of
    95%, but its 95% interval (92.3-98.0%) holds the aim, so the line is neither
    reached nor missed (``line_standing``): the headline does not say "no betting line
    missed" and says where the line stands (where the figures show a problem, the
    headline names no line). The hints, Suggest fixes' headline and its
    ranking share that one rule: in 150 of 200 races (whole interval under the aim) the
    line is missed and the hints say so; in 200 of 200 it is reached."""
    from trackside.engine.balance.fixes import FixSearch, Measured, Trial
    from trackside.engine.balance.hints import line_standing
    from trackside.engine.balance.wording import ABOUT, OVER, UNDER

    base = with_stalls(BalanceReport("q", "standard", 4, ["strong"], games=200), 40)
    base.line_reached = [200, 200, 192]
    assert [line_standing(base, k) for k in range(3)] == [UNDER, UNDER, ABOUT]
    edit = make_edit(open_track("quarry-hairpin"), Proposal("line", 2))
    same = Measured(1, 1, 0, 0)
    none = Trial(edit, 200, Measured(0.0, 0.0, 0.0, 0.0), same, same, same, base)
    said = FixSearch(base, [none]).unclear()
    assert "none of the problems" not in said and "no betting line missed" not in said
    assert said.startswith("No fix makes the circuit better beyond noise in 200 games")
    assert said.endswith(
        "Betting line 3 is reached in 96% (92\u201398) of races: about at the aim of 95%, and "
        "more games would tell."
    )
    base.line_reached = [200, 193, 192]
    assert (
        FixSearch(base, [none])
        .unclear()
        .endswith(
            "Betting lines 2 and 3 are reached in 96% (93\u201398) and 96% (92\u201398) of "
            "races: about at the aim of 95%, and more games would tell."
        )
    )
    seen = Trial(edit, 200, Measured(0.41, 0.40, -0.3, 0.2), same, same, same, base)
    assert "Betting line" not in FixSearch(base, [seen]).unclear()  # a problem is named
    base.line_reached = [200, 200, 200]
    assert FixSearch(base, [none]).unclear().endswith("no betting line missed.")
    base.line_reached = [200, 200, 150]
    assert line_standing(base, 2) == OVER
    assert any(h.text.startswith("Betting line 3 is reached in only") for h in hints(base))
    base.line_reached = [200, 200, 186]  # 93% (88.6-95.8): short at the figure only
    assert line_standing(base, 2) == ABOUT
    assert not any(h.text.startswith("Betting line 3") for h in hints(base))


def test_a_fix_that_clearly_lessens_one_part_is_named_though_the_total_is_within_noise():
    """The finish moved earlier cuts stalls from 0.60 to 0.35 cars a race beyond noise,
    while six noisy slot shares added to it leave the total within noise: the search
    names that fix, not "their order is chance"; a fix that makes something worse
    beyond noise is not named."""
    from trackside.engine.balance.fixes import FixSearch, Measured, Trial

    base = with_stalls(BalanceReport("q", "standard", 4, ["strong"], games=200), 120)
    edit = make_edit(open_track("quarry-hairpin"), Proposal("line", 4))  # the finish earlier
    same = Measured(1, 1, 0, 0)
    total = Measured(1.0, 0.9, -0.5, 0.3)  # the problem score: within noise
    stalls = Measured(0.6, 0.35, -0.35, -0.14)  # stalled cars: fixed minus circuit
    stall_part = Measured(0.2, 0.0, -0.3, -0.1)  # the stall problems, before and after
    noisy = Trial(edit, 200, total, same, same, same, base)
    parts = {"stall problems": stall_part, "stalled": stalls}
    clear = Trial(edit, 200, total, same, stalls, same, base, parts)
    said = FixSearch(base, [noisy, clear]).unclear()
    assert said.startswith(
        'Fix 2, "Finish line 4 spaces earlier (at the rear edge of a41)", cuts the stalls '
        "beyond noise: stalled cars 0.60 \u2192 0.35 a race. That is -0.25 a race (-0.35 to "
        "-0.14), and it makes nothing worse beyond noise: try it. Taken all together"
    )
    assert "no fix's gain is beyond noise in 200 games" in said
    worse = Measured(0.15, 0.05, -0.15, -0.05)  # slot 6 from 15% to 5%, beyond noise
    harmful = Trial(
        edit,
        200,
        total,
        same,
        stalls,
        same,
        base,
        {**parts, "slot 5": worse},
    )
    assert (
        FixSearch(base, [noisy, harmful])
        .unclear()
        .startswith("No fix makes the circuit better beyond noise")
    )


def test_a_fix_that_adds_a_validation_warning_is_not_said_to_make_nothing_worse():
    """The finish moved earlier cuts the stalls beyond noise, but leaves betting line 3
    two rows before the finish, which the validator warns of: its row says so and the
    headline does not call it a fix that makes nothing worse (it said "try it", and the
    warning came in the Issues list after Apply)."""
    from dataclasses import replace

    from trackside.engine.balance.fixes import FixSearch, Measured, Trial, clear_gain

    base = with_stalls(BalanceReport("q", "standard", 4, ["strong"], games=200), 120)
    edit = make_edit(open_track("quarry-hairpin"), Proposal("line", 4))
    warned = replace(edit, warnings=("betting line 3 is 2 rows before the finish",))
    same = Measured(1, 1, 0, 0)
    total = Measured(1.0, 0.9, -0.5, 0.3)  # the problem score: within noise
    stalls = Measured(0.6, 0.35, -0.35, -0.14)
    parts = {"stall problems": Measured(0.2, 0.0, -0.3, -0.1), "stalled": stalls}
    trial = Trial(warned, 200, total, same, stalls, same, base, parts)
    assert trial.worse() == ["adds a warning: Betting line 3 is 2 rows before the finish"]
    assert clear_gain(trial, base) is None
    said = FixSearch(base, [trial]).unclear()
    assert "makes nothing worse" not in said and not said.startswith("Fix 1")
    assert trial.to_dict()["warnings"] == ["betting line 3 is 2 rows before the finish"]


def test_a_stall_cut_under_the_goal_is_named_as_not_needed_below_no_fix_helps():
    """Stalls at 0.39 a race are under the goal of 0.5: a fix that takes them to 0.21
    beyond noise takes away no problem, so no fix helps; the headline says why the
    cut listed below it does not count (it read as a contradiction). Over the goal,
    a stall cut is a gain and the sentence is not there."""
    from trackside.engine.balance.fixes import FixSearch, Measured, Trial

    base = with_stalls(BalanceReport("q", "standard", 4, ["strong"], games=200), 78)
    edit = make_edit(open_track("quarry-hairpin"), Proposal("line", 2))
    same = Measured(1, 1, 0, 0)
    noise = Measured(0.41, 0.40, -0.3, 0.2)
    under = Trial(edit, 200, noise, same, Measured(0.39, 0.21, -0.25, -0.1), same, base)
    said = FixSearch(base, [Trial(edit, 200, noise, same, same, same, base), under]).unclear()
    assert said.startswith("No fix makes the circuit better beyond noise")
    assert (
        "Fix 2 cuts the stalls beyond noise (0.39 \u2192 0.21 stalled cars a race), but they "
        "were already under the goal of 0.5 a race, the whole of their 95% interval: that "
        "is not needed." in said
    )
    within = Trial(edit, 200, noise, same, Measured(0.39, 0.35, -0.1, 0.02), same, base)
    assert "not needed" not in FixSearch(base, [within]).unclear()


def test_stalls_whose_interval_crosses_the_goal_are_not_said_to_be_under_it():
    """Stalls at 0.46 (0.37-0.55) a race: under the goal of 0.5 at the figure, not by
    the interval. Two fixes cut them beyond noise (to 0.28 and, more surely, to 0.22)
    and a grid fix changes nothing beyond noise. The list puts the surer cut first and
    the noise last, and the headline names fix 1, the best of that order, and says the
    stalls are about at the goal, never "already under the goal ... not needed"."""
    from trackside.engine.balance.fixes import FixSearch, Measured, Trial, ranked

    base = with_stalls(BalanceReport("q", "standard", 4, ["greedy"], games=200), 60, 16)
    quarry = open_track("quarry-hairpin")
    finish, grid = make_edit(quarry, Proposal("line", 4)), make_edit(quarry, Proposal("grid", 1))
    same = Measured(1, 1, 0, 0)
    noise = Measured(0.45, 0.40, -0.3, 0.2)  # the problem score: within noise
    less = Trial(finish, 200, noise, same, Measured(0.46, 0.28, -0.26, -0.10), same, base)
    most = Trial(finish, 200, noise, same, Measured(0.46, 0.22, -0.31, -0.17), same, base)
    slots = Trial(grid, 200, Measured(0.45, 0.30, -0.4, 0.1), same, same, same, base)
    order = ranked([slots, less, most], base)
    assert order == [most, less, slots]
    said = FixSearch(base, order).unclear()
    assert said.startswith(
        'Fix 1, "Finish line 4 spaces earlier (at the rear edge of a41)", cuts the stalls '
        "beyond noise: stalled cars 0.46 \u2192 0.22 a race. That is -0.24 a race (-0.31 to "
        "-0.17)"
    )
    assert (
        "The stalls, 0.46 (0.37\u20130.55) a race, are about at the goal of 0.5 a race, and "
        "more games would tell." in said
    )
    assert "under the goal" not in said and "not needed" not in said
    quiet = FixSearch(base, [slots]).unclear()  # no cut: no claim that there is no problem
    assert "none of the problems" not in quiet and "about at the goal of 0.5" in quiet


def test_a_stall_cut_is_judged_by_the_figure_shown_when_stalls_are_just_over_the_goal():
    """Stalls at 0.53 (0.46-0.60) a race: over the goal of 0.5 at the figure, about at it
    by the interval. A finish fix cuts them to 0.30 beyond noise, which the problem
    score counts only down to the goal (0.06 of a goal, within noise). The list and
    the headline judge the figure the row shows first: the fix comes before a lane
    fix that changes nothing beyond noise, and the headline names it, never "No fix
    makes the circuit better beyond noise" over a row that says "beyond noise"."""
    from trackside.engine.balance.fixes import FixSearch, Measured, Trial, ranked

    base = with_stalls(BalanceReport("q", "standard", 4, ["strong"], games=200), 106)
    quarry = open_track("quarry-hairpin")
    finish, grid = make_edit(quarry, Proposal("line", 4)), make_edit(quarry, Proposal("grid", 1))
    same = Measured(1, 1, 0, 0)
    total = Measured(1.0, 0.9, -0.5, 0.3)  # the problem score: within noise
    stalls = Measured(0.53, 0.30, -0.43, -0.03)  # stalled cars: fixed minus circuit
    part = Measured(0.06, 0.0, -0.46, 0.0)  # the stall problems, down to the goal only
    cut = Trial(finish, 200, total, same, stalls, same, base, {"stall problems": part})
    slots = Trial(grid, 200, Measured(1.1, 0.9, -0.4, 0.1), same, same, same, base)
    order = ranked([slots, cut], base)
    assert order == [cut, slots]
    said = FixSearch(base, order).unclear()
    assert said.startswith(
        'Fix 1, "Finish line 4 spaces earlier (at the rear edge of a41)", cuts the stalls '
        "beyond noise: stalled cars 0.53 \u2192 0.30 a race. That is -0.23 a race (-0.43 to "
        "-0.03), and it makes nothing worse beyond noise: try it."
    )
