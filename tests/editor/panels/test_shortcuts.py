"""Help > Keyboard Shortcuts lists what the keys do, read from the menus; the keyboard
goes back to the canvas when a panel it was in closes or a dialog ends."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QApplication

from trackside.editor.panels.shortcuts import ShortcutsDialog

pytestmark = pytest.mark.gui


def test_the_shortcuts_dialog_lists_every_menu_shortcut_and_filters(window):
    dialog = ShortcutsDialog(window.menuBar(), window)
    entries = dict(dialog.entries())
    assert entries["Save"] == window.act_save.shortcut().toString()
    assert entries["Simulate"] == "Ctrl+Shift+B"
    assert entries["Undo"]
    for tool in window.tool_actions.values():
        if not tool.shortcut().isEmpty():
            assert tool.text().replace("&", "") in entries
    assert "Arrow keys" in entries  # canvas keys no menu shows
    dialog.filter.setText("zoom")
    shown = dialog.entries()
    assert shown and all("zoom" in f"{name} {keys}".lower() for name, keys in shown)


def test_the_new_edits_and_prints_are_listed_with_their_keys_in_their_tooltips(window):
    entries = dict(ShortcutsDialog(window.menuBar(), window).entries())
    expected = {
        "Set Lap Start Here": "Ctrl+Shift+L",
        "Betting Line 2 Across Here": "Ctrl+Shift+2",
        "Finish Line Across Here": "Ctrl+Shift+F",
        "Print": "Ctrl+P",
        "Print Calibration Sheet": "Ctrl+Shift+P",
    }
    for name, keys in expected.items():
        assert entries[name] == keys
    for action in [*window.track_menu.actions, *window.print_menu.actions[:2]]:
        assert action.shortcut().toString() in action.toolTip()
    assert "Right-click a space" in entries


def test_help_menu_offers_the_shortcuts(window):
    help_menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "&Help")
    assert window.act_shortcuts in help_menu.actions()
    assert not window.act_shortcuts.shortcut().isEmpty()


def test_closing_a_panel_gives_the_keyboard_back_to_the_canvas(window, qtbot):
    window.inspector_dock.show()
    window.inspector_dock.raise_()
    field = window.inspector.name_edit
    field.setFocus()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is field, timeout=2000)
    window.inspector_dock.hide()
    assert QApplication.focusWidget() is window.view
