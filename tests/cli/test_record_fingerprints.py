"""A game record keeps a fingerprint of each track and variant file it names
(docs/records.md, ``fingerprints``): replay and resume say when such a file changed
in what the game reads of it, and only then; ``play --record --embed`` keeps the
circuit inside the record."""

from __future__ import annotations

import re
import shutil

import pytest
import yaml

from trackside.cli.main import main
from trackside.engine.balance.edits import Proposal, make_edit
from trackside.engine.records import load_record
from trackside.engine.resources import tracks_dir
from trackside.engine.track.model import load_track
from trackside.engine.writer import write_text

CHANGED = "coast.yaml has changed since this game was recorded"


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


@pytest.fixture
def recorded(capsys, tmp_path, monkeypatch):
    """A finished three-bot game on coast.yaml (a copy of Harbour Loop), recorded as
    game.yaml beside it; the current folder is theirs."""
    monkeypatch.chdir(tmp_path)
    shutil.copy(tracks_dir() / "harbour-loop.yaml", tmp_path / "coast.yaml")
    code, _, _ = run(
        capsys, "play", "--track", "coast.yaml", "--players", "3", "--seed", "7",
        "--record", "game.yaml",
    )  # fmt: skip
    assert code == 0
    return tmp_path


def move_betting_line(path, line=1, steps=3):
    """Move a betting line of the track file ``steps`` spaces earlier, as Suggest fixes does."""
    edit = make_edit(load_track(path), Proposal("line", steps, line=line))
    assert edit is not None
    write_text(path, edit.track.to_yaml(), "the track")


def test_the_record_keeps_a_fingerprint_of_its_track_file(recorded):
    text = (recorded / "game.yaml").read_text()
    assert re.search(r"^fingerprints:\n  coast.yaml: sha256:[0-9a-f]{64}$", text, re.M)
    assert load_record(recorded / "game.yaml").fingerprints


@pytest.mark.parametrize("command", ["replay", "resume"])
def test_a_moved_betting_line_is_named_as_the_cause(capsys, recorded, command):
    """The designer's case: the track's betting line moved after the game was recorded."""
    move_betting_line(recorded / "coast.yaml")
    argv = ["replay", "game.yaml"] if command == "replay" else ["play", "--resume", "game.yaml"]
    code, out, err = run(capsys, *argv)
    assert code == 1 and "Winner" not in out
    line = err.strip()
    assert line.startswith("trackside: game.yaml:") and CHANGED in line, line
    assert "(its spaces, lines, grid or centre line differ)" in line
    assert "the record replays only on the circuit as it was, and decision " in line
    assert "is illegal" in line and "--embed" in line and "--cut" in line


def test_words_looks_and_formatting_are_not_a_change(capsys, recorded):
    """A track saved again with other formatting, a comment, another name, author,
    description or labels replays as before, without a note."""
    path = recorded / "coast.yaml"
    data = yaml.safe_load(path.read_text())
    data.update(name="Coast", author="Someone else", description="Other words")
    data["labels"] = [{"text": "Harbour", "at": [100, 100]}]
    data["finish_line"] = [[float(x), float(y)] for x, y in data["finish_line"]]
    path.write_text("# my circuit\n" + yaml.safe_dump(data, default_flow_style=True, width=70))
    code, out, err = run(capsys, "replay", "game.yaml")
    assert code == 0 and "Winner" in out
    assert err == ""


def loosen_tolerance(path):
    """A change this game survives: 1.5 mm of slack where spaces meet, 1 mm before."""
    data = yaml.safe_load(path.read_text())
    data["tolerance"] = 1.5
    path.write_text(yaml.safe_dump(data, sort_keys=False))


def test_a_change_the_game_survives_replays_with_a_note(capsys, recorded):
    loosen_tolerance(recorded / "coast.yaml")
    code, out, err = run(capsys, "replay", "game.yaml")
    assert code == 0 and "Winner" in out
    assert f"trackside: note: game.yaml: {CHANGED}" in err
    assert "still replay to the result recorded" in err


def test_an_embedded_circuit_replays_after_the_file_changes(capsys, recorded):
    code, _, _ = run(
        capsys, "play", "--track", "coast.yaml", "--players", "3", "--seed", "7",
        "--record", "kept.yaml", "--embed",
    )  # fmt: skip
    assert code == 0
    text = (recorded / "kept.yaml").read_text()
    assert "coast.yaml" not in text and "- format: trackside-track/1" in text
    move_betting_line(recorded / "coast.yaml")
    code, out, err = run(capsys, "replay", "kept.yaml")
    assert code == 0 and "Winner" in out and err == ""


def test_an_older_record_without_fingerprints_still_loads_and_replays(capsys, recorded):
    path = recorded / "game.yaml"
    path.write_text(re.sub(r"^fingerprints:\n  .*\n", "", path.read_text(), flags=re.M))
    assert "fingerprints" not in path.read_text()
    code, _, err = run(capsys, "replay", "game.yaml")
    assert code == 0 and err == ""
    move_betting_line(recorded / "coast.yaml")
    code, _, err = run(capsys, "replay", "game.yaml")
    assert code == 1 and "is illegal" in err and "has changed" not in err


def test_a_changed_variant_file_is_named(capsys, recorded):
    house = recorded / "house.yaml"
    house.write_text("format: trackside-variant/1\nname: House\nextends: standard\n")
    code, _, _ = run(
        capsys, "play", "--track", "coast.yaml", "--variant", "house.yaml", "--players", "3",
        "--seed", "7", "--record", "house-game.yaml",
    )  # fmt: skip
    assert code == 0
    assert "  house.yaml: sha256:" in (recorded / "house-game.yaml").read_text()
    house.write_text(house.read_text() + "payouts:\n  race: [20, 9, 6, 4, 2, 0]\n")
    code, _, err = run(capsys, "replay", "house-game.yaml")
    assert code == 1
    assert "house.yaml has changed since this game was recorded (its rules or deck differ)" in err
    assert "the record replays only on the rules as they were, and replay gives scores" in err


def test_resume_goes_on_with_the_changed_circuit_and_keeps_its_fingerprint(capsys, recorded):
    """Cut before the game felt the change, a record goes on on the circuit as it is
    now, and the new record replays without a note."""
    move_betting_line(recorded / "coast.yaml")
    code, _, err = run(
        capsys, "play", "--resume", "game.yaml", "--cut", "20", "--record", "again.yaml"
    )
    assert code == 0 and f"note: game.yaml: {CHANGED}" in err
    code, _, err = run(capsys, "replay", "again.yaml")
    assert code == 0 and err == ""


def test_embed_needs_record(capsys):
    code, _, err = run(capsys, "play", "--embed")
    assert code == 2 and "--embed needs --record FILE" in err


@pytest.mark.parametrize(
    "change, argv",
    [
        (loosen_tolerance, ["replay", "game.yaml"]),  # replays, with a note
        (move_betting_line, ["replay", "game.yaml"]),  # stops, naming the cause
        (move_betting_line, ["play", "--resume", "game.yaml", "--cut", "20"]),
    ],
)
def test_the_files_named_are_read_and_fingerprinted_once(
    capsys, recorded, monkeypatch, change, argv
):
    """What the game read of coast.yaml is fingerprinted once and the file opened once:
    the check for a change uses the circuit the replay was set up with."""
    from trackside.engine import records

    calls = {"open_track": 0, "fingerprint": 0}

    def counted(name):
        real = getattr(records, name)

        def call(*args, **kwargs):
            calls[name] += 1
            return real(*args, **kwargs)

        monkeypatch.setattr(records, name, call)

    counted("open_track")
    counted("fingerprint")
    change(recorded / "coast.yaml")
    _code, _out, err = run(capsys, *argv)
    assert CHANGED in err
    assert calls == {"open_track": 1, "fingerprint": 1}
