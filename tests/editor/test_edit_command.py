"""``trackside edit``: the editor from the command line."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from editor_process import editor_stays_up
from PySide6.QtCore import Qt

from trackside.cli import main as cli
from trackside.editor import app
from trackside.engine.resources import resolve_track
from trackside.engine.track.model import load_track

pytestmark = pytest.mark.gui


def test_a_new_file_in_a_missing_folder_is_one_line_and_exit_2(capsys):
    assert cli.main(["edit", "no/such/track.yaml"]) == 2
    err = capsys.readouterr().err
    assert err == (
        "trackside: no/such: no such folder for a new track file "
        "(create no/such first, or give a path in a folder that exists)\n"
    )


def test_a_missing_name_without_yaml_is_still_refused(capsys):
    """A bare name is a bundled circuit's (or a mistyped one): no new file is started."""
    assert cli.main(["edit", "zzz-nothing"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "zzz-nothing: no such file" in err


@pytest.fixture
def opened(monkeypatch):
    """What ``edit`` would open the editor on (no window is made): one entry per call."""
    calls: list[object] = []
    monkeypatch.setattr(
        app, "main", lambda _argv, track, refused=None, new_file=None: calls.append(track) or 0
    )
    return calls


@pytest.fixture
def started_new(monkeypatch):
    """The new files ``edit`` would start the editor on (no window is made)."""
    calls: list[object] = []

    def fake(_argv, track, refused=None, new_file=None):
        calls.append((track, new_file))
        return 0

    monkeypatch.setattr(app, "main", fake)
    return calls


def test_a_yaml_file_not_on_disk_starts_a_new_circuit_there(tmp_path, capsys, started_new):
    """As a text editor starts a new file: the window opens on a new circuit that Save
    writes to the path given; nothing is written yet."""
    path = tmp_path / "coast.yaml"
    assert cli.main(["edit", str(path)]) == 0
    assert started_new == [(None, path)] and not path.exists()
    assert capsys.readouterr().err == ""


def test_a_new_file_close_to_one_on_disk_says_which_was_perhaps_meant(
    tmp_path, capsys, started_new
):
    (tmp_path / "coast.yaml").write_text("x")
    typed = tmp_path / "caost.yaml"
    assert cli.main(["edit", str(typed)]) == 0
    assert started_new == [(None, typed)]
    err = capsys.readouterr().err
    assert err == f"trackside: {typed} is a new file; did you mean {tmp_path / 'coast.yaml'}?\n"


def test_without_a_file_it_opens_the_start_page_not_a_circuit(opened):
    assert cli.main(["edit"]) == 0
    assert opened == [None]  # no file: the window starts on the start page


def test_a_bundled_name_still_opens_that_circuit(opened):
    assert cli.main(["edit", "harbour-loop"]) == 0
    assert [Path(p).name for p in opened] == ["harbour-loop.yaml"]


@pytest.mark.parametrize(
    ("text", "code", "place"),
    [
        ("hello: [unclosed\n", 2, ":1:8: "),  # not YAML: the "[" left open
        ("just some words\n", 2, ":1:1: "),  # YAML, but not a mapping
        ("- a\n- b\n", 2, ":1:1: "),
        ("name: x\ncolour: red\n", 1, ":1:1: "),  # a mapping, but not a track
    ],
)
def test_a_file_that_is_not_a_track_is_one_line_and_no_window(
    tmp_path, capsys, opened, text, code, place
):
    path = tmp_path / "notyaml.txt"
    path.write_text(text)
    assert cli.main(["edit", str(path)]) == code
    captured = capsys.readouterr()
    assert opened == [] and captured.out == ""
    assert captured.err.count("\n") == 1 and captured.err.startswith(f"trackside: {path}{place}")
    assert captured.err.rstrip().endswith(")")  # the fix, in brackets


def test_a_track_with_validation_errors_or_one_half_drawn_still_opens(tmp_path, opened):
    """The editor is where a track's problems get fixed: a track that breaks the
    validation rules, or lacks parts (a draft), opens with its problems listed."""
    broken = Path(__file__).parents[1] / "fixtures" / "invalid" / "dead-end.yaml"
    draft = tmp_path / "draft.yaml"
    text = Path(resolve_track("harbour-loop")).read_text()
    head, tail = text.split("betting_lines:")
    draft.write_text(head + "betting_lines: []\nfinish_line:" + tail.split("finish_line:")[1])
    assert cli.main(["edit", str(broken)]) == 0
    assert cli.main(["edit", str(draft)]) == 0
    assert opened == [broken, draft]


@pytest.mark.slow
def test_edit_starts_the_editor_on_the_track_without_complaint(tmp_path):
    """A real ``trackside edit`` process (offscreen): it starts, stays up and prints nothing.

    It runs in its own process: a QApplication that has run its event loop once
    cannot serve the rest of the test session.
    """
    env = dict(
        os.environ,
        QT_QPA_PLATFORM="offscreen",
        XDG_DATA_HOME=str(tmp_path / "data"),
        XDG_CONFIG_HOME=str(tmp_path / "config"),
    )
    out, noise = editor_stays_up(
        [sys.executable, "-m", "trackside", "edit", "harbour-loop"], env, 4
    )
    assert noise == [] and out == ""


# -- started without a terminal: the desktop launcher ---------------------------------


@pytest.fixture
def started(monkeypatch):
    """What ``edit`` would start the editor with (no window is made)."""
    calls: list[tuple[object, object]] = []

    def fake(_argv, track, refused=None, new_file=None):
        calls.append((track, refused))
        return 0

    monkeypatch.setattr(app, "main", fake)
    return calls


def test_the_launcher_opens_the_start_page_and_says_why_a_file_is_refused(
    tmp_path, capsys, started, monkeypatch
):
    path = tmp_path / "garbage.yaml"
    path.write_text("hello: [unclosed\n")
    monkeypatch.setattr(sys, "argv", ["trackside-editor", str(path)])
    assert cli.launch_editor() == 0  # the editor ran, on its start page
    ((track, refused),) = started
    assert track is None and f"{path}:1:8: " in str(refused)
    assert capsys.readouterr().err.startswith(f"trackside: {path}:1:8: ")  # for the logs


def test_the_launcher_says_a_missing_folder_in_the_window_too(capsys, started, monkeypatch):
    monkeypatch.setattr(sys, "argv", ["trackside-editor", "no/such/track.yaml"])
    assert cli.launch_editor() == 0
    ((track, refused),) = started
    assert track is None and "no such folder" in str(refused)


def test_from_a_terminal_edit_still_refuses_on_one_line(tmp_path, capsys, started):
    path = tmp_path / "garbage.yaml"
    path.write_text("hello: [unclosed\n")
    assert cli.main(["edit", str(path)]) == 2
    assert started == [] and capsys.readouterr().err.count("\n") == 1


def test_the_refusal_is_a_dialog_over_the_start_page(make_window, qtbot, tmp_path):
    """In the window: the dialog names the file and the problem, the start page stays."""
    from trackside.cli.edit import editable
    from trackside.engine.errors import TracksideError

    path = tmp_path / "garbage.yaml"
    path.write_text("hello: [unclosed\n")
    with pytest.raises(TracksideError) as refused:
        editable(str(path))
    window = make_window()
    app.start(window, None, refused.value)
    qtbot.waitUntil(lambda: bool(window.prompts.titles()))
    ((_kind, title, text, details),) = window.prompts.titles()
    assert title == "Cannot open track" and text.startswith("garbage.yaml could not be opened")
    assert details == [str(refused.value)]
    assert window.first_run.page.isVisible()  # the start page, ready for a new circuit
    assert window.doc.track.spaces == []


@pytest.mark.slow
def test_trackside_editor_with_a_bad_file_stays_up_with_a_window(tmp_path):
    """A real launcher process: a bad file no longer ends it at once."""
    path = tmp_path / "garbage.yaml"
    path.write_text("hello: [unclosed\n")
    launcher = Path(sys.executable).with_name("trackside-editor")
    env = dict(
        os.environ,
        QT_QPA_PLATFORM="offscreen",
        XDG_DATA_HOME=str(tmp_path / "data"),
        XDG_CONFIG_HOME=str(tmp_path / "config"),
    )
    _out, err = editor_stays_up([str(launcher), str(path)], env, 4)  # the window is up
    assert any(line.startswith(f"trackside: {path}:1:8: ") for line in err)


def test_a_new_file_opens_as_a_new_circuit_that_save_writes_there(make_window, qtbot, tmp_path):
    """The window says it is a new file (title and status bar) and offers the start page;
    a template chosen there keeps the file, named after it; Save writes it without
    asking where, and then it is a file like any other."""
    path = tmp_path / "coast-road.yaml"
    window = make_window()
    app.start(window, None, None, path)
    assert window.doc.path == str(path) and not path.exists()
    assert "coast-road.yaml (new file)" in window.windowTitle()
    assert "coast-road.yaml is a new file: Save writes it" in window.statusBar().currentMessage()
    assert window.first_run.page.isVisible()
    qtbot.mouseClick(window.first_run.page.buttons["Peanut"], Qt.MouseButton.LeftButton)
    assert window.doc.track.spaces and window.doc.path == str(path)
    assert window.doc.track.name == "Coast Road"
    assert window.save()
    assert ("save_path",) not in [asked[:1] for asked in window.prompts.asked]
    saved = load_track(path)
    assert saved.name == "Coast Road" and len(saved.spaces) == len(window.doc.track.spaces)
    assert "(new file)" not in window.windowTitle()


def test_a_new_file_made_meanwhile_by_another_program_is_asked_about(make_window, qtbot, tmp_path):
    path = tmp_path / "coast.yaml"
    window = make_window()
    app.start(window, None, None, path)
    window.first_run.dismiss()  # Blank
    path.write_text("written by another program\n")
    window.prompts.overwrite_answer = "cancel"
    assert not window.save()
    assert path.read_text() == "written by another program\n"
    window.prompts.overwrite_answer = "overwrite"
    assert window.save() and "name: Coast\n" in path.read_text()
