"""The Balance panel through Undo and Redo: a result is stale exactly while the circuit
plays otherwise than the one it was measured on, whatever edits led there."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

pytestmark = pytest.mark.gui
CTRL = Qt.KeyboardModifier.ControlModifier
SHIFT = Qt.KeyboardModifier.ShiftModifier


def quick(window) -> None:
    """Greedy bots and few games: the tests are about staleness, not figures."""
    panel = window.balance_panel
    panel.bots_box.setCurrentText("Greedy bots")
    panel.games_box.setValue(10)


def wait_idle(qtbot, panel) -> None:
    qtbot.waitUntil(lambda: not panel.running, timeout=120_000)


def undo(qtbot, window) -> None:
    qtbot.keyClick(window.view, Qt.Key.Key_Z, CTRL)


def redo(qtbot, window) -> None:
    qtbot.keyClick(window.view, Qt.Key.Key_Z, CTRL | SHIFT)


def nudge(qtbot, window) -> None:
    """Move one space a step right (an edit every game reads)."""
    window.scene.select_indices([12])
    qtbot.keyClick(window.view, Qt.Key.Key_Right, SHIFT)


def test_a_fix_applied_undone_and_redone_is_said_to_be_applied(qtbot, quarry):
    """Apply, Ctrl+Z, Ctrl+Shift+Z: the circuit is the fix's again, so the fixes box says
    it is applied (as it did), not that the circuit changed; in between, the fixes and
    the run are of the circuit as it is."""
    quick(quarry)
    panel, fixes = quarry.balance_panel, quarry.balance_panel.fixes
    quarry.balance_menu.act_simulate.trigger()
    wait_idle(qtbot, panel)
    assert panel.suggest()
    wait_idle(qtbot, panel)
    assert fixes.search is not None
    row = next(r for r, t in enumerate(fixes.search.trials) if t.edit.proposal.kind == "line")
    fixes.select(row)
    assert fixes.apply_selected()
    applied = fixes.summary.text()
    assert applied.startswith(f"Applied: {fixes.search.trials[row].edit.text}.")
    said = quarry.statusBar().currentMessage()  # Apply says so where edits are said
    fix = fixes.search.trials[row].edit.text
    assert said == f"Applied fix {row + 1}: {fix} (Ctrl+Z takes it back)"
    assert panel.stale  # the run was of the circuit before the fix

    undo(qtbot, quarry)
    assert not fixes.stale and "changed since" not in fixes.summary.text()
    fixes.select(row)
    assert fixes.apply_button.isEnabled()
    assert not panel.stale and "changed" not in panel.status.text()
    assert panel.check_button.isEnabled()

    redo(qtbot, quarry)
    assert fixes.summary.text() == applied
    assert fixes.applied is fixes.search.trials[row]
    assert not fixes.apply_button.isEnabled()  # the fixes were made on the circuit before
    assert panel.stale and "run again" in panel.status.text()

    nudge(qtbot, quarry)  # past the fix: neither applied nor tried
    assert fixes.applied is None and "changed since" in fixes.summary.text()
    undo(qtbot, quarry)
    assert fixes.summary.text() == applied


def test_an_edit_and_its_undo_leave_the_run_current(qtbot, quarry):
    """The run shown, and a run under way, are stale only while the circuit differs."""
    quick(quarry)
    panel = quarry.balance_panel
    quarry.balance_menu.act_simulate.trigger()
    wait_idle(qtbot, panel)
    said = panel.status.text()
    nudge(qtbot, quarry)
    assert panel.stale and "changed" in panel.status.text()
    assert not panel.check_button.isEnabled()
    undo(qtbot, quarry)
    assert not panel.stale and panel.status.text() == said
    assert panel.check_button.isEnabled()

    panel.games_box.setValue(200)
    quarry.balance_menu.act_simulate.trigger()
    nudge(qtbot, quarry)
    assert panel.running and panel.stale
    assert "will be stale" in panel.status.text()
    undo(qtbot, quarry)
    assert not panel.stale and panel.status.text().startswith("Playing 200 games")
    panel.cancel()
    wait_idle(qtbot, panel)
    assert not panel.stale and "changed" not in panel.status.text()
