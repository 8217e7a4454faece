"""Saves and autosaves that fail lose nothing: the old file is as it was, no lock or
temporary file is left, the message names the file and the cause, the document
stays unsaved; a failed autosave stays shown until one succeeds; an autosave that
cannot be opened is kept aside, said once and never offered again.

The faults are real where the machine allows: a directory in the way always; a
full disk and a read-only folder on a tiny tmpfs when this process may mount one
(as root, in CI's container). Otherwise, and always too, they are made at the
operating system's calls under one folder (``tests/faults.py``: no byte written
for ENOSPC, no file made or renamed for EACCES and EROFS), so every run checks
each fault.
"""

from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from faults import CAUSES, FAULTS, inject, leftovers, read_only, small_disk
from PySide6.QtCore import Qt
from tracks_for_tests import stadium_track

from trackside.editor.document.failed_writes import what_to_do
from trackside.editor.document.file_guard import lock_path
from trackside.engine.errors import Fix, Place, WriteFailed, elsewhere, in_place
from trackside.engine.track.model import save_track
from trackside.engine.writer import write_text

pytestmark = pytest.mark.gui


# What the save's message advises for each cause: a fix done in place (free some
# space) ends in saving again, one in another place (a disk, a folder) in Save As,
# for Save would write to the same place and fail again.
SAVE_AS = "File ▸ Save As…"
ADVICE = {
    "ENOSPC": (
        "The disk is full: free some space and save again, "
        f"or choose another disk and use {SAVE_AS}"
    ),
    "EACCES": f"Choose a folder you can write to, then use {SAVE_AS}",
    "EROFS": f"The disk is read-only: choose another disk or folder, then use {SAVE_AS}",
}
# After a failed Save As, Save would write to the track's own file: every fix is
# followed by Save As.
ADVICE_AS = {
    **ADVICE,
    "ENOSPC": f"The disk is full: free some space or choose another disk, then use {SAVE_AS}",
}
CLEAN = "Nothing was written; your track is still open here, as saved in stadium.yaml."


def nudge(qtbot, window) -> None:
    window.scene.select_indices([0])
    qtbot.keyClick(window.view, Qt.Key.Key_Left)


@pytest.mark.parametrize("fault", sorted(FAULTS))
def test_save_against_a_failing_disk_keeps_the_file_and_the_work(
    window, qtbot, stadium_file, monkeypatch, fault
):
    window.open_file(stadium_file)
    nudge(qtbot, window)
    before = stadium_file.read_bytes()
    inject(monkeypatch, fault, stadium_file.parent)
    assert not window.save()
    monkeypatch.undo()
    (problem,) = window.prompts.titles("problems")
    assert problem[1] == "Cannot save track"
    assert "stadium.yaml" in problem[2] and CAUSES[fault] in problem[2]
    assert problem[3] == [
        "stadium.yaml on disk is untouched; your track is still open here, its changes unsaved.",
        ADVICE[fault],
    ]
    assert stadium_file.read_bytes() == before
    assert window.doc.is_modified() and window.isWindowModified()
    assert leftovers(stadium_file.parent) == []
    assert lock_path(stadium_file).exists()  # still this window's
    assert window.save()  # room again: it saves


def _save_as_failing(window, target: Path, monkeypatch, fault: str) -> Path:
    """File > Save As to ``target`` in a new folder where every write meets ``fault``
    (refused), the fault then lifted; ``target``."""
    target.parent.mkdir()
    inject(monkeypatch, fault, target.parent)
    window.prompts.save_as_answer = str(target)
    assert not window.save_as()
    monkeypatch.undo()
    return target


@pytest.mark.parametrize("fault", sorted(FAULTS))
def test_save_as_to_a_new_file_that_fails_leaves_no_lock_and_no_name(
    window, tmp_path, monkeypatch, fault
):
    """A lock file was left with no track beside it."""
    window.new_blank()
    target = _save_as_failing(window, tmp_path / "out" / "my-loop.yaml", monkeypatch, fault)
    assert sorted(os.listdir(target.parent)) == []
    assert window.doc.track.name == "Untitled" and window.doc.path is None


@pytest.mark.parametrize("fault", sorted(FAULTS))
def test_a_failed_save_as_of_a_saved_track_says_nothing_was_written_and_the_track_is_saved(
    window, tmp_path, stadium_file, monkeypatch, fault
):
    """The message said the new file 'on disk is as it was', the track 'unsaved', and
    to free some room, whatever the cause."""
    window.open_file(stadium_file)
    _save_as_failing(window, tmp_path / "out" / "other.yaml", monkeypatch, fault)
    (problem,) = window.prompts.titles("problems")
    assert problem[3] == [CLEAN, ADVICE_AS[fault]]
    assert not window.doc.is_modified() and window.doc.path == str(stadium_file)


def test_a_failed_save_as_of_an_untitled_track_says_it_is_in_no_file(window, tmp_path):
    window.new_blank()
    (tmp_path / "notes.txt").write_text("not a folder\n")
    window.prompts.save_as_answer = str(tmp_path / "notes.txt" / "my-loop.yaml")
    assert not window.save_as()
    (problem,) = window.prompts.titles("problems")
    assert problem[2].endswith(f": cannot write: {tmp_path / 'notes.txt'} is a file, not a folder")
    assert problem[3] == [
        "Nothing was written; your track is still open here, not saved in any file yet.",
        f"Choose another folder, then use {SAVE_AS}",
    ]


def test_save_as_to_a_folder_in_the_way_advises_a_file_name(window, tmp_path, stadium_file):
    window.open_file(stadium_file)
    (tmp_path / "taken.yaml").mkdir()
    window.prompts.save_as_answer = str(tmp_path / "taken.yaml")
    assert not window.save_as()
    (problem,) = window.prompts.titles("problems")
    assert problem[2] == f"{tmp_path / 'taken.yaml'}: cannot write: this is a folder, not a file"
    assert problem[3] == [CLEAN, f"Give a file name for the track, then use {SAVE_AS}"]


def test_save_as_to_a_read_only_folder_advises_another_folder(window, tmp_path, stadium_file):
    window.open_file(stadium_file)
    folder = tmp_path / "locked"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        if os.access(folder, os.W_OK):
            pytest.skip("this user (root) may write in a read-only folder")
        window.prompts.save_as_answer = str(folder / "other.yaml")
        assert not window.save_as()
    finally:
        folder.chmod(0o755)
    (problem,) = window.prompts.titles("problems")
    assert problem[3] == [CLEAN, ADVICE_AS["EACCES"]]


def test_a_file_name_too_long_is_shown_once_and_cut_in_the_middle(window, tmp_path, stadium_file):
    """A 300-character name was printed whole twice: a dialog taller than the screen."""
    window.open_file(stadium_file)
    name = "y" * 300 + ".yaml"
    window.prompts.save_as_answer = str(tmp_path / name)
    assert not window.save_as()
    (problem,) = window.prompts.titles("problems")
    said = "\n".join([problem[2], *problem[3]])
    assert name not in said and said.count("yyyy…yyyy") == 1 and len(said) < 400
    assert problem[2].startswith(f"{tmp_path}{os.sep}yyyy") and ".yaml: cannot write" in said
    assert problem[3] == [CLEAN, f"Choose a shorter file name, then use {SAVE_AS}"]


def test_a_directory_in_the_way_is_named_and_nothing_changes(window, qtbot, stadium_file, tmp_path):
    window.open_file(stadium_file)
    nudge(qtbot, window)
    (tmp_path / "taken.yaml").mkdir()
    window.prompts.save_as_answer = str(tmp_path / "taken.yaml")
    assert not window.save_as()
    (problem,) = window.prompts.titles("problems")
    assert "taken.yaml" in problem[2] and window.doc.path == str(stadium_file)
    assert window.doc.is_modified() and (tmp_path / "taken.yaml").is_dir()


@pytest.mark.parametrize("fault", sorted(FAULTS))
def test_a_failed_autosave_stays_shown_until_one_succeeds(
    window, qtbot, stadium_file, monkeypatch, fault
):
    window.open_file(stadium_file)
    nudge(qtbot, window)
    inject(monkeypatch, fault, window.autosave.directory)
    assert not window.autosave.save_now()
    monkeypatch.undo()
    assert window.autosave_label.isVisible()
    assert CAUSES[fault] in window.autosave_label.toolTip()
    assert window.save()  # the track is safe in its file, but no autosave has worked yet
    assert window.autosave_label.isVisible()
    nudge(qtbot, window)
    assert window.autosave.save_now()
    assert not window.autosave_label.isVisible()


def test_a_track_no_file_holds_is_not_autosaved_and_says_why(window, qtbot, stadium_file):
    window.open_file(stadium_file)
    nudge(qtbot, window)
    window.doc.track.name = "x" * 300  # as a bug would: past every box and command
    assert not window.autosave.save_now()
    assert "at most 200" in window.autosave_label.toolTip()
    assert not window.save()
    assert "at most 200" in window.prompts.titles("problems")[-1][2]


def crash_leaving(autosave_dir: Path, text: str, name: str = "Lost Loop") -> int:
    """An autosave of a session that ended without cleaning up; its process id."""
    ended = subprocess.Popen([sys.executable, "-c", "pass"])
    ended.wait()
    autosave_dir.mkdir(parents=True, exist_ok=True)
    (autosave_dir / f"autosave-{ended.pid}.yaml").write_text(text)
    meta = {"original": None, "name": name, "pid": ended.pid, "saved_at": 1.0}
    (autosave_dir / f"autosave-{ended.pid}.json").write_text(json.dumps(meta))
    return ended.pid


def test_an_autosave_that_cannot_be_opened_is_kept_aside_and_never_offered_again(
    make_window, autosave_dir
):
    """It failed, and was offered again, and failed again, at every start."""
    pid = crash_leaving(autosave_dir, "format: trackside-track/1\nname: [not, text]\n")
    first = make_window()
    assert not first.check_recovery()
    (problem,) = first.prompts.titles("problems")
    aside = autosave_dir / "could-not-open"
    assert problem[1] == "Cannot recover the autosave"
    assert "Lost Loop" in problem[2] and problem[3]
    assert f"kept as {aside / f'autosave-{pid}.yaml'} and" in problem[2]  # where to look
    assert sorted(p.name for p in aside.iterdir()) == [
        f"autosave-{pid}.json",
        f"autosave-{pid}.yaml",
    ]
    second = make_window()
    assert not second.check_recovery()
    assert second.prompts.titles("recovery") == [] and second.prompts.titles("problems") == []


def test_a_tiny_disk_that_fills_up_is_a_failed_save_not_a_lost_file(window, qtbot, tmp_path):
    """A real full disk: a 64 KB tmpfs (only where this process may mount one)."""
    with small_disk(tmp_path / "tiny", kib=64) as disk:
        path = disk / "loop.yaml"
        save_track(stadium_track(rows=12), path)
        before = path.read_bytes()
        assert window.open_file(path)
        big = stadium_track(rows=400, lanes=3)  # far more than the disk holds
        assert window.new_from_track(big)
        window.prompts.save_as_answer = str(path)
        window.prompts.overwrite_answer = "overwrite"
        assert not window.save_as()
        problem = window.prompts.titles("problems")[-1]
        assert CAUSES["ENOSPC"] in problem[2]
        assert path.read_bytes() == before
        assert sorted(os.listdir(disk)) == ["loop.yaml"]  # no temporary file, no lock
        assert window.doc.is_modified() and window.doc.path is None
        window.life.guard.release()


def test_a_read_only_folder_opens_read_only_and_a_save_into_it_is_refused(window, qtbot, tmp_path):
    """A real read-only file system: a tmpfs mounted read-only (only where this process
    may mount one; as root a folder's mode bits would not stop a write)."""
    with small_disk(tmp_path / "ro") as disk:
        path = disk / "loop.yaml"
        save_track(stadium_track(), path)
        read_only(disk)
        before = path.read_bytes()
        assert window.open_file(path)
        assert window.read_only and "(read-only)" in window.windowTitle()
        nudge(qtbot, window)
        window.prompts.save_as_answer = str(disk / "copy.yaml")
        assert not window.save()  # Save asks for another file: one in the folder fails
        problem = window.prompts.titles("problems")[-1]
        assert CAUSES["EROFS"] in problem[2] and "copy.yaml" in problem[2]
        assert path.read_bytes() == before and sorted(os.listdir(disk)) == ["loop.yaml"]
        assert window.doc.is_modified() and window.doc.path == str(path)
        window.life.guard.release()


def test_the_advice_names_save_as_as_the_file_menu_shows_it(window):
    """After a failed Save, Save again writes to the same place and fails again."""
    (menu,) = [a.menu() for a in window.menuBar().actions() if a.text() == "&File"]
    assert window.act_save_as in menu.actions()
    shown = f"{menu.title()} ▸ {window.act_save_as.text()}".replace("&", "")
    assert shown == SAVE_AS


def test_a_used_up_quota_is_told_to_free_some_space_as_a_full_disk_is(tmp_path, monkeypatch):
    def refuse(fd: int, data: bytes) -> int:
        raise OSError(errno.EDQUOT, os.strerror(errno.EDQUOT))

    monkeypatch.setattr(os, "write", refuse)
    with pytest.raises(WriteFailed) as caught:
        write_text(tmp_path / "t.yaml", "name: T\n")
    monkeypatch.undo()
    assert what_to_do(caught.value) == (
        "Your disk quota is used up: free some space and save again, "
        f"or choose another disk and use {SAVE_AS}"
    )


def test_the_advice_follows_where_each_way_is_done_whatever_its_words():
    """The writer's data says which way needs another place, not its words: a way
    marked elsewhere ends in Save As even when worded as one done in place."""

    def advice(*ways, why=""):
        failure = WriteFailed("cannot write", Place("t.yaml"), fix=Fix(ways, why))
        return what_to_do(failure)

    assert advice(elsewhere("free some space")) == f"Free some space, then use {SAVE_AS}"
    assert advice(in_place("choose another disk")) == "Choose another disk, then save again."
    assert advice(in_place("give it a moment"), elsewhere("wait"), why="it is busy") == (
        f"It is busy: give it a moment and save again, or wait and use {SAVE_AS}"
    )
    assert what_to_do(WriteFailed("cannot write", Place("t.yaml"), "no fix")) == ""


def test_a_save_as_over_a_read_only_file_is_followed_by_save_as_whatever_the_fix(
    window, tmp_path, stadium_file
):
    """Save would write to stadium.yaml, not to the file that was refused."""
    window.open_file(stadium_file)
    target = tmp_path / "locked.yaml"
    target.write_text("name: Old\n")
    target.chmod(0o444)
    window.prompts.save_as_answer = str(target)
    assert not window.save_as()
    (problem,) = window.prompts.titles("problems")
    assert problem[3][-1] == (
        f"Make it writable or choose another file for the track, then use {SAVE_AS}"
    )
