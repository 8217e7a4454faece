"""The balance lab's hints on constructed reports: the pole's first turn is not the grid's fault."""

from __future__ import annotations

from trackside.engine.balance import BalanceReport, hints
from trackside.engine.balance.hints import FIRST_TURN_EDGE

GRID = ["a4", "b4", "c4", "d4", "a3", "b3"]


def _report(games: int, slot_wins: list[int]) -> BalanceReport:
    """A report of ``games`` races, won by the grid slots as given, with nothing else wrong."""
    assert sum(slot_wins) == games
    report = BalanceReport("oval", "standard", 4, ["greedy"] * 4, games=games)
    report.slot_wins = list(slot_wins)
    report.seat_wins = [60 * games // 4] * 4  # the seats win alike
    report.line_reached = [games] * 3
    report.grid = list(GRID)
    return report


def _about_slot(found, k):
    return [h for h in found if h.text.startswith(f"Grid slot {k} ")]


def test_a_pole_ahead_by_what_its_first_turn_gives_is_not_blamed_on_the_grid():
    """R-RACE-1: the pole's owner plays first. 30% ± 6% of 200 races, as on the tryout oval."""
    found = hints(_report(200, [60, 30, 30, 30, 25, 25]))
    (pole,) = _about_slot(found, 1)
    assert pole.severity == "info" and pole.spaces == ("a4",)
    assert "plays first (R-RACE-1)" in pole.text
    assert "Move the grid" not in pole.text and "opening favours" not in pole.text
    assert not any(h.severity == "warning" for h in found)
    assert found[0].text.startswith("No grid slot wins more than chance and the pole's first turn")


def test_the_bundled_circuits_pole_share_is_within_the_first_turn():
    """R-RACE-1: Quarry Hairpin's 2,000 greedy games (README) give no grid warning."""
    found = hints(_report(2000, [562, 328, 334, 320, 240, 216]))
    (pole,) = _about_slot(found, 1)
    assert pole.severity == "info"


def test_a_pole_ahead_by_more_than_the_first_turn_is_blamed_on_the_opening_too():
    """R-RACE-1: 45% of 400 races is beyond what playing first gives."""
    found = hints(_report(400, [180, 50, 50, 50, 40, 30]))
    (pole,) = _about_slot(found, 1)
    assert 1 / 6 + FIRST_TURN_EDGE < 180 / 400
    assert pole.severity == "warning"
    assert "plays first (R-RACE-1)" in pole.text and "Move the grid back" in pole.text
    assert found[0] is pole  # most serious first


def test_another_slot_winning_too_often_is_the_opening_alone():
    found = hints(_report(400, [70, 60, 130, 60, 40, 40]))
    (third,) = _about_slot(found, 3)
    assert third.severity == "warning" and third.spaces == ("c4",)
    assert "opening favours it" in third.text and "R-RACE-1" not in third.text


def test_an_even_grid_says_chance_alone():
    found = hints(_report(600, [100] * 6))
    assert found[0].text.startswith("No grid slot wins more than chance allows over 600 games")
    assert _about_slot(found, 1) == []
