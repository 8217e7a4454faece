"""The racing-line tool (editor/tools/racing_line_tool.py): drag, insert and delete points.

The racing line defines progress and so which neighbour is forward (R-MOVE-2);
each edit must be one undo step.
"""

from __future__ import annotations

import pytest
from conftest_helpers import click, drag, view_point
from PySide6.QtCore import Qt

pytestmark = pytest.mark.gui


def _open(window, stadium_file, zoom=4.0):
    window.open_file(stadium_file)
    window.set_tool("racing")
    window.view.set_zoom(zoom)
    return window.tool


def test_the_tool_shows_the_line_and_a_drag_is_one_undo_step(window, qtbot, stadium_file):
    tool = _open(window, stadium_file)
    assert window.scene.racing_line.isVisible() and window.act_racing.isChecked()
    before = list(window.doc.track.centerline.points)
    x, y = map(float, before[0])
    window.view.centerOn(x, y)
    count = window.doc.undo_stack.count()
    drag(window, (x, y), (x + 3, y - 11))  # snaps to the 5 mm grid
    after = window.doc.track.centerline.points
    assert after[0] == (round((x + 3) / 5) * 5, round((y - 11) / 5) * 5)
    assert after[1:] == before[1:]
    assert window.doc.undo_stack.count() == count + 1
    assert window.doc.undo_stack.text(count) == "Move racing-line point 1"
    qtbot.keyClick(window.view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert list(window.doc.track.centerline.points) == before
    assert tool.picked == 0


def test_double_click_inserts_and_delete_removes_a_point(window, qtbot, stadium_file):
    _open(window, stadium_file)
    pts = [tuple(map(float, p)) for p in window.doc.track.centerline.points]
    (ax, ay), (bx, by) = pts[0], pts[1]
    mid = ((ax + bx) / 2, (ay + by) / 2)
    assert abs(bx - ax) > 20  # a long straight segment to click on
    window.view.centerOn(*mid)
    qtbot.mouseDClick(
        window.view.viewport(),
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
        view_point(window, *mid),
    )
    now = window.doc.track.centerline.points
    assert len(now) == len(pts) + 1
    assert now[1] == pytest.approx(mid, abs=0.3)
    assert window.tool.picked == 1
    qtbot.keyClick(window.view, Qt.Key.Key_Delete)
    assert [tuple(map(float, p)) for p in window.doc.track.centerline.points] == pts
    click(qtbot, window, ax, ay, button=Qt.MouseButton.RightButton)  # right-click deletes
    assert len(window.doc.track.centerline.points) == len(pts) - 1
    qtbot.keyClick(window.view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert len(window.doc.track.centerline.points) == len(pts)


def test_shift_click_draws_a_line_on_a_blank_track(window, qtbot):
    window.set_tool("racing")
    window.view.set_zoom(2.0)
    window.view.centerOn(50, 0)
    for x in (0, 50, 100):
        click(qtbot, window, x, 0, Qt.KeyboardModifier.ShiftModifier)
    assert window.doc.track.centerline.points == [(0, 0), (50, 0), (100, 0)]
    assert window.doc.undo_stack.count() == 3
