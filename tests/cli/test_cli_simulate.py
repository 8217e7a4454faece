"""``trackside simulate`` through engine.cli.main: reports, JSON, progress, errors."""

import io
import json
import re
import sys

import pytest

from trackside.cli.main import main
from trackside.engine.resources import tracks_dir

HARBOUR = str(tracks_dir() / "harbour-loop.yaml")


def run(capsys, *argv):
    code = main(["simulate", *argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def test_json_report_has_every_statistic(capsys):
    code, out, err = run(
        capsys, "--track", HARBOUR, "--players", "4", "--games", "12", "--seed", "3", "--json"
    )
    assert code == 0
    data = json.loads(out)
    assert data["games"] == 12 and data["seconds"] > 0
    assert len(data["seats"]) == 4 and all(s["bot"] == "greedy" for s in data["seats"])
    assert abs(sum(s["wins"] for s in data["seats"]) - 12) < 1e-6  # shared wins split
    assert sum(s["wins"] for s in data["grid_slots"]) <= 12
    assert [s["slot"] for s in data["grid_slots"]] == [1, 2, 3, 4, 5, 6]
    assert 20 < data["mean_cards_played"] <= 42
    assert data["stalled_per_race"] >= 0
    lines = data["betting_lines"]
    assert [b["line"] for b in lines] == [1, 2, 3]
    crossed = [b["mean_card"] for b in lines if b["mean_card"] is not None]
    assert crossed == sorted(crossed)  # R-BET-1: lines are crossed in order
    assert all(set(b) == {"space", "count"} for b in data["blocked_spaces"])
    # Not a terminal: one final line on stderr, no progress bar.
    assert err.startswith("simulated 12 games in") and "\r" not in err


# Each figure that the text gives with its 95% interval, by where it sits in --json.
INTERVAL_KEYS = {
    "seats": ("win_rate", "mean_winnings"),
    "grid_slots": ("win_rate",),
    "betting_lines": ("mean_card",),
    "": ("mean_cards_played", "stalled_per_race"),
}


def figures_with_intervals(data: dict) -> list[tuple[str, float, list[float]]]:
    """Every figure of ``--json`` that has an interval: its name, value and [low, high]."""
    found = []
    for place, keys in INTERVAL_KEYS.items():
        for item in data[place] if place else [data]:
            for key in keys:
                assert key in item, key  # the figure itself stays as it was
                if item[key] is not None:
                    found.append((f"{place} {key}", item[key], item[f"{key}_interval"]))
    return found


@pytest.mark.parametrize(
    "argv",
    [
        ["--track", HARBOUR, "--players", "4", "--games", "12", "--seed", "3"],
        ["--variant", "world-tour", "--players", "3", "--games", "3"],
    ],
    ids=["one circuit", "a world tour"],
)
def test_json_gives_each_figure_its_interval_as_the_text_does(capsys, argv):
    code, out, err = run(capsys, *argv, "--json")
    assert code == 0, err
    data = json.loads(out)
    found = figures_with_intervals(data)
    # every seat (wins, winnings), every slot, mean cards, stalls and each line crossed
    crossed = sum(line["crossed_in"] > 0 for line in data["betting_lines"])
    assert len(found) == 2 * data["players"] + 6 + 2 + crossed
    for name, value, (low, high) in found:
        assert low <= value <= high, name
        assert low < high or value in (0, 1), name  # a range, not a point, over games
    assert all(
        line["mean_card_interval"] is None
        for line in data["betting_lines"]
        if line["mean_card"] is None
    )
    if "balance" in data:  # one circuit: the balance figure, as the text ends with it
        low, high = data["balance_interval"]
        assert low <= data["balance"] <= high and low < high


def test_the_same_seed_gives_the_same_statistics(capsys):
    first = json.loads(run(capsys, "--track", HARBOUR, "--games", "5", "--json")[1])
    again = json.loads(run(capsys, "--track", HARBOUR, "--games", "5", "--json")[1])
    for data in (first, again):
        data.pop("seconds"), data.pop("games_per_second")
    assert first == again


def test_text_report_is_readable(capsys):
    code, out, _ = run(
        capsys, "--track", HARBOUR, "--players", "3", "--games", "6", "--bots", "greedy,random"
    )
    assert code == 0
    for words in (
        "6 games of Standard on Harbour Loop",
        "Player 1 (greedy)",
        "Player 2 (random)",
        "Player 3 (greedy)",
        "by start-grid slot",
        "Mean cards played per race",
        "Stalled cars per race",
        "line 1: card",
        "end a move blocked",
    ):
        assert words in out, words
    blocked = out.split("end a move blocked:\n")[1].split("\n\n")[0].splitlines()
    assert blocked and all(
        re.fullmatch(r"  [a-z]\d+: \d+ times?, \d+\.\d\d per race", line) for line in blocked
    ), blocked


def test_a_series_variant_uses_its_own_tracks(capsys):
    code, out, _ = run(
        capsys, "--variant", "world-tour", "--players", "3", "--games", "2", "--json"
    )
    data = json.loads(out)
    assert code == 0 and data["games"] == 2 and data["races"] == 4


def test_progress_bar_when_stderr_is_a_terminal(capsys, monkeypatch):
    class Tty(io.StringIO):
        def isatty(self):
            return True

    fake = Tty()
    monkeypatch.setattr(sys, "stderr", fake)
    assert main(["simulate", "--track", HARBOUR, "--games", "3"]) == 0
    text = fake.getvalue()
    assert "\r[" in text and "3/3 games" in text and "simulated 3 games" in text


@pytest.mark.parametrize(
    "argv, words",
    [
        (["--games", "0"], "cannot play 0 games"),
        (["--games", "2", "--bots", "greedy,clever"], "unknown bot kind"),
        (["--games", "2", "--bots", ",greedy"], "unknown bot kind ''"),
        (["--games", "2", "--bots", "strong:0"], "bad bot budget 'strong:0'"),
        (["--games", "2", "--bots", "greedy:5"], "only strong takes one"),
        (["--games", "2", "--players", "2"], "3 to 6 players"),
        (["--games", "2", "--players", "3", "--bots", "greedy,random,greedy,random"], "4 bots"),
    ],
)
def test_bad_arguments_are_one_line_with_code_2(capsys, argv, words):
    code, _, err = run(capsys, "--track", HARBOUR, *argv)
    assert code == 2 and words in err and err.count("\n") == 1


def test_a_strong_bot_with_its_budget_plays(capsys):
    """``strong:N`` is a bot kind for ``--bots``; the seats report it as given."""
    bots = ["--bots", "strong:1,greedy"]
    code, out, _ = run(capsys, "--track", HARBOUR, "--games", "1", *bots, "--json")
    assert code == 0
    assert [s["bot"] for s in json.loads(out)["seats"]] == ["strong:1", "greedy"] * 2


def test_no_track_for_a_single_race_variant(capsys):
    code, _, err = run(capsys, "--games", "1")
    assert code == 2 and "--track" in err


def test_a_variant_file_with_several_problems_gets_a_line_for_each(capsys, tmp_path):
    """The CLI contract: one clear line per problem, each at its own place in the file
    (a designer fixing the first of four saw "and 3 more problems" and nothing else)."""
    bad = tmp_path / "bad.yaml"
    bad.write_text(
        "format: trackside-variant/1\nname: Bad\nextends: standard\n"
        "payouts:\n  race: [10, x, 6]\n  bets: 5\nhand:\n  size: -3\n"
    )
    code, out, err = run(capsys, "--track", HARBOUR, "--variant", str(bad), "--games", "2")
    assert code == 1 and out == ""
    lines = err.splitlines()
    assert len(lines) == 4
    assert all(line.startswith(f"trackside: {bad}:") for line in lines)
    assert {int(line.split(":")[2]) for line in lines} == {5, 6, 8}  # each its own line
    assert "(and 3 more problems)" in lines[0]
    code, out, _ = run(capsys, "--track", HARBOUR, "--variant", str(bad), "--games", "2", "--json")
    error = json.loads(out)["error"]
    assert code == 1 and len(error["more"]) == 3
    assert all(m["file"] == str(bad) and m["line"] in (5, 6, 8) for m in error["more"])


def test_text_report_gives_every_figure_its_interval(capsys):
    """Wins by seat and by grid slot, winnings, cards, stalls, betting lines and the
    balance each carry their 95% interval in brackets, in the lab's forms."""
    from trackside.engine.balance.wording import BRACKETS, percent_range
    from trackside.engine.intervals import wilson

    argv = ["--track", HARBOUR, "--players", "4", "--games", "40", "--bots", "greedy"]
    data = json.loads(run(capsys, *argv, "--json")[1])
    code, out, _ = run(capsys, *argv)
    assert code == 0 and BRACKETS in out
    first = data["seats"][0]
    share = percent_range(first["win_rate"], *wilson(first["wins"], 40), digits=1)
    assert f"Player 1 (greedy): {first['wins']:g} wins, {share}, mean winnings $" in out
    for slot in data["grid_slots"]:
        share = percent_range(slot["win_rate"], *wilson(slot["wins"], 40), digits=1)
        assert f"slot {slot['slot']}: {slot['wins']:>5} {share}" in out
    number, interval = r"\d+\.\d+", r"\(\d+\.\d+\u2013\d+\.\d+\)"
    for label in ("mean winnings \\$", "Mean cards played per race: ", "Stalled cars per race: "):
        assert re.search(label + number + "M? " + interval, out), label
    assert re.search(f"line 1: card {number} {interval}, crossed in", out)
    assert re.search(f"Balance {number} {interval} with greedy bots", out)
