"""Closing a loop in the Lanes panel: a typed length stays as typed, the table's
Closes column shows (and lets the designer choose) the straights whose length
closes the loop, and a loop that cannot close says by how much
(docs/lane-tool.md)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractItemView, QApplication, QLineEdit

from trackside.editor.panels.lanes import CLOSES_COLUMN
from trackside.engine.track.lanes import Arc, Straight
from trackside.engine.track.model import load_track

pytestmark = pytest.mark.gui

STADIUM = (Straight(940), Arc(200, 180), Straight(940), Arc(200, 180))
# a rectangle with rounded corners: straights along x (pieces 1, 5) and along y (3, 7)
ROUNDED_RECTANGLE = (
    Straight(400),
    Arc(200, 90),
    Straight(420),
    Arc(200, 90),
    Straight(400),
    Arc(200, 90),
    Straight(420),
    Arc(200, 90),
)


def drafted(window, pieces):
    window.set_tool("lanes")
    tool = window.tool
    tool.set_start(0, 0, 0)
    for piece in pieces:
        tool.add_piece(piece)
    assert tool.build.result is not None and tool.build.result.closed
    return tool, window.lane_panel


def type_into(qtbot, table, row: int, column: int, text: str) -> None:
    """Go to a cell, press F2, type ``text`` over its value and press Enter."""
    table.setFocus()
    table.setCurrentCell(row, column)
    qtbot.keyClick(table, Qt.Key.Key_F2)
    qtbot.waitUntil(lambda: isinstance(cell_editor(table), QLineEdit))
    editor = cell_editor(table)
    editor.selectAll()
    qtbot.keyClicks(editor, text)
    qtbot.keyClick(editor, Qt.Key.Key_Return)  # the table takes the value a moment later
    qtbot.waitUntil(lambda: table.state() != QAbstractItemView.State.EditingState)


def cell_editor(table):
    """The widget being typed into, when it is the table's own cell editor."""
    focus = QApplication.focusWidget()
    return focus if focus is not None and table.isAncestorOf(focus) else None


def toggle_closes(qtbot, table, row: int) -> None:
    """Tick or untick a piece's Closes box from the keyboard."""
    table.setFocus()
    table.setCurrentCell(row, CLOSES_COLUMN)
    qtbot.keyClick(table, Qt.Key.Key_Space)


def built_lengths(tool) -> list[float]:
    return [round(p.path_length, 1) for p in tool.build.layout.pieces if isinstance(p, Straight)]


def ticked(panel) -> list[int]:
    """The rows whose Closes box is ticked."""
    return [
        row
        for row in range(panel.table.rowCount())
        if panel.table.item(row, CLOSES_COLUMN).checkState() == Qt.CheckState.Checked
    ]


def test_a_length_typed_into_a_closed_loop_is_built_as_typed(window, qtbot):
    tool, panel = drafted(window, STADIUM)
    type_into(qtbot, panel.table, 0, 1, "1040")
    assert tool.draft.pieces[0] == Straight(1040, closes=False)
    assert tool.build.result.closed
    assert built_lengths(tool) == [1040.0, 1040.0]  # the other straight closes the loop
    assert ticked(panel) == [2]
    assert "Piece 3 is 1040.0 mm long to close the loop" in panel.status.text()
    assert panel.table.item(0, 1).text() == "1040" and not panel.table.item(0, 1).font().italic()
    assert panel.table.item(2, 1).font().italic()  # the fitted one is set apart


def test_a_typed_length_on_a_straight_up_the_board_is_kept(window, qtbot):
    tool, panel = drafted(window, ROUNDED_RECTANGLE)
    type_into(qtbot, panel.table, 2, 1, "400")
    assert tool.build.result.closed
    assert built_lengths(tool) == [400.0, 400.0, 400.0, 400.0]
    assert ticked(panel) == [6]


def test_a_loop_the_typed_values_cannot_close_says_by_how_much(window, qtbot):
    tool, panel = drafted(window, STADIUM)
    type_into(qtbot, panel.table, 0, 1, "1040")
    type_into(qtbot, panel.table, 2, 1, "940")
    assert not tool.build.result.closed  # built open, with the values as typed
    assert built_lengths(tool) == [1040.0, 940.0]
    status = panel.status.text()
    assert "does not close" in status and "misses its start by 100.0 mm" in status
    assert "every straight is kept as typed" in status
    assert ticked(panel) == []
    toggle_closes(qtbot, panel.table, 0)  # let piece 1 close the loop after all
    assert tool.draft.pieces[0].closes is True
    assert tool.build.result.closed and built_lengths(tool) == [940.0, 940.0]
    assert ticked(panel) == [0]


def test_the_chosen_closing_straight_is_saved_and_read_back(make_window, qtbot, tmp_path):
    window = make_window()
    tool, panel = drafted(window, STADIUM)
    toggle_closes(qtbot, panel.table, 0)  # piece 1 closes the loop, whatever is typed
    type_into(qtbot, panel.table, 2, 1, "1100")
    assert built_lengths(tool) == [1100.0, 1100.0]
    assert ticked(panel) == [0]
    panel.create_button.click()
    spaces = {sp.id: sp.corners for sp in window.doc.track.spaces}
    path = tmp_path / "stadium.yaml"
    window.prompts.save_as_answer = str(path)
    assert window.save_as()
    text = path.read_text()
    assert "closes: true" in text and "closes: false" in text
    kept = load_track(path).lane_layouts[0]
    assert [getattr(p, "closes", None) for p in kept.pieces] == [True, None, False, None]

    again = make_window()
    assert again.open_file(path, ask=False)
    again.set_tool("lanes")
    assert again.lane_panel.edit_layout()
    assert ticked(again.lane_panel) == [0]
    assert again.tool.draft.pieces[2] == Straight(1100, closes=False)
    again.lane_panel.create_button.click()  # re-applied unchanged: the same spaces
    assert {sp.id: sp.corners for sp in again.doc.track.spaces} == spaces
