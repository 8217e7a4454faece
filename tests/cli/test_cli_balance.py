"""``trackside simulate --report / --plot / --workers`` and ``render --heatmap``: the balance
lab from the command line."""

from __future__ import annotations

import contextlib
import io
import json
import re

import pytest
from tracks_for_tests import narrow_loop, stadium_track

from trackside.cli.main import main
from trackside.engine.balance.edits import Proposal, make_edit
from trackside.engine.game.variants import POWERS
from trackside.engine.records import open_track
from trackside.engine.track.model import save_track
from trackside.engine.track.validate import validate_track


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def report_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("balance") / "quarry.json"
    assert (
        main(["simulate", "--track", "quarry-hairpin", "--games", "30", "--report", str(path)]) == 0
    )
    return path


def test_report_holds_the_balance_figures(report_file):
    data = json.loads(report_file.read_text())
    assert data["format"] == "trackside-balance/2" and data["games"] == 30
    assert data["track"] == "Quarry Hairpin"
    assert len(data["grid_slots"]) == 6 and 0 <= data["balance"] <= 1
    assert data["heat"] and data["totals"]["slot_wins"]


def test_text_and_json_output_add_the_balance_and_hints(capsys):
    code, out, _err = run(capsys, "simulate", "--track", "quarry-hairpin", "--games", "30")
    assert code == 0 and "Balance " in out and "stall" in out
    code, out, _err = run(
        capsys, "simulate", "--track", "quarry-hairpin", "--games", "30", "--json"
    )
    data = json.loads(out)
    assert code == 0 and "balance" in data and data["hints"]
    assert data["grid_slots"] and data["seats"]  # the statistics as before
    powers = data["rules"]["powers"]  # the power table: each share with its interval
    assert [row["power"] for row in powers] == list(POWERS)
    held = [row for row in powers if row["games"]]
    assert held and all(
        row["win_share"]["low"] <= row["win_share"]["value"] <= row["win_share"]["high"]
        and isinstance(row["beyond_chance"], bool)
        for row in held
    )


def test_workers_give_the_same_totals(capsys, tmp_path):
    one, two = tmp_path / "one.json", tmp_path / "two.json"
    base = ["simulate", "--track", "harbour-loop", "--games", "20", "--seed", "5"]
    assert run(capsys, *base, "--report", str(one))[0] == 0
    assert run(capsys, *base, "--workers", "2", "--report", str(two))[0] == 0
    a, b = json.loads(one.read_text()), json.loads(two.read_text())
    a.pop("seconds"), b.pop("seconds")
    assert a == b


@pytest.mark.parametrize("suffix, magic", [(".png", b"\x89PNG"), (".svg", b"<?xml")])
def test_plot_draws_the_slot_shares(capsys, tmp_path, suffix, magic):
    plot = tmp_path / f"slots{suffix}"
    code, _out, err = run(
        capsys, "simulate", "--track", "harbour-loop", "--games", "12", "--plot", str(plot)
    )
    assert code == 0, err
    assert plot.read_bytes().startswith(magic)


def test_bad_outputs_are_refused_before_any_game(capsys, tmp_path):
    code, _out, err = run(
        capsys, "simulate", "--track", "harbour-loop", "--games", "5", "--plot", "x.gif"
    )
    assert code == 2 and ".png or .svg" in err
    code, _out, err = run(
        capsys, "simulate", "--track", "harbour-loop", "--games", "5", "--workers", "0"
    )
    assert code == 2 and "--workers" in err
    missing = tmp_path / "no" / "such" / "r.json"
    code, _out, err = run(
        capsys, "simulate", "--track", "harbour-loop", "--games", "5", "--report", str(missing)
    )
    assert code == 2 and "does not exist" in err


def test_a_series_variant_is_not_a_single_circuit(capsys, tmp_path):
    code, _out, err = run(
        capsys,
        "simulate",
        "--variant",
        "world-tour",
        "--games",
        "2",
        "--report",
        str(tmp_path / "r.json"),
    )
    assert code == 2 and "one circuit" in err


def test_render_heatmap_tints_the_board(capsys, tmp_path, report_file):
    plain, heat = tmp_path / "plain.png", tmp_path / "heat.png"
    assert run(capsys, "render", "quarry-hairpin", "-o", str(plain))[0] == 0
    code, _out, err = run(
        capsys,
        "render",
        "quarry-hairpin",
        "-o",
        str(heat),
        "--heatmap",
        str(report_file),
        "--heat",
        "blocked",
    )
    assert code == 0 and err == ""
    assert heat.read_bytes() != plain.read_bytes()


def test_render_heatmap_names_a_wrong_report(capsys, tmp_path, report_file):
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "something else"}')
    code, _out, err = run(
        capsys, "render", "harbour-loop", "-o", str(tmp_path / "x.png"), "--heatmap", str(bad)
    )
    assert code == 2 and "not a balance report" in err and str(bad) in err
    code, _out, err = run(
        capsys,
        "render",
        "harbour-loop",
        "-o",
        str(tmp_path / "y.png"),
        "--heatmap",
        str(report_file),
    )
    assert code == 0 and "the report is for 'Quarry Hairpin'" in err


def test_until_clear_stops_when_the_question_is_answered(capsys, tmp_path):
    path = tmp_path / "clear.json"
    code, out, err = run(
        capsys,
        "simulate",
        "--track",
        "harbour-loop",
        "--until-clear",
        "--max-games",
        "180",
        "--seed",
        "200",
        "--report",
        str(path),
    )
    assert code == 0
    assert "Stopped at 180 games: the cap of 180 games, still waiting for slot " in out
    assert err.startswith("simulated 180 games in")
    data = json.loads(path.read_text())
    assert data["games"] == 180 and data["answer"].startswith("the cap of 180 games")


@pytest.mark.parametrize(
    "argv, words",
    [
        ([], "--games: the number of games is not given (give --games G for a fixed"),
        (["--games", "10", "--until-clear"], "--games and --until-clear cannot be given together"),
        (["--until-clear", "--max-games", "0"], "cannot play 0 games"),
    ],
)
def test_games_or_until_clear(capsys, argv, words):
    code, _out, err = run(capsys, "simulate", "--track", "harbour-loop", *argv)
    assert code == 2 and words in err and err.count("\n") == 1


def test_games_with_until_clear_says_what_each_does(capsys):
    code, _out, err = run(capsys, "simulate", "--games", "20", "--until-clear")
    assert code == 2 and err.startswith("trackside: --games and --until-clear cannot be given")
    assert "give --games G for a fixed number of games, or --until-clear to stop" in err
    assert "--max-games N" in err


@pytest.fixture(scope="module")
def suggested(tmp_path_factory):
    """``trackside suggest --report`` on Quarry Hairpin: its text and its report."""
    path = tmp_path_factory.mktemp("suggest") / "fixes.json"
    argv = ["suggest", "--track", "quarry-hairpin", "--games", "20", "--report", str(path)]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(argv) == 0
    return out.getvalue(), json.loads(path.read_text())


def test_suggest_ranks_fixes_and_writes_them(suggested):
    out, data = suggested
    assert "Quarry Hairpin: 20 games each with greedy bots" in out
    assert "1. " in out and "Problem score " in out and "Stalled cars " in out
    assert data["format"] == "trackside-fixes/2" and data["fixes"]
    assert data["fixes"][0]["fix"] in out


def test_suggest_report_says_each_figure_before_and_with_the_fix(suggested):
    """Every pair of the report is the circuit as it is, then with the fix, its change
    after minus before: the problem score and its parts too, as the text says them
    (they were written the other way round, before and after swapped)."""
    out, data = suggested
    fixes = data["fixes"]
    base_stalls = data["base"]["stalled_per_race"]["mean"]
    for fix in fixes:
        pairs = [fix[name] for name in ("problems", "balance", "stalled", "spread")]
        for pair in [*pairs, *fix["parts"].values()]:
            assert pair["change"] == pytest.approx(pair["after"] - pair["before"], abs=1e-3)
        assert fix["stalled"]["before"] == pytest.approx(base_stalls, abs=1e-3)
        score = fix["problems"]
        assert f"Problem score {score['before']:.2f} \u2192 {score['after']:.2f}" in out
        parts = fix["parts"].values()
        assert sum(p["before"] for p in parts) == pytest.approx(score["before"], abs=1e-3)
        assert sum(p["after"] for p in parts) == pytest.approx(score["after"], abs=1e-3)
    for name in ("problems", "stalled"):  # the circuit as it is: the same for every fix
        assert len({fix[name]["before"] for fix in fixes}) == 1
    for part in fixes[0]["parts"]:
        assert len({fix["parts"][part]["before"] for fix in fixes if part in fix["parts"]}) == 1


def test_suggest_says_which_fix_adds_a_validation_warning(capsys, tmp_path):
    """Harbour Loop with betting line 3 three spaces later: the finish 4 spaces earlier,
    the lines left where they are, leaves line 3 two rows before it, which the validator
    warns of. That fix's row and its report say so; the headline calls no such fix one
    that makes nothing worse."""
    track = open_track("harbour-loop")
    moved = make_edit(track, Proposal("line", -3, line=2))
    assert moved is not None and not validate_track(moved.track).issues
    path = tmp_path / "late-bet.yaml"
    save_track(moved.track, path)
    report = tmp_path / "fixes.json"
    argv = ["--games", "20", "--bots", "greedy", "--report", str(report)]
    code, out, _err = run(capsys, "suggest", "--track", str(path), *argv)
    assert code == 0
    fixes = json.loads(report.read_text())["fixes"]
    warned = [f for f in fixes if f["warnings"]]
    assert warned and all(f["fix"].startswith("Finish line") for f in warned)
    said = "betting line 3 is 2 rows before the finish"
    assert any(w.startswith(said) for f in warned for w in f["warnings"])
    for fix in warned:
        assert any(w.startswith("adds a warning: ") for w in fix["worse"])
        row = out[out.index(f". {fix['fix']}\n") :].split("\n")[1:3]
        assert any("But worse: adds a warning: Betting line 3" in line for line in row), row
        headline = [line for line in out.splitlines() if "makes nothing worse" in line]
        assert not any(f'"{fix["fix"]}"' in line for line in headline)
    clean = [f["fix"] for f in fixes if not f["warnings"]]
    assert clean  # the others add none


def test_suggest_takes_one_circuit(capsys):
    code, _out, err = run(capsys, "suggest", "--track", "quarry-hairpin", "--track", "harbour-loop")
    assert code == 2 and "one circuit" in err


def test_suggest_tries_a_lane_where_cars_jam_on_a_circuit_that_keeps_its_layout(capsys, tmp_path):
    path = tmp_path / "narrow.yaml"
    save_track(narrow_loop(), path)
    code, out, _err = run(capsys, "suggest", "--track", str(path), "--games", "30", "--json")
    assert code == 0
    fixes = [f["fix"] for f in json.loads(out)["fixes"]]
    assert any(f.startswith("1 lane added to piece 4 of lane layout 1") for f in fixes)


def test_against_shows_every_figure_s_change_for_two_variants(capsys, tmp_path):
    """--variant V --against R: every figure of V with its change from R (V less R), R's
    column first; the change once read R less V under a heading naming V first."""
    path = tmp_path / "both.json"
    code, out, err = run(
        capsys,
        "simulate",
        "--track",
        "harbour-loop",
        "--variant",
        "standard",
        "--against",
        "long-distance",
        "--games",
        "20",
        "--report",
        str(path),
    )
    assert code == 0, err
    assert out.startswith("Standard against Long distance on Harbour Loop: 20 games each")
    assert "paired" in out.splitlines()[0]
    assert out.splitlines()[0].endswith("changes are from Long distance to Standard")
    assert out.splitlines()[2].split() == ["figure", "Long", "distance", "Standard", "change"]
    lines = {line.split("  ")[0]: line for line in out.splitlines()}
    assert "races with a stalled car" in lines and "aggressive holder wins" in lines
    assert "%" in lines["races with a stalled car"] and "$" in lines["bet 1 payout"]
    assert "≈ marks a change within noise" in out
    # Every change is the difference of the two figures as printed (a reader checks).
    # Money reads as it does everywhere ("$3.4M", a change "+$0.6M").
    figure = r"(-?)\$?([\d.]+)[%M]?"
    row = re.compile(rf"\s{{2,}}{figure}\s+{figure}\s+(?:≈ )?([+-])\$?([\d.]+)")
    checked = money = 0
    for line in out.splitlines()[3:]:
        found = row.search(line)
        if found:
            was, now, change = (
                float(a + b) for a, b in zip(*[iter(found.groups())] * 2, strict=True)
            )
            assert change == pytest.approx(now - was, abs=1e-9), line
            checked += 1
            money += "$" in line
    assert checked > 20 and money > 10
    money_change = r"[+-]\$\d+\.\dM \([+-]\$\d+\.\dM to [+-]\$\d+\.\dM\)"  # its interval too
    assert re.search(rf"bet 1 payout +\$\d+\.\dM +\$\d+\.\dM +(≈ )?{money_change}$", out, re.M)
    rows = len(comparison_rows(out))
    assert f"({rows} rows here: about {rows / 20:.0f})" in out  # each row judged on its own
    assert "Only Standard has these figures (not compared): winner decided by the last" in out
    assert err.startswith("simulated 40 games in")
    data = json.loads(path.read_text())
    assert data["format"] == "trackside-comparison/1" and data["games"] == 20
    assert data["a"]["format"] == data["b"]["format"] == "trackside-balance/2"
    assert data["a"]["variant"] == "Long distance" and data["b"]["variant"] == "Standard"
    assert data["only_in"] == {"b": ["winner decided by the last betting line"]}
    figures = {c["figure"]: c for c in data["changes"]}
    stalls = figures["races with a stalled car"]
    assert stalls["before"] == 0 and not stalls["noise"]  # no finish line, no stalls
    assert stalls["change"] == stalls["after"] > 0  # the standard game's stalls, added
    assert "decided_by_last_line" in data["b"]["rules"]
    assert "decided_by_last_line" not in data["a"]["rules"]


def test_against_a_track_file_compares_two_versions_of_a_circuit(capsys, tmp_path):
    """--track NEW --against OLD.yaml: the same games on both circuits, every figure's
    change from OLD to NEW in the table of two variants, where a track file once was
    refused as no variant. Both versions have one name, so their files name them; the
    finish moved earlier leaves the cars fewer spaces to run out of cards in."""
    old, new = tmp_path / "v1.yaml", tmp_path / "v2.yaml"
    save_track(stadium_track(), old)
    save_track(stadium_track(finish=30), new)
    argv = ["simulate", "--track", str(new), "--against", str(old), "--bots", "greedy"]
    code, out, err = run(capsys, *argv, "--games", "20")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("v2.yaml against v1.yaml with Standard: 20 games each")
    assert lines[0].endswith("changes are from v1.yaml to v2.yaml")
    assert lines[2].split() == ["figure", "v1.yaml", "v2.yaml", "change"]
    rows = {line.split("  ")[0]: line for line in comparison_rows(out)}
    for k in range(1, 7):
        assert re.search(r"  (≈ )?[+-]\d+\.\d points", rows[f"grid slot {k} win share"])
    assert "stalled cars per race" in rows and "races with a stalled car" in rows
    assert "≈ marks a change within noise" in out and "\nv1.yaml:\n" in out
    legend = " ".join(out.split())  # the balance is judged over its slots, not alone
    assert "Each row but the balance is judged on its own" in legend
    assert err.startswith("simulated 40 games in")
    code, out, _err = run(capsys, *argv, "--games", "20", "--json")
    data = json.loads(out)
    assert data["tracks"] == ["v1.yaml", "v2.yaml"] and data["games"] == 20
    figures = {c["figure"]: c for c in data["changes"]}
    stalled = figures["stalled cars per race"]
    assert stalled["after"] < stalled["before"] and stalled["change"] < 0
    assert figures["cards played per race"]["change"] < 0  # a shorter race
    assert figures["grid slot 1 win share"]["interval"] is not None


def test_against_neither_a_track_nor_a_variant_is_refused(capsys, tmp_path):
    record = tmp_path / "game.yaml"
    record.write_text("format: trackside-record/1\n")
    argv = ["simulate", "--track", "harbour-loop", "--games", "4", "--against", str(record)]
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "is a game record, not a variant or a track file" in err
    assert "give --against a variant (bundled or a file) or a track file" in err


def test_against_json_prints_what_the_report_holds(capsys):
    base = ["simulate", "--track", "harbour-loop", "--games", "6", "--against", "beginner"]
    code, out, _err = run(capsys, *base, "--json")
    assert code == 0
    data = json.loads(out)
    assert data["variants"] == ["Beginner", "Standard"]
    assert set(data["a"]["rules"]) == {"money_gap"}
    assert data["only_in"]["b"] == [
        "powers",
        "auction",
        "betting",
        "winner decided by the last betting line",
    ]


@pytest.mark.parametrize(
    "argv, words",
    [
        (["--against", "two-player", "--games", "4"], "'Two players' is for 2 to 2 players, not 4"),
        (["--against", "standard", "--until-clear"], "--against pairs the two variants game by"),
        (
            ["--against", "standard", "--games", "4", "--plot", "p.png"],
            "--plot: a plot draws the grid slots of a single run, and --against makes one for "
            "each of the two variants (draw the plot from a run without --against)",
        ),
        (["--against", "world-tour", "--games", "4"], "has a track list"),
        (["--against", "no-such-variant", "--games", "4"], "no bundled variant"),
    ],
)
def test_against_refuses_what_it_cannot_compare_before_any_game(capsys, argv, words):
    code, out, err = run(capsys, "simulate", "--track", "harbour-loop", *argv)
    assert code == 2 and words in err and err.count("\n") == 1 and out == ""


def test_against_refuses_a_report_over_the_other_variant(capsys, tmp_path):
    other = tmp_path / "mine.yaml"
    other.write_text("format: trackside-variant/1\nname: Mine\nextends: standard\n")
    code, _out, err = run(
        capsys,
        "simulate",
        "--track",
        "harbour-loop",
        "--games",
        "4",
        "--against",
        str(other),
        "--report",
        str(other),
    )
    assert code == 2 and "would replace it" in err


def test_a_hand_size_the_rules_never_use_is_said_before_any_game(capsys, tmp_path):
    """R-SET-3: with hands dealt out, hand.size changes nothing; a designer who sets it
    to try a smaller hand is told so, where the comparison alone showed every figure
    unchanged without a word."""
    small = tmp_path / "small.yaml"
    small.write_text(
        "format: trackside-variant/1\nname: Small hand\nextends: standard\nhand: {size: 4}\n"
    )
    argv = ["simulate", "--track", "harbour-loop", "--games", "4", "--bots", "greedy"]
    code, _out, err = run(capsys, *argv, "--variant", str(small), "--against", "standard")
    assert code == 0
    assert f"trackside: note: {small}: hand.size 4 changes nothing while hand.mode is dealt" in err
    code, _out, err = run(capsys, *argv)  # the standard game sets no hand size
    assert code == 0 and "note:" not in err
    common = tmp_path / "common.yaml"
    common.write_text(
        "format: trackside-variant/1\nname: Common\nextends: standard\n"
        "hand: {mode: common, size: 4}\n"
    )
    code, _out, err = run(capsys, *argv, "--variant", str(common))
    assert code == 0 and "note:" not in err


def comparison_rows(out: str) -> list[str]:
    """The rows of the comparison table (after its heading, up to the blank line)."""
    return out.split("\n\n")[1].splitlines()[1:]


def test_the_rules_hints_are_listed_apart_after_the_circuit_s(capsys):
    """Harbour Loop, 300 greedy games: some powers are worth more or less than the
    others. Those hints are about the variant, not the circuit: after the circuit's,
    under a heading of their own, and marked so in the JSON."""
    argv = ["simulate", "--track", "harbour-loop", "--games", "300", "--bots", "greedy"]
    code, out, _err = run(capsys, *argv)
    assert code == 0
    lines = out.splitlines()
    heading = lines.index("  About the rules, not the circuit:")
    assert any(" is worth " in line for line in lines[heading + 1 :])
    assert not any(" is worth " in line for line in lines[:heading])
    assert all(line.startswith("    - ") for line in lines[heading + 1 :] if line.strip())
    code, out, _err = run(capsys, *argv, "--json")
    about = [hint["about"] for hint in json.loads(out)["hints"]]
    assert about[0] == "circuit" and about[-1] == "rules"
    assert about == sorted(about)  # "circuit" before "rules"
