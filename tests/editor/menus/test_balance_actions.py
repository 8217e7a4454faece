"""Tools > Simulate and Suggest Fixes on a circuit that cannot be played: off, and
saying why as the Balance panel's buttons do, their keys too (on the status bar)."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QKeySequence
from PySide6.QtTest import QTest

from trackside.engine.resources import resolve_track

pytestmark = pytest.mark.gui


def test_simulate_and_suggest_fixes_say_why_they_are_off(window):
    """On a blank file the entries kept their usual tips, only the panel's buttons said
    why they were off, and Ctrl+Shift+B did nothing without a word."""
    menu, panel = window.balance_menu, window.balance_panel
    assert window.open_file(resolve_track("quarry-hairpin"))
    actions = {menu.act_simulate: panel.run_button, menu.act_suggest_fixes: panel.suggest_button}
    usual = {action: (action.toolTip(), action.statusTip()) for action in actions}
    assert all(action.isEnabled() for action in actions)
    window.new_blank()
    why = panel.cannot_simulate()
    assert why
    for action, button in actions.items():
        assert not action.isEnabled()
        assert action.toolTip() == why == button.toolTip()
        assert action.statusTip() == why
    assert window.open_file(resolve_track("quarry-hairpin"))
    for action in actions:
        assert action.isEnabled()
        assert (action.toolTip(), action.statusTip()) == usual[action]


def press(window, keys: QKeySequence) -> None:
    """Press ``keys`` with the keyboard on the canvas, as a designer does."""
    combo = keys[0]
    QTest.keyClick(window.view, combo.key(), combo.keyboardModifiers())


def test_the_key_of_an_entry_that_is_off_says_why_on_the_status_bar(window, qtbot):
    """Ctrl+Shift+B on a blank file did nothing and said nothing (the entry greyed in a
    closed menu, its reason in a tooltip no one sees): it says the reason on the status
    bar now, and on a circuit that can be played it simulates as before."""
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    menu, panel = window.balance_menu, window.balance_panel
    simulate = menu.act_simulate
    assert simulate.shortcut() == QKeySequence("Ctrl+Shift+B")
    window.new_blank()
    assert not simulate.isEnabled()
    why = panel.cannot_simulate()
    window.view.setFocus()
    press(window, simulate.shortcut())
    assert window.statusBar().currentMessage() == why == simulate.toolTip()
    assert window.message_label.isVisible() and not panel.running

    window.statusBar().clearMessage()
    assert window.open_file(resolve_track("quarry-hairpin"))
    assert simulate.isEnabled()
    panel.games_box.setMinimum(1)
    panel.games_box.setValue(2)
    panel.workers_box.setValue(1)
    window.view.setFocus()
    press(window, simulate.shortcut())
    assert panel.running  # the key starts a run, as it always did
    assert window.statusBar().currentMessage() != why
    qtbot.waitUntil(lambda: not panel.running, timeout=60_000)
    assert panel.report is not None and panel.report.games == 2


def test_an_entry_given_keys_later_says_why_with_them_too(window, qtbot):
    """Suggest Fixes has no keys; the word follows whatever keys an entry has."""
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    suggest = window.balance_menu.act_suggest_fixes
    assert suggest.shortcut().isEmpty()
    window.new_blank()
    suggest.setShortcut(QKeySequence("Ctrl+Shift+J"))
    assert not suggest.isEnabled()
    window.view.setFocus()
    press(window, suggest.shortcut())
    assert window.statusBar().currentMessage() == suggest.toolTip()
    assert window.statusBar().currentMessage() == window.balance_panel.cannot_simulate()
