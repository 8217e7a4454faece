"""A copy of a circuit (File > New from Circuit) is the designer's own: no bundled
author, and on its first save the file's name for its own while it still has the
name the copy was given ("Harbour Loop (copy)"); a name the designer gave it stays."""

from __future__ import annotations

import re

import pytest
from tracks_for_tests import stadium_track

from trackside.editor.document import commands
from trackside.engine.track.model import load_track, save_track

pytestmark = pytest.mark.gui


def copy_harbour_loop(window) -> None:
    """File > New from Circuit > Harbour Loop."""
    (action,) = [a for a in window.bundled_menu.actions() if a.text() == "Harbour Loop"]
    action.trigger()
    assert window.doc.track.name == "Harbour Loop (copy)" and window.doc.path is None


def svg_title(window, path) -> str:
    """The title of the board exported as SVG to ``path`` (File > Export)."""
    window.prompts.export_answer = str(path)
    assert window.export("svg")
    found = re.search(r"<title>(.*?)</title>", path.read_text(encoding="utf-8"))
    assert found is not None
    return found[1]


def test_a_copy_saved_as_takes_the_files_name_and_has_no_bundled_author(window, tmp_path):
    """Harbour Loop copied, a step made, Save As my-loop.yaml: the file, the export's
    title and the Inspector say "My Loop" and no author (the bundled file's is
    Trackside); the name is no undo step, so undo and redo keep it and the save is
    clean again at the step saved; a second Save As keeps the name."""
    copy_harbour_loop(window)
    doc = window.doc
    assert doc.track.author is None and window.inspector.author_edit.text() == ""
    bundled = doc.track.description
    doc.undo_stack.push(commands.SetMeta(doc, "description", "By the sea"))
    window.prompts.save_as_answer = str(tmp_path / "my-loop.yaml")
    window.act_save_as.trigger()
    saved = load_track(tmp_path / "my-loop.yaml")
    assert (saved.name, saved.author, saved.description) == ("My Loop", None, "By the sea")
    assert doc.track.name == "My Loop" and window.inspector.name_edit.text() == "My Loop"
    assert window.windowTitle().startswith("my-loop.yaml") and not window.isWindowModified()
    assert svg_title(window, tmp_path / "board.svg") == "My Loop"
    assert doc.undo_stack.count() == 1  # the name is no step of the history
    doc.undo_stack.undo()
    assert doc.track.name == "My Loop" and doc.track.description == bundled
    assert window.isWindowModified()
    doc.undo_stack.redo()
    assert doc.track.name == "My Loop" and not window.isWindowModified()
    window.prompts.save_as_answer = str(tmp_path / "second.yaml")
    window.act_save_as.trigger()
    assert load_track(tmp_path / "second.yaml").name == "My Loop"


def test_a_copy_s_printed_plate_names_no_author(window, tmp_path):
    """File > Export of a copy of Harbour Loop: its name plate gives the copy's name
    and the scale, neither the bundled author nor "a Trackside circuit"."""
    copy_harbour_loop(window)
    path = tmp_path / "board.svg"
    window.prompts.export_answer = str(path)
    assert window.export("svg")
    texts = re.findall(r">([^<>]+)</text>", path.read_text(encoding="utf-8"))
    assert "Harbour Loop (copy)" in texts and "true scale 1:1" in texts
    assert not any("Trackside" in t or t.startswith("by ") for t in texts), texts


def test_the_first_save_of_a_copy_names_it_as_save_as_does(window, tmp_path):
    """Save on a copy asks where (it has no file), and names it after that file."""
    copy_harbour_loop(window)
    window.prompts.save_as_answer = str(tmp_path / "coast-road.yaml")
    window.act_save.trigger()
    assert load_track(tmp_path / "coast-road.yaml").name == "Coast Road"
    assert not window.isWindowModified()


def test_a_copy_the_designer_named_keeps_its_name(window, tmp_path):
    """A name typed in the Inspector is the designer's: the file's name does not replace
    it, nor does a name set back to "Harbour Loop (copy)" by a step of the history."""
    copy_harbour_loop(window)
    window.inspector.name_edit.setText("Seaside")
    window.inspector.name_edit.editingFinished.emit()
    window.prompts.save_as_answer = str(tmp_path / "my-loop.yaml")
    window.act_save_as.trigger()
    assert load_track(tmp_path / "my-loop.yaml").name == "Seaside"
    copy_harbour_loop(window)
    doc = window.doc
    doc.undo_stack.push(commands.SetMeta(doc, "name", "Seaside"))
    doc.undo_stack.undo()
    window.prompts.save_as_answer = str(tmp_path / "other.yaml")
    window.act_save_as.trigger()
    assert load_track(tmp_path / "other.yaml").name == "Harbour Loop (copy)"


def test_a_copy_of_a_designers_own_file_keeps_its_author(window, tmp_path):
    """Only a bundled circuit's author (Trackside) is left behind: a copy of a file of
    the designer's keeps the author it names, and still takes the new file's name."""
    path = tmp_path / "stadium.yaml"
    track = stadium_track()
    track.author = "Ana"
    save_track(track, path)
    assert window.new_from(path)
    assert window.doc.track.author == "Ana"
    window.prompts.save_as_answer = str(tmp_path / "big-oval.yaml")
    window.act_save_as.trigger()
    saved = load_track(tmp_path / "big-oval.yaml")
    assert (saved.name, saved.author) == ("Big Oval", "Ana")


def test_a_copy_brought_back_after_a_crash_is_still_named_by_its_first_save(
    make_window, autosave_dir, tmp_path
):
    """A copy edited, never saved, and the app gone without a word: the copy offered
    back is still a copy, so its first save names it after the file, as it would have."""
    import json
    import subprocess
    import sys

    first = make_window()
    copy_harbour_loop(first)
    first.doc.undo_stack.push(commands.SetMeta(first.doc, "description", "By the sea"))
    assert first.autosave.save_now()
    dead = subprocess.Popen([sys.executable, "-c", "pass"])  # a pid no process has now
    dead.wait()
    meta = json.loads(first.autosave.meta_file.read_text())
    meta["pid"] = dead.pid
    (autosave_dir / f"autosave-{dead.pid}.yaml").write_text(first.autosave.track_file.read_text())
    (autosave_dir / f"autosave-{dead.pid}.json").write_text(json.dumps(meta))
    first.autosave.discard()

    second = make_window()
    assert second.check_recovery()
    assert second.doc.track.name == "Harbour Loop (copy)" and second.doc.path is None
    second.prompts.save_as_answer = str(tmp_path / "my-loop.yaml")
    second.act_save_as.trigger()
    saved = load_track(tmp_path / "my-loop.yaml")
    assert (saved.name, saved.description) == ("My Loop", "By the sea")
