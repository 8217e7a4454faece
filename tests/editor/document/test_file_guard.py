"""The editor never loses or clobbers work: a lock per open file, changes on disk
noticed, saves through links keep the link, failed autosaves are shown and retried."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from tracks_for_tests import stadium_track

from trackside.editor.document.file_guard import lock_path
from trackside.engine.track.model import load_track, save_track

pytestmark = pytest.mark.gui


def nudge(qtbot, window) -> None:
    """One undoable edit: move the first space left."""
    window.scene.select_indices([0])
    qtbot.keyClick(window.view, Qt.Key.Key_Left)


def rewrite_elsewhere(path, name: str) -> None:
    """Another program saves the file with another track name."""
    track = stadium_track()
    track.name = name
    save_track(track, path)


def test_a_second_editor_is_told_who_has_the_file_and_opens_it_read_only(
    make_window, qtbot, stadium_file
):
    first, second = make_window(), make_window()
    assert first.open_file(stadium_file)
    assert lock_path(stadium_file).exists()
    assert second.open_file(stadium_file)
    asked = second.prompts.titles("file_in_use")
    assert len(asked) == 1 and asked[0][1] == "stadium.yaml"
    assert str(os.getpid()) in asked[0][2]
    assert "(read-only)" in second.windowTitle()
    # Save in the read-only editor asks for another file; without one nothing is written.
    before = stadium_file.read_bytes()
    nudge(qtbot, second)
    second.prompts.save_as_answer = None
    assert not second.save()
    assert second.prompts.titles("save_path")
    assert stadium_file.read_bytes() == before


def save_and_close_refused(qtbot, window, name: str) -> str:
    """Edit a read-only window, Save without choosing another file, Close with Cancel:
    nothing is saved or closed, and Close asked saying the file ``name`` is read-only.
    Gives the file Save offered instead."""
    nudge(qtbot, window)
    window.prompts.save_as_answer = None
    assert not window.save()
    offered = window.prompts.titles("save_path")[-1][1]
    window.prompts.save_answer = "cancel"
    assert not window.close()
    assert window.prompts.titles("save_changes")[-1] == ("save_changes", name, "read-only")
    return offered


def test_a_read_only_copy_offers_a_free_copy_name_and_says_so_on_close(
    make_window, qtbot, stadium_file
):
    first, second = make_window(), make_window()
    assert first.open_file(stadium_file)
    assert second.open_file(stadium_file)  # read-only: the first window holds it
    (stadium_file.parent / "stadium copy.yaml").write_text("taken")
    suggested = save_and_close_refused(qtbot, second, "stadium.yaml")
    assert suggested == str(stadium_file.parent / "stadium copy 2.yaml")
    second.prompts.save_answer = "save"
    second.prompts.save_as_answer = suggested
    assert second.close()  # saved as the copy, then closed
    assert load_track(suggested).to_dict() != load_track(stadium_file).to_dict()


def test_cancel_keeps_the_current_document_and_close_releases_the_lock(
    make_window, stadium_file, tmp_path
):
    first, second = make_window(), make_window()
    first.open_file(stadium_file)
    other = tmp_path / "other.yaml"
    save_track(stadium_track(), other)
    assert second.open_file(other)
    second.prompts.in_use_answer = "cancel"
    assert not second.open_file(stadium_file)
    assert second.doc.path == str(other)
    assert lock_path(other).exists()  # still ours
    first.close()
    assert not lock_path(stadium_file).exists()
    second.prompts.asked.clear()
    assert second.open_file(stadium_file)
    assert second.prompts.titles("file_in_use") == []
    assert not lock_path(other).exists()  # given back with the old document


def test_save_as_onto_a_file_open_elsewhere_is_refused(make_window, stadium_file, tmp_path):
    first, second = make_window(), make_window()
    first.open_file(stadium_file)
    second.prompts.save_as_answer = str(stadium_file)
    assert not second.save_as()
    assert "is open in" in second.prompts.titles("problems")[-1][2]


def test_an_outside_change_reloads_a_document_without_edits(window, qtbot, stadium_file):
    window.open_file(stadium_file)
    rewrite_elsewhere(stadium_file, "Changed Elsewhere")
    qtbot.waitUntil(lambda: window.doc.track.name == "Changed Elsewhere", timeout=3000)
    assert window.prompts.titles("changed_on_disk") == []
    assert not window.doc.is_modified()


def test_an_outside_change_under_edits_asks_and_keep_mine_saves_over_it(
    window, qtbot, stadium_file
):
    window.open_file(stadium_file)
    nudge(qtbot, window)
    rewrite_elsewhere(stadium_file, "Changed Elsewhere")
    qtbot.waitUntil(lambda: bool(window.prompts.titles("changed_on_disk")), timeout=3000)
    difference = window.prompts.titles("changed_on_disk")[0][2]
    assert "Changed Elsewhere" in difference
    assert window.doc.is_modified() and window.doc.track.name != "Changed Elsewhere"
    assert window.save()  # the user chose to keep theirs: no second question
    assert window.prompts.titles("overwrite_changed") == []
    assert load_track(stadium_file).to_dict() == window.doc.track.to_dict()


def test_after_keep_mine_undo_never_makes_the_document_look_saved(window, qtbot, stadium_file):
    window.open_file(stadium_file)
    nudge(qtbot, window)
    rewrite_elsewhere(stadium_file, "Changed Elsewhere")
    qtbot.waitUntil(lambda: bool(window.prompts.titles("changed_on_disk")), timeout=3000)
    window.doc.undo_stack.undo()  # back to the track as opened: still not what is on disk
    assert window.doc.is_modified()
    assert "*" in window.windowTitle()
    window.prompts.save_answer = "cancel"
    assert not window.close()  # Close asks before dropping it
    assert window.prompts.titles("save_changes")
    assert window.save()
    assert not window.doc.is_modified()


def test_reload_takes_the_outside_change(window, qtbot, stadium_file):
    window.prompts.disk_answer = "reload"
    window.open_file(stadium_file)
    nudge(qtbot, window)
    rewrite_elsewhere(stadium_file, "Changed Elsewhere")
    qtbot.waitUntil(lambda: window.doc.track.name == "Changed Elsewhere", timeout=3000)
    assert not window.doc.is_modified()


def test_saving_over_an_unnoticed_outside_change_asks_first(window, qtbot, stadium_file):
    window.open_file(stadium_file)
    nudge(qtbot, window)
    window.guard.watcher.blockSignals(True)  # as if the change was not yet reported
    rewrite_elsewhere(stadium_file, "Changed Elsewhere")
    assert not window.save()  # the fake answers "cancel"
    assert load_track(stadium_file).name == "Changed Elsewhere"
    window.prompts.overwrite_answer = "overwrite"
    assert window.save()
    assert load_track(stadium_file).to_dict() == window.doc.track.to_dict()


def test_our_own_saves_are_not_taken_for_outside_changes(window, qtbot, stadium_file):
    window.open_file(stadium_file)
    nudge(qtbot, window)
    assert window.save()
    nudge(qtbot, window)
    # A real outside change after our save: its question comes after anything our own
    # save could have set off, so the first question asked must be about it.
    rewrite_elsewhere(stadium_file, "Changed Elsewhere")
    qtbot.waitUntil(lambda: bool(window.prompts.titles("changed_on_disk")), timeout=3000)
    (asked,) = window.prompts.titles("changed_on_disk")
    assert "Changed Elsewhere" in asked[2] and asked[3] == "another program"
    assert window.doc.undo_stack.count() == 2  # not reloaded


def test_a_file_deleted_on_disk_leaves_the_document_unsaved(window, qtbot, stadium_file):
    window.open_file(stadium_file)
    stadium_file.unlink()
    qtbot.waitUntil(window.doc.is_modified, timeout=3000)
    assert window.save()
    assert load_track(stadium_file).to_dict() == window.doc.track.to_dict()


def test_saving_through_a_symbolic_link_keeps_the_link(window, qtbot, stadium_file, tmp_path):
    link = tmp_path / "link.yaml"
    link.symlink_to(stadium_file)
    window.open_file(link)
    nudge(qtbot, window)
    assert window.save()
    assert link.is_symlink() and os.readlink(link) == str(stadium_file)
    assert load_track(stadium_file).to_dict() == window.doc.track.to_dict()


def test_a_failed_autosave_is_shown_and_retried_until_it_works(
    window, qtbot, stadium_file, autosave_dir
):
    window.open_file(stadium_file)
    autosave_dir.parent.mkdir(parents=True, exist_ok=True)
    autosave_dir.write_text("a file where the folder should be")
    nudge(qtbot, window)
    assert not window.autosave.save_now()
    assert window.autosave_label.isVisible()
    assert str(autosave_dir) in window.autosave_label.toolTip()
    assert window.autosave.retry.isActive()
    autosave_dir.unlink()
    window.autosave.retry.setInterval(20)
    window.autosave.retry.start()
    qtbot.waitUntil(lambda: not window.autosave_label.isVisible(), timeout=3000)
    assert window.autosave.track_file.exists()


def test_file_dialogs_start_in_the_circuits_folder_then_the_last_folder_used(
    window, stadium_file, monkeypatch, tmp_path
):
    from trackside.editor.document import files

    monkeypatch.setattr(files, "circuits_folder", lambda: tmp_path / "Documents" / "Trackside")
    window.life.open_dialog()
    assert window.prompts.titles("open_path")[-1][1] == str(tmp_path / "Documents" / "Trackside")
    assert window.open_file(stadium_file)
    window.new_blank()
    window.life.open_dialog()
    assert window.prompts.titles("open_path")[-1][1] == str(stadium_file.parent)


def test_a_bundled_circuit_opens_read_only_and_is_never_locked_or_written(
    window, qtbot, monkeypatch, tmp_path
):
    from trackside.editor.document import files
    from trackside.engine.resources import resolve_track, tracks_dir

    monkeypatch.setattr(files, "circuits_folder", lambda: tmp_path / "Trackside")
    path = resolve_track("harbour-loop")
    before = Path(path).read_bytes()
    assert window.open_file(path)
    assert window.read_only and "(read-only)" in window.windowTitle()
    assert not any(p.name.endswith(".lock") for p in tracks_dir().iterdir())
    nudge(qtbot, window)
    window.prompts.save_as_answer = None
    assert not window.save()
    suggested = window.prompts.titles("save_path")[-1][1]
    assert suggested == str(tmp_path / "Trackside" / "harbour-loop.yaml")
    assert Path(path).read_bytes() == before


def test_moving_on_to_a_bundled_circuit_gives_back_the_lock_of_the_file_left(
    make_window, stadium_file
):
    """A file the editor no longer shows is free for other editors, whoever opens it."""
    from trackside.engine.resources import resolve_track

    first, second = make_window(), make_window()
    assert first.open_file(stadium_file)
    assert first.open_file(resolve_track("harbour-loop"))  # read-only: takes no lock
    assert not lock_path(stadium_file).exists()
    assert second.open_file(stadium_file)
    assert second.prompts.titles("file_in_use") == []
    first.open_file(resolve_track("harbour-loop"))
    third = make_window()
    assert third.open_file(stadium_file)
    asked = third.prompts.titles("file_in_use")
    assert len(asked) == 1 and asked[0][2].startswith("another window of this Trackside")


def test_a_file_read_only_on_disk_opens_read_only_and_save_offers_a_copy(
    window, qtbot, stadium_file
):
    """Mode 444: Save replaced it (and it stayed 444), the title never said so."""
    stadium_file.chmod(0o444)
    before = stadium_file.read_bytes()
    assert window.open_file(stadium_file)
    assert window.read_only and "(read-only)" in window.windowTitle()
    assert "read-only on disk" in window.statusBar().currentMessage()
    assert not lock_path(stadium_file).exists()  # a file nobody may write is not locked
    offered = save_and_close_refused(qtbot, window, "stadium.yaml")
    assert offered == str(stadium_file.with_name("stadium copy.yaml"))
    assert stadium_file.read_bytes() == before and stadium_file.stat().st_mode & 0o777 == 0o444


def open_through_a_link_then_re_point_it(window, qtbot, stadium_file, tmp_path, before=None):
    """Open the stadium through ``link.yaml``, edit, then point the link at another
    circuit (``other.yaml``), calling ``before`` just before; gives the other file."""
    other = tmp_path / "other.yaml"
    rewrite_elsewhere(other, "Another Circuit")
    link = tmp_path / "link.yaml"
    link.symlink_to(stadium_file)
    assert window.open_file(link)
    nudge(qtbot, window)
    if before is not None:
        before()
    repoint = tmp_path / "link.new"
    repoint.symlink_to(other)
    os.replace(repoint, link)
    return other


def test_a_link_re_pointed_while_open_is_asked_about_and_save_keeps_to_the_file_opened(
    window, qtbot, stadium_file, tmp_path
):
    """Save wrote the link's new target, another circuit, without a word."""
    other = open_through_a_link_then_re_point_it(window, qtbot, stadium_file, tmp_path)
    theirs = other.read_bytes()
    qtbot.waitUntil(lambda: bool(window.prompts.titles("link_retargeted")), timeout=3000)
    (asked,) = window.prompts.titles("link_retargeted")
    assert asked[1:] == ("link.yaml", str(stadium_file), str(other))
    assert window.doc.path == str(stadium_file) and window.doc.is_modified()
    assert window.save()
    assert other.read_bytes() == theirs
    assert load_track(stadium_file).to_dict() == window.doc.track.to_dict()


def test_a_link_re_pointed_before_a_save_is_asked_about_even_unreported(
    window, qtbot, stadium_file, tmp_path
):
    # The watch is blocked, as if it had not reported the change yet.
    unreported = lambda: window.guard.watcher.blockSignals(True)  # noqa: E731
    other = open_through_a_link_then_re_point_it(
        window, qtbot, stadium_file, tmp_path, before=unreported
    )
    window.prompts.link_answer = "open"
    window.save()
    assert window.prompts.titles("link_retargeted")
    assert load_track(other).name == "Another Circuit"  # never written over
    assert window.doc.track.name == "Another Circuit"  # opened, as chosen


def test_a_folder_renamed_while_open_is_followed_and_saved_there(
    window, qtbot, stadium_file, tmp_path
):
    """No notice; Save said "No such file or directory"; Save As into the renamed folder
    was refused as "open in another Trackside window", naming the editor's own process."""
    folder = tmp_path / "circuits"
    folder.mkdir()
    path = folder / "loop.yaml"
    os.replace(stadium_file, path)
    assert window.open_file(path)
    nudge(qtbot, window)
    folder.rename(tmp_path / "renamed")
    moved = tmp_path / "renamed" / "loop.yaml"
    qtbot.waitUntil(lambda: bool(window.prompts.titles("file_moved")), timeout=3000)
    assert window.prompts.titles("file_moved")[0][1:] == ("loop.yaml", str(path), str(moved))
    assert window.doc.path == str(moved) and window.windowTitle().startswith("loop.yaml")
    assert window.save(), window.prompts.titles("problems")
    assert load_track(moved).to_dict() == window.doc.track.to_dict()
    assert lock_path(moved).exists() and not folder.exists()


def test_save_as_into_a_renamed_folder_is_never_refused_by_the_editor_itself(
    window, qtbot, stadium_file, tmp_path
):
    folder = tmp_path / "circuits"
    folder.mkdir()
    path = folder / "loop.yaml"
    os.replace(stadium_file, path)
    window.prompts.moved_answer = "stay"
    assert window.open_file(path)
    nudge(qtbot, window)
    folder.rename(tmp_path / "renamed")
    qtbot.waitUntil(lambda: bool(window.prompts.titles("file_moved")), timeout=3000)
    assert window.doc.path == str(path)  # stayed, as chosen
    window.prompts.save_as_answer = str(tmp_path / "renamed" / "loop.yaml")
    assert window.save_as(), window.prompts.titles("problems")
    assert not any(str(os.getpid()) in str(asked) for asked in window.prompts.asked)


def test_a_second_change_during_the_question_is_shown_before_anything_is_written(
    window, qtbot, stadium_file
):
    """While "changed on disk" was open another change came; Show Details still showed
    the first, and Keep Mine then Save wrote over the second without a word."""
    asked = window.prompts.changed_on_disk

    def changed_again_meanwhile(name, difference, by="another program"):
        answer = asked(name, difference, by)
        if len(window.prompts.titles("changed_on_disk")) == 1:
            with qtbot.waitSignal(window.guard.changedOnDisk, timeout=3000):
                rewrite_elsewhere(stadium_file, "Second Change")
        return answer

    window.prompts.changed_on_disk = changed_again_meanwhile
    window.open_file(stadium_file)
    nudge(qtbot, window)
    rewrite_elsewhere(stadium_file, "First Change")
    qtbot.waitUntil(lambda: bool(window.prompts.titles("changed_on_disk")), timeout=3000)
    assert "First Change" in window.prompts.titles("changed_on_disk")[0][2]
    assert not window.save()  # the overwrite question (answered Cancel), or asked again
    shown = [
        a[2] for a in window.prompts.asked[1:] if a[0] in ("changed_on_disk", "overwrite_changed")
    ]
    assert any("Second Change" in text for text in shown)
    assert load_track(stadium_file).name == "Second Change"


def test_the_second_window_is_told_it_cannot_save_and_who_changed_the_file(
    make_window, qtbot, stadium_file
):
    first, second = make_window(), make_window()
    assert first.open_file(stadium_file)
    second.prompts.in_use_answer = "open"  # Open Anyway
    assert second.open_file(stadium_file) and not second.read_only
    assert "open in another window: cannot save" in second.windowTitle()
    nudge(qtbot, second)
    assert not second.save()
    (problem,) = second.prompts.titles("problems")
    assert "this window cannot save to it" in problem[2] and "Save As" in problem[3][0]
    assert "cannot save" in second.windowTitle()
    nudge(qtbot, first)
    assert first.save()
    qtbot.waitUntil(lambda: bool(second.prompts.titles("changed_on_disk")), timeout=3000)
    by = second.prompts.titles("changed_on_disk")[0][3]
    assert by.startswith("another window of this Trackside") and "program" not in by


def test_a_window_opened_anyway_says_it_cannot_save_until_it_has_saved(
    make_window, qtbot, stadium_file
):
    first, second = make_window(), make_window()
    assert first.open_file(stadium_file)
    second.prompts.in_use_answer = "open"  # Open Anyway
    assert second.open_file(stadium_file)
    assert "(open in another window: cannot save)" in second.windowTitle()
    nudge(qtbot, first)
    assert first.save()  # the file changes on disk: the second window reloads it...
    qtbot.waitUntil(lambda: "Reloaded" in second.statusBar().currentMessage(), timeout=3000)
    assert "(open in another window: cannot save)" in second.windowTitle()  # ...still held
    nudge(qtbot, second)
    assert first.close()  # the other window lets the file go: Save works here now
    assert second.save()
    assert "cannot save" not in second.windowTitle() and lock_path(stadium_file).exists()


def test_a_lock_of_another_process_names_it_as_another_trackside_window(
    window, stadium_file, tmp_path
):
    holder = tmp_path / "hold.py"
    holder.write_text(
        "import sys, time\n"
        "from PySide6.QtCore import QLockFile\n"
        "lock = QLockFile(sys.argv[1]); assert lock.tryLock(0)\n"
        "print('locked', flush=True); sys.stdin.read()\n"
    )
    import subprocess
    import sys

    other = subprocess.Popen(
        [sys.executable, str(holder), str(lock_path(stadium_file))],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert other.stdout.readline().strip() == "locked"
        assert window.open_file(stadium_file)
        (asked,) = window.prompts.titles("file_in_use")
        assert (
            asked[2] == f"another Trackside window (process {other.pid} on {os.uname().nodename})"
        )
    finally:
        other.communicate("")
