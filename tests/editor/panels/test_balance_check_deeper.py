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
    # The check is shown beside the run, which stays the panel's run: its figures, its
    # bots (as the Bots box says), its hints, and what Suggest fixes starts from.
    assert panel.report is shown and panel.report.bots == ["greedy", "random", "random"]
    assert panel.report_run.bots == ("greedy", "random", "random")
    assert "with greedy, random bots" in panel.headline.text()
    assert "30 games of Standard with 3 players and greedy, random bots" in (panel.status.text())
    tip = panel.verdict.toolTip()
    assert "with greedy, random bots, " in tip and "with stronger bots (strong, random), on " in tip
    assert "The figures shown are the run's." in tip
    assert panel.suggest()  # Suggest fixes plays the run's bots, and says so
    qtbot.waitUntil(lambda: not panel.running, timeout=120_000)
    assert panel.fixes.search.base.bots == ["greedy", "random", "random"]
    assert "each played by greedy, random bots on the same 30 games" in (panel.fixes.summary.text())
    simulate(qtbot, straight)  # a new run: its own figures, no verdict until checked
    assert not panel.verdict.isVisible() and panel.check_button.isEnabled()


def test_a_cancelled_check_keeps_the_games_both_sets_of_bots_played(qtbot, straight):
    panel = straight.balance_panel
    simulate(qtbot, straight)
    assert panel.check_deeper()
    qtbot.waitUntil(lambda: panel.progress.value() >= 20, timeout=60_000)
    panel.cancel()
    qtbot.waitUntil(lambda: not panel.running, timeout=60_000)
    assert panel.verdict.text().startswith("Only ")
    played = int(panel.verdict.text().split()[1])
    assert 10 <= played < 30 and f"on the same {played} games" in panel.verdict.toolTip()
    assert panel.report.games == 30 and not panel.report.cancelled  # the run shown stays


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


def test_a_check_of_strong_bots_names_the_stronger_ones_in_plain_words(qtbot, straight):
    """A strong bot checked: the stronger one searches two deals a decision, which the
    panel says so, never "strong:2" (the command line's setting)."""
    panel = straight.balance_panel
    panel.bots_box.setCurrentText("One strong, the rest greedy")
    panel.games_box.setValue(10)
    simulate(qtbot, straight)
    assert "stronger bots (strong at two deals a decision, strong)" in (
        panel.check_button.toolTip()
    )
    assert panel.check_deeper()
    assert "the same games with stronger bots (strong at two deals a decision, strong)" in (
        panel.status.text()
    )
    qtbot.waitUntil(lambda: panel.verdict.isVisible(), timeout=120_000)
    assert panel.verdict.text().startswith(
        "Only 10 games played with stronger bots (strong at two deals a decision, strong)"
    )
    shown = [panel.verdict.text(), panel.verdict.toolTip(), panel.headline.text()]
    shown += [panel.status.text(), panel.check_button.toolTip()]
    assert not any("strong:" in text for text in shown)
    assert "with strong, greedy bots" in panel.headline.text()


def test_an_unclear_verdict_names_the_controls_that_play_more_games(qtbot, straight, monkeypatch):
    """A slot that tips over within noise leaves the verdict unclear; the line says how
    to play more games in the panel: the Games box or Until clear, then check again."""
    from trackside.editor.panels import variant_worker
    from trackside.engine.balance.against import VariantComparison
    from trackside.engine.balance.deeper import UNCLEAR, DeeperCheck, Moved, Verdict

    panel = straight.balance_panel
    simulate(qtbot, straight)
    report = panel.report
    still = Moved("slot 6", 0.09, 0.11, 0.05, True)
    verdict = Verdict(("strong:2",), 30, (still,), {5: "below"}, {}, (), ())
    check = DeeperCheck(VariantComparison(report, report, [], False, 1.0), verdict)
    monkeypatch.setattr(variant_worker, "check_deeper", lambda *_args: check)
    assert verdict.outcome == UNCLEAR and panel.check_deeper()
    qtbot.waitUntil(lambda: panel.verdict.isVisible(), timeout=60_000)
    line = panel.verdict.text()
    assert line.startswith("The verdict is unclear with stronger bots (two deals a decision).")
    # The advice is a sentence of its own: one colon to a sentence.
    assert line.endswith(
        "But no figure moved beyond noise on the same 30 games. Play more games to tell: "
        "raise Games (or tick Until clear), simulate, then check again."
    )
    assert all(sentence.count(":") <= 1 for sentence in line.split(". "))
