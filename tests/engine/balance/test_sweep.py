"""Sweeps through the engine: the values of ``--set``, variant keys checked against the
schema, the grid, paired games, a stopped sweep continued (the rule figures too), and
the figures read from a balance report (the registry, against a report written by
``BalanceReport.to_dict`` with the figures for the rules, and one without them)."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from trackside.engine.balance import BalanceRun, run_balance
from trackside.engine.balance.sweep import (
    Circuit,
    SettingResult,
    Sweep,
    SweepResults,
    parse_set,
    parse_values,
    run_sweep,
)
from trackside.engine.balance.sweep_figures import FIGURES, MISSING, lookup, sweep_figures
from trackside.engine.balance.variant_keys import variant_key, with_values
from trackside.engine.balance.wording import DASH
from trackside.engine.errors import TracksideError
from trackside.engine.game.variants import POWERS, bundled_variants, load_variant
from trackside.engine.records import open_variant


@pytest.fixture(scope="module")
def standard():
    return open_variant("standard")


@pytest.fixture(scope="module")
def harbour() -> Circuit:
    return Circuit.open("harbour-loop")


# -- the values of --set ---------------------------------------------------------------
def test_values_are_comma_lists_ranges_and_lists_as_in_a_variant_file():
    assert parse_values("10,12,14") == [10, 12, 14]
    assert parse_values("5..8") == [5, 6, 7, 8]
    assert parse_values("1..2,7") == [1, 2, 7]
    assert parse_values("-2..0") == [-2, -1, 0]
    assert parse_values("dealt,common") == ["dealt", "common"]
    assert parse_values("true,false") == [True, False]
    assert parse_values("[9, 6, 3],[8]") == [[9, 6, 3], [8]]
    assert parse_values("[aggressive, tricky],[]") == [["aggressive", "tricky"], []]


@pytest.mark.parametrize(
    "text, words",
    [
        ("8..5", "the range goes down"),
        ("5,5", "given twice"),
        ("5,,6", "an empty value"),
        ("0..500", "values"),
        ("[1, 2", "cannot read the value"),
    ],
)
def test_values_that_make_no_sense_are_refused(text, words):
    with pytest.raises(TracksideError, match=words):
        parse_values(text, "hand.size")


# -- variant keys ------------------------------------------------------------------------
def test_a_key_is_a_dotted_path_with_list_indices(standard):
    assert variant_key("hand.size", standard).parts == ("hand", "size")
    assert variant_key("payouts.race.0", standard).parts == ("payouts", "race", 0)
    assert variant_key("payouts.bets.2.0", standard).parts == ("payouts", "bets", 2, 0)
    assert variant_key("powers", standard).allowed().startswith("a list of aggressive")


@pytest.mark.parametrize(
    "key, words",
    [
        ("hand.sise", "hand.sise is no key of hand (keys: hand.mode, hand.size"),
        ("speed", "speed is no key of a variant (keys: players.min"),
        ("payouts.race.6", "give an index from 0 to 5"),
        ("hand.size.1", "goes past hand.size, which is a whole number from 1 to 21"),
        ("name", "is the variant's name, not a rule"),
        ("series", "a sweep plays one circuit per setting"),
    ],
)
def test_a_key_that_is_no_rule_is_named_with_the_keys_there_are(standard, key, words):
    with pytest.raises(TracksideError) as caught:
        variant_key(key, standard)
    assert words in str(caught.value) and caught.value.exit_code == 2


@pytest.mark.parametrize(
    "setting, words",
    [
        ("hand.size=0", "hand.size takes a whole number from 1 to 21, not 0"),
        ("hand.mode=shared", "hand.mode takes one of dealt, common, private, not shared"),
        ("betting=maybe", "betting takes true or false, not maybe"),
        ("payouts.race.0=ten", "payouts.race.0 takes a whole number, not ten"),
        ("payouts.race=[1, 2]", "a list of 6 whole numbers, such as [12, 9, 6, 4, 2, 0]"),
        ("powers=[tricky, tricky]", "once each"),
        ("bonuses.aggressive=10", "a whole number from 0 to 9, not 10"),
    ],
)
def test_a_bad_value_names_its_key_and_what_the_schema_allows(standard, setting, words):
    axis = parse_set(setting, standard)
    with pytest.raises(TracksideError) as caught:
        with_values(standard, {axis.key: axis.values[0]}, "x")
    assert words in str(caught.value) and caught.value.exit_code == 2


def test_values_that_together_make_no_variant_name_the_setting(standard):
    chosen = {
        variant_key("hand.mode", standard): "common",
        variant_key("hand.size", standard): 21,
    }
    with pytest.raises(TracksideError, match=r"hand\.mode=common, hand\.size=21: variant: 6 hands"):
        with_values(standard, chosen, "x")


@pytest.mark.parametrize("path", bundled_variants(), ids=lambda p: p.stem)
def test_a_variant_as_data_reads_back_as_itself(path):
    from trackside.engine.game.variants import variant_from_data

    variant = load_variant(path)
    assert replace(variant_from_data(variant.to_data()), source=variant.source) == variant


# -- the grid and its games ----------------------------------------------------------------
def small_sweep(standard, harbour, *sets: str, games: int = 6, **more) -> Sweep:
    axes = tuple(parse_set(text, standard) for text in sets)
    return Sweep("standard", standard, axes, (harbour,), 4, games, 3, **more)


def test_the_grid_is_the_product_of_the_values_and_circuits(standard, harbour):
    quarry = Circuit.open("quarry-hairpin")
    sweep = replace(
        small_sweep(standard, harbour, "payouts.race.0=10,14", "bonuses.aggressive=0..2"),
        circuits=(harbour, quarry),
    )
    settings = sweep.settings()
    assert len(settings) == 2 * 2 * 3
    assert [s.values for s in settings[:3]] == [(10, 0), (10, 1), (10, 2)]
    assert settings[0].run.variant.race_payout[0] == 10
    assert settings[5].run.variant.aggressive_bonus == 2
    assert {s.circuit for s in settings[6:]} == {1}
    assert {s.run.seed for s in settings} == {3}  # the same games for every setting


def test_a_setting_that_cannot_be_played_is_refused_before_any_game(standard, harbour):
    sweep = small_sweep(standard, harbour, "players.max=3,6")
    with pytest.raises(TracksideError, match="is for 3 to 3 players, not 4"):
        sweep.settings()


def test_a_key_set_twice_is_refused(standard, harbour):
    with pytest.raises(TracksideError, match="set the same value"):
        small_sweep(standard, harbour, "payouts.race=[12, 9, 6, 4, 2, 0]", "payouts.race.0=10")


def test_settings_are_paired_with_a_run_of_the_variant_itself(standard, harbour):
    """A setting that keeps the standard value plays exactly the games of standard."""
    sweep = small_sweep(standard, harbour, "payouts.race.0=10,12")
    results = SweepResults.fresh(sweep, sweep.settings())
    assert run_sweep(results.settings, results.results)
    alone = run_balance(BalanceRun(harbour.track, standard, 4, 6, 3, track_name="Harbour Loop"))
    kept = results.results[1].report
    assert replace(kept, variant=alone.variant) == alone
    assert results.results[0].report != kept  # the other payout changed something


def test_a_stopped_sweep_continues_to_exactly_the_whole_sweep(standard, harbour):
    sweep = small_sweep(standard, harbour, "payouts.race.0=10,12", games=25)
    whole = SweepResults.fresh(sweep, sweep.settings())
    assert run_sweep(whole.settings, whole.results)

    stopped = SweepResults.fresh(sweep, sweep.settings())
    parts: list[int] = []
    ended: list[int] = []
    complete = run_sweep(
        stopped.settings,
        stopped.results,
        progress=lambda done, total: parts.append(done),
        cancelled=lambda: len(parts) >= 4,
        finished=ended.append,
    )
    assert not complete and ended == [0] and stopped.results[1].games == 10
    saved = json.loads(json.dumps(stopped.to_dict()))
    assert saved["complete"] is False and saved["settings"][1]["played"] == [[0, 10]]

    again = SweepResults.fresh(sweep, sweep.settings())
    again.resume(saved, "sweep.json")
    assert again.results[1].missing(25) == [(10, 25)]
    assert run_sweep(again.settings, again.results)
    assert [r.report for r in again.results] == [r.report for r in whole.results]
    # The rule figures too: the part read back holds its rule totals (report v2).
    assert again.results[1].report.rules.games == 25
    assert without_seconds(again.to_dict()) == without_seconds(whole.to_dict())
    rules = again.to_dict()["settings"][1]["report"]["rules"]
    assert {"powers", "betting", "auction"} <= set(rules)


def without_seconds(data: dict) -> dict:
    data = json.loads(json.dumps(data))
    data.pop("seconds")
    for setting in data["settings"]:
        setting["report"].pop("seconds")
    return data


def test_a_saved_sweep_of_balance_reports_without_the_rule_totals_is_refused(standard, harbour):
    """A setting of a report written before the rule figures were counted (version 1)
    would add games whose rules count to games whose rules never did."""
    sweep = small_sweep(standard, harbour, "payouts.race.0=10,12", games=4)
    played = SweepResults.fresh(sweep, sweep.settings())
    assert run_sweep(played.settings, played.results)
    saved = json.loads(json.dumps(played.to_dict()))
    for setting in saved["settings"]:
        setting["report"]["format"] = "trackside-balance/1"
        del setting["report"]["totals"]["rules"]
    with pytest.raises(TracksideError, match="balance reports of 'trackside-balance/1'"):
        SweepResults.fresh(sweep, sweep.settings()).resume(saved, "sweep.json")


def test_a_saved_report_of_another_sweep_is_refused_naming_the_difference(standard, harbour):
    sweep = small_sweep(standard, harbour, "payouts.race.0=10,12")
    saved = SweepResults.fresh(sweep, sweep.settings()).to_dict()
    for other, words in (
        (replace(sweep, games=7), "games 6 there, 7 here"),
        (small_sweep(standard, harbour, "payouts.race.0=10"), "set payouts.race.0=10,12 there"),
        (replace(sweep, circuits=(replace(harbour, digest="0" * 16),)), "harbour-loop has changed"),
    ):
        results = SweepResults.fresh(other, other.settings())
        with pytest.raises(TracksideError, match=words):
            results.resume(saved, "sweep.json")
    with pytest.raises(TracksideError, match="holds no trackside-sweep/1 report"):
        SweepResults.fresh(sweep, sweep.settings()).resume({"format": "x"}, "sweep.json")


def test_missing_games_of_a_setting():
    result = SettingResult(report=None, played=[(10, 20), (30, 40)])  # type: ignore[arg-type]
    assert result.missing(50) == [(0, 10), (20, 30), (40, 50)]
    assert result.games == 20


# -- the figures of a setting ------------------------------------------------------------
def estimate(value: float, low: float, high: float) -> dict[str, float]:
    return {"value": value, "low": low, "high": high}


RULES_REPORT = {  # a balance report with the figures for the rules (trackside-balance/2)
    "format": "trackside-balance/2",
    "balance": 0.9134,
    "first_player": {"win_share": [0.262, 0.243, 0.282]},
    "turns": {"mean": 33.61, "low": 33.5, "high": 33.72},
    "stalled_per_race": {"mean": 0.42, "low": 0.39, "high": 0.45},
    "rules": {
        "powers": [
            {
                "power": "tricky",
                "games": 2000,
                "win_share": estimate(0.31, 0.29, 0.33),
                "mean_winnings": estimate(14.2, 13.9, 14.5),
                "taken_share": estimate(0.9, 0.88, 0.92),
                "mean_price": estimate(3.1, 3.0, 3.2),
            },
            {"power": "aggressive", "games": 2000, "win_share": estimate(0.22, 0.2, 0.24)},
        ],
        "betting": {
            "winner_bet_share": estimate(0.405, 0.39, 0.42),
            "winner_bets_paid": estimate(0.6, 0.58, 0.62),
            "payout_per_line": [estimate(4, 3.8, 4.2)] * 3,
        },
        "money_gap": estimate(11.0, 10.5, 11.5),
    },
}


def test_the_registry_reads_the_figures_for_the_rules_from_a_report():
    figures = {f.name: f for f in sweep_figures([RULES_REPORT])}
    assert figures["aggressive holder wins"].cell(RULES_REPORT) == f"22.0% (20.0{DASH}24.0)"
    assert figures["tricky holder wins"].cell(RULES_REPORT) == f"31.0% (29.0{DASH}33.0)"
    assert figures["winner's money from bets"].cell(RULES_REPORT) == f"40.5% (39.0{DASH}42.0)"
    assert figures["first player wins"].cell(RULES_REPORT) == f"26.2% (24.3{DASH}28.2)"
    assert figures["race length (cards)"].cell(RULES_REPORT) == f"33.6 (33.5{DASH}33.7)"
    assert figures["stalled cars a race"].cell(RULES_REPORT) == f"0.42 (0.39{DASH}0.45)"
    assert figures["balance"].cell(RULES_REPORT) == "0.91"  # a report without its interval
    with_interval = RULES_REPORT | {"balance_interval": [0.8, 1.0]}
    assert figures["balance"].cell(with_interval) == f"0.91 (0.80{DASH}1.00)"
    few_stalls = {"stalled_per_race": {"mean": 0.1, "low": -0.05, "high": 0.25}}
    assert figures["stalled cars a race"].cell(few_stalls) == f"0.10 (0.00{DASH}0.25)"  # never < 0
    names = list(figures)
    # The columns as the table has them: the powers after the first player, in rule order.
    assert names[:4] == [
        *("balance", "first player wins"),
        *("aggressive holder wins", "tricky holder wins"),
    ]
    assert names.index("winner's money from bets") > names.index("tricky holder wins")


def test_the_registry_finds_every_figure_in_a_report_the_lab_wrote(standard, harbour):
    """The registry's places against ``BalanceReport.to_dict``: every column holds a
    figure, the same as the report's own totals give."""
    report = run_balance(BalanceRun(harbour.track, standard, 4, 30, 1))
    data = json.loads(json.dumps(report.to_dict()))
    figures = {f.name: f for f in sweep_figures([data])}
    assert [name for name in figures if name.endswith(" holder wins")] == [
        f"{power} holder wins" for power in standard.powers
    ]
    assert MISSING not in {f.cell(data) for f in figures.values()}
    tricky = figures["tricky holder wins"].estimate(data)
    share, low, high = report.rules.power["tricky"].win_share()
    assert tricky is not None
    assert (tricky.value, tricky.low, tricky.high) == pytest.approx((share, low, high), abs=1e-4)
    bets = figures["winner's money from bets"].estimate(data)
    assert bets is not None and bets.value == pytest.approx(report.rules.winner_bets.value, 1e-3)
    assert 0 < bets.value < 1


def test_a_figure_a_report_does_not_hold_shows_a_dash():
    older = {k: v for k, v in RULES_REPORT.items() if k != "rules"}
    figures = sweep_figures([older, None])
    cells = {f.name: f.cell(older) for f in figures}
    assert cells["winner's money from bets"] == MISSING == "\u2013"
    assert cells["power holders win"] == MISSING  # one column says the powers are missing
    assert {f.cell(None) for f in figures} == {MISSING}
    # A power the reports know in one setting only: a dash in the others.
    tricky = next(f for f in sweep_figures([RULES_REPORT, older]) if f.name.startswith("tricky"))
    assert tricky.cell(older) == MISSING
    assert lookup(RULES_REPORT, ("rules", "powers", ("power", "cunning"), "win_share")) is None


def test_every_power_of_the_rules_has_its_place_in_the_columns():
    shares = [{"power": p, "win_share": estimate(0.2, 0.1, 0.3)} for p in POWERS]
    report = {"rules": {"powers": shares}}
    names = [f.name for f in sweep_figures([report])]
    assert names[2 : 2 + len(POWERS)] == [f"{p} holder wins" for p in POWERS]
    assert len(names) == len(FIGURES) + len(POWERS)


def test_the_plot_of_a_stopped_sweep_marks_the_settings_that_played_fewer_games(
    standard, harbour, tmp_path
):
    """A setting a stopped sweep left short is drawn marked *, and the title says the
    sweep stopped early: it was drawn like a finished one under "25 games a setting"."""
    matplotlib = pytest.importorskip("matplotlib")
    from trackside.engine.balance.sweep_plot import plot_sweep

    sweep = small_sweep(standard, harbour, "payouts.race.0=10,12", games=25)
    stopped = SweepResults.fresh(sweep, sweep.settings())
    parts: list[int] = []
    run_sweep(
        stopped.settings,
        stopped.results,
        progress=lambda d, t: parts.append(d),
        cancelled=lambda: len(parts) >= 4,
    )
    data = json.loads(json.dumps(stopped.to_dict()))
    assert data["settings"][1]["report"]["games"] == 10
    texts = []
    for name, report in (("stopped", data), ("whole", None)):
        if report is None:
            assert run_sweep(stopped.settings, stopped.results)
            report = json.loads(json.dumps(stopped.to_dict()))
        path = tmp_path / f"{name}.svg"
        with matplotlib.rc_context({"svg.fonttype": "none"}):  # text kept as text
            plot_sweep(report, path)
        texts.append(path.read_text())
    assert "stopped early: 1 setting of 2 played fewer games" in texts[0]
    assert "stopped early" not in texts[1]
    assert texts[0].count(">*<") >= 1 and ">*<" not in texts[1]
