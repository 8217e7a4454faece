"""Check with Stronger Bots in the Balance panel: the shown run's games played again by
a search twice as deep in the background, the verdict's line, the changes."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from tracks_for_tests import straight_track

from trackside.editor.document.compound import apply_edited_track
from trackside.engine.balance.edits import Proposal, make_edit
from trackside.engine.track.model import save_track

pytestmark = pytest.mark.gui
ONE_SEARCHES = "One greedy, the rest random"  # with three players: one seat searches, quick


@pytest.fixture
def straight(window, tmp_path):
    path = tmp_path / "straight.yaml"
    save_track(straight_track(), path)
    assert window.open_file(str(path))
    panel = window.balance_panel
    panel.players_box.setValue(3)
    panel.bots_box.setCurrentText(ONE_SEARCHES)
    panel.games_box.setMinimum(1)
    panel.games_box.setValue(30)
    panel.workers_box.setValue(1)
    return window


def simulate(qtbot, window) -> None:
    window.balance_menu.act_simulate.trigger()
    qtbot.waitUntil(lambda: not window.balance_panel.running, timeout=60_000)


def test_check_with_stronger_bots_says_whether_the_verdict_holds(qtbot, straight):
    panel = straight.balance_panel
    assert not panel.check_button.isEnabled()  # no run to check yet
    assert "Simulate first" in panel.check_button.toolTip()
    simulate(qtbot, straight)
    shown = panel.report  # the run the designer saw
    assert "with greedy, random bots" in panel.headline.text()
    assert panel.check_button.isEnabled()
    assert "stronger bots (strong, random" in panel.check_button.toolTip()
    qtbot.mouseClick(panel.check_button, Qt.MouseButton.LeftButton)
    assert panel.running and panel.progress.maximum() == 60
    assert panel.cancel_button.isEnabled() and not panel.check_button.isEnabled()
    assert "the same games with stronger bots (strong, random)" in panel.status.text()
    qtbot.waitUntil(lambda: panel.verdict.isVisible(), timeout=120_000)
    assert not panel.running
    line = panel.verdict.text()
    assert line.startswith("The verdict ") and "with stronger bots (strong, random)" in line
    assert panel.previous.bots == ["greedy", "random", "random"]
    assert panel.report.bots == ["strong", "random", "random"]
    assert panel.previous.games == panel.report.games == 30
    # The run's bots played the very games of the run shown: its figures, not others.
    assert panel.previous == shown
    assert "Changes are from greedy, random bots on the same 30 games (paired)." in (
        panel.status.text()
    )
    assert "with strong, random bots" in panel.headline.text()
    assert all(panel.slot_table.item(r, 2).text() for r in range(6))
    assert panel.legend.isVisible()
    simulate(qtbot, straight)  # a new run: its own figures, no verdict until checked
    assert not panel.verdict.isVisible() and panel.check_button.isEnabled()


def test_a_cancelled_check_keeps_the_games_both_sets_of_bots_played(qtbot, straight):
    panel = straight.balance_panel
    simulate(qtbot, straight)
    assert panel.check_deeper()
    qtbot.waitUntil(lambda: panel.progress.value() >= 20, timeout=60_000)
    panel.cancel()
    qtbot.waitUntil(lambda: not panel.running, timeout=60_000)
    assert panel.report.cancelled and 10 <= panel.report.games < 30
    assert panel.previous.games == panel.report.games
    assert panel.verdict.text().startswith(f"Only {panel.report.games} games played")


def test_random_bots_and_a_changed_circuit_are_not_checked(qtbot, straight):
    panel = straight.balance_panel
    panel.bots_box.setCurrentText("Random bots")
    simulate(qtbot, straight)
    assert not panel.check_button.isEnabled()
    assert panel.check_button.toolTip().startswith("Random bots do not search")
    assert not panel.check_deeper() and "Random bots do not search" in panel.status.text()
    panel.bots_box.setCurrentText(ONE_SEARCHES)
    simulate(qtbot, straight)
    assert panel.check_button.isEnabled()
    edit = make_edit(straight.doc.track, Proposal("line", 1))
    assert apply_edited_track(straight.doc, edit.track, "Move the finish")
    assert panel.stale and not panel.check_button.isEnabled()
    assert "simulate again, then check" in panel.check_button.toolTip()
