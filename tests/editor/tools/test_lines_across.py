"""Betting and finish lines across the track at a space (a click with the line tool, or
the right-click menu), and a handle drag kept apart from a new line; one undo step each."""

from __future__ import annotations

import pytest
from conftest_helpers import centre, choose, click, drag, right_click_menu, wait_issues
from PySide6.QtCore import Qt
from tracks_for_tests import straight_track

from trackside.engine.resources import tracks_dir
from trackside.engine.track.geometry import FINISH, TrackGeometry
from trackside.engine.track.model import save_track

pytestmark = pytest.mark.gui


def fresh(window, stadium_file):
    window.open_file(stadium_file)
    window.view.set_zoom(2.0)
    window.view.centerOn(*centre(window.doc.track.space("b10")))
    return window.doc.track


def spans_the_track(track, k):
    """The line crosses the racing line once, cuts no space and reaches every lane."""
    g = TrackGeometry(track)
    seg = g.lines[k]
    assert len(g.line_crossings[k]) == 1 and g.cut_spaces(seg) == []
    return {track.spaces[i].lane for i in range(g.n) if g.touches(i, seg)} == {0, 1, 2}


def test_a_click_on_a_space_puts_the_finish_line_across_at_its_nearest_edge(
    window, qtbot, stadium_file
):
    t = fresh(window, stadium_file)
    window.set_tool("finish")
    a8 = t.space("a8")
    x, y = centre(a8)
    click(qtbot, window, x + 6, y)  # nearer the front edge (driving +x)
    front_x = max(float(cx) for cx, _ in a8.corners)
    (ax, _ay), (bx, _by) = t.finish_line
    assert ax == pytest.approx(front_x, abs=1e-3) and bx == pytest.approx(front_x, abs=1e-3)
    assert spans_the_track(t, FINISH)
    assert window.doc.undo_stack.count() == 1
    assert window.doc.undo_stack.undoText() == "Place finish line at a8"


def test_a_click_on_a_curve_fits_the_line_square_to_the_racing_line(window, qtbot, stadium_file):
    t = fresh(window, stadium_file)
    window.view.centerOn(*centre(t.space("b12")))
    window.set_tool("betting")
    qtbot.keyClick(window.view, Qt.Key.Key_3)
    click(qtbot, window, *centre(t.space("b12")))
    assert spans_the_track(t, 2)
    g = TrackGeometry(t)
    (ax, ay), (bx, by) = g.lines[2]
    assert ((ax - bx) ** 2 + (ay - by) ** 2) ** 0.5 == pytest.approx(90.0, abs=0.5)


def test_a_handle_drags_one_end_and_shift_or_a_miss_starts_a_new_line(window, qtbot, stadium_file):
    t = fresh(window, stadium_file)
    window.set_tool("finish")
    click(qtbot, window, *centre(t.space("b9")))
    tool = window.tool
    (a, b) = [tuple(map(float, p)) for p in t.finish_line]
    assert sorted(tool.handle_ends()) == sorted([a, b])
    drag(window, a, (a[0] + 8, a[1] - 5), Qt.KeyboardModifier.ControlModifier)  # no snap
    moved = [tuple(map(float, p)) for p in t.finish_line]
    assert b in moved and a not in moved  # the other end stayed
    # Shift on the handle: a new line from there, both ends new.
    start = tuple(map(float, t.finish_line[0]))
    drag(window, start, (start[0] + 30, start[1] + 60), Qt.KeyboardModifier.ShiftModifier)
    assert t.finish_line[1] != b
    assert window.doc.undo_stack.count() == 3


def test_the_right_click_menu_puts_a_betting_line_across_here(window, qtbot, stadium_file):
    t = fresh(window, stadium_file)
    x, y = centre(t.space("c10"))
    choose(qtbot, right_click_menu(qtbot, window, x - 6, y), "Betting Line 2 Across Here")
    rear_x = min(float(cx) for cx, _ in t.space("c10").corners)
    (ax, _), (bx, _) = t.betting_lines[1]
    assert ax == pytest.approx(rear_x, abs=1e-3) and bx == pytest.approx(rear_x, abs=1e-3)
    assert spans_the_track(t, 1)
    assert window.doc.undo_stack.undoText() == "Place betting line 2 at c10"


def test_a_drag_across_harbour_loops_bend_lands_on_the_row_edge_it_crosses(window, qtbot):
    """In a copy of Harbour Loop, a finish line dragged straight down at x 205 mm (where
    the bend's spaces a44 to c45 have no edge square to it) lies on the edge between rows
    44 and 45, across every lane, and Issues finds no line through a space."""
    assert window.new_from(tracks_dir() / "harbour-loop.yaml")
    t = window.doc.track
    window.view.set_zoom(2.0)
    window.view.centerOn(205.0, 420.0)
    window.set_tool("finish")
    drag(window, (205.0, 345.0), (205.0, 500.0))
    assert window.doc.undo_stack.count() == 1
    g = TrackGeometry(t)
    ends = [tuple(map(float, p)) for p in (t.space("a45").corners[0], t.space("c44").corners[4])]
    placed = [tuple(map(float, p)) for p in t.finish_line]
    assert sorted(placed) == [pytest.approx(e, abs=1e-3) for e in sorted(ends)]
    assert g.cut_spaces(g.lines[FINISH]) == []
    wait_issues(qtbot, window)
    assert not [i for i in window.issues.issues if i.code == "line-cuts-space"]


def test_a_drag_where_no_row_edge_lies_across_is_refused_and_says_why(window, qtbot, tmp_path):
    """The middle lane shifted half a row: no edge between rows crosses the track, so the
    drag places nothing (the finish line stays) and the status bar says why."""
    track = straight_track(rows=14, lanes=3, finish=12)
    for space in track.spaces:
        if space.lane == 1:
            space.corners = [(x + 20.0, y) for x, y in space.corners]
    path = tmp_path / "bricks.yaml"
    save_track(track, path)
    window.open_file(path)
    window.view.set_zoom(2.0)
    window.view.centerOn(160.0, 0.0)
    before = window.doc.track.finish_line
    window.set_tool("finish")
    drag(window, (157.0, 70.0), (163.0, -70.0))
    assert window.doc.track.finish_line == before
    assert window.doc.undo_stack.count() == 0
    hint = window.hint_label.text()
    assert hint.startswith("Finish line not placed") and "click a space" in hint
    window.set_tool("betting")
    drag(window, (157.0, 70.0), (163.0, -70.0))
    assert window.doc.undo_stack.count() == 0
    assert window.hint_label.text().startswith("Betting line 1 not placed")
