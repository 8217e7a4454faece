"""The Lanes panel's piece table takes the room its dock has, and the buttons under
it stay where they are as pieces are added (editor/panels/lanes.py)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QSize
from PySide6.QtWidgets import QApplication

pytestmark = pytest.mark.gui


def place(widget, window) -> QPoint:
    return widget.mapTo(window, QPoint(0, 0))


def lanes_open(window, qtbot, size: QSize):
    window.resize(size)
    qtbot.waitUntil(lambda: window.size() == size)
    window.set_tool("lanes")
    panel = window.lane_panel
    qtbot.waitUntil(panel.table.isVisible)
    return panel


def test_the_piece_table_grows_with_its_dock(window, qtbot):
    panel = lanes_open(window, qtbot, QSize(1400, 1000))
    QApplication.processEvents()
    short = panel.table.height()
    window.issues_dock.hide()  # the Lanes dock takes the whole height of the window
    qtbot.waitUntil(lambda: panel.table.height() >= short + 150)
    rows = panel.table.verticalHeader().defaultSectionSize()
    assert panel.table.viewport().height() >= 8 * rows  # room for many pieces, not four


def test_the_buttons_stay_put_as_pieces_are_added(window, qtbot):
    panel = lanes_open(window, qtbot, QSize(1400, 900))
    buttons = (panel.add_straight_button, panel.split_button, panel.create_button)
    window.tools["lanes"].set_start(0.0, 0.0)
    panel.add_straight_button.click()
    QApplication.processEvents()
    before = [place(b, window) for b in buttons]
    height = panel.table.height()
    for _ in range(12):  # more than the table shows: it scrolls, the buttons stay
        panel.add_straight_button.click()
        QApplication.processEvents()
        assert [place(b, window) for b in buttons] == before
    assert panel.table.height() == height
    assert panel.table.verticalScrollBar().maximum() > 0
