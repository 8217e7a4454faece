"""File > Compare With…: the spaces added, removed and moved since another version,
listed in the Compare panel with jump-to and drawn over the canvas."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from trackside.engine.track.model import save_track
from trackside.engine.track.transform import map_space, translation

pytestmark = pytest.mark.gui
CTRL_SHIFT = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier


def file_action(window, text):
    menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "&File")
    return next(a for a in menu.actions() if a.text().replace("&", "") == text)


def rows(panel):
    out = []
    for i in range(panel.tree.topLevelItemCount()):
        group = panel.tree.topLevelItem(i)
        out.append(group.text(0))
        out += ["  " + group.child(k).text(0) for k in range(group.childCount())]
    return out


def test_compare_with_a_file_lists_and_draws_the_differences(window, qtbot, stadium_file, tmp_path):
    assert window.open_file(stadium_file, ask=False)
    other = window.doc.snapshot()
    gone = other.spaces.pop(0)
    other.spaces[0] = map_space(other.spaces[0], translation(0, 8))
    older = tmp_path / "older.yaml"
    save_track(other, older)
    window.prompts.compare_answer = str(older)
    file_action(window, "Compare With…").trigger()
    panel = window.compare
    assert window.compare_dock.isVisible()
    assert panel.overlay.isVisible()
    assert f"  {gone.id}" in rows(panel)  # in the document, not in the older file: added
    assert rows(panel)[0] == "1 space added"
    assert "1 space moved" in rows(panel)
    assert "Compared with older.yaml" in panel.title.text()
    assert not panel.overlay.boundingRect().isEmpty()


def test_a_row_selects_its_spaces_and_the_comparison_follows_edits(window, qtbot, stadium_file):
    assert window.open_file(stadium_file, ask=False)
    window.compare.compare_with(window.doc.snapshot(), "the same")
    assert window.compare.diff.same and rows(window.compare) == []
    window.scene.select_indices([2])
    window.view.setFocus()
    qtbot.keyClick(window.view, Qt.Key.Key_Right, Qt.KeyboardModifier.ShiftModifier)
    qtbot.waitUntil(lambda: bool(window.compare.diff.moved), timeout=3000)
    moved_id = window.doc.track.spaces[2].id
    assert rows(window.compare) == ["1 space moved", f"  {moved_id}"]
    window.scene.select_indices([])
    group = window.compare.tree.topLevelItem(0)
    window.compare.show_item(group.child(0))
    assert window.scene.selected_indices() == [2]


def test_compare_with_saved_version_and_stop(window, qtbot, stadium_file):
    assert window.open_file(stadium_file, ask=False)
    assert not file_action(window, "Compare With Saved Version").isEnabled()
    window.scene.select_indices([0])
    window.delete_selection()
    action = file_action(window, "Compare With Saved Version")
    assert action.isEnabled()
    action.trigger()
    assert rows(window.compare)[0] == "1 space removed"
    window.compare.show_box.setChecked(False)
    assert not window.compare.overlay.isVisible()
    file_action(window, "Stop Comparing").trigger()
    assert window.compare.other is None and rows(window.compare) == []
    assert not window.compare.overlay.isVisible()


def test_a_file_that_is_no_track_is_reported(window, qtbot, stadium_file, tmp_path):
    assert window.open_file(stadium_file, ask=False)
    bad = tmp_path / "bad.yaml"
    bad.write_text("just: words\n")
    window.prompts.compare_answer = str(bad)
    file_action(window, "Compare With…").trigger()
    assert window.prompts.titles()[-1][1] == "Cannot compare"
    assert window.compare.other is None


def test_compare_with_an_earlier_save_lists_the_kept_saves_newest_first(
    window, qtbot, stadium_file, autosave_dir
):
    assert window.open_file(stadium_file, ask=False)
    action = file_action(window, "Compare With Earlier Save…")
    action.trigger()  # nothing kept yet: said so
    assert window.prompts.titles()[-1][1] == "No earlier saves"
    first_id = window.doc.track.spaces[0].id
    for _save in range(2):
        window.scene.select_indices([0])
        window.act_delete.trigger()
        assert window.save()
    kept = window.earlier_saves.versions(stadium_file)
    assert len(kept) == 2
    assert kept[0].path.is_relative_to(autosave_dir.parent / "earlier-saves")
    beside = stadium_file.parent.iterdir()
    assert sorted(p.name for p in beside if p.name.startswith("stadium")) == ["stadium.yaml"]
    window.prompts.earlier_answer = 1  # the older: the file as opened
    action.trigger()
    ((_kind, name, listed),) = window.prompts.titles("earlier_save")
    assert name == "stadium.yaml" and len(listed) == 2
    assert listed == sorted(listed, reverse=True)  # newest first
    panel = window.compare
    assert "Compared with the save of" in panel.title.text()
    assert rows(panel)[0] == "2 spaces removed" and f"  {first_id}" in rows(panel)
    assert action.shortcut().toString() == "Ctrl+Shift+D"
    assert action.shortcut().toString() in action.toolTip()


def test_a_newer_autosave_is_offered_first(window, qtbot, stadium_file):
    assert window.open_file(stadium_file, ask=False)
    window.scene.select_indices([0])
    window.act_delete.trigger()
    assert window.save()
    window.scene.select_indices([0, 1, 2])
    window.act_delete.trigger()
    assert window.autosave.save_now()
    window.prompts.earlier_answer = 0
    window.view.setFocus()
    qtbot.waitUntil(lambda: window.view.hasFocus(), timeout=2000)
    qtbot.keyClick(window.view, Qt.Key.Key_D, CTRL_SHIFT)
    ((_kind, _name, listed),) = window.prompts.titles("earlier_save")
    assert len(listed) == 2 and "autosave" in listed[0] and "autosave" not in listed[1]
    assert "Compared with the autosave of" in window.compare.title.text()
    assert window.compare.diff.same  # the autosave holds the edits made since the save


def test_an_earlier_save_that_cannot_be_kept_never_stops_the_save(window, qtbot, stadium_file):
    assert window.open_file(stadium_file, ask=False)
    blocked = stadium_file.parent / "not-a-folder"
    blocked.write_text("a file where the data folder should be")
    window.earlier_saves.directory = blocked
    window.scene.select_indices([0])
    window.act_delete.trigger()
    assert window.save() and not window.doc.is_modified()
    message = window.statusBar().currentMessage()
    assert message.startswith(f"Saved {stadium_file}") and "could not be kept" in message
