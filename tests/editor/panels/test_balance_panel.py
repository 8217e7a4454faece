"""The Balance panel: simulate from the editor, see the figures, hints that jump to
spaces, the heat map on the canvas, compare runs, stale when the circuit changes."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest
from conftest_helpers import click
from PySide6.QtCore import QLocale, QPoint, QSize, Qt
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QScrollArea, QStyle, QWidget
from tracks_for_tests import narrow_loop

from trackside.editor.document.compound import apply_edited_track
from trackside.engine.balance import BalanceReport
from trackside.engine.balance.compare import BALANCE_JUDGED, NOISE_MARK
from trackside.engine.balance.edits import Edit, Proposal, make_edit
from trackside.engine.balance.fix_words import main_line
from trackside.engine.balance.fixes import FixSearch, Measured, Trial
from trackside.engine.balance.wording import money_range, percent_range, range_digits
from trackside.engine.resources import resolve_track
from trackside.engine.text import Pace, duration
from trackside.engine.track.model import save_track

pytestmark = pytest.mark.gui
FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


def in_view(room: QScrollArea, widget) -> bool:
    """True when the whole of ``widget`` shows in the scroll area ``room``."""
    viewport = room.viewport()
    top = widget.mapTo(viewport, QPoint(0, 0))
    bottom = top + QPoint(widget.width() - 1, widget.height() - 1)
    return viewport.rect().contains(top) and viewport.rect().contains(bottom)


def run(qtbot, window) -> None:
    window.balance_menu.act_simulate.trigger()
    assert window.balance_panel.running
    qtbot.waitUntil(lambda: not window.balance_panel.running, timeout=60_000)


def test_simulate_fills_the_panel_and_the_window_stays_usable(qtbot, quarry):
    panel = quarry.balance_panel
    assert not quarry.balance_menu.act_heatmap.isEnabled()
    run(qtbot, quarry)
    assert panel.report is not None and panel.report.games == 30
    assert "Balance" in panel.headline.text()
    assert panel.slot_table.rowCount() == 6
    assert panel.slot_table.item(0, 0).text() == f"1 {panel.report.grid[0]}"
    texts = [panel.hint_list.item(i).text() for i in range(panel.hint_list.count())]
    assert any("stall" in t for t in texts)
    assert "30 games" in panel.status.text()
    assert quarry.balance_menu.act_heatmap.isEnabled()


def click_hint(qtbot, panel, row: int) -> None:
    item = panel.hint_list.item(row)
    panel.hint_list.scrollToItem(item)
    rect = panel.hint_list.visualItemRect(item)
    qtbot.mouseClick(panel.hint_list.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())


def test_a_hint_outlines_its_space_without_selecting_it(qtbot, quarry):
    """A hint shows its spaces, but what the tools act on stays as it was: a Move By
    after the click moves the whole circuit, not the hint's spaces alone."""
    panel = quarry.balance_panel
    run(qtbot, quarry)
    rows = [i for i in range(panel.hint_list.count()) if panel.hint_list.item(i).data(256)]
    assert rows, "no hint names a space"
    spaces = panel.hint_list.item(rows[0]).data(256)  # Qt.UserRole: the hint's spaces
    click_hint(qtbot, panel, rows[0])
    assert quarry.scene.pointed_indices() == sorted(quarry.doc.indices_of(spaces))
    assert quarry.scene.selected_indices() == []
    assert "outlined, not selected" in quarry.statusBar().currentMessage()
    space = spaces[0]
    before = [list(sp.corners) for sp in quarry.doc.track.spaces]
    quarry.prompts.offset_answer = (10.0, 0.0)
    quarry.transforms.act_move_by.trigger()
    after = [list(sp.corners) for sp in quarry.doc.track.spaces]
    assert all(a != b for a, b in zip(after, before, strict=True))  # every space moved
    quarry.set_tool("select")
    quarry.show_spaces([space], select=False)
    qtbot.keyClick(quarry.view, Qt.Key.Key_Escape)
    assert quarry.scene.pointed_indices() == []


def test_a_jam_hint_outlines_the_whole_stretch_and_the_narrowing_ahead(qtbot, quarry):
    """Quarry Hairpin's jam, the row before the one-lane a28 (100 games: in 30 it may
    stay under the notice): a click on its hint outlines every space it names, not only
    the first."""
    panel = quarry.balance_panel
    panel.games_box.setValue(100)
    run(qtbot, quarry)
    texts = [panel.hint_list.item(i).text() for i in range(panel.hint_list.count())]
    row = next(i for i, text in enumerate(texts) if "narrows to one lane at a28" in text)
    spaces = panel.hint_list.item(row).data(256)
    assert spaces[-1] == "a28" and len(spaces) > 2
    assert f"in the stretch {spaces[0]} to {spaces[-2]}" in texts[row]
    click_hint(qtbot, panel, row)
    assert quarry.scene.pointed_indices() == sorted(quarry.doc.indices_of(spaces))
    assert quarry.scene.selected_indices() == []
    assert (
        quarry.statusBar()
        .currentMessage()
        .startswith(f"Spaces {', '.join(spaces[:-1])} and a28 are outlined, not selected")
    )


def test_the_heat_map_tints_spaces_and_follows_the_view_menu(qtbot, quarry):
    run(qtbot, quarry)
    quarry.balance_menu.act_heatmap.trigger()
    assert quarry.balance_menu.heatmap.isVisible()
    values = quarry.balance_menu.heatmap.values
    assert values and max(values.values()) > 0
    assert set(values) <= {s.id for s in quarry.doc.track.spaces}
    quarry.balance_panel.set_heat("blocked")
    assert quarry.balance_menu.heatmap.title.startswith("Moves ending blocked")
    legend = quarry.balance_menu.heat_legend
    assert legend.isVisible() and legend.title == quarry.balance_menu.heatmap.title
    # The legend stays whole in the canvas corner however the board is zoomed or scrolled.
    quarry.view.set_zoom(8.0)
    quarry.view.centerOn(quarry.balance_menu.heatmap.boundingRect().bottomRight())
    viewport = quarry.view.viewport().geometry()
    assert legend.isVisible() and viewport.contains(legend.geometry())
    assert legend.geometry().topLeft() == viewport.topLeft() + QPoint(8, 8)
    heatmap = quarry.balance_menu.heatmap
    assert not heatmap.boundingRect().contains(heatmap.map.legend_rect())
    quarry.balance_menu.act_heatmap.trigger()
    assert not quarry.balance_menu.heatmap.isVisible() and not legend.isVisible()


def test_a_second_run_shows_every_figure_s_change_in_every_table(qtbot, quarry):
    """After an edit (the finish line moved four spaces earlier) every figure of both
    tables has its change, those within noise marked; Rounds per race and Spaces short
    too, which once showed none."""
    run(qtbot, quarry)
    first = quarry.balance_panel.report
    edit = make_edit(quarry.doc.track, Proposal("line", 4))
    assert apply_edited_track(quarry.doc, edit.track, "Move the finish")
    run(qtbot, quarry)
    panel = quarry.balance_panel
    assert panel.previous is first
    figures = {
        panel.figure_table.item(r, 0).text(): panel.figure_table.item(r, 2).text()
        for r in range(panel.figure_table.rowCount())
    }
    assert all(figures.values()), [name for name, change in figures.items() if not change]
    assert figures["Rounds per race (4 players)"].lstrip(NOISE_MARK + " ").startswith("-")
    assert "Spaces short, for a stalled car" in figures
    slots = panel.slot_table
    for row in range(6):
        assert slots.item(row, 2).text() and slots.item(row, 4).text()
    changes = [*figures.values(), *(slots.item(r, 2).text() for r in range(6))]
    assert any(c.startswith(NOISE_MARK) for c in changes)  # 30 games: much is noise
    # A share's change is in points, not "%" (which reads as a change relative to it).
    table = panel.figure_table
    rows = {table.item(r, 0).text(): r for r in range(table.rowCount())}
    stalled = table.item(rows["Races with a stalled car"], 2)
    assert stalled.text().endswith(" pt") and slots.item(0, 2).text().endswith(" pt")
    assert "% \u2192 " in stalled.toolTip() and " points (" in stalled.toolTip()
    # A money change's interval is money too, its ends signed as the change is.
    spread = table.item(rows["Money spread, best to worst"], 2).toolTip()
    money = r"[+-]\$\d+\.\dM"
    assert re.search(rf": (\u2248 )?{money} \({money} to {money}\)\n", spread), spread
    assert panel.legend.isVisible() and NOISE_MARK in panel.legend.text()


def test_until_clear_says_what_it_waits_for_and_why_it_stopped(qtbot, quarry, monkeypatch):
    """What the run waits for is on the status line, where it wraps; the bar keeps to
    one line at the default window size (with the wait on it, it took two and the top
    one was cut off)."""
    size = QSize(1500, 940)
    quarry.resize(size)
    qtbot.waitUntil(lambda: quarry.size() == size)
    quarry.balance_dock.raise_()
    panel = quarry.balance_panel
    panel.until_clear_box.setChecked(True)
    assert panel.games_label.text() == "At most"
    panel.games_box.setValue(1200)
    # Every text the bar and the status line are given: on an idle machine the run can
    # be clear before a poll sees what it waited for.
    bar, said = panel.progress, panel.status
    shown: list[str] = []
    widths: list[tuple[int, int]] = []
    set_format, set_text = bar.setFormat, said.setText

    def format_shown(text: str) -> None:
        set_format(text)
        widths.append((bar.fontMetrics().horizontalAdvance(bar.text()), bar.width()))

    monkeypatch.setattr(bar, "setFormat", format_shown)
    monkeypatch.setattr(said, "setText", lambda text: (shown.append(text), set_text(text)))
    quarry.balance_menu.act_simulate.trigger()
    qtbot.waitUntil(lambda: not panel.running, timeout=120_000)
    waits = [text for text in shown if "Waiting for slot" in text]
    assert waits and all("need ±3." in text for text in waits), shown
    assert all(text.startswith("Playing until the answer is clear") for text in waits)
    assert all(advance < width for advance, width in widths), widths
    report = panel.report
    assert report.answer and report.games <= 1200
    assert f"Stopped: {report.answer}." in panel.status.text()
    assert "greedy bots" in panel.status.text()


def test_suggest_fixes_lists_them_best_first_and_applies_one_as_one_undo_step(qtbot, quarry):
    panel = quarry.balance_panel
    run(qtbot, quarry)
    assert panel.suggest()
    assert panel.running and not panel.run_button.isEnabled()
    qtbot.waitUntil(lambda: not panel.running, timeout=120_000)
    fixes = panel.fixes
    search = fixes.search
    assert search is not None and search.trials and fixes.isVisible()
    assert fixes.fix_list.count() == len(search.trials)
    first = fixes.fix_list.item(0).text()
    assert first.startswith(f"1. {search.trials[0].edit.text}")
    assert main_line(search.trials[0]) in first and " to " in first  # with its interval
    fixes.select(0)
    assert "Stalled cars " in fixes.fix_list.item(0).text()  # every figure, once selected
    fixes.choose_none()
    changes = [t.problems.change for t in search.trials]
    assert changes == sorted(changes)
    before = quarry.doc.track.copy()
    steps = quarry.doc.undo_stack.count()
    row = next(r for r, t in enumerate(search.trials) if t.edit.proposal.kind == "line")
    fixes.select(row)
    assert fixes.apply_button.isEnabled()
    qtbot.mouseClick(fixes.apply_button, Qt.MouseButton.LeftButton)
    assert quarry.doc.undo_stack.count() == steps + 1
    assert quarry.doc.track.finish_line != before.finish_line or (
        quarry.doc.track.betting_lines != before.betting_lines
    )
    assert not fixes.apply_button.isEnabled() and fixes.stale  # the circuit changed
    quarry.doc.undo_stack.undo()
    assert quarry.doc.track.to_dict() == before.to_dict()


def test_cancel_stops_a_search_for_fixes(qtbot, quarry):
    panel = quarry.balance_panel
    panel.games_box.setValue(5000)
    assert panel.suggest()
    panel.cancel()
    qtbot.waitUntil(lambda: not panel.running, timeout=60_000)
    assert panel.fixes.search is not None and panel.fixes.search.cancelled
    assert "cancelled" in panel.status.text()


def test_nothing_is_cut_off_at_the_default_size(qtbot, quarry, tmp_path):
    """At the window's default size, after two runs and a search for fixes, every column
    of both tables fits the panel, nothing scrolls sideways, and the fixes wrap whole."""
    size = QSize(1500, 940)
    quarry.resize(size)
    qtbot.waitUntil(lambda: quarry.size() == size)
    quarry.balance_dock.raise_()
    run(qtbot, quarry)
    edit = make_edit(quarry.doc.track, Proposal("line", 2))
    assert apply_edited_track(quarry.doc, edit.track, "Move the finish")
    run(qtbot, quarry)
    panel = quarry.balance_panel
    assert panel.suggest()
    qtbot.waitUntil(lambda: not panel.running, timeout=120_000)
    room = quarry.balance_dock.widget()
    assert isinstance(room, QScrollArea)
    assert room.horizontalScrollBar().maximum() == 0
    rules = panel.rules
    tables = (panel.slot_table, panel.figure_table, *rules.tables)
    assert all(table.isVisible() for table in tables)
    qtbot.waitUntil(lambda: all(t.verticalScrollBar().maximum() == 0 for t in tables))
    for table in tables:
        metrics = table.fontMetrics()
        words = [w for r in range(table.rowCount()) for w in table.item(r, 0).text().split()]
        widest = max(metrics.horizontalAdvance(w) for w in words)
        assert table.columnWidth(0) >= widest + 2 * metrics.averageCharWidth(), table
        header = table.horizontalHeader()
        assert header.length() <= table.viewport().width()
        for column in range(header.count()):
            wanted = max(
                table.sizeHintForColumn(column) if column else 0,  # the first column wraps
                header.sectionSizeFromContents(column).width(),
            )
            assert header.sectionSize(column) >= wanted, (table, column)
    fix_list = panel.fixes.fix_list
    assert fix_list.verticalScrollBar().maximum() == 0
    assert fix_list.horizontalScrollBar().maximum() == 0
    panel.grab().save(str(tmp_path / "balance-panel.png"))  # to look at when it fails


def test_a_run_started_from_the_menu_scrolls_the_dock_back_to_its_buttons(qtbot, quarry):
    """Read down to the last figures, then Tools > Simulate: the progress bar and Cancel
    (and the settings above them) come back into view at the window's default size."""
    size = QSize(1500, 940)
    quarry.resize(size)
    qtbot.waitUntil(lambda: quarry.size() == size)
    quarry.balance_dock.raise_()
    run(qtbot, quarry)
    panel, room = quarry.balance_panel, quarry.balance_dock.widget()
    assert isinstance(room, QScrollArea)
    bar = room.verticalScrollBar()
    qtbot.waitUntil(lambda: bar.maximum() > panel.progress.y())  # results below the fold
    bar.setValue(bar.maximum())

    assert not in_view(room, panel.cancel_button)
    panel.games_box.setValue(5000)
    quarry.balance_menu.act_simulate.trigger()
    qtbot.waitUntil(lambda: in_view(room, panel.progress) and in_view(room, panel.cancel_button))
    assert in_view(room, panel.variant_box) and panel.cancel_button.isEnabled()
    qtbot.mouseClick(panel.cancel_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not panel.running, timeout=60_000)


def test_editing_the_circuit_marks_the_result_stale(qtbot, quarry):
    run(qtbot, quarry)
    space = quarry.doc.track.spaces[10]
    x = sum(c[0] for c in space.corners) / len(space.corners)
    y = sum(c[1] for c in space.corners) / len(space.corners)
    click(qtbot, quarry, x, y)
    quarry.delete_selection()
    assert quarry.balance_panel.stale
    assert "changed" in quarry.balance_panel.status.text()


def test_cancel_stops_a_run(qtbot, quarry):
    panel = quarry.balance_panel
    panel.games_box.setValue(5000)
    quarry.balance_menu.act_simulate.trigger()
    panel.cancel()
    qtbot.waitUntil(lambda: not panel.running, timeout=60_000)
    assert panel.report is not None and panel.report.cancelled
    assert panel.report.games < 5000
    assert "cancelled" in panel.status.text()


def test_the_progress_bar_says_the_time_left(qtbot, quarry):
    """A long run says how long the rest takes, as the command line's bar does (a
    designer waited minutes for fixes with no idea how long). Counted from the start, a
    slow start made it far too long early on busy cores; it is told at the pace the
    games come in once a few have, "estimating" until then. Here the panel's clock says
    the first game came in 20 s after the start and one every 0.1 s after it: from the
    start, game 100 would say 4,900 games at 0.2 s each, 16 min 20 s; the rest takes
    8 min 10 s."""
    panel = quarry.balance_panel
    asked: list[float] = []

    def clock() -> float:
        now = 0.0 if not asked else 20 + 0.1 * (len(asked) - 1)  # a game a call
        asked.append(now)
        return now

    panel.clock = clock
    panel.games_box.setValue(5000)
    quarry.balance_menu.act_simulate.trigger()
    assert panel.progress.text() == "Playing the first games\u2026"  # none in yet
    qtbot.waitUntil(lambda: panel.progress.text().endswith(" left"), timeout=60_000)
    shown = re.fullmatch(r"(\d+) of 5000 games, (.+) left", panel.progress.text())
    assert shown is not None, panel.progress.text()
    games = int(shown[1])
    assert games >= 1 + Pace.FEWEST_SECONDS / 0.1  # estimating until then
    # The clock moves a game a call, but the workers may report a few games between
    # two calls, so the pace is taken over a count a game or two from the one shown.
    near = {duration((5000 - g) * 0.1) for g in range(games - 3, games + 4)}
    assert shown[2] in near, (shown[2], sorted(near))
    panel.cancel()
    qtbot.waitUntil(lambda: not panel.running, timeout=60_000)


def test_a_circuit_with_errors_is_not_simulated(qtbot, window):
    """Started anyway (as the menu's keys did), a run says why it cannot start in the
    words of the Simulate button's tooltip (it said them otherwise)."""
    window.new_blank()
    panel = window.balance_panel
    assert not panel.start()
    said = panel.status.text()
    assert said and said == panel.cannot_simulate() == panel.run_button.toolTip()


@pytest.mark.parametrize(
    "size",
    [QSize(1500, 940), QSize(1024, 700), QSize(768, 517)],  # the last: 200 % on 1536 x 1034
)
def test_the_hints_are_in_view_after_a_run_without_scrolling(qtbot, quarry, size):
    """At the default size, on a small screen and at 200 % the hints show whole when a
    run ends (the dock scrolls to them if need be), never cut at its bottom edge, when
    they fit under the run's status line and headline; else the status line, the
    headline and the first hint show whole, the rest a scroll further down."""
    quarry.resize(size)
    qtbot.waitUntil(lambda: quarry.size() == size)
    quarry.balance_dock.raise_()
    run(qtbot, quarry)
    panel = quarry.balance_panel
    room = quarry.balance_dock.widget()
    assert isinstance(room, QScrollArea)
    viewport = room.viewport()

    def whole(row: int) -> bool:
        rect = panel.hint_list.visualItemRect(panel.hint_list.item(row))
        top_left = panel.hint_list.viewport().mapTo(viewport, rect.topLeft())
        bottom_right = panel.hint_list.viewport().mapTo(viewport, rect.bottomRight())
        return viewport.rect().contains(top_left) and viewport.rect().contains(bottom_right)

    def hints_whole() -> bool:
        hint_list = panel.hint_list
        if not (
            hint_list.count() > 0
            and hint_list.isVisible()
            and hint_list.verticalScrollBar().maximum() == 0
            and in_view(room, panel.status)
            and in_view(room, panel.headline)
        ):
            return False
        below_status = hint_list.y() + hint_list.height() - panel.status.y()
        rows = range(hint_list.count()) if below_status <= viewport.height() else [0]
        return all(whole(row) for row in rows)

    qtbot.waitUntil(hints_whole)  # the list lays its rows out after it is shown


def first_fix_in_view(room: QScrollArea, fixes) -> bool:
    """True when the first fix of the list shows whole in the scroll area ``room``."""
    viewport = room.viewport()
    rect = fixes.fix_list.visualItemRect(fixes.fix_list.item(0))
    top_left = fixes.fix_list.viewport().mapTo(viewport, rect.topLeft())
    bottom_right = fixes.fix_list.viewport().mapTo(viewport, rect.bottomRight())
    return viewport.rect().contains(top_left) and viewport.rect().contains(bottom_right)


@pytest.mark.parametrize("size", [QSize(1500, 940), QSize(1024, 700)])
def test_a_check_and_a_search_for_fixes_scroll_their_answer_into_view(qtbot, quarry, size):
    """At the default size and on a small screen, what the designer just asked for shows
    when it ends, as a run's status line and hints do: Check with Stronger Bots' verdict
    line whole, and after Suggest fixes the summary over the list (its first words
    were cut at the top edge: the dock centred the box, taller than the dock) and the
    first fix whole. The top edge cuts nothing in half."""
    quarry.resize(size)
    qtbot.waitUntil(lambda: quarry.size() == size)
    quarry.balance_dock.raise_()
    panel, room = quarry.balance_panel, quarry.balance_dock.widget()
    panel.players_box.setValue(3)
    panel.bots_box.setCurrentText("One greedy, the rest random")  # a quick check
    run(qtbot, quarry)
    bar = room.verticalScrollBar()
    qtbot.waitUntil(lambda: in_view(room, panel.status), timeout=20_000)
    qtbot.mouseClick(panel.check_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not panel.running, timeout=120_000)
    assert panel.verdict.text().startswith("The verdict ")
    qtbot.waitUntil(
        lambda: in_view(room, panel.verdict) and in_view(room, panel.headline), timeout=20_000
    )
    assert cut_at_the_top(room, panel) == []
    bar.setValue(bar.maximum())  # reading the figures at the bottom
    quarry.balance_menu.act_suggest_fixes.trigger()
    qtbot.waitUntil(lambda: not panel.running, timeout=120_000)
    fixes = panel.fixes
    # The box grows to its fixes once the dock lays it out again, an event or two after
    # the search ends (later on a loaded machine): taller than the dock is the case here.
    qtbot.waitUntil(
        lambda: fixes.fix_list.count() > 1 and fixes.height() > room.viewport().height(),
        timeout=20_000,
    )
    qtbot.waitUntil(
        lambda: in_view(room, fixes.summary) and first_fix_in_view(room, fixes), timeout=20_000
    )
    assert cut_at_the_top(room, panel) == []


def test_after_a_first_run_at_the_default_size_the_buttons_show_with_the_hints(qtbot, quarry):
    """At the window's default size the docks above the Issues list leave the Balance
    panel room for its buttons and a first run's hints at once: Suggest fixes is not
    scrolled away (nor cut in half) to show them."""
    size = QSize(1500, 940)
    quarry.resize(size)
    qtbot.waitUntil(lambda: quarry.size() == size)
    quarry.balance_dock.raise_()
    panel = quarry.balance_panel
    panel.games_box.setValue(60)
    run(qtbot, quarry)
    room = quarry.balance_dock.widget()
    qtbot.waitUntil(lambda: panel.hint_list.isVisible() and in_view(room, panel.hint_list))
    assert panel.hint_list.count() >= 5
    for button in (panel.run_button, panel.suggest_button, panel.check_button):
        assert in_view(room, button), button.text()


def test_a_lane_fix_at_a_jam_is_tried_and_applied_by_re_applying_its_layout(
    qtbot, window, tmp_path
):
    """A loop drawn with the lane tool, one piece a single lane wide: cars jam before it,
    Suggest fixes tries a lane more there, and Apply re-applies the kept layout as one
    undo step."""
    path = tmp_path / "narrow.yaml"
    save_track(narrow_loop(), path)
    assert window.open_file(str(path))
    panel = window.balance_panel
    panel.games_box.setMinimum(1)
    panel.games_box.setValue(40)
    panel.workers_box.setValue(1)
    run(qtbot, window)
    assert any(
        "The track narrows to one lane at a29, a30, a31 and a32" in panel.hint_list.item(i).text()
        for i in range(panel.hint_list.count())
    )
    assert panel.suggest()
    qtbot.waitUntil(lambda: not panel.running, timeout=120_000)
    trials = panel.fixes.search.trials
    row = next(r for r, t in enumerate(trials) if t.edit.proposal == Proposal("lanes", 1, piece=3))
    assert trials[row].edit.text.startswith("1 lane added to piece 4")
    panel.fixes.select(row)
    steps = window.doc.undo_stack.count()
    assert panel.fixes.apply_selected()
    assert window.doc.undo_stack.count() == steps + 1
    assert len(window.doc.track.spaces) == 140
    assert window.doc.lane_layouts[0].pieces[3].lanes == 2
    window.doc.undo_stack.undo()
    assert len(window.doc.track.spaces) == 136
    window.doc.undo_stack.redo()  # the circuit the fix made again: said to be applied
    assert panel.fixes.applied is trials[row]
    assert panel.fixes.summary.text().startswith(f"Applied: {trials[row].edit.text}.")


def test_a_fix_no_track_file_could_hold_is_not_applied_and_says_why(quarry):
    """Apply makes its undo commands, which refuse what a file cannot hold; the panel
    says so and the circuit and its history stay as they were (the refusal escaped to
    the error guard, the fixes box saying nothing)."""
    track = quarry.doc.track.copy()
    track.finish_line = ((0.0, 0.0), (2_000_000.0, 0.0))  # past the board a file holds
    edit = Edit(Proposal("line", 3), "Move the finish far away", (), track)
    same = Measured(1.0, 1.0, -0.5, 0.5)
    trial = Trial(edit, 1, same, same, same, same, BalanceReport("quarry", "standard", 4, []))
    fixes = quarry.balance_panel.fixes
    fixes.show_search(FixSearch(BalanceReport("quarry", "standard", 4, [], games=1), [trial]))
    fixes.select(0)
    before, steps = quarry.doc.track.to_dict(), quarry.doc.undo_stack.count()
    assert not fixes.apply_selected()
    assert fixes.summary.text().startswith("Not applied: ")
    assert "1,000,000 mm" in fixes.summary.text()
    assert quarry.doc.track.to_dict() == before and quarry.doc.undo_stack.count() == steps


def test_the_rules_section_shows_the_powers_the_auction_and_the_betting(qtbot, quarry):
    panel = quarry.balance_panel
    run(qtbot, quarry)
    rules = panel.rules
    assert rules.isVisible() and "Standard" in rules.heading.text()
    powers = rules.power_table
    names = [powers.item(r, 0).text().splitlines()[0] for r in range(powers.rowCount())]
    assert names == [
        "Aggressive",
        "Cunning",
        "Determined",
        "Strategic",
        "Tricky",
        "Unpredictable",
    ]
    report = panel.report
    held = report.rules.power["aggressive"]
    share = held.win_share()
    digits = range_digits(share[1], share[2], 1 / 4)
    assert powers.item(0, 1).text() == percent_range(*share, digits)  # "31% (27-35)"
    beyond = report.rules.powers_beyond_chance(4)
    for r, (name, _totals) in enumerate(report.rules.held_powers()):
        assert powers.item(r, 1).font().bold() == (name in beyond)
    shown = [t.item(r, c).text() for t in rules.tables for r in range(t.rowCount()) for c in (1,)]
    shares = [text for text in shown if "%" in text]
    assert shares and not any("±" in text for text in shares)
    auction = panel.rules.auction_table
    assert auction.rowCount() == 12  # six grid slots, six powers
    assert auction.item(0, 0).text() == f"Slot 1 {report.grid[0]}"
    pole = report.rules.slots[0]
    # Money reads one way in every table and hint: "$3.4M (3.1-3.7)"; in the tables of
    # five columns the interval goes under the amount.
    price = money_range(pole.price.mean, *pole.price.interval())
    assert auction.item(0, 1).text() == price.replace(" (", "\n(")
    figures = rules.figure_table
    names = [figures.item(r, 0).text() for r in range(figures.rowCount())]
    assert names[:2] == ["Winner's money from bets", "Winner's bets that paid"]
    assert "Bet 3 payout" in names and "Winner decided by bet 3" in names
    money_cells = [auction.item(r, c).text() for r in range(12) for c in (1, 3)]
    money_cells += [powers.item(r, 3).text() for r in range(6)]
    money_cells += [figures.item(names.index(f"Bet {k} payout"), 1).text() for k in (1, 2, 3)]
    form = r"\$\d+\.\dM\s\(\d+\.\d\u2013\d+\.\d\)"
    assert all(re.fullmatch(form, text) for text in money_cells), money_cells
    assert "Aggressive taken in the auction" in names
    assert all(figures.item(r, 1).text() for r in range(figures.rowCount()))
    assert not powers.item(0, 2).text()  # nothing to compare with yet


def test_the_power_table_says_how_many_games_each_power_was_kept_in(qtbot, quarry):
    """A holder's share is marked by the powers' shares judged together, each by its own
    games: under each power's name, the games it was kept in, marked or not."""
    panel = quarry.balance_panel
    run(qtbot, quarry)
    powers = panel.rules.power_table
    held = panel.report.rules.held_powers()
    cells = [powers.item(r, 0).text() for r in range(powers.rowCount())]
    assert cells == [f"{name.title()}\n{totals.held:,} games" for name, totals in held]
    # Four players keep one power each a game, the six shared out among them.
    assert sum(totals.held for _name, totals in held) == 4 * panel.report.games
    assert "games" in powers.item(0, 0).toolTip()


def test_a_variant_without_an_auction_powers_or_betting_shows_no_such_rows(qtbot, quarry):
    panel = quarry.balance_panel
    panel.variant_box.setCurrentText("Beginner")
    run(qtbot, quarry)
    rules = panel.rules
    assert "no auction, no powers, no betting" in rules.heading.text()
    assert not any(table.isVisible() for table in rules.tables)


ODDS = (
    "format: trackside-variant/1\nname: Odds betting\nextends: standard\n"
    "payouts:\n  race: [10, 8, 6, 4, 2, 0]\n  bets: [[8], [12], [16]]\n"
)


def compare_with_odds(window, tmp_path):
    """Tools > Compare with Variant… answered with a variant file of the designer's,
    odds betting (bet 3 pays 16 on the winner); its Balance panel, comparing."""
    odds = tmp_path / "odds.yaml"
    odds.write_text(ODDS)
    window.prompts.variant_answer = str(odds)
    window.balance_menu.act_compare_variant.trigger()
    return window.balance_panel


def test_compare_with_variant_plays_both_on_the_same_games_and_shows_the_changes(
    qtbot, quarry, tmp_path
):
    """Tools > Compare with Variant… with a variant file of the designer's: both
    variants play the same 30 games in the background, then the panel shows the second
    with every figure's change from the first, the rule figures' too."""
    panel = compare_with_odds(quarry, tmp_path)
    offered = ["Beginner", "Long Distance", "Two Player", "World Tour"]  # not Standard itself
    assert ("compare_variant", "Standard", offered) in quarry.prompts.asked
    assert panel.running and panel.progress.maximum() == 60
    assert panel.cancel_button.isEnabled() and not panel.run_button.isEnabled()
    qtbot.waitUntil(lambda: not panel.running, timeout=60_000)
    assert panel.previous.variant == "Standard" and panel.report.variant == "Odds betting"
    assert panel.previous.games == panel.report.games == 30
    assert "Changes are from Standard on the same 30 games (paired)." in panel.status.text()
    rules = panel.rules
    figures = rules.figure_table
    changes = {
        figures.item(r, 0).text(): figures.item(r, 2).text() for r in range(figures.rowCount())
    }
    assert all(changes.values()), changes
    # Bet 3 pays 16 on the winner instead of 3, 2 or 1: far beyond noise.
    assert changes["Bet 3 payout"].startswith("+$")
    assert all(rules.power_table.item(r, 2).text() for r in range(6))
    assert all(rules.auction_table.item(r, 4).text() for r in range(12))
    assert panel.legend.isVisible()


# Signed ends, money's in money: "(-0.8 to +3.1)", "(-$3.2M to -$0.2M)".
INTERVAL = re.compile(r" \(([+-])(\$?)\d+\.\d+M? to ([+-])\2\d+\.\d+M?\)$", re.M)


def test_every_change_cell_of_a_comparison_tells_its_interval_in_its_tooltip(
    qtbot, quarry, tmp_path
):
    """The dock has no room for a change's 95% interval, so each Change cell of every
    table (figures, grid slots, powers, cars, bets) tells it in its tooltip in the words
    of ``simulate --against``; a change marked within noise has an interval that holds
    0, an unmarked one an interval that does not, and the tooltip says so plainly."""
    panel = compare_with_odds(quarry, tmp_path)
    qtbot.waitUntil(lambda: not panel.running, timeout=60_000)
    tables = [panel.slot_table, panel.figure_table, *panel.rules.tables]
    seen = {"marked": 0, "beyond noise": 0, "balance": 0}
    for table in tables:
        model = table.model()
        columns = [
            c
            for c in range(table.columnCount())
            if table.horizontalHeaderItem(c).text() == "Change"
        ]
        assert columns
        for r in range(table.rowCount()):
            for c in columns:
                shown = table.item(r, c).text()
                tip = model.data(model.index(r, c), Qt.ItemDataRole.ToolTipRole)
                if not shown:
                    continue  # nothing to compare
                first = tip.splitlines()[0]
                assert f": {shown.replace(' pt', ' points')}" in first  # the command's words
                if table.item(r, 0).text() == "Balance":  # no interval: how it is judged
                    judged = " ".join(tip.splitlines()[1:])
                    assert judged.startswith(BALANCE_JUDGED), tip
                    assert all(len(line) <= 80 for line in tip.splitlines()), tip
                    assert ("within noise" in judged) == shown.startswith(NOISE_MARK), tip
                    seen["balance"] += 1
                    continue
                found = INTERVAL.search(first)
                if found is None:  # no spread at all (every game alike): no interval to give
                    assert " to " not in tip
                    continue
                within = found.group(1) != found.group(3)  # its ends either side of none
                assert bool(found.group(2)) == ("$" in shown), tip  # money in money
                assert within == shown.startswith(NOISE_MARK), (shown, tip)
                # What the interval says, plainly: whether it includes 0.
                assert tip.splitlines()[1] == (
                    "The 95% interval (in brackets) includes 0: this change could be chance "
                    "(within noise)."
                    if within
                    else "The 95% interval (in brackets) does not include 0: a real change, "
                    "beyond noise."
                ), tip
                seen["marked" if within else "beyond noise"] += 1
    assert seen["marked"] and seen["beyond noise"], seen  # Bet 3 pays 16, not 3: beyond
    assert seen["balance"] == 1, seen


HOUSE_RULES = (
    "format: trackside-variant/1\nname: House rules\n"
    "description: Bigger winner payout, smaller hands\nextends: standard\n"
    "payouts:\n  race: [15, 9, 6, 4, 2, 0]\nhand:\n  mode: common\n  size: 5\n"
)


@pytest.mark.parametrize(
    ("bots", "games", "workers"),
    [("One strong, the rest greedy", 10, 1), (None, 30, 2)],
    ids=["a strong bot, here", "the lab's bots, two worker processes"],
)
def test_compare_with_a_variant_of_common_hands_finishes_and_shows_it(
    qtbot, quarry, tmp_path, bots, games, workers
):
    """A designer's variant with its own race payouts and a common hand of five, against
    Standard's dealt hands: both are played on the same games, with a strong bot in the
    panel's own thread or in worker processes, the bar counts them all, and the panel
    then shows the variant with its changes. (A script that waited with QTest.qWait
    held Python's lock, so the games never came in: the panel was not stuck.)"""
    house = tmp_path / "house.yaml"
    house.write_text(HOUSE_RULES)
    panel = quarry.balance_panel
    if bots:
        panel.bots_box.setCurrentText(bots)
    panel.games_box.setValue(games)
    panel.workers_box.setValue(workers)
    counted: list[int] = []
    panel.progress.valueChanged.connect(counted.append)
    quarry.prompts.variant_answer = str(house)
    quarry.balance_menu.act_compare_variant.trigger()
    assert panel.running
    assert panel.status.text() == (
        f"Playing {games} games of Standard and the same games of House rules…"
    )
    # Before the first part of games comes in (worker processes starting, a strong
    # bot's first games), the bar says what it waits for, then counts the games.
    assert panel.progress.value() == 0
    assert panel.progress.text() == (
        "Playing the first games…"
        if workers == 1
        else f"Starting {workers} workers and playing the first games…"
    )
    qtbot.waitUntil(lambda: panel.progress.value() > 0, timeout=120_000)
    assert re.match(rf"\d+ of {2 * games} games\b", panel.progress.text())
    qtbot.waitUntil(lambda: not panel.running, timeout=120_000)
    assert counted[-1] == 2 * games and counted == sorted(counted)
    assert (panel.previous.variant, panel.report.variant) == ("Standard", "House rules")
    assert panel.previous.games == panel.report.games == games
    assert not panel.report.cancelled
    said = f"Changes are from Standard on the same {games} games (paired)."
    assert said in panel.status.text()
    assert "Balance" in panel.headline.text() and not panel.progress.isVisible()
    assert all(panel.slot_table.item(r, 2).text() for r in range(6))
    assert panel.run_button.isEnabled()


def test_a_run_after_a_comparison_shows_changes_from_the_run_before_it(qtbot, quarry):
    """After Compare with Variant shows the other variant, the next run's changes are
    from the designer's own run before, and the status says so: they were from the
    other variant, unnamed, so an edit seemed to change what the rules did."""
    panel = quarry.balance_panel
    run(qtbot, quarry)
    own = panel.report
    quarry.prompts.variant_answer = "long-distance"
    quarry.balance_menu.act_compare_variant.trigger()
    qtbot.waitUntil(lambda: not panel.running, timeout=60_000)
    assert panel.report.variant == "Long distance"
    run(qtbot, quarry)
    assert panel.report.variant == "Standard"
    assert panel.previous is own
    assert (
        "Changes are from the run before (30 games of Standard with 4 players and greedy bots)."
        in panel.status.text()
    )


def test_a_cancelled_comparison_keeps_the_games_both_variants_played(qtbot, quarry):
    quarry.prompts.variant_answer = "long-distance"
    panel = quarry.balance_panel
    panel.games_box.setValue(5000)
    quarry.balance_menu.act_compare_variant.trigger()
    qtbot.waitUntil(lambda: panel.progress.value() >= 20, timeout=60_000)
    panel.cancel()
    qtbot.waitUntil(lambda: not panel.running, timeout=60_000)
    assert panel.report.cancelled and 0 < panel.report.games < 5000
    assert panel.previous.games == panel.report.games


def test_compare_with_variant_refuses_a_table_the_variant_cannot_have(qtbot, quarry):
    quarry.prompts.variant_answer = "two-player"
    quarry.balance_menu.act_compare_variant.trigger()
    panel = quarry.balance_panel
    assert not panel.running
    assert "Two players is for 2 to 2 players, not 4" in panel.status.text()


def test_a_saved_report_of_version_1_is_compared_with(qtbot, quarry, tmp_path):
    """A report written before the rule figures (format 1): the next figures show their
    change from it; its rule figures are absent, so theirs show none."""
    panel = quarry.balance_panel
    run(qtbot, quarry)
    quarry.prompts.report_answer = str(FIXTURES / "reports" / "balance-v1.json")
    quarry.balance_menu.act_compare_report.trigger()
    assert panel.previous is not None and panel.previous.games == 40
    assert "Changes are from the saved report" in panel.status.text()
    assert all(panel.slot_table.item(r, 2).text() for r in range(6))
    assert not panel.rules.power_table.item(0, 2).text()
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "trackside-fixes/2"}')
    assert not panel.compare_with_saved(str(bad))
    assert "not a balance report" in panel.status.text() and str(bad) in panel.status.text()


def test_compare_with_a_broken_variant_file_lists_every_problem(qtbot, quarry, tmp_path):
    """Each problem of the file on its own line with its place, not only the first."""
    bad = tmp_path / "bad.yaml"
    bad.write_text(
        "format: trackside-variant/1\nname: Bad\nextends: standard\n"
        "payouts:\n  race: [10, x, 6]\nhand:\n  size: -3\n"
    )
    quarry.prompts.variant_answer = str(bad)
    quarry.balance_menu.act_compare_variant.trigger()
    panel = quarry.balance_panel
    assert not panel.running
    lines = panel.status.text().splitlines()
    assert len(lines) == 3 and all(line.startswith(f"{bad}:") for line in lines)
    assert any("hand.size" in line for line in lines)
    assert any("payouts.race[1]" in line for line in lines)


def test_the_balance_carries_its_interval(qtbot, quarry):
    """The headline says brackets hold a 95% interval: the Balance figure has one, in
    the headline and in the figures table, the one its report computes."""
    panel = quarry.balance_panel
    run(qtbot, quarry)
    report = panel.report
    low, high = report.balance_interval()
    assert low <= report.balance <= high
    shown = f"{report.balance:.2f} ({low:.2f}\u2013{high:.2f})"
    assert f"Balance {shown}" in panel.headline.text()
    assert panel.figure_table.item(0, 0).text() == "Balance"
    assert panel.figure_table.item(0, 1).text() == shown


def cut_at_the_top(room: QScrollArea, panel) -> list[str]:
    """The panel's parts the dock's top edge cuts through (part above it, part below)."""
    viewport = room.viewport()
    cut = []
    for child in panel.findChildren(QWidget):
        if child.parentWidget() is not panel or not child.isVisible():
            continue
        top = child.mapTo(viewport, QPoint(0, 0)).y()
        if top < 0 < top + child.height():
            cut.append(type(child).__name__ + " " + getattr(child, "text", lambda: "")()[:30])
    return cut


def greedy_run(qtbot, window, track: str):
    """At the window's default size, ``track`` open: 200 games with greedy bots."""
    size = QSize(1500, 940)
    window.resize(size)
    qtbot.waitUntil(lambda: window.size() == size)
    assert window.open_file(resolve_track(track))
    window.balance_dock.raise_()
    panel = window.balance_panel
    panel.games_box.setValue(200)
    panel.workers_box.setValue(1)
    panel.bots_box.setCurrentText("Greedy bots")
    run(qtbot, window)
    return panel


@pytest.mark.parametrize("track", ["quarry-hairpin", "harbour-loop"])
def test_a_finished_run_shows_its_status_line_and_headline_whole(qtbot, window, track):
    """200 games with greedy bots at the window's default size: when the run ends, the
    status line (what was played, in how long) and the headline show whole over the
    hints, and the dock's top edge cuts no line or button in half."""
    panel = greedy_run(qtbot, window, track)
    room = window.balance_dock.widget()
    assert isinstance(room, QScrollArea)
    assert "200 games" in panel.status.text()
    qtbot.waitUntil(lambda: in_view(room, panel.status) and in_view(room, panel.headline))
    assert panel.hint_list.isVisible()
    assert cut_at_the_top(room, panel) == []


def test_after_a_second_run_every_power_s_name_fits_its_column(qtbot, window):
    """Harbour Loop, 200 games with greedy bots twice at the window's default size: the
    Change columns take room, yet every word of every table (the longest power name,
    "Unpredictable", among them) fits its column, the figures wrapping to make room,
    and no table is wider than the panel."""
    panel = greedy_run(qtbot, window, "harbour-loop")
    run(qtbot, window)
    powers = panel.rules.power_table
    names = [powers.item(r, 0).text().splitlines()[0] for r in range(powers.rowCount())]
    assert "Unpredictable" in names
    margin = 2 * (powers.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin) + 1)
    for table in (panel.slot_table, panel.figure_table, *panel.rules.tables):
        if not table.isVisible():
            continue
        header = table.horizontalHeader()
        qtbot.waitUntil(lambda t=table, h=header: h.length() <= t.viewport().width())
        for r in range(table.rowCount()):
            for c in range(table.columnCount()):
                item = table.item(r, c)
                metrics = QFontMetrics(item.font())
                for word in item.text().split():
                    assert table.columnWidth(c) >= metrics.horizontalAdvance(word) + margin, (
                        word,
                        table.columnWidth(c),
                    )


def test_the_rules_hints_stand_apart_under_a_heading_after_the_circuit_s(quarry):
    """A power worth less is the variant's doing: no edit of the circuit changes it, so
    its hint is listed after the circuit's, under a heading of its own that cannot be
    chosen, not among them with the same look."""
    from trackside.engine.balance.rules import PowerTotals
    from trackside.engine.balance.wording import RULES_HEADING
    from trackside.engine.tallies import SHARE_UNIT

    panel = quarry.balance_panel
    report = BalanceReport("Quarry Hairpin", "standard", 4, ["strong"] * 4, games=400)
    report.slot_wins = [100, 60, 60, 60, 60, 60]
    report.seat_wins = [60 * 400 // 4] * 4
    report.line_reached = [400] * 3
    report.grid = list(quarry.doc.track.start_grid)
    report.first_round_stuck = [0, 0, 0, 0, 150, 0]
    report.rules.powers = ("cunning", "drafting")
    report.rules.power["cunning"] = PowerTotals(400, 20 * SHARE_UNIT)
    report.rules.power["drafting"] = PowerTotals(400, 100 * SHARE_UNIT)
    panel.show_report(report)
    items = [panel.hint_list.item(i) for i in range(panel.hint_list.count())]
    texts = [item.text() for item in items]
    heading = texts.index(RULES_HEADING)
    assert texts[heading + 1].startswith("Cunning is worth less than the other powers")
    assert heading + 2 == len(texts)  # the rules' hints are the last
    assert any("boxed in at the start" in text for text in texts[:heading])
    assert not any("powers" in text for text in texts[:heading])
    title = items[heading]
    assert title.font().bold() and title.icon().isNull()
    assert not title.flags() & Qt.ItemFlag.ItemIsSelectable


def test_a_grid_slot_row_says_which_slot_it_is_and_its_tooltip_rounds_as_its_cell(qtbot, quarry):
    """A slot row's tooltip says in words which slot it is (it read "Grid slot 5 (1: the
    pole)…"); the Wins cell's tooltip gives its interval to the cell's own decimals (a
    cell "3.3% (0.6 to 16.7)" had the tooltip "1% to 17%")."""
    panel = quarry.balance_panel
    run(qtbot, quarry)
    report = panel.report
    assert report.games == 30
    # 1 win in 30 and 9 in 30 have an end at the fair 16.7%, shown to a tenth.
    panel.show_report(replace(report, slot_wins=[9, 1, 5, 5, 5, 5]), panel.report_track)
    table = panel.slot_table
    assert table.item(0, 0).toolTip() == (
        f"Grid slot 1, the pole: the car that starts on {report.grid[0]}"
    )
    assert table.item(4, 0).toolTip().startswith("Grid slot 5, fifth on the grid: ")
    tenths = 0
    for row in range(6):
        cell = table.item(row, 1)
        low, high = re.search(r"\((\S+)\u2013(\S+)\)", cell.text()).groups()
        assert cell.toolTip().startswith(f"95% interval {low}% to {high}%"), cell.toolTip()
        tenths += "." in low
    assert tenths == 2


def type_games(qtbot, panel, text: str) -> None:
    """Type ``text`` into the Games box as a designer does: over what it holds."""
    box = panel.games_box
    box.setFocus()
    box.lineEdit().selectAll()
    qtbot.keyClicks(box.lineEdit(), text)
    qtbot.keyClick(box.lineEdit(), Qt.Key.Key_Tab)


def test_until_clear_keeps_the_number_typed_as_its_cap(qtbot, window):
    """Games typed, then Until clear ticked: the number typed is the cap of the run
    (a budget), where ticking put 10,000 in its place and the run went past it."""
    assert window.open_file(resolve_track("quarry-hairpin"))
    panel = window.balance_panel
    panel.workers_box.setValue(1)
    type_games(qtbot, panel, "40")
    panel.until_clear_box.click()
    assert panel.games_label.text() == "At most" and panel.games_box.value() == 40
    assert "10,000 unless you set" in panel.games_box.toolTip()
    window.balance_menu.act_simulate.trigger()
    assert panel.progress.maximum() == 40
    qtbot.waitUntil(lambda: not panel.running, timeout=120_000)
    assert 0 < panel.report.games <= 40
    panel.until_clear_box.click()  # unticked: the number stays the designer's
    assert panel.games_label.text() == "Games" and panel.games_box.value() == 40


def test_until_clear_without_a_number_typed_caps_at_ten_thousand(qtbot, window):
    panel = window.balance_panel
    assert panel.games_box.value() == 200
    panel.until_clear_box.click()
    assert panel.games_label.text() == "At most" and panel.games_box.value() == 10_000
    panel.until_clear_box.click()
    assert panel.games_label.text() == "Games" and panel.games_box.value() == 200


@pytest.mark.parametrize("locale", ["en_US", "de_DE"])
def test_the_games_box_groups_its_digits_and_takes_them_typed_either_way(qtbot, window, locale):
    """The Games box showed 10000 where the panel's text says 10,000: the count boxes
    group their digits as the locale writes them, and a number typed with or without
    the separator is the number the run plays."""
    assert window.open_file(resolve_track("quarry-hairpin"))
    panel = window.balance_panel
    for box in (panel.games_box, panel.workers_box):
        box.setLocale(QLocale(locale))
    sep = QLocale(locale).groupSeparator()
    panel.until_clear_box.click()
    assert panel.games_box.text() == f"10{sep}000"
    panel.until_clear_box.click()
    refused = []
    panel.games_box.refused.connect(refused.append)
    for typed in ("12500", f"12{sep}500"):
        type_games(qtbot, panel, typed)
        assert panel.games_box.value() == 12_500, typed
        assert panel.games_box.text() == f"12{sep}500", typed
    assert not refused  # the separator typed is no stray sign
    panel.workers_box.setMaximum(2048)  # as on a machine of that many cores
    panel.workers_box.setValue(1500)
    assert panel.workers_box.text() == f"1{sep}500"
    panel.workers_box.setValue(1)
    window.balance_menu.act_simulate.trigger()
    assert panel.running and panel.progress.maximum() == 12_500
    panel.cancel()
    qtbot.waitUntil(lambda: not panel.running, timeout=60_000)
    assert panel.report is not None and panel.report.games < 12_500
