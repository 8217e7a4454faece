"""Suggest fixes in the Balance panel as a designer meets it: fixes of a circuit edited
since are stale and not applied, a new run clears old fixes, results arriving leave
the view where the designer has it, and a description-only edit stales nothing."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from trackside.editor.document.compound import apply_edited_track
from trackside.engine.balance.edits import Proposal, make_edit
from trackside.engine.balance.hints import slots_beyond_chance
from trackside.engine.records import open_track
from trackside.engine.resources import resolve_track
from trackside.engine.track.model import save_track

pytestmark = pytest.mark.gui


def wait_idle(qtbot, panel) -> None:
    qtbot.waitUntil(lambda: not panel.running, timeout=120_000)


def test_fixes_of_a_circuit_edited_while_they_were_tried_are_stale(qtbot, quarry):
    """An edit while Suggest fixes runs (a space nudged with Shift+Right): the fixes
    that arrive are of the circuit before it, so Apply stays off and says why."""
    panel = quarry.balance_panel
    assert panel.suggest()
    quarry.scene.select_indices([12])
    qtbot.keyClick(quarry.view, Qt.Key.Key_Right, Qt.KeyboardModifier.ShiftModifier)
    assert panel.running  # the edit came while the search ran
    steps = quarry.doc.undo_stack.count()
    wait_idle(qtbot, panel)
    fixes = panel.fixes
    assert fixes.search is not None and fixes.search.trials
    assert fixes.stale
    assert "changed" in fixes.summary.text()
    fixes.select(0)
    assert not fixes.apply_button.isEnabled()
    assert not fixes.apply_selected()
    assert "suggest again" in fixes.summary.text()
    assert quarry.doc.undo_stack.count() == steps
    quarry.doc.undo_stack.undo()  # back to the circuit the fixes were tried on
    assert not fixes.stale
    fixes.select(0)
    assert fixes.apply_button.isEnabled()


def test_fixes_of_a_circuit_edited_since_the_run_keep_the_run_said_stale(qtbot, quarry):
    """Run, edit, Suggest fixes: the headline and hints of the run stay on screen above
    fixes of the circuit as it is now, so the status keeps saying that the run is of an
    earlier version, while the fixes are tried and once they are listed (it said only
    "Trying fixes…", then "Tried 9 fixes in 519.9 s.")."""
    panel = quarry.balance_panel
    quarry.balance_menu.act_simulate.trigger()
    wait_idle(qtbot, panel)
    edit = make_edit(quarry.doc.track, Proposal("line", 2))
    assert edit is not None and apply_edited_track(quarry.doc, edit.track, "Move the finish")
    assert "changed since" in panel.status.text()
    quarry.balance_menu.act_suggest_fixes.trigger()
    assert panel.running, panel.status.text()
    said = panel.status.text()
    assert said.startswith("Trying fixes") and "of an earlier version" in said
    wait_idle(qtbot, panel)
    said = panel.status.text()
    assert said.startswith("Tried ") and "of an earlier version" in said
    assert "the fixes of the circuit as it is" in said
    assert not panel.fixes.stale  # the fixes are current: only the run is not
    above = panel.fixes.summary.text()  # in view when the panel scrolls to the fixes
    assert "run shown above, its headline and hints, is of an earlier version" in above
    quarry.doc.undo_stack.undo()  # back to the circuit of the run: current again
    assert "earlier version" not in panel.status.text()


def test_fixes_of_the_run_shown_edited_while_tried_leave_the_run_unsaid(qtbot, quarry):
    """Simulate, Suggest fixes (tried on the circuit of the run), move the finish line
    before they arrive: the run and the fixes are of the same circuit, so the status
    does not say the fixes are of the circuit as it is (it did, while the fixes' box
    said they were of the circuit as it was); the box says they are stale."""
    panel = quarry.balance_panel
    quarry.balance_menu.act_simulate.trigger()
    wait_idle(qtbot, panel)
    quarry.balance_menu.act_suggest_fixes.trigger()
    assert panel.running
    edit = make_edit(quarry.doc.track, Proposal("line", 2))
    assert edit is not None and apply_edited_track(quarry.doc, edit.track, "Move the finish")
    assert panel.running  # the edit came while the search ran
    said = panel.status.text()
    assert "changed since it started" in said
    assert "of an earlier version" not in said
    wait_idle(qtbot, panel)
    said = panel.status.text()
    assert said.startswith("Tried ")
    assert "the fixes of the circuit as it is" not in said
    assert panel.fixes.stale
    assert "changed" in panel.fixes.summary.text()


def test_a_new_run_clears_the_fixes_of_the_last(qtbot, quarry):
    panel = quarry.balance_panel
    assert panel.suggest()
    wait_idle(qtbot, panel)
    fixes = panel.fixes
    fixes.select(0)
    assert fixes.apply_selected()
    assert fixes.summary.text().startswith("Applied: ")
    quarry.balance_menu.act_simulate.trigger()
    wait_idle(qtbot, panel)
    assert fixes.search is None and fixes.isHidden()
    assert fixes.fix_list.count() == 0
    assert "Applied" not in fixes.summary.text()


def click_fix(qtbot, fixes, row: int) -> None:
    item = fixes.fix_list.item(row)
    fixes.fix_list.scrollToItem(item)
    rect = fixes.fix_list.visualItemRect(item)
    qtbot.mouseClick(fixes.fix_list.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())


def test_fixes_arriving_leave_the_view_alone_until_one_is_clicked(qtbot, quarry):
    """Suggest fixes twice from its button: when the button turns off, the focus moves
    on to the list of fixes, which once took that as choosing a fix and moved the view
    to it, and did again when the new fixes arrived."""
    panel = quarry.balance_panel
    fixes = panel.fixes
    shown: list[list[str]] = []
    fixes.spacesActivated.connect(shown.append)
    quarry.activateWindow()
    qtbot.waitUntil(quarry.isActiveWindow)
    for _ in range(2):
        qtbot.mouseClick(panel.suggest_button, Qt.MouseButton.LeftButton)
        assert panel.running
        wait_idle(qtbot, panel)
    assert fixes.fix_list.count() > 0
    assert shown == [] and quarry.scene.pointed_indices() == []
    assert fixes.fix_list.currentRow() == -1  # nothing chosen for the designer
    item = fixes.fix_list.item(0)
    fixes.fix_list.scrollToItem(item)
    rect = fixes.fix_list.visualItemRect(item)
    qtbot.mouseClick(fixes.fix_list.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    trial = fixes.selected_trial()
    assert trial is not None and shown == [list(trial.edit.spaces)]
    assert quarry.scene.pointed_indices() == sorted(quarry.doc.indices_of(trial.edit.spaces))


def test_a_new_name_keeps_the_run_current_and_suggest_uses_its_choice(qtbot, quarry):
    """Renaming the track, its author or description changes nothing a game plays:
    the run stays current, and Suggest fixes chooses its candidates from it instead
    of playing the circuit again first."""
    panel = quarry.balance_panel
    quarry.balance_menu.act_simulate.trigger()
    wait_idle(qtbot, panel)
    inspector = quarry.inspector
    inspector.name_edit.setText("Quarry Hairpin, renamed")
    inspector.name_edit.editingFinished.emit()
    inspector.author_edit.setText("A designer")
    inspector.author_edit.editingFinished.emit()
    assert quarry.doc.track.name == "Quarry Hairpin, renamed"
    assert not panel.stale
    said: list[str] = []
    assert panel.suggest()
    panel._worker.progressed.connect(lambda _d, _t, what: said.append(what))
    wait_idle(qtbot, panel)
    assert said and not any("choose candidates" in what for what in said)


def test_with_until_clear_suggest_plays_a_number_of_games_it_names(qtbot, quarry):
    """Until clear's box is a cap for one run: Suggest fixes does not play the cap for
    the circuit and again for every candidate, but the games of the run shown, or 200
    without one, and says so."""
    panel = quarry.balance_panel
    panel.until_clear_box.setChecked(True)
    panel.games_box.setValue(3000)
    assert panel.suggest()
    assert "200 games for the circuit and for each candidate" in panel.status.text()
    assert panel.progress.maximum() == 200
    panel.cancel()
    wait_idle(qtbot, panel)
    assert panel.fixes.search is not None and panel.fixes.search.base.games <= 200


def test_the_panel_names_fixes_not_tried_and_what_each_makes_worse(qtbot, window, tmp_path):
    """A circuit whose finish lies one row behind its grid: the panel says the grid
    cannot move back and why, and no grid hint promises that Suggest fixes measures it."""
    edit = make_edit(open_track("quarry-hairpin"), Proposal("line", -3))
    path = tmp_path / "finish-behind-grid.yaml"
    save_track(edit.track, path)
    assert window.open_file(str(path))
    panel = window.balance_panel
    panel.games_box.setMinimum(1)
    panel.games_box.setValue(300)
    panel.workers_box.setValue(1)
    window.balance_menu.act_simulate.trigger()
    wait_idle(qtbot, panel)
    hints = [panel.hint_list.item(i).text() for i in range(panel.hint_list.count())]
    assert any("Suggest fixes cannot move the grid back here: the finish" in h for h in hints)
    assert not any("Suggest fixes measures" in h for h in hints)
    panel.games_box.setValue(30)
    assert panel.suggest()
    wait_idle(qtbot, panel)
    said = panel.fixes.summary.text()
    assert "Not tried:<br>" in said and "The grid cannot move back: the finish line is only" in said
    fix_list = panel.fixes.fix_list
    rows = []
    for r in range(fix_list.count()):
        panel.fixes.select(r)  # a fix selected shows every figure
        rows.append(fix_list.item(r).text())
    assert all("Problem score " in row for row in rows)
    assert any("; of it, stalls " in row or "; of it, grid slots " in row for row in rows)


def test_the_slot_table_marks_the_slots_the_hints_warn_about(qtbot, quarry):
    """300 games of Quarry Hairpin: its pole wins more than 1 in 6, which its first
    turn explains (no warning), so its share is not marked either."""
    panel = quarry.balance_panel
    panel.games_box.setValue(300)
    quarry.balance_menu.act_simulate.trigger()
    wait_idle(qtbot, panel)
    report = panel.report
    marked = {r for r in range(6) if "beyond chance" in panel.slot_table.item(r, 1).toolTip()}
    assert marked == slots_beyond_chance(report)
    assert report.slot_shares()[0][1] > 1 / 6 and 0 not in marked


def test_the_panel_says_when_the_order_of_the_fixes_is_chance(quarry):
    """Fixes none of which lessens the problems beyond noise: the panel says, in bold
    above the list, that their order is chance."""
    from trackside.engine.balance import BalanceReport
    from trackside.engine.balance.fixes import FixSearch, Measured, Trial

    base = BalanceReport("Quarry Hairpin", "standard", 4, ["strong"], games=200)
    edit = make_edit(open_track("quarry-hairpin"), Proposal("line", 2))
    same = Measured(1, 1, 0, 0)
    noise = Measured(0.41, 0.40, -0.3, 0.2)
    trial = Trial(edit, 200, noise, same, same, same, base)
    fixes = quarry.balance_panel.fixes
    fixes.show_search(FixSearch(base, [trial], track=quarry.doc.track))
    said = fixes.summary.text()
    assert "<b>No fix makes the circuit better beyond noise in 200 games" in said
    assert fixes.fix_list.count() == 1


def test_the_progress_bar_of_suggest_fixes_says_its_count_in_one_line_that_fits(qtbot, quarry):
    """The bar's one line holds the count and the time left; what the games are for
    (the circuit alone, then the candidates beside it) is said on the status line
    under it, which wraps: once all of it was in the bar, wider than the dock."""
    panel = quarry.balance_panel
    quarry.balance_dock.show()
    quarry.balance_dock.raise_()
    assert panel.suggest()
    bar = panel.progress
    qtbot.waitUntil(lambda: "candidate fixes" in bar.toolTip() + bar.text(), timeout=60_000)
    qtbot.waitUntil(lambda: "left" in bar.text(), timeout=60_000)
    assert bar.fontMetrics().horizontalAdvance(bar.text()) <= bar.contentsRect().width()
    assert "candidate" not in bar.text() and "circuit" not in bar.text()
    assert panel.status.text().startswith("Trying fixes: ")
    assert panel.status.text().endswith(" candidate fixes and the circuit as it is.")
    assert "… Now playing " in panel.status.text()
    panel.cancel()
    wait_idle(qtbot, panel)


def test_a_fix_reads_at_a_glance_and_shows_every_figure_when_selected(quarry):
    """A fix was five or six lines of signed numbers ("Problems lessened +0.23 (-0.47 to
    +0.87) ≈: stalls -0.01 …, grid slots +0.24 …") with no unit for "problems". It now
    reads: what it changes, then the figure it changes most with its unit, its interval
    and whether that is beyond noise. Selected (and in its tooltip), every other figure
    follows, each with its interval and noise mark."""
    from trackside.engine.balance import BalanceReport
    from trackside.engine.balance.fixes import FixSearch, Measured, Trial

    base = BalanceReport("Quarry Hairpin", "standard", 4, ["strong"], games=200)
    edit = make_edit(quarry.doc.track, Proposal("line", 4))
    stalled = Measured(0.60, 0.42, -0.28, -0.08)  # cars a race, beyond noise
    figures = {
        "stall problems": Measured(0.2, 0.0, -0.3, -0.1),
        "slot problems": Measured(0.7, 0.9, -0.4, 0.8),
    }
    trial = Trial(
        edit,
        200,
        Measured(1.0, 0.9, -0.5, 0.3),  # the problem score: within noise
        Measured(0.91, 0.90, -0.07, 0.07),
        stalled,
        Measured(4.4, 4.4, -4.5, 4.0),
        base,
        figures,
    )
    fixes = quarry.balance_panel.fixes
    fixes.show_search(FixSearch(base, [trial], track=quarry.doc.track))
    item = fixes.fix_list.item(0)
    short = [
        f"1. {edit.text}",
        "Stalled cars 0.60 \u2192 0.42 a race: -0.18 a race (-0.28 to -0.08), beyond noise",
    ]
    assert item.text().splitlines() == short
    details = [
        "\u00b7 Grid slots 11.7 \u2192 15.0 points outside their fair share, all told: +3.3 "
        "points (-6.7 to +13.3) \u2248",
        "\u00b7 The worst grid slot 4.4 \u2192 4.4 points outside its fair share: +0.0 points "
        "(-4.5 to +4.0) \u2248",
        "\u00b7 Balance 0.91 \u2192 0.90 (1: every slot wins as often): -0.01 (-0.07 to +0.07) "
        "\u2248",
        "\u00b7 Problem score 1.00 \u2192 0.90: -0.10 (-0.50 to +0.30) \u2248; of it, stalls "
        "-0.20 (-0.30 to -0.10), grid slots +0.20 (-0.40 to +0.80) \u2248",
    ]
    tip = item.toolTip()
    assert all(line.replace("\u00b7 ", "") in tip for line in short[1:] + details)
    fixes.select(0)
    assert item.text().splitlines() == short + details
    fixes.choose_none()
    assert item.text().splitlines() == short


def test_the_fixes_read_apart_and_in_the_order_their_rows_say(qtbot, quarry, tmp_path):
    """Quarry Hairpin with its finish 2 spaces later, 200 greedy games: the finish 4
    spaces earlier is tried alone and with the betting lines moved along, and each row
    says which it is; no row whose figure is within noise comes above one whose figure
    is better beyond noise (ranked by the problem score alone, "1 space later ... ≈
    within noise" came above "2 spaces earlier ... beyond noise")."""
    edit = make_edit(open_track("quarry-hairpin"), Proposal("line", -2))
    assert edit is not None
    path = tmp_path / "quarry-longer.yaml"
    save_track(edit.track, path)
    assert quarry.open_file(str(path))
    panel = quarry.balance_panel
    panel.games_box.setValue(200)
    assert panel.suggest()
    wait_idle(qtbot, panel)
    rows = [panel.fixes.fix_list.item(r).text() for r in range(panel.fixes.fix_list.count())]
    firsts = [row.splitlines()[0] for row in rows]
    assert len(set(firsts)) == len(firsts)  # every fix's label tells it apart
    finish = [f for f in firsts if "Finish line 4 spaces earlier" in f]
    assert len(finish) == 2
    assert finish[0].endswith("the betting lines left where they are") or finish[1].endswith(
        "the betting lines left where they are"
    )
    # Better beyond noise with nothing worse first (RANKING); a fix that also makes
    # something worse ranks with the rest, and says so on a line of its own.
    clear = ["within noise" not in row.splitlines()[1] and "But worse" not in row for row in rows]
    assert clear == sorted(clear, reverse=True), firsts


def test_the_fixes_summary_names_the_bots_and_reads_in_short_lines(quarry):
    """Above the fixes: what was tried and by which bots (the run checked with stronger
    bots is not what they are measured against), then how they are ordered, then how to
    read a row, each on a line of its own in short sentences; once a dense paragraph."""
    from trackside.engine.balance import BalanceReport
    from trackside.engine.balance.fixes import FixSearch, Measured, Trial

    base = BalanceReport("Quarry Hairpin", "standard", 4, ["strong"], games=200)
    edit = make_edit(open_track("quarry-hairpin"), Proposal("line", 2))
    same = Measured(1, 1, 0, 0)
    trial = Trial(edit, 200, Measured(0.40, 0.10, -0.4, -0.2), same, same, same, base)
    fixes = quarry.balance_panel.fixes
    fixes.show_search(FixSearch(base, [trial], track=quarry.doc.track))
    lines = fixes.summary.text().split("<br>")
    assert lines[0] == (
        "1 candidate fix, each played by strong bots on the same 200 games as the circuit as it is."
    )
    assert lines[1].startswith("Best first. The problem score adds up stalls over the goal")
    assert lines[2].startswith("Each fix shows the figure it changes most")
    sentences = [s for line in lines for s in line.split(". ")]
    assert max(len(sentence.split()) for sentence in sentences) <= 25


def test_suggest_fixes_is_off_where_the_circuit_cannot_be_simulated(qtbot, window):
    """A blank new file has nothing to run: Suggest fixes and Simulate are off, their
    tooltips and the Tools menu following, and say why; so with a circuit the validator
    finds an error in, until it is mended (Suggest fixes was on for a blank file)."""
    panel = window.balance_panel
    menu = window.balance_menu
    for button in (panel.suggest_button, panel.run_button):
        assert not button.isEnabled() and "no spaces yet" in button.toolTip()
    assert not menu.act_suggest_fixes.isEnabled() and not menu.act_simulate.isEnabled()
    assert window.open_file(resolve_track("quarry-hairpin"))
    window.issues.wait()
    qtbot.waitUntil(panel.suggest_button.isEnabled)
    assert menu.act_suggest_fixes.isEnabled() and panel.run_button.isEnabled()
    window.scene.select_indices([12])
    qtbot.keyClick(window.view, Qt.Key.Key_Right, Qt.KeyboardModifier.ShiftModifier)
    qtbot.waitUntil(lambda: not panel.suggest_button.isEnabled(), timeout=10_000)
    assert "error" in panel.suggest_button.toolTip()
    assert "Issues panel" in panel.suggest_button.toolTip()
    assert not menu.act_suggest_fixes.isEnabled()
    window.doc.undo_stack.undo()
    qtbot.waitUntil(panel.suggest_button.isEnabled, timeout=10_000)
    assert "candidate edits" in panel.suggest_button.toolTip()
