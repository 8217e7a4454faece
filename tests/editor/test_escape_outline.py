"""Esc clears the outline of spaces shown (after Create, or by a hint) wherever the
focus is in the window: on the canvas, or in a panel the designer last clicked."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from trackside.engine.track.lanes import Arc, Straight

pytestmark = pytest.mark.gui


def test_esc_in_the_lanes_panel_clears_the_outline_after_create(qtbot, window):
    window.show()
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    window.set_tool("lanes")
    tool = window.tool
    tool.set_start(0.0, 0.0, 0.0)
    for piece in (Straight(400), Arc(150, 180), Straight(400), Arc(150, 180)):
        tool.add_piece(piece)
    panel = window.lane_panel
    qtbot.mouseClick(panel.create_button, Qt.MouseButton.LeftButton)
    assert window.scene.pointed_indices()  # Create outlines what it made
    window.lane_dock.raise_()
    box = panel.space_length  # the focus in the Lanes panel, as after clicking in it
    box.setFocus()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is box)
    qtbot.keyClick(box, Qt.Key.Key_Escape)
    assert window.scene.pointed_indices() == []
    assert window.doc.track.spaces  # Esc took nothing back


def test_esc_in_the_balance_panel_clears_a_hint_s_outline(qtbot, window, stadium_file):
    window.show()
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    assert window.open_file(stadium_file)
    window.point_to_spaces([window.doc.track.spaces[3].id])
    assert window.scene.pointed_indices() == [3]
    window.balance_dock.raise_()
    box = window.balance_panel.games_box
    box.setFocus()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is box)
    qtbot.keyClick(box, Qt.Key.Key_Escape)
    assert window.scene.pointed_indices() == []
