"""Edit > Cut, Copy, Paste and Transform (mirror, rotate, move by), driven through the
real menus and keys: each is one undo step, ids are renumbered, lines go along."""

from __future__ import annotations

import pytest
from conftest_helpers import right_click_menu, view_point
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QGuiApplication
from PySide6.QtWidgets import QMenu

from trackside.editor import mainwindow
from trackside.editor.panels.shortcuts import ShortcutsDialog
from trackside.engine.track.validate import validate_track

pytestmark = pytest.mark.gui

CTRL = Qt.KeyboardModifier.ControlModifier
SHIFT = Qt.KeyboardModifier.ShiftModifier


def findings(track) -> list[tuple[str, str]]:
    return sorted((issue.code, issue.severity) for issue in validate_track(track).issues)


def opened(window, qtbot, path):
    assert window.open_file(path, ask=False)
    window.view.setFocus()
    qtbot.waitUntil(lambda: window.view.hasFocus(), timeout=2000)
    return window.doc.snapshot()


def transform_action(window, text):
    edit = next(a.menu() for a in window.menuBar().actions() if a.text() == "&Edit")
    sub = next(
        a.menu() for a in edit.actions() if a.menu() and a.text().replace("&", "") == "Transform"
    )
    return next(a for a in sub.actions() if a.text().replace("&", "") == text)


def test_mirroring_the_whole_circuit_from_the_menu_validates_as_before(window, qtbot, stadium_file):
    original = opened(window, qtbot, stadium_file)
    transform_action(window, "Mirror Left to Right").trigger()
    mirrored = window.doc.snapshot()
    assert mirrored.spaces[0].corners != original.spaces[0].corners
    assert mirrored.centerline != original.centerline
    assert mirrored.finish_line != original.finish_line
    assert findings(mirrored) == findings(original)
    assert "whole circuit" in window.statusBar().currentMessage()
    window.doc.undo_stack.undo()
    assert window.doc.snapshot() == original


def test_four_quarter_turns_by_key_give_back_the_track(window, qtbot, stadium_file):
    original = opened(window, qtbot, stadium_file)
    for _ in range(4):
        qtbot.keyClick(window.view, Qt.Key.Key_BracketLeft, CTRL)
    assert window.doc.undo_stack.count() == 4
    assert window.doc.snapshot() == original
    window.doc.undo_stack.undo()
    assert window.doc.snapshot() != original


def test_a_selection_turns_about_its_own_centre(window, qtbot, stadium_file):
    original = opened(window, qtbot, stadium_file)
    window.scene.select_indices([0, 1])
    qtbot.keyClick(window.view, Qt.Key.Key_BracketRight, CTRL)
    track = window.doc.track
    assert track.spaces[2:] == original.spaces[2:]
    assert track.spaces[0].corners != original.spaces[0].corners
    assert track.centerline == original.centerline
    before = sorted(p for sp in original.spaces[:2] for p in sp.corners)
    xs = [x for x, _ in before]
    ys = [y for _, y in before]
    after = [p for sp in track.spaces[:2] for p in sp.corners]
    cx, cy = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
    assert min(x for x, _ in after) == pytest.approx(cx - (max(ys) - min(ys)) / 2, abs=0.01)
    assert min(y for _, y in after) == pytest.approx(cy - (max(xs) - min(xs)) / 2, abs=0.01)


def test_rotate_by_and_move_by_ask_and_can_be_cancelled(window, qtbot, stadium_file):
    original = opened(window, qtbot, stadium_file)
    window.scene.select_indices([3])
    window.prompts.angle_answer = None
    qtbot.keyClick(window.view, Qt.Key.Key_R, CTRL | SHIFT)
    assert window.prompts.titles("rotate_angle")
    assert window.doc.snapshot() == original
    window.prompts.offset_answer = (5.0, -2.5)
    transform_action(window, "Move by…").trigger()
    x, y = original.spaces[3].corners[0]
    assert window.doc.track.spaces[3].corners[0] == (x + 5, y - 2.5)
    assert window.doc.undo_stack.count() == 1
    window.prompts.angle_answer = 30.0
    transform_action(window, "Rotate by…").trigger()
    assert window.doc.undo_stack.count() == 2


def test_copy_and_paste_renumber_select_and_undo_in_one_step(window, qtbot, stadium_file):
    original = opened(window, qtbot, stadium_file)
    window.scene.select_indices([0, 1, 2])
    qtbot.keyClick(window.view, Qt.Key.Key_C, CTRL)
    assert "format: trackside-fragment/1" in QGuiApplication.clipboard().text()
    qtbot.keyClick(window.view, Qt.Key.Key_V, CTRL)
    track = window.doc.track
    assert len(track.spaces) == len(original.spaces) + 3
    new = track.spaces[-3:]
    old_ids = {sp.id for sp in original.spaces}
    assert not {sp.id for sp in new} & old_ids
    assert window.scene.selected_indices() == list(range(len(original.spaces), len(track.spaces)))
    x, y = original.spaces[0].corners[0]
    assert new[0].corners[0] == (x + 10, y + 10)  # the copied place is taken: 10 mm on
    assert window.doc.undo_stack.count() == 1
    window.doc.undo_stack.undo()
    assert window.doc.snapshot() == original


def test_cut_then_paste_puts_the_circuit_and_its_lines_back(window, qtbot, stadium_file):
    original = opened(window, qtbot, stadium_file)
    qtbot.keyClick(window.view, Qt.Key.Key_A, CTRL)
    qtbot.keyClick(window.view, Qt.Key.Key_X, CTRL)
    assert window.doc.track.spaces == []
    assert window.doc.track.finish_line[0] == window.doc.track.finish_line[1]  # taken away
    qtbot.keyClick(window.view, Qt.Key.Key_V, CTRL)
    assert window.doc.snapshot() == original  # same place, same ids, the lines back
    assert window.doc.undo_stack.count() == 2


def test_spaces_paste_into_another_window_with_lines_grid_and_racing_line(
    make_window, qtbot, stadium_file
):
    first = make_window()
    original = opened(first, qtbot, stadium_file)
    first.select_all()
    qtbot.keyClick(first.view, Qt.Key.Key_C, CTRL)
    second = make_window()
    second.view.setFocus()
    qtbot.waitUntil(lambda: second.view.hasFocus(), timeout=2000)
    qtbot.keyClick(second.view, Qt.Key.Key_V, CTRL)
    pasted = second.doc.snapshot()
    assert pasted.spaces == original.spaces
    assert pasted.start_grid == original.start_grid
    assert pasted.centerline == original.centerline
    assert [pasted.finish_line, *pasted.betting_lines] == [
        original.finish_line,
        *original.betting_lines,
    ]
    assert findings(pasted) == findings(original)
    assert "racing line" in second.statusBar().currentMessage()


def test_paste_here_centres_under_the_pointer(window, qtbot, stadium_file):
    opened(window, qtbot, stadium_file)
    window.scene.select_indices([0])
    qtbot.keyClick(window.view, Qt.Key.Key_C, CTRL)
    qtbot.mouseMove(window.view.viewport(), view_point(window, 300, 40))
    qtbot.waitUntil(lambda: window.transforms.pointer is not None, timeout=2000)
    at = window.transforms.pointer
    qtbot.keyClick(window.view, Qt.Key.Key_V, CTRL | SHIFT)
    corners = window.doc.track.spaces[-1].corners
    xs, ys = [x for x, _ in corners], [y for _, y in corners]
    assert (min(xs) + max(xs)) / 2 == pytest.approx(at.x(), abs=0.01)
    assert (min(ys) + max(ys)) / 2 == pytest.approx(at.y(), abs=0.01)


def test_other_text_on_the_clipboard_pastes_nothing(window, qtbot, stadium_file):
    opened(window, qtbot, stadium_file)
    QGuiApplication.clipboard().setText("just words")
    qtbot.keyClick(window.view, Qt.Key.Key_V, CTRL)
    assert window.doc.undo_stack.count() == 0
    assert "Nothing to paste" in window.statusBar().currentMessage()


def test_a_right_click_on_a_space_selects_it_and_offers_the_transforms(window, qtbot, stadium_file):
    opened(window, qtbot, stadium_file)
    window.scene.select_indices([0, 1])
    sp = window.doc.track.spaces[5].corners
    cx = sum(x for x, _ in sp) / len(sp)
    cy = sum(y for _, y in sp) / len(sp)
    menu = window.transforms.context_menu(view_point(window, cx, cy))
    assert window.scene.selected_indices() == [5]
    texts = [a.text().replace("&", "") for a in menu.actions()]
    assert {"Cut", "Copy", "Paste Here", "Transform"} <= set(texts)
    menu.close()


def test_the_transforms_are_listed_with_their_keys(window):
    entries = dict(ShortcutsDialog(window.menuBar(), window).entries())
    assert entries["Transform > Mirror Left to Right"] == "Shift+H"
    assert entries["Transform > Rotate 90° Anticlockwise"] == "Ctrl+["
    assert entries["Paste Here"] == "Ctrl+Shift+V"
    assert "Ctrl+[" in window.transforms.act_rotate_left.toolTip()


def test_a_real_right_click_offers_the_transforms_with_the_edits_at_a_space(
    window, qtbot, stadium_file
):
    opened(window, qtbot, stadium_file)
    sp = window.doc.track.spaces[4].corners
    cx = sum(x for x, _ in sp) / len(sp)
    cy = sum(y for _, y in sp) / len(sp)
    menu = right_click_menu(qtbot, window, cx, cy)
    texts = [a.text().replace("&", "") for a in menu.actions()]
    assert {"Set Lap Start Here", "Cut", "Paste Here", "Transform"} <= set(texts)
    assert window.scene.selected_indices() == [4]
    menu.close()
    window.set_tool("draw")  # its right button finishes a space: no menu
    assert window.transforms.context_menu(view_point(window, cx, cy)) is None


def test_what_rotate_by_and_the_clipboard_say_clears_from_the_status_bar(
    window, qtbot, stadium_file, monkeypatch
):
    """The status bar's word on a transform or a copy goes after a while, as every
    message about a finished step does, instead of lingering until the next one."""
    monkeypatch.setattr(mainwindow, "STATUS_MS", 30)
    opened(window, qtbot, stadium_file)
    window.scene.select_indices([3])
    bar = window.statusBar()
    window.prompts.angle_answer = 30.0
    transform_action(window, "Rotate by…").trigger()
    assert "Rotate" in bar.currentMessage()
    qtbot.waitUntil(lambda: bar.currentMessage() == "")
    qtbot.keyClick(window.view, Qt.Key.Key_C, CTRL)
    assert "Copied" in bar.currentMessage()
    qtbot.waitUntil(lambda: bar.currentMessage() == "")


def menu_actions(menu: QMenu) -> list[QAction]:
    """Every action of ``menu`` and its submenus."""
    found: list[QAction] = []
    for action in menu.actions():
        if action.menu() is not None:
            found.extend(menu_actions(action.menu()))
        elif not action.isSeparator():
            found.append(action)
    return found


def test_every_right_click_entry_with_a_key_shows_it(window, qtbot, stadium_file):
    """An entry of the canvas's menu that has a key in the menu bar shows the same key
    (Paste Here showed none), and Paste Here pastes where the menu was opened."""
    opened(window, qtbot, stadium_file)
    keyed = {
        a.text(): a.shortcut()
        for top in window.menuBar().actions()
        if top.menu() is not None
        for a in menu_actions(top.menu())
        if not a.shortcut().isEmpty()
    }
    sp = window.doc.track.spaces[4].corners
    cx = sum(x for x, _ in sp) / len(sp)
    cy = sum(y for _, y in sp) / len(sp)
    menu = right_click_menu(qtbot, window, cx, cy)
    entries = menu_actions(menu)
    assert "Paste &Here" in [a.text() for a in entries]
    for action in entries:
        if action.text() in keyed:
            assert action.shortcut() == keyed[action.text()], action.text()
            assert action.isShortcutVisibleInContextMenu(), action.text()
    qtbot.keyClick(window.view, Qt.Key.Key_C, CTRL)
    here = next(a for a in entries if a.text() == "Paste &Here")
    menu.close()
    here.trigger()
    pasted = window.scene.selected_indices()
    corners = [c for i in pasted for c in window.doc.track.spaces[i].corners]
    assert sum(x for x, _ in corners) / len(corners) == pytest.approx(cx, abs=0.5)
