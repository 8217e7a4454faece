"""Selections follow intent: Lanes > Create and Re-apply outline the new spaces
without selecting them, a stray click afterwards starts no draft until New
Layout, and Esc in the Select tool clears the selection."""

from __future__ import annotations

import pytest
from conftest_helpers import click, right_click_menu
from PySide6.QtCore import Qt

from trackside.engine.track.lanes import Arc, Straight

pytestmark = pytest.mark.gui

LOOP = (Straight(400), Arc(150, 180), Straight(400), Arc(150, 180))


def created(window, qtbot):
    window.set_tool("lanes")
    window.view.set_zoom(0.8)
    window.view.centerOn(200, -150)
    tool = window.tool
    tool.set_start(0.0, 0.0, 0.0)
    for piece in LOOP:
        tool.add_piece(piece)
    qtbot.mouseClick(window.lane_panel.create_button, Qt.MouseButton.LeftButton)
    assert window.doc.track.spaces
    return tool


def test_create_outlines_the_new_spaces_and_selects_nothing(window, qtbot):
    created(window, qtbot)
    spaces = len(window.doc.track.spaces)
    assert window.scene.selected_indices() == []
    assert window.scene.pointed_indices() == list(range(spaces))
    assert "nothing selected" in window.hint_label.text()
    window.set_tool("select")
    assert window.scene.pointed_indices() == []  # the outline goes with the next tool
    menu = right_click_menu(qtbot, window, 200, -15)  # on a space of the first straight
    menu.close()
    qtbot.keyClick(window.view, Qt.Key.Key_Delete)
    assert len(window.doc.track.spaces) == spaces - 1  # only the space clicked, not all


def test_a_click_after_re_apply_starts_no_draft_until_new_layout(window, qtbot):
    tool = created(window, qtbot)
    panel = window.lane_panel
    assert panel.edit_layout()
    panel.table.item(0, 3).setText("3")
    qtbot.keyClick(panel, Qt.Key.Key_Return)  # Re-apply
    assert tool.editing is None and window.doc.undo_stack.count() == 2
    assert window.scene.selected_indices() == []
    click(qtbot, window, 600, 300)  # a stray click on the canvas
    assert tool.draft.start is None and tool.build.result is None
    assert "New Layout" in window.hint_label.text()
    assert panel.new_layout_button.isEnabled()
    qtbot.mouseClick(panel.new_layout_button, Qt.MouseButton.LeftButton)
    assert not panel.new_layout_button.isEnabled()
    click(qtbot, window, 600, 300)
    assert tool.draft.start is not None  # now a click places the start


def test_n_on_the_canvas_starts_a_new_layout(window, qtbot):
    tool = created(window, qtbot)
    window.view.setFocus()
    click(qtbot, window, 600, 300)
    assert tool.draft.start is None
    qtbot.keyClick(window.view, Qt.Key.Key_N)
    click(qtbot, window, 600, 300)
    assert tool.draft.start is not None


def test_esc_in_the_select_tool_clears_the_selection(window, qtbot):
    created(window, qtbot)
    window.set_tool("select")
    click(qtbot, window, 200, -15)
    assert len(window.scene.selected_indices()) == 1
    qtbot.keyClick(window.view, Qt.Key.Key_Escape)
    assert window.scene.selected_indices() == []
