"""Text from files never steers the terminal: an ESC sequence, a carriage return or a
bidirectional override in a circuit name, a space id, a variant name, a player's name
or a file name is shown escaped in every command's text output, error lines included;
``--json`` keeps it as data."""

from __future__ import annotations

import io
import json
import sys

import pytest

from trackside.cli.main import main
from trackside.engine.resources import tracks_dir

EVIL = "\x1b[2J\x1b[31m\u202egnp.exe\r\u2066"
SHOWN = "\\x1b[2J\\x1b[31m\\u202egnp.exe\\r\\u2066"
EVIL_ID = "\x1b[31m\u202e\u2066"  # a space id holds no white space, \r included
SHOWN_ID = "\\x1b[31m\\u202e\\u2066"
RAW = ("\x1b", "\u202e", "\u2066", "\r")


def yaml_text(value: str) -> str:
    return json.dumps(value)  # a JSON string is a YAML double-quoted string


@pytest.fixture
def evil(tmp_path):
    """A circuit, a variant and a record whose names and one space id hold ``EVIL``."""
    text = (tracks_dir() / "harbour-loop.yaml").read_text(encoding="utf-8")
    track = tmp_path / "evil.yaml"
    track.write_text(
        text.replace("name: Harbour Loop", f"name: {yaml_text('Harbour' + EVIL)}", 1).replace(
            "- id: a14\n", f"- id: {yaml_text('a14' + EVIL_ID)}\n", 1
        ),
        encoding="utf-8",
    )
    variant = tmp_path / "variant.yaml"
    variant.write_text(
        f"format: trackside-variant/1\nname: {yaml_text('Rules' + EVIL)}\nextends: standard\n",
        encoding="utf-8",
    )
    return track, variant


def run(capsys, *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out + err


def assert_safe(text: str) -> None:
    for ch in RAW:
        assert ch not in text, f"{ch!r} reached the terminal"


def test_play_shows_the_circuit_and_variant_names_escaped(capsys, evil):
    track, variant = evil
    code, text = run(capsys, "play", "--track", str(track), "--variant", str(variant))
    assert code == 0
    assert_safe(text)
    assert f"Harbour{SHOWN}" in text and f"Rules{SHOWN}" in text


def test_simulate_shows_the_names_escaped(capsys, evil):
    track, _variant = evil
    code, text = run(capsys, "simulate", "--track", str(track), "--games", "3")
    assert code == 0 and f"Harbour{SHOWN}" in text
    assert_safe(text)


def test_suggest_shows_the_names_escaped_and_its_progress_still_moves_the_cursor(
    capsys, evil, monkeypatch
):
    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    track, _variant = evil
    progress = Tty()
    monkeypatch.setattr(sys, "stderr", progress)
    code = main(["suggest", "--track", str(track), "--games", "3"])
    out = capsys.readouterr().out
    assert code == 0 and f"Harbour{SHOWN}" in out
    assert_safe(out)
    assert "\r3/" in progress.getvalue() and "\\r" not in progress.getvalue()
    code = main(["suggest", "--track", str(track), "--games", "3", "--json"])
    assert code == 0 and json.loads(capsys.readouterr().out)["track"] == "Harbour" + EVIL


def test_moves_shows_a_space_id_escaped_and_json_keeps_it(capsys, evil):
    track, _variant = evil
    code, text = run(
        capsys, "moves", str(track), "--at", f"red=a14{EVIL_ID}", "--car", "red", "--spaces", "2"
    )
    assert code == 0 and f"red on a14{SHOWN_ID}" in text
    assert_safe(text)
    code = main(["moves", str(track), "--at", "red=a13", "--car", "red", "--spaces", "2", "--json"])
    out, _err = capsys.readouterr()
    assert code == 0 and any(f"a14{EVIL_ID}" in path for path in json.loads(out)["moves"])


def test_diff_and_validate_show_ids_and_file_names_escaped(capsys, evil, tmp_path):
    track, _variant = evil
    code, text = run(capsys, "diff", str(tracks_dir() / "harbour-loop.yaml"), str(track))
    assert code == 1 and f"a14{SHOWN_ID}" in text
    assert_safe(text)
    named = tmp_path / f"circuit{EVIL}.yaml"
    named.write_bytes(track.read_bytes())
    code, text = run(capsys, "validate", str(named))
    assert code == 0 and f"circuit{SHOWN}.yaml" in text
    assert_safe(text)
    code = main(["validate", str(named), "--json"])
    out, _err = capsys.readouterr()
    assert json.loads(out)[0]["file"] == str(named)  # JSON keeps the name as data


def test_error_lines_and_render_messages_are_escaped(capsys, evil, tmp_path):
    track, _variant = evil
    code, text = run(capsys, "validate", str(tmp_path / f"gone{EVIL}.yaml"))
    assert code == 2 and f"gone{SHOWN}.yaml" in text and "no such file" in text
    assert_safe(text)
    code, text = run(
        capsys, "render", str(track), "-o", str(tmp_path / f"b{EVIL}.png"), "--dpi", "10"
    )
    assert code == 0 and f"wrote {tmp_path}/b{SHOWN}.png" in text
    assert_safe(text)


def test_replay_shows_the_players_names_escaped(capsys, evil, tmp_path):
    track, _variant = evil
    record = tmp_path / "game.yaml"
    assert main(["play", "--track", str(track), "--record", str(record)]) == 0
    capsys.readouterr()
    text = record.read_text(encoding="utf-8")
    record.write_text(text.replace("name: Player 2", f"name: {yaml_text('Ana' + EVIL)}"))
    code, text = run(capsys, "replay", str(record))
    assert code == 0 and f"Ana{SHOWN}" in text
    assert_safe(text)
