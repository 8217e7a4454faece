"""``trackside simulate --check-deeper``: the same games with stronger bots, every
figure's change, the verdict in one line, both reports written; what it cannot do is
refused before any game."""

from __future__ import annotations

import json

import pytest
from tracks_for_tests import straight_track

from trackside.cli.main import main
from trackside.engine.track.model import save_track

FEW = ["--players", "3", "--bots", "greedy,random,random"]  # one seat searches: quick


def run(capsys, *argv):
    code = main(["simulate", *argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


@pytest.fixture(scope="module")
def straight(tmp_path_factory):
    path = tmp_path_factory.mktemp("deeper") / "straight.yaml"
    save_track(straight_track(), path)
    return str(path)


def test_check_deeper_prints_both_sets_of_bots_and_the_verdict(capsys, tmp_path, straight):
    path = tmp_path / "check.json"
    code, out, err = run(
        capsys, "--track", straight, *FEW, "--games", "30", "--check-deeper", "--report", str(path)
    )
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("Standard on Test Straight: 30 games with 3 players, played by")
    assert "and again by stronger bots (strong, random), paired" in lines[0]
    header = lines[2].split()
    assert header[0] == "figure" and header[-1] == "change"
    assert "greedy, random" in lines[2] and "strong, random" in lines[2]
    assert any(line.startswith("grid slot 1 win share") for line in lines)
    assert "greedy, random bots:" in lines and "strong, random bots:" in lines
    verdict = lines[-1]
    assert verdict.startswith("The verdict ") and "with stronger bots (strong, random)" in verdict
    assert err.startswith("simulated 60 games in")
    data = json.loads(path.read_text())
    assert data["format"] == "trackside-comparison/1" and data["check"] == "stronger bots"
    assert data["games"] == 30 and data["bots"] == ["greedy", "random", "random"]
    assert data["stronger_bots"] == data["b"]["bots"] == ["strong", "random", "random"]
    assert data["verdict"]["text"] == verdict and data["verdict"]["games"] == 30
    assert data["verdict"]["outcome"] in ("holds", "changes", "unclear")
    assert [f["figure"] for f in data["verdict"]["figures"]] == [
        "pole",
        "slot 2",
        "slot 3",
        "slot 4",
        "slot 5",
        "slot 6",
        "first player",
        "stalled cars per race",
    ]


def test_check_deeper_json_says_when_too_few_games_tell_nothing(capsys, straight):
    code, out, _err = run(
        capsys, "--track", straight, *FEW, "--games", "10", "--check-deeper", "--json"
    )
    assert code == 0
    data = json.loads(out)
    assert data["verdict"]["outcome"] == "too few games" and not data["verdict"]["holds"]
    assert data["verdict"]["text"].startswith("Only 10 games played with stronger bots")


@pytest.mark.parametrize(
    "argv, words",
    [
        (["--games", "4", "--against", "beginner"], "--against cannot be given together"),
        (["--until-clear"], "stops a single run when its answer is clear"),
        (["--games", "4", "--plot", "p.png"], "a plot draws the grid slots of a single run"),
        (["--games", "4", "--bots", "random"], "random bots do not search"),
        (["--games", "4", "--bots", "strong:10000"], "already search the most deals allowed"),
        (["--games", "4", "--track", "quarry-hairpin"], "checks one circuit"),
        (["--games", "4", "--variant", "world-tour"], "checks one circuit"),
    ],
)
def test_check_deeper_refuses_what_it_cannot_do_before_any_game(capsys, argv, words):
    code, out, err = run(capsys, "--track", "harbour-loop", "--check-deeper", *argv)
    assert code == 2 and words in err and err.count("\n") == 1 and out == ""


@pytest.mark.parametrize(
    "argv, place, hint",
    [
        (["--games", "4", "--against", "beginner"], "--against", "once with --against"),
        (["--until-clear"], "--until-clear", "give --games G instead of --until-clear"),
        (["--games", "4", "--plot", "p.png"], "--plot", "a run without --check-deeper"),
    ],
)
def test_check_deeper_names_the_option_refused_and_a_fix_that_fits_it(capsys, argv, place, hint):
    """Each option refused is named first, and the fix is about that option: a plot is
    drawn by a run without the check, not fixed by giving a number of games."""
    code, _out, err = run(capsys, "--track", "harbour-loop", "--check-deeper", *argv)
    assert code == 2 and err.startswith(f"trackside: {place}: ") and err.endswith(f"{hint})\n")


def test_a_few_games_give_each_share_change_a_range_a_share_can_have(capsys):
    """Twelve games on Quarry Hairpin: a power's holder won none of its games with greedy
    bots and half with strong ones, where a normal interval of so few games read
    "+50.0 points (-34.9 to +134.9)"; and every game alike (a line reached in all)
    read "+0.0 points (+0.0 to +0.0)", no change for certain. A share's change stays
    within what a share can do, and a change with no spread has no brackets."""
    import re

    code, out, err = run(
        capsys, "--track", "quarry-hairpin", *FEW, "--games", "12", "--check-deeper"
    )
    assert code == 0, err
    table = out.split("\n\n")[1].splitlines()[1:]
    shares = [row for row in table if " points" in row]
    assert shares
    for row in shares:
        before = float(re.search(r"\s(\d+\.\d)%\s", row).group(1))
        ends = re.search(r"\(([+-]\d+\.\d) to ([+-]\d+\.\d)\)$", row)
        if ends:
            low, high = float(ends.group(1)), float(ends.group(2))
            assert -before - 0.05 <= low <= high <= 100 - before + 0.05, row
            assert low != high, row
    assert "(+0.0 to +0.0)" not in out and "(+0.00 to +0.00)" not in out
