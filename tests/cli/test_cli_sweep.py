"""``trackside sweep``: a grid of variant values and circuits, its table, report and plot;
every setting checked before any game; resumed where it stopped, also after Ctrl-C."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time

import pytest
from repo_paths import FIXTURES

from trackside.cli.main import main

HARBOUR = ["--track", "harbour-loop"]


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def without_time(data: dict) -> dict:
    """A sweep report without the seconds it took (wherever the games ran)."""
    data = json.loads(json.dumps(data))
    data.pop("seconds")
    for setting in data["settings"]:
        if setting["report"]:
            setting["report"].pop("seconds")
    return data


def test_a_sweep_prints_a_row_per_setting_and_writes_its_report_and_plot(capsys, tmp_path):
    report, plot = tmp_path / "sweep.json", tmp_path / "sweep.png"
    code, out, err = run(
        capsys,
        "sweep",
        "--set",
        "payouts.race.0=10,14",
        "--track",
        "harbour-loop",
        "--track",
        "quarry-hairpin",
        "--games",
        "6",
        "--report",
        str(report),
        "--plot",
        str(plot),
    )
    assert code == 0, err
    lines = out.splitlines()
    head = next(line for line in lines if line.startswith("payouts.race.0"))
    for column in ("track", "games", "balance", "first player wins", "stalled cars a race"):
        assert column in head
    rows = lines[lines.index(head) + 1 :]
    assert [row.split()[:3] for row in rows] == [
        ["10", "harbour-loop", "6"],
        ["14", "harbour-loop", "6"],
        ["10", "quarry-hairpin", "6"],
        ["14", "quarry-hairpin", "6"],
    ]
    # The powers' and the bets' columns hold the rule figures of every setting's report.
    for column in ("tricky holder wins", "winner's money from bets"):
        at = head.index(column)
        assert all(re.match(r"\d+\.\d%", row[at:]) for row in rows), column
    data = json.loads(report.read_text())
    assert data["format"] == "trackside-sweep/1" and data["complete"] is True
    assert data["sweep"]["keys"] == [{"key": "payouts.race.0", "values": [10, 14]}]
    assert [s["values"] for s in data["settings"]] == [{"payouts.race.0": v} for v in (10, 14)] * 2
    first = data["settings"][0]
    assert first["games"] == 6 and first["played"] == [[0, 6]]
    assert first["report"]["format"] == "trackside-balance/2"
    assert first["report"]["variant"] == "Standard (payouts.race.0=10)"
    assert plot.read_bytes().startswith(b"\x89PNG")
    assert "played 24 games" in err


CELL = re.compile(r"(\d+\.\d+)(%?) \((\d+\.\d+)\u2013(\d+\.\d+)\)")


def test_every_figure_of_the_table_shows_its_95_percent_interval(capsys):
    """Each cell of a figure is "value (low-high)" as simulate's text writes it, shares
    in per cent ("35.0% (22.1-50.5)"), the interval holding the value: the balance too."""
    code, out, err = run(capsys, "sweep", "--set", "payouts.race.0=10,14", *HARBOUR, "--games", "8")
    assert code == 0, err
    lines = out.splitlines()
    head = next(line for line in lines if line.startswith("payouts.race.0"))
    rows = lines[lines.index(head) + 1 :]
    names = re.split(r"\s{2,}", head)
    assert names[:3] == ["payouts.race.0", "games", "balance"]
    starts = [head.index(name) for name in names] + [None]
    shares = {"first player wins", "winner's money from bets"}
    shares |= {name for name in names if name.endswith(" holder wins")}
    assert len(shares) == 2 + 6  # the standard variant's six powers
    for row in rows:
        for k, name in enumerate(names[2:], 2):
            cell = row[starts[k] : starts[k + 1]].strip()
            found = CELL.fullmatch(cell)
            assert found, (name, cell)
            value, per_cent, low, high = found.groups()
            assert (per_cent == "%") == (name in shares), (name, cell)
            assert float(low) <= float(value) <= float(high), (name, cell)


@pytest.mark.parametrize(
    "setting, words",
    [
        ("hand.size=0..3", "--set: hand.size=0: hand.size takes a whole number from 1 to 21"),
        ("hand.mode=dealt,shared", "hand.mode takes one of dealt, common, private, not shared"),
        ("hand.sise=5", "hand.sise is no key of hand (keys: hand.mode, hand.size"),
        ("payouts.race.9=1", "give an index from 0 to 5"),
        ("hand.size", "no values"),
        ("finish=distance", "finish=distance on "),
        # The table stays at 4 players: the setting is at fault, not --players.
        ("players.min=5,6", "--set: variant 'Standard (players.min=5)' is for 5 to 6 players"),
    ],
)
def test_a_bad_set_is_refused_before_any_game(capsys, setting, words):
    track = str(FIXTURES / "valid-straight.yaml")  # open: no long-distance race there
    code, out, err = run(capsys, "sweep", "--set", setting, "--track", track, "--games", "3")
    assert code == 2 and words in err, err
    assert out == "" and "played" not in err and err.count("\n") == 1


def test_a_plot_of_three_swept_keys_is_refused_before_any_game(capsys, tmp_path):
    code, _out, err = run(
        capsys,
        "sweep",
        *("--set", "payouts.race.0=10,12", "--set", "payouts.race.1=8,9"),
        *("--set", "bonuses.aggressive=0,1", *HARBOUR, "--games", "2"),
        "--plot",
        str(tmp_path / "p.svg"),
    )
    assert code == 2 and "a plot shows one or two swept keys; this sweep has 3" in err
    assert "played" not in err and not (tmp_path / "p.svg").exists()


def test_the_same_command_again_plays_nothing_and_a_changed_one_is_refused(capsys, tmp_path):
    report = tmp_path / "sweep.json"
    argv = ["sweep", "--set", "bonuses.aggressive=0,2", *HARBOUR, "--games", "4"]
    assert run(capsys, *argv, "--report", str(report))[0] == 0
    before = report.read_bytes()
    code, out, err = run(capsys, *argv, "--report", str(report))
    assert code == 0 and "2 of 2 settings already played; every setting is there" in err
    assert "played" not in err.replace("already played", "") and "bonuses.aggressive" in out
    assert json.loads(report.read_bytes()) == json.loads(before)

    code, _out, err = run(capsys, *argv[:-1], "5", "--report", str(report))
    assert code == 2 and "holds another sweep (games 4 there, 5 here)" in err
    assert "--fresh" in err and report.read_bytes() == before
    code, _out, err = run(capsys, *argv[:-1], "5", "--report", str(report), "--fresh")
    assert code == 0 and json.loads(report.read_text())["sweep"]["games"] == 5


def test_a_file_that_is_no_sweep_report_is_not_replaced_without_fresh(capsys, tmp_path):
    other = tmp_path / "results.json"
    other.write_text('{"format": "trackside-balance/1"}\n')
    code, _out, err = run(capsys, "sweep", *HARBOUR, "--games", "2", "--report", str(other))
    assert code == 2 and "holds no trackside-sweep/1 report (give --fresh" in err
    assert other.read_text() == '{"format": "trackside-balance/1"}\n'


def test_workers_give_the_same_report(capsys, tmp_path):
    one, two = tmp_path / "one.json", tmp_path / "two.json"
    argv = ["sweep", "--set", "payouts.race.0=10,12", *HARBOUR, "--games", "12", "--seed", "4"]
    assert run(capsys, *argv, "--report", str(one))[0] == 0
    assert run(capsys, *argv, "--workers", "2", "--report", str(two))[0] == 0
    assert without_time(json.loads(one.read_text())) == without_time(json.loads(two.read_text()))


def test_json_prints_the_report(capsys):
    argv = ["sweep", "--set", "betting=true,false", *HARBOUR, "--games", "2", "--json"]
    code, out, _err = run(capsys, *argv)
    data = json.loads(out)
    assert code == 0 and data["format"] == "trackside-sweep/1"
    assert [s["values"]["betting"] for s in data["settings"]] == [True, False]


def test_where_the_games_run_is_checked_before_any_game(capsys):
    base = ["sweep", *HARBOUR, "--games", "2"]
    code, _out, err = run(capsys, *base, "--workers", "2", "--cluster", "tcp://127.0.0.1:8786")
    assert code == 2 and "give one of --workers and --cluster" in err
    code, _out, err = run(capsys, *base, "--cluster", "nowhere")
    assert code == 2 and "'nowhere' is no scheduler address" in err
    code, _out, err = run(capsys, *base, "--workers", "0")
    assert code == 2 and "--workers" in err


def test_hand_size_under_dealt_hands_is_said_to_change_nothing(capsys):
    code, _out, err = run(capsys, "sweep", "--set", "hand.size=5,6", *HARBOUR, "--games", "1")
    assert code == 0 and "note: hand.size changes nothing while hand.mode is dealt" in err


@pytest.mark.slow
def test_ctrl_c_stops_the_workers_keeps_what_finished_and_the_same_command_continues(tmp_path):
    """Interrupted once a setting is saved: exit 130, the finished settings (and the
    finished parts of the others) in the report, the worker processes gone; run
    again, the sweep ends with exactly the report of a sweep never stopped."""
    report, whole = tmp_path / "sweep.json", tmp_path / "whole.json"
    argv = [
        *(sys.executable, "-m", "trackside", "sweep", "--set", "payouts.race.0=9..11"),
        *(*HARBOUR, "--games", "150", "--workers", "2"),
    ]
    process = subprocess.Popen(
        [*argv, "--report", str(report)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    deadline = time.monotonic() + 120
    while not report.exists() and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert report.exists(), process.communicate()
    workers = _children(process.pid)
    assert len(workers) >= 2
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    assert "Traceback" not in err and "stopped after" in err and "the same command continues" in err
    saved = json.loads(report.read_text())
    assert saved["complete"] is False
    assert 1 <= sum(s["games"] == 150 for s in saved["settings"]) < 3
    assert out.count("\n") > 3  # the table of what finished
    assert _gone(workers)

    again = subprocess.run([*argv, "--report", str(report)], capture_output=True, text=True)
    assert again.returncode == 0, again.stderr
    assert "already played; playing the rest" in again.stderr
    assert subprocess.run([*argv, "--report", str(whole)], capture_output=True).returncode == 0
    assert without_time(json.loads(report.read_text())) == without_time(
        json.loads(whole.read_text())
    )


def _gone(pids: list[str]) -> bool:
    """Whether every process of ``pids`` has ended (waiting a little for the system)."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        if not any(_running(pid) for pid in pids):
            return True
        time.sleep(0.05)
    return False


def _running(pid: str) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def _children(pid: int) -> list[str]:
    """The processes still running whose parent was ``pid``."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    fields = stat.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(entry)
    return found


def test_a_swept_deck_is_read_and_never_replaced(capsys, tmp_path, monkeypatch):
    from trackside.engine.resources import variants_dir

    monkeypatch.chdir(tmp_path)
    deck = tmp_path / "my-deck.yaml"
    deck.write_bytes((variants_dir() / "decks" / "standard.yaml").read_bytes())
    before = deck.read_bytes()
    argv = ["sweep", "--set", "deck=my-deck.yaml", *HARBOUR, "--games", "2"]
    code, _out, err = run(capsys, *argv, "--report", "my-deck.yaml")
    assert code == 2 and "--report names a deck of --set" in err and deck.read_bytes() == before
    code, out, err = run(capsys, *argv, "--report", "sweep.json")
    assert code == 0, err
    assert "my-deck.yaml" in out
    data = json.loads((tmp_path / "sweep.json").read_text())
    assert data["settings"][0]["report"]["games"] == 2


def test_the_progress_bar_says_the_time_left(monkeypatch):
    """Estimating until a few games have come in after the first, then the time left at
    the pace they come in: 250 games 10 s after the first 50 (20 a second), 750 left."""
    import io

    from trackside.cli import progress
    from trackside.engine.text import duration

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    class Clock:
        now = 0.0

        def __call__(self) -> float:
            return self.now

    screen = Terminal()
    monkeypatch.setattr(sys, "stderr", screen)
    clock = Clock()
    bar = progress.ProgressBar(1000, clock=clock)
    clock.now = 30.0  # the workers' start-up and the first task: 50 games in 30 s
    bar.update(50, note="1 of 4 settings")
    assert screen.getvalue().endswith(", 1 of 4 settings, estimating the time left\u2026\x1b[K")
    clock.now = 40.0
    bar.update(250, note="1 of 4 settings")
    shown = screen.getvalue().split("\r")[-1]
    assert shown.startswith("[#######.......................] 250/1000 games, 1 of 4 settings")
    assert shown.endswith(", 38 s left\x1b[K")  # not 2 min 00 s, counted from the start
    assert [duration(s) for s in (42, 190, 3900)] == ["42 s", "3 min 10 s", "1 h 05 min"]
