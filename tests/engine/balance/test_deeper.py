"""A verdict checked with stronger bots: what "stronger" means, the verdict game by game
(holds, changes, unclear, too few games) and the check played end to end."""

from __future__ import annotations

import pytest
from tracks_for_tests import straight_track

from trackside.engine.balance import BalanceReport, BalanceRun, hints, run_balance
from trackside.engine.balance.deeper import (
    CHANGES,
    HOLDS,
    TOO_FEW,
    UNCLEAR,
    check_deeper,
    judge,
    no_stronger,
    stand_out,
)
from trackside.engine.balance.fixes import Played
from trackside.engine.balance.players import stronger_bots
from trackside.engine.bots import MAX_SAMPLES
from trackside.engine.bots.strong import DEFAULT_SAMPLES
from trackside.engine.records import open_variant
from trackside.engine.tallies import SHARE_UNIT

STRONG = ("strong",)


def test_stronger_bots_search_twice_as_deep_in_the_same_seats():
    assert stronger_bots(("greedy",)) == ("strong",)
    assert stronger_bots(("strong",)) == (f"strong:{2 * DEFAULT_SAMPLES}",)
    assert stronger_bots(("strong:3", "greedy", "random")) == ("strong:6", "strong", "random")
    assert stronger_bots((f"strong:{MAX_SAMPLES - 1}",)) == (f"strong:{MAX_SAMPLES}",)
    assert no_stronger(("random",)).startswith("random bots do not search")
    assert "most deals allowed" in no_stronger((f"strong:{MAX_SAMPLES}",))
    assert no_stronger(("greedy", "random")) == ""


def _played(winners: list[int], stalled: list[int] | None = None) -> Played:
    """Games won by the grid slots given, one a game; the pole's car's owner (who plays
    first) wins when the pole does; every betting line reached."""
    played = Played(BalanceReport("Test", "Standard", 4, ["greedy"]))
    for k, winner in enumerate(winners):
        one = BalanceReport("Test", "Standard", 4, ["greedy"], games=1)
        one.slot_wins[winner] = 1
        one.first_wins = SHARE_UNIT if winner == 0 else 0
        one.seat_wins[k % 4] = SHARE_UNIT
        one.line_reached = [1, 1, 1]
        cars = stalled[k] if stalled else 0
        one.stalled.add(cars)
        one.races_with_stall = int(cars > 0)
        played.add(one)
    return played


def _even(games: int) -> list[int]:
    return [k % 6 for k in range(games)]


def test_a_verdict_holds_when_the_stronger_bots_change_only_a_few_games():
    before = _even(300)
    after = list(before)
    for k in range(0, 60, 6):  # ten games the pole won go to slot 2, ten the other way
        after[k], after[k + 1] = 1, 0
    verdict = judge(_played(before), _played(after), STRONG)
    assert verdict.outcome == HOLDS and verdict.holds
    line = verdict.line()
    assert line.startswith(
        "The verdict holds with stronger bots (strong). On the same 300 games, no grid "
        "slot's wins, first player's wins or stalled cars moved beyond noise. A move of "
    )
    assert line.endswith("No slot stands out with either, and the same warnings are given.")
    # It says how large a move the games could have shown: the widest share interval.
    widest = max(m.half for m in verdict.figures if m.share)
    assert f"more than {100 * widest:.0f} points in a share, or 0.00 stalled cars" in line


def test_a_verdict_changes_when_a_figure_moves_beyond_noise():
    """The pole wins 30% with the run's bots and 15% with stronger ones, on the same games."""
    before = [0 if k % 10 < 3 else 1 + k % 5 for k in range(400)]
    after = list(before)
    moved = [k for k in range(400) if before[k] == 0][::2]  # half the pole's wins
    for k in moved:
        after[k] = 3  # go to slot 4
    stalls = [k % 2 for k in range(400)]
    verdict = judge(_played(before, stalls), _played(after, stalls), STRONG)
    assert verdict.outcome == CHANGES and not verdict.holds
    line = verdict.line()
    # The change's interval in brackets, as every interval is shown, in the one sign
    # style of every change shown: an ASCII "-", never a true minus.
    pole = verdict.figures[0]
    low, high = round(100 * (pole.change - pole.half)), round(100 * (pole.change + pole.half))
    assert line.startswith(
        "The verdict changes with stronger bots (strong). The pole's wins: 30% \u2192 15% of "
        f"races, -15 points ({low} to {high}). "
    )
    assert "\u2212" not in line and "-" in line
    assert "Slot 4's wins: " in line and "Slot 4 now wins more than its fair share" in line
    assert "pole no longer" not in line  # 30% is what its first turn may give
    assert "stalled cars" not in line  # the same on every game
    data = verdict.to_dict()
    assert data["outcome"] == "changes" and data["text"] == line
    pole = data["figures"][0]
    assert pole["figure"] == "pole" and pole["moved"] and pole["change"] == -0.15
    assert data["stand_out"]["a"] == {} and data["stand_out"]["b"]["slot 4"] == "above"


def test_a_flag_that_tips_over_within_noise_leaves_the_verdict_unclear():
    """Slot 6 at 9% then 11%: warned of with the run's bots only (the six slots judged
    together, as the hints judge them), though the paired change is within noise."""
    before = [5 if k % 11 == 0 else k % 5 for k in range(300)]
    after = list(before)
    for k in [k for k in range(300) if before[k] != 5][:5]:
        after[k] = 5
    verdict = judge(_played(before), _played(after), STRONG)
    assert verdict.outcome == UNCLEAR, verdict.line()
    assert verdict.line().startswith(
        "The verdict is unclear with stronger bots (strong). Slot 6 no longer wins less than "
        "its fair share"
    )
    assert verdict.line().endswith(
        "moved beyond noise on the same 300 games. Play more games to tell."
    )
    # The editor names its bots in its own words, and how to play more games.
    told = verdict.line("stronger bots (two deals a decision)", "raise Games, then check")
    assert told.startswith("The verdict is unclear with stronger bots (two deals a decision).")
    assert told.endswith(" games. Raise Games, then check.")


def test_a_slot_stands_out_only_where_the_hints_warn_of_it():
    """The pole at 25% with 300 games: its 95% interval leaves 1 in 6, but what its
    first turn gives explains it and no hint warns of it, so it does not stand out."""
    before = [0 if k % 4 == 0 else 1 + k % 5 for k in range(300)]
    played = _played(before)
    low = played.report.slot_shares()[0][1]
    assert low > 1 / 6 and stand_out(played.report) == {}


def test_too_few_games_tell_nothing():
    verdict = judge(_played(_even(12)), _played([0] * 12), STRONG)
    assert verdict.outcome == TOO_FEW
    assert verdict.line() == (
        "Only 12 games played with stronger bots (strong): play at least 30 to tell "
        "whether the verdict holds."
    )


def test_warnings_are_told_apart_by_what_they_say_not_their_figures():
    """A warning about the same finding with other figures is the same warning; another
    slot's warning is another."""
    low = _played([0, 1, 2, 3, 4] * 60)  # slot 6 never wins: warned about
    seldom = _played([0, 1, 2, 3, 4] * 54 + [0, 1, 2, 3, 5] * 6)  # slot 6 wins 2%
    verdict = judge(low, seldom, STRONG)
    assert not verdict.warnings_gone and not verdict.warnings_new
    texts = [[h.text for h in hints(p.report) if h.severity == "warning"] for p in (low, seldom)]
    assert texts[0] != texts[1] and len(texts[0]) == len(texts[1]) == 1
    other = _played([0, 1, 2, 3, 5] * 60)  # slot 5 never wins instead
    verdict = judge(low, other, STRONG)
    assert len(verdict.warnings_gone) == len(verdict.warnings_new) == 1
    assert verdict.warnings_gone[0].startswith("Grid slot 6 ")
    assert verdict.warnings_new[0].startswith("Grid slot 5 ")


@pytest.fixture(scope="module")
def straight_run():
    return BalanceRun(
        straight_track(), open_variant("standard"), 3, 30, 5, ("greedy", "random", "random")
    )


def test_the_check_plays_the_same_games_with_the_stronger_bots(straight_run):
    """The run's bots play the very games of the run (its figures are the run's, as the
    designer saw them), the stronger bots the same ones; the verdict is of those games."""
    check = check_deeper(straight_run)
    before, after = check.comparison.before, check.comparison.after
    assert before == run_balance(straight_run)
    assert before.games == after.games == check.verdict.games == 30
    assert after.bots == ["strong", "random", "random"] and before.bots == list(straight_run.bots)
    assert after.kind_seats == {"strong": 30, "random": 60}
    assert after.seconds > before.seconds > 0  # how long each set of bots took
    assert after.seconds + before.seconds == pytest.approx(check.comparison.seconds)
    assert check.verdict.outcome in (HOLDS, CHANGES, UNCLEAR)
    data = check.to_dict()
    assert data["format"] == "trackside-comparison/1" and data["check"] == "stronger bots"
    assert data["stronger_bots"] == ["strong", "random", "random"]
    assert data["verdict"]["text"] == check.verdict.line()
    assert data["b"]["bots"] == ["strong", "random", "random"]


def test_a_cancelled_check_keeps_the_games_both_sets_of_bots_played(straight_run):
    done = []
    check = check_deeper(straight_run, progress=done.append, cancelled=lambda: len(done) >= 2)
    assert done == [10, 20]  # the first ten games with each set of bots
    assert check.comparison.cancelled and check.comparison.before.cancelled
    assert check.comparison.before.games == check.comparison.after.games == 10
    assert check.verdict.outcome == TOO_FEW
    with pytest.raises(ValueError, match="random bots do not search"):
        check_deeper(BalanceRun(straight_run.track, straight_run.variant, 3, 10, bots=("random",)))


def _stalling(games: int, cars: int) -> BalanceReport:
    """A report of an even grid whose races stall one car each, 1 to 12 steps short, in
    ``cars`` races for each shortfall."""
    report = BalanceReport("t", "standard", 4, ["greedy"] * 4, games=games)
    report.slot_wins = [games // 6] * 5 + [games - 5 * (games // 6)]
    report.seat_wins = [SHARE_UNIT * games // 4] * 4
    report.first_wins = SHARE_UNIT * games // 4
    report.line_reached = [games] * 3
    for steps in range(1, 13):
        report.stall_short[steps] += cars
    for race in range(games):
        report.stalled.add(1 if race < 12 * cars else 0)
    report.races_with_stall = 12 * cars
    return report


def test_two_betting_lines_warned_about_are_two_warnings():
    """Warnings that differ only in the betting line they name are two: one new warning
    about lines 2 and 3 each, where the figures' gist had made them one."""
    reached = _stalling(600, 0)
    seldom = _stalling(600, 0)
    seldom.line_reached = [600, 300, 200]
    said = [h.text for h in hints(seldom) if h.text.startswith("Betting line")]
    assert [text[:14] for text in said] == ["Betting line 2", "Betting line 3"]
    verdict = judge(Played(reached), Played(seldom), STRONG)
    assert sorted(w[:14] for w in verdict.warnings_new) == ["Betting line 2", "Betting line 3"]


def test_a_stall_warning_is_the_same_with_a_range_a_jam_or_betting_lines_beside_it():
    """The stall warning of one run says "about 18 to 20 spaces" and names a jam; the
    other's says "about 18 spaces", no jam: the same finding (both say how far to move
    the betting lines along), while the jam's own warning is given by one run only."""
    track = straight_track(
        rows=60, lanes=[3] * 20 + [1] * 6 + [3] * 34, finish=56, bets=[10, 30, 38]
    )
    jammed = _stalling(300, 20)
    jammed.blocked.update({"a19": 400, "b20": 300})
    settled = _stalling(3000, 190)
    texts = [[h.text for h in hints(r, track) if "stall" in h.text] for r in (jammed, settled)]
    assert "about 18 to 20 spaces" in texts[0][0] and "Cars also jam" in texts[0][0]
    assert "about 18 spaces" in texts[1][0] and "jam" not in texts[1][0]
    verdict = judge(Played(jammed), Played(settled), STRONG, track)
    assert not verdict.warnings_new
    assert [w[:8] for w in verdict.warnings_gone] == ["Cars jam"]
