"""Hostile or odd input to the CLI: a clear one-line message naming the file,
the place and the fix, the exit code of cli/main.py's contract, never a hang
or a traceback."""

from __future__ import annotations

import json
import os
import re
import signal
import time
from pathlib import Path

import pytest
from repo_paths import FIXTURES

from trackside.cli.main import main
from trackside.engine.errors import UnreadableInput
from trackside.engine.schema import ViolationKind, check
from trackside.engine.track.model import read_track_document

STRAIGHT = FIXTURES / "valid-straight.yaml"
RECORD = FIXTURES / "records" / "auction-example.yaml"


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def deadline():
    """Fail instead of hanging for ever (a FIFO without a writer blocks open())."""

    def expired(_signum, _frame):
        raise TimeoutError("the command hung")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.alarm(30)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, previous)


def edited(tmp_path: Path, old: str, new: str, name: str = "t.yaml") -> str:
    text = STRAIGHT.read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / name
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return str(path)


# -- 1. a float where a whole number belongs ------------------------------------------


def test_a_float_lane_is_refused_by_validate_and_render(tmp_path, capsys):
    path = edited(tmp_path, "lane: 0\n", "lane: 0.0\n")
    code, out, _ = run(capsys, "validate", path)
    assert code == 1
    assert re.search(
        rf"{re.escape(path)}:\d+:\d+: error schema: space a1 \(spaces\[0\]\.lane\): "
        r"expected a whole number, found 0\.0",
        out,
    )
    code, _, err = run(capsys, "render", path, "-o", str(tmp_path / "t.png"))
    assert code == 1 and "expected a whole number, found 0.0" in err
    assert not (tmp_path / "t.png").exists()


def test_true_is_no_whole_number_either(tmp_path, capsys):
    code, out, _ = run(capsys, "validate", edited(tmp_path, "lane: 0\n", "lane: true\n"))
    assert code == 1 and "space a1 (spaces[0].lane): expected a whole number, found true" in out


@pytest.mark.parametrize(
    "schema, data, where",
    [
        ("variant", {"hand": {"size": 3.0}}, ("hand", "size")),
        ("variant", {"bonuses": {"aggressive": 1.0}}, ("bonuses", "aggressive")),
        ("variant", {"players": {"min": True}}, ("players", "min")),
    ],
)
def test_variants_refuse_floats_where_integers_belong(schema, data, where):
    variant = {"format": "trackside-variant/1", "name": "V", **data}
    problems = check(schema, variant)
    assert [problem.path for problem in problems] == [where]
    assert "expected a whole number" in problems[0].message
    assert problems[0].kind is ViolationKind.WRONG_TYPE


@pytest.mark.parametrize("key, value", [("card", 15.0), ("player", 0.0)])
def test_records_refuse_floats_where_integers_belong(tmp_path, capsys, key, value):
    text = RECORD.read_text(encoding="utf-8")
    old = "{type: bid, player: 0, card: 12}"
    new = old.replace(f"{key}: {12 if key == 'card' else 0}", f"{key}: {value}")
    path = tmp_path / "r.yaml"
    path.write_text(text.replace(old, new), encoding="utf-8")
    code, _, err = run(capsys, "replay", str(path))
    assert code == 1 and "expected a whole number" in err and "Traceback" not in err


# -- 2. moves of many spaces -------------------------------------------------------------


def test_too_many_paths_are_counted_and_refused_at_once(capsys):
    start = time.process_time()
    code, out, err = run(
        capsys, "moves", "harbour-loop", "--at", "red=a1", "--car", "red", "--spaces", "20"
    )
    assert time.process_time() - start < 10
    assert code == 2 and out == ""
    assert "--spaces" in err and "too many to list" in err and "give fewer spaces" in err


# -- 3. no regular file -------------------------------------------------------------------


@pytest.fixture
def fifo(tmp_path):
    path = tmp_path / "pipe.yaml"
    os.mkfifo(path)
    return str(path)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
@pytest.mark.parametrize(
    "args",
    [
        ["validate", "{}"],
        ["validate", "--json", "{}"],
        ["render", "{}", "-o", "out.png"],
        ["moves", "{}", "--car", "red", "--spaces", "1"],
        ["replay", "{}"],
        ["play", "--track", "{}", "--players", "3"],
    ],
    ids=lambda a: a[0] + (" --json" if "--json" in a else ""),
)
def test_a_named_pipe_is_refused_before_opening(fifo, tmp_path, capsys, deadline, args):
    os.chdir(tmp_path)
    code, out, err = run(capsys, *[a.format(fifo) for a in args])
    assert code == 2
    text = out if "--json" in args else err
    assert "is a named pipe" in text and "Traceback" not in err
    if "--json" in args:
        assert json.loads(out)[0]["readable"] is False


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_the_editor_loader_refuses_a_named_pipe(fifo, deadline):
    with pytest.raises(UnreadableInput, match="named pipe"):
        read_track_document(fifo)


@pytest.mark.skipif(not Path("/dev/null").exists(), reason="needs /dev/null")
def test_a_device_and_a_directory_are_named_as_such(tmp_path, capsys):
    code, _, err = run(capsys, "validate", "/dev/null")
    assert code == 2 and "/dev/null: is a device, not a track file" in err
    code, _, err = run(capsys, "validate", str(tmp_path))
    assert code == 2 and "is a directory, not a track file" in err


def test_an_empty_path_is_called_empty(capsys):
    code, out, err = run(capsys, "validate", "")
    assert code == 2 and "the path is empty" in err and "directory" not in err
    code, out, _ = run(capsys, "validate", "--json", "")
    entry = json.loads(out)[0]
    assert code == 2 and "the path is empty" in entry["unreadable"]["message"]


# -- 4. explicit YAML tags ----------------------------------------------------------------


@pytest.mark.parametrize(
    "old, new, words",
    [
        ("closed: false", "closed: !!bool maybe", "is not a !!bool value"),
        ("lane: 0\n", 'lane: !!int ""\n', "is not a !!int value"),
        ("lane: 0\n", 'lane: !!float ""\n', "is not a !!float value"),
        ("name: Fixture Straight", "name: !!binary aGk=", "unsupported YAML tag !!binary"),
        ("name: Fixture Straight", "name: !!set {a, b}", "unsupported YAML tag !!set"),
    ],
)
def test_a_tag_that_does_not_fit_its_value_is_a_placed_error(tmp_path, capsys, old, new, words):
    path = edited(tmp_path, old, new)
    code, _, err = run(capsys, "validate", path)
    assert code == 2 and "internal error" not in err
    assert re.search(rf"{re.escape(path)}:\d+:\d+: .*{re.escape(words)}", err), err
    code, out, err = run(capsys, "validate", "--json", path)
    entry = json.loads(out)[0]
    assert code == 2 and err == "" and words in entry["unreadable"]["message"]
    assert entry["unreadable"]["line"] is not None


def test_a_tagged_value_of_the_wrong_kind_is_a_schema_error(tmp_path, capsys):
    path = edited(tmp_path, "name: Fixture Straight", "name: !!timestamp 2001-12-14")
    assert run(capsys, "validate", path)[0] == 0  # a date is only text here
    path = edited(tmp_path, "name: Fixture Straight", "name: !!bool yes")
    code, out, _ = run(capsys, "validate", path)
    assert code == 1 and re.search(r":\d+:\d+: error schema: name: expected text, found true", out)


def test_json_is_printed_even_when_validation_has_a_bug(capsys, monkeypatch):
    import trackside.engine.track.validate as validate_module

    def broken(_path):
        raise KeyError("bug")

    monkeypatch.setattr(validate_module, "validate_file", broken)
    monkeypatch.delenv("TRACKSIDE_DEBUG", raising=False)
    code, out, _ = run(capsys, "validate", "--json", str(STRAIGHT))
    entry = json.loads(out)[0]
    assert code == 2 and "internal error: KeyError" in entry["unreadable"]["message"]


# -- 5. boards at the wrong scale -----------------------------------------------------------


def scaled(tmp_path: Path, k: float) -> str:
    """The straight fixture with every coordinate (and a small tolerance) times k."""

    def times(match: re.Match[str]) -> str:
        return repr(round(float(match.group(0)) * k, 9))

    text = STRAIGHT.read_text(encoding="utf-8")
    head, sep, body = text.partition("centerline:")
    body = re.sub(r"-?\d+\.\d+", times, body)
    head += f"tolerance: {min(k, 1.0)}\n"  # at most 20 mm by the schema
    path = tmp_path / f"scaled-{k:g}.yaml"
    path.write_text(head + sep + body, encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("k, what", [(1e-4, "too small"), (1e3, "too large")])
def test_a_board_at_the_wrong_scale_is_refused_quickly(tmp_path, capsys, k, what):
    path = scaled(tmp_path, k)
    start = time.process_time()
    code, out, _ = run(capsys, "validate", path)
    assert code == 1 and "error space-size" in out and what in out
    assert re.search(r"spaces a1, b1, .* mm across .* 5 to 500 mm", out)
    code, _, err = run(capsys, "render", path, "-o", str(tmp_path / "t.png"))
    assert code == 1 and "cannot draw this track" in err
    assert time.process_time() - start < 20
    assert not (tmp_path / "t.png").exists()


# -- 6. long values --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "old, new",
    [
        ("name: Fixture Straight", "name: " + "x" * 1_500_000),
        ("format: trackside-track/1", "format: " + "x" * 1_500_000),
        ("lane: 0\n", "lane: 0\n  kind: " + "x" * 1_500_000 + "\n"),
        ("closed: false", "closed: !!bool " + "x" * 1_500_000),
        ("name: Fixture Straight", "name: !" + "x" * 1_500_000 + " y"),
    ],
    ids=["name", "format", "enum", "tagged", "tag"],
)
def test_long_values_are_echoed_short(tmp_path, capsys, old, new):
    code, out, err = run(capsys, "validate", edited(tmp_path, old, new))
    assert code in (1, 2)
    assert max(len(line) for line in (out + err).splitlines()) < 400


def test_a_long_colour_is_echoed_short(capsys):
    code, _, err = run(capsys, "moves", "harbour-loop", "--car", "x" * 100_000, "--spaces", "1")
    assert code == 2 and "unknown colour" in err and len(err) < 400


# -- 7. a variant without a track list --------------------------------------------------------


def test_play_and_simulate_agree_on_a_missing_track(capsys):
    play = run(capsys, "play", "--variant", "standard", "--players", "3")
    simulate = run(capsys, "simulate", "--variant", "standard", "--players", "3", "--games", "1")
    for code, _, err in (play, simulate):
        assert code == 2 and "has no track list" in err and "--track" in err
