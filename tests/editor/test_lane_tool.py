"""The lane tool: a racing line by clicks, lanes by the engine's builder, one undo step."""
from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from engine.lanes import Arc, LaneLayout, Straight, build_lanes
from engine.track import load_track
from editor.tools.lanes import LaneTool
from engine.validate import validate_track

from conftest_helpers import click, wait_issues

pytestmark = pytest.mark.gui


def _lane_tool(window):
    """Activate this module's lane tool (another module may own the toolbar's "lanes")."""
    tool = LaneTool(window.scene)
    tool.hintChanged.connect(window.hint_label.setText)
    window.scene.set_tool(tool)
    return tool


def _press(qtbot, button):
    assert button.isEnabled(), button.text()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def test_build_a_lane_strip_and_check_the_spaces(window, qtbot):
    tool = _lane_tool(window)
    options = tool.options_widget()
    options.lanes.setValue(3)
    options.space_length.setValue(40)
    options.lane_width.setValue(35)
    window.view.set_zoom(1.5)
    window.view.centerOn(200, 0)
    click(qtbot, window, 0, 0)
    click(qtbot, window, 401, 1.5)            # ahead: a straight, rounded to 5 mm
    assert tool.pieces == [Straight(400)]
    assert len(tool.result.spaces) == 30
    _press(qtbot, options.build_button)
    spaces = window.doc.track.spaces
    expected = build_lanes(LaneLayout(pieces=(Straight(400),), lanes=3, space_length=40,
                                      lane_width=35)).track_spaces()
    assert [(s.id, s.lane, s.corners) for s in spaces] == [
        (s.id, s.lane, s.corners) for s in expected]
    assert {s.lane for s in spaces} == {0, 1, 2}
    assert all(window.scene.space_items[i].rectangular for i in range(30))
    assert len(window.doc.track.start_grid) == 6
    assert window.doc.undo_stack.count() == 1
    window.doc.undo_stack.undo()
    assert window.doc.track.spaces == []
    assert window.doc.track.start_grid == []


def test_an_arc_follows_the_pointer_and_backspace_removes_it(window, qtbot):
    tool = _lane_tool(window)
    window.view.set_zoom(1.0)
    window.view.centerOn(300, 150)
    click(qtbot, window, 0, 0)
    click(qtbot, window, 400, 0)
    click(qtbot, window, 400, 300)             # beside the line: a half circle
    assert tool.pieces[1] == Arc(150, -180)   # y is down: turning toward +y is a right turn
    qtbot.keyClick(window.view, Qt.Key.Key_Backspace)
    assert tool.pieces == [Straight(400)]
    assert window.doc.track.spaces == []      # layout edits do not touch the track


def test_a_new_valid_circuit_from_a_blank_page(window, qtbot, tmp_path):
    """The issue's acceptance path: lane tool, issues list, fix, save, export."""
    tool = _lane_tool(window)
    options = tool.options_widget()
    options.lanes.setValue(3)
    options.lane_width.setValue(30)
    window.view.set_zoom(0.8)
    window.view.centerOn(200, 150)
    for x, y in [(0, 0), (400, 0), (400, 300), (0, 300), (0, 0)]:
        click(qtbot, window, x, y)
    assert [type(p).__name__ for p in tool.pieces] == ["Straight", "Arc", "Straight", "Arc"], tool.pieces
    _press(qtbot, options.close_button)
    assert tool.closed, tool.error
    _press(qtbot, options.build_button)
    t = window.doc.track
    assert len(t.spaces) > 60 and t.centerline.closed
    wait_issues(qtbot, window)
    assert window.issues.counts_text()[0] == 0, [i.message for i in window.issues.issues]
    # Break it (a space goes), see the dead ends, fix it with undo, save and reopen.
    window.set_tool("select")
    window.scene.select_indices([t.spaces.index(t.space("b8"))])
    window.act_delete.trigger()
    wait_issues(qtbot, window)
    qtbot.keyClick(window.view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    wait_issues(qtbot, window)
    assert window.issues.counts_text()[0] == 0
    window.inspector.name_edit.setText("Blank Page Loop")
    window.inspector.name_edit.editingFinished.emit()
    path = tmp_path / "blank-page-loop.yaml"
    window.prompts.save_as_answer = str(path)
    assert window.save()
    reread = load_track(path)
    assert reread.to_dict() == t.to_dict()
    assert validate_track(reread).errors == 0
    window.prompts.export_answer = str(tmp_path / "loop.pdf")
    assert window.export("pdf", "a4")
