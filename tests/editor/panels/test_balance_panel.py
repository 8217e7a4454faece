"""The Balance panel: simulate from the editor, see the figures, hints that jump to
spaces, the heat map on the canvas, compare runs, stale when the circuit changes."""

from __future__ import annotations

import pytest
from conftest_helpers import click
from PySide6.QtCore import QPoint, QSize, Qt
from PySide6.QtWidgets import QScrollArea

from trackside.engine.resources import resolve_track

pytestmark = pytest.mark.gui


@pytest.fixture
def quarry(window):
    assert window.open_file(resolve_track("quarry-hairpin"))
    panel = window.balance_panel
    panel.games_box.setMinimum(1)
    panel.games_box.setValue(30)
    panel.workers_box.setValue(1)
    return window


def run(qtbot, window) -> None:
    window.act_simulate.trigger()
    assert window.balance_panel.running
    qtbot.waitUntil(lambda: not window.balance_panel.running, timeout=60_000)


def test_simulate_fills_the_panel_and_the_window_stays_usable(qtbot, quarry):
    panel = quarry.balance_panel
    assert not quarry.act_heatmap.isEnabled()
    run(qtbot, quarry)
    assert panel.report is not None and panel.report.games == 30
    assert "Balance" in panel.headline.text()
    assert panel.slot_table.rowCount() == 6
    assert panel.slot_table.item(0, 1).text() == panel.report.grid[0]
    texts = [panel.hint_list.item(i).text() for i in range(panel.hint_list.count())]
    assert any("stall" in t for t in texts)
    assert "30 games" in panel.status.text()
    assert quarry.act_heatmap.isEnabled()


def test_a_hint_outlines_its_space_without_selecting_it(qtbot, quarry):
    """A hint shows its space, but what the tools act on stays as it was: a Move By
    after the click moves the whole circuit, not the hint's space alone."""
    panel = quarry.balance_panel
    run(qtbot, quarry)
    rows = [i for i in range(panel.hint_list.count()) if panel.hint_list.item(i).data(256)]
    assert rows, "no hint names a space"
    item = panel.hint_list.item(rows[0])  # Qt.UserRole: the space the hint is about
    rect = panel.hint_list.visualItemRect(item)
    panel.hint_list.scrollToItem(item)
    qtbot.mouseClick(panel.hint_list.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    index = quarry.doc.index_of(item.data(256))
    assert quarry.scene.pointed_indices() == [index]
    assert quarry.scene.selected_indices() == []
    assert f"Space {item.data(256)} is outlined, not selected" in (
        quarry.statusBar().currentMessage()
    )
    before = [list(sp.corners) for sp in quarry.doc.track.spaces]
    quarry.prompts.offset_answer = (10.0, 0.0)
    quarry.transforms.act_move_by.trigger()
    after = [list(sp.corners) for sp in quarry.doc.track.spaces]
    assert all(a != b for a, b in zip(after, before, strict=True))  # every space moved
    quarry.set_tool("select")
    quarry.show_spaces([item.data(256)], select=False)
    qtbot.keyClick(quarry.view, Qt.Key.Key_Escape)
    assert quarry.scene.pointed_indices() == []


def test_the_heat_map_tints_spaces_and_follows_the_view_menu(qtbot, quarry):
    run(qtbot, quarry)
    quarry.act_heatmap.trigger()
    assert quarry.heatmap.isVisible()
    values = quarry.heatmap.values
    assert values and max(values.values()) > 0
    assert set(values) <= {s.id for s in quarry.doc.track.spaces}
    quarry.balance_panel.set_heat("blocked")
    assert quarry.heatmap.title.startswith("Moves ending blocked")
    legend = quarry.heat_legend
    assert legend.isVisible() and legend.title == quarry.heatmap.title
    # The legend stays whole in the canvas corner however the board is zoomed or scrolled.
    quarry.view.set_zoom(8.0)
    quarry.view.centerOn(quarry.heatmap.boundingRect().bottomRight())
    viewport = quarry.view.viewport().geometry()
    assert legend.isVisible() and viewport.contains(legend.geometry())
    assert legend.geometry().topLeft() == viewport.topLeft() + QPoint(8, 8)
    assert not quarry.heatmap.boundingRect().contains(quarry.heatmap.map.legend_rect())
    quarry.act_heatmap.trigger()
    assert not quarry.heatmap.isVisible() and not legend.isVisible()


def test_a_second_run_compares_with_the_first(qtbot, quarry):
    run(qtbot, quarry)
    first = quarry.balance_panel.report
    run(qtbot, quarry)
    panel = quarry.balance_panel
    assert panel.previous is first
    changes = [panel.figure_table.item(r, 2).text() for r in range(panel.figure_table.rowCount())]
    assert any("(noise)" in c or "=" in c for c in changes if c)


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
    quarry.act_simulate.trigger()
    panel.cancel()
    qtbot.waitUntil(lambda: not panel.running, timeout=60_000)
    assert panel.report is not None and panel.report.cancelled
    assert panel.report.games < 5000
    assert "cancelled" in panel.status.text()


def test_a_circuit_with_errors_is_not_simulated(qtbot, window):
    window.new_blank()
    assert not window.balance_panel.start()
    assert "error" in window.balance_panel.status.text()


@pytest.mark.parametrize(
    "size",
    [QSize(1500, 940), QSize(1024, 700), QSize(768, 517)],  # the last: 200 % on 1536 x 1034
)
def test_the_hints_are_in_view_after_a_run_without_scrolling(qtbot, quarry, size):
    """At the default size, on a small screen and at 200 % the hints show whole when a
    run ends (the dock scrolls to them if need be), never cut at its bottom edge."""
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
        return (
            hint_list.count() > 0
            and hint_list.isVisible()
            and hint_list.verticalScrollBar().maximum() == 0
            and all(whole(row) for row in range(hint_list.count()))
        )

    qtbot.waitUntil(hints_whole)  # the list lays its rows out after it is shown
