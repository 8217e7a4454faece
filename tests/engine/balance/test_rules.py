"""The rule figures of the balance lab: powers, betting, the auction, counted from each
finished game; totals that add up the same however the games are split; figures a
variant's rules do not have left out; version 1 reports still read."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from trackside.engine.balance import BalanceReport, BalanceRun, compare, hints, run_balance
from trackside.engine.balance.rules import RuleTotals
from trackside.engine.balance.runner import play_one, play_range
from trackside.engine.game.cards import COLOURS
from trackside.engine.records import open_track, open_variant
from trackside.engine.tallies import SHARE_UNIT

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
GAMES = 30


@pytest.fixture(scope="module")
def harbour():
    return open_track("harbour-loop")


@pytest.fixture(scope="module")
def standard_run(harbour) -> BalanceRun:
    return BalanceRun(harbour, open_variant("standard"), 4, GAMES, seed=11)


@pytest.fixture(scope="module")
def standard_games(standard_run):
    return [play_one(standard_run, i)[0] for i in range(GAMES)]


@pytest.fixture(scope="module")
def dealt_powers(tmp_path_factory):
    """A variant without an auction but with powers: each dealt car brings one."""
    path = tmp_path_factory.mktemp("variants") / "dealt-powers.yaml"
    path.write_text(
        "format: trackside-variant/1\nname: Dealt powers\nextends: standard\nauction: false\n"
    )
    return open_variant(str(path))


def recount(games) -> dict[str, object]:
    """The rule totals read again from each game's log and result alone: the powers
    kept, the cars revealed with their powers and bought at a price, the bets and
    what they paid (R-AUC-9, R-BET-5, R-SCORE-1/2)."""
    held, wins, offered, taken = {}, {}, {}, {}
    slot_price = [0] * 6
    bets_num = bets_den = paid = made = decided = 0
    line_pay = [0, 0, 0]
    for game in games:
        result, variant = game.result, game.variant
        events = list(game.log)
        grid = next(e for e in events if e.kind == "setup").data["grid"]
        place = {colour: k for k, colour in enumerate(result.ranking)}
        power_with = {e.data["car"]: e.data["power"] for e in events if e.kind == "reveal"}
        for e in events:
            if e.kind == "power":
                held[e.data["power"]] = held.get(e.data["power"], 0) + 1
                if e.data["seat"] in result.winners:
                    share = SHARE_UNIT // len(result.winners)
                    wins[e.data["power"]] = wins.get(e.data["power"], 0) + share
            if e.kind == "auction" and "price" in e.data:
                slot_price[grid.index(e.data["car"])] += e.data["price"]
                taken[power_with[e.data["car"]]] = taken.get(power_with[e.data["car"]], 0) + 1
        for power in power_with.values():
            offered[power] = offered.get(power, 0) + 1
        line3 = [0] * game.players
        for line, seats in enumerate(result.bets):
            table = variant.bet_payouts[line]
            for seat, car in enumerate(seats):
                if car is None:
                    continue
                k = place.get(car)
                value = table[k] if k is not None and k < len(table) else 0
                line_pay[line] += value
                if line == 2:
                    line3[seat] = value
                if seat in result.winners:
                    made += 1
                    paid += value > 0
        bets = sum(result.bet_payouts[s] for s in result.winners)
        bets_num += bets
        bets_den += bets + sum(result.earnings[s] for s in result.winners)
        without = [s - b for s, b in zip(result.scores, line3, strict=True)]
        top = max(without)
        tied = [s for s, v in enumerate(without) if v == top]
        owner = game.state.owner
        best = {
            s: min((place[c] for c in result.ranking if owner[COLOURS.index(c)] == s), default=9)
            for s in tied
        }
        tied = [s for s in tied if best[s] == min(best.values())]
        decided += set(tied) != set(result.winners)
    return {
        "held": held,
        "wins": wins,
        "offered": offered,
        "taken": taken,
        "slot_price": slot_price,
        "bets": (bets_num, bets_den),
        "bets_paid": (paid, made),
        "line_pay": line_pay,
        "decided": decided,
    }


def test_the_rule_totals_are_what_the_logs_and_results_say(standard_games):
    rules = RuleTotals()
    for game in standard_games:
        rules.add(game)
    expected = recount(standard_games)
    assert {name: p.held for name, p in rules.power.items() if p.held} == expected["held"]
    assert {n: p.holder_wins for n, p in rules.power.items() if p.holder_wins} == expected["wins"]
    assert {name: p.offered for name, p in rules.power.items()} == expected["offered"]
    assert {name: p.taken for name, p in rules.power.items() if p.taken} == expected["taken"]
    assert [cars.price.total for cars in rules.slots] == expected["slot_price"]
    assert (rules.winner_bets.num, rules.winner_bets.den) == expected["bets"]
    assert (rules.winner_bets_paid.num, rules.winner_bets_paid.den) == expected["bets_paid"]
    assert [r.num for r in rules.line_payout] == expected["line_pay"]
    assert rules.last_line_decides == expected["decided"]
    # Every car bought returns its race payout (R-SCORE-1): the cars' returns add up to
    # the owners' race earnings.
    returned = sum(cars.returned.total for cars in rules.slots)
    assert returned == sum(sum(g.result.earnings) for g in standard_games)


def test_the_figures_have_the_shape_the_report_promises(standard_run):
    report = run_balance(standard_run)
    figures, rules = report.to_dict()["rules"], report.rules
    assert set(figures) == {"powers", "betting", "auction", "money_gap", "decided_by_last_line"}
    est = {"value", "low", "high"}
    for row in figures["powers"]:
        assert set(row) == {
            "power",
            "games",
            "win_share",
            "beyond_chance",
            "mean_winnings",
            "taken_share",
            "mean_price",
        }
        assert all(set(row[k]) == est for k in row if k not in ("power", "games", "beyond_chance"))
        assert row["beyond_chance"] == (row["power"] in rules.powers_beyond_chance(4))
        assert 0 <= row["win_share"]["low"] <= row["win_share"]["value"] <= 1
    assert [r["power"] for r in figures["powers"]] == list(open_variant("standard").powers)
    assert sum(r["games"] for r in figures["powers"]) == 4 * GAMES  # each seat keeps one
    betting = figures["betting"]
    assert len(betting["payout_per_line"]) == 3
    assert 0 < betting["winner_bet_share"]["value"] < 1
    assert [s["slot"] for s in figures["auction"]["by_slot"]] == [1, 2, 3, 4, 5, 6]
    for row in figures["auction"]["by_slot"] + figures["auction"]["by_power"]:
        assert set(row) - {"slot", "power"} == {"mean_price", "mean_return"}
    assert set(figures["money_gap"]) == est


def test_figures_a_variant_does_not_have_are_absent_not_zero(harbour, dealt_powers):
    beginner = run_balance(BalanceRun(harbour, open_variant("beginner"), 4, 12)).to_dict()
    assert set(beginner["rules"]) == {"money_gap"}  # no auction, powers or betting
    dealt = run_balance(BalanceRun(harbour, dealt_powers, 4, 12)).to_dict()["rules"]
    assert "auction" not in dealt and "betting" in dealt
    assert all(
        set(row) == {"power", "games", "win_share", "beyond_chance", "mean_winnings"}
        for row in dealt["powers"]
        if row["games"]
    )
    distance = run_balance(BalanceRun(harbour, open_variant("long-distance"), 4, 12)).to_dict()
    assert "decided_by_last_line" not in distance["rules"]  # the furthest car wins
    assert {"powers", "betting", "auction"} <= set(distance["rules"])


@pytest.mark.parametrize("variant", ["standard", "dealt"])
def test_rule_totals_add_up_the_same_with_one_and_two_workers(harbour, dealt_powers, variant):
    rules = open_variant("standard") if variant == "standard" else dealt_powers
    run = BalanceRun(harbour, rules, 4, 20, seed=5)
    one, two = run_balance(run, workers=1), run_balance(run, workers=2)
    assert one.rules.games == 20
    assert two.rules == one.rules
    assert json.dumps(two.to_dict()["rules"]) == json.dumps(one.to_dict()["rules"])
    first, second = play_range(run, 0, 7).report, play_range(run, 7, 20).report
    second.merge(first)
    assert second.rules == one.rules


def test_a_report_round_trips_with_its_rule_totals(standard_run):
    report = run_balance(standard_run)
    data = json.loads(json.dumps(report.to_dict()))
    again = BalanceReport.from_dict(data)
    assert again.rules == report.rules
    assert again.to_dict()["rules"] == data["rules"]


def test_a_version_1_report_is_still_read_and_compared(standard_run):
    """A report written before the rule figures existed (format 1, by the earlier
    code): read, its circuit figures compared, its rule figures absent."""
    data = json.loads((FIXTURES / "reports" / "balance-v1.json").read_text())
    assert data["format"] == "trackside-balance/1" and "rules" not in data
    old = BalanceReport.from_dict(data)
    assert old.games == 40 and old.rules.games == 0
    assert set(old.to_dict()["rules"]) == {"money_gap"}  # the money spread it did count
    new = run_balance(BalanceRun(open_track("quarry-hairpin"), standard_run.variant, 4, 40, 3))
    changes = {c.figure: c for c in compare(old, new)}
    assert "grid slot 1 win share" in changes and "balance" in changes
    assert not any("holder" in name or "bet " in name for name in changes)
    assert changes["grid slot 1 win share"].before == old.slot_wins[0] / 40
    hints(old)  # says what the circuit figures say, nothing of rules it never counted


def test_an_unknown_report_format_is_refused(standard_run):
    data = run_balance(BalanceRun(standard_run.track, standard_run.variant, 4, 2)).to_dict()
    data["format"] = "trackside-balance/9"
    with pytest.raises(ValueError, match="trackside-balance/9"):
        BalanceReport.from_dict(data)


def test_rule_changes_are_told_from_noise(standard_run):
    report = run_balance(standard_run)
    assert not any(c.significant for c in compare(report, report))
    skewed = BalanceReport.from_dict(report.to_dict())
    aggressive = skewed.rules.power["aggressive"]
    aggressive.holder_wins = aggressive.held * SHARE_UNIT  # its holder always wins
    changes = {c.figure: c for c in compare(report, skewed)}
    assert changes["aggressive holder wins"].significant
    assert changes["aggressive holder wins"].after == 1.0
    assert not changes["cunning holder wins"].significant
