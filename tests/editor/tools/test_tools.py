"""Canvas tools driven with real mouse and key events (pytest-qt, offscreen)."""

from __future__ import annotations

import pytest
from conftest_helpers import centre, click, drag
from PySide6.QtCore import Qt

from trackside.engine.resources import resolve_track

pytestmark = pytest.mark.gui


def test_draw_a_space_by_clicks_then_undo_and_redo(window, qtbot):
    window.set_tool("draw")
    window.view.set_zoom(4.0)
    window.view.centerOn(20, 15)
    for x, y in [(0, 0), (40, 0), (40, 30), (0, 30)]:
        click(qtbot, window, x, y)
    assert window.doc.track.spaces == []  # still drawing
    click(qtbot, window, 0, 0)  # back on the first corner closes it
    spaces = window.doc.track.spaces
    assert len(spaces) == 1
    assert spaces[0].corners == [(0, 0), (40, 0), (40, 30), (0, 30)]
    assert spaces[0].id == "s1"  # no lane to go on with
    assert window.statusBar().currentMessage() == "Added space s1 (Ctrl+Z takes it back)"
    assert len(window.scene.space_items) == 1
    assert window.windowTitle().startswith("Untitled[*]") and window.isWindowModified()
    qtbot.keyClick(window.view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert window.doc.track.spaces == []
    assert window.scene.space_items == []
    assert not window.isWindowModified()
    qtbot.keyClick(
        window.view,
        Qt.Key.Key_Z,
        Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier,
    )
    assert len(window.doc.track.spaces) == 1


def test_drawing_snaps_to_grid_unless_ctrl_is_held(window, qtbot):
    window.set_tool("draw")
    window.view.set_zoom(4.0)
    window.view.centerOn(20, 15)
    click(qtbot, window, 1.2, 0.9)
    click(qtbot, window, 41.3, 1.1, Qt.KeyboardModifier.ControlModifier)
    click(qtbot, window, 39.2, 31.0)
    qtbot.keyClick(window.view, Qt.Key.Key_Return)
    (sp,) = window.doc.track.spaces
    assert sp.corners[0] == (0, 0) and sp.corners[2] == (40, 30)
    assert sp.corners[1] != (40, 0) and abs(sp.corners[1][0] - 41.3) < 0.3


def test_backspace_takes_back_the_last_corner_and_escape_cancels(window, qtbot):
    window.set_tool("draw")
    window.view.set_zoom(4.0)
    window.view.centerOn(20, 15)
    for x, y in [(0, 0), (40, 0), (80, 80)]:
        click(qtbot, window, x, y)
    qtbot.keyClick(window.view, Qt.Key.Key_Backspace)
    assert window.tool.corners == [(0, 0), (40, 0)]
    qtbot.keyClick(window.view, Qt.Key.Key_Escape)
    assert window.tool.corners == []
    assert window.doc.track.spaces == []


def test_new_space_snaps_to_a_neighbour_corner_and_takes_its_lane(window, qtbot, stadium_file):
    window.open_file(stadium_file)
    b1 = window.doc.track.space("b1")
    window.set_tool("draw")
    window.view.set_zoom(3.0)
    (x0, y0), (x1, y1) = b1.corners[0], b1.corners[1]
    window.view.centerOn(x0, y0)
    n = len(window.doc.track.spaces)
    click(qtbot, window, float(x0) + 0.8, float(y0) + 0.8)  # snaps onto b1's corner
    click(qtbot, window, float(x1), float(y1))
    click(qtbot, window, float(x1), float(y1) - 20)
    qtbot.keyClick(window.view, Qt.Key.Key_Return)
    assert len(window.doc.track.spaces) == n + 1
    new = window.doc.track.spaces[-1]
    assert new.corners[0] == (pytest.approx(x0), pytest.approx(y0))
    assert new.lane == b1.lane


@pytest.mark.parametrize("first", range(4))
def test_a_space_drawn_into_a_hole_takes_the_lane_of_the_hole(window, qtbot, first):
    """A space of lane 0 deleted on Harbour Loop and drawn again corner by corner: it
    fills lane 0 whichever corner comes first, also the two it shares with lane 1 beside
    it (they made it lane 1)."""
    assert window.open_file(resolve_track("harbour-loop"))
    hole = window.doc.track.space("a46")
    corners = [(float(x), float(y)) for x, y in hole.corners]
    window.view.set_zoom(2.0)
    window.view.centerOn(*centre(hole))
    window.scene.select_indices([window.doc.index_of("a46")])
    window.delete_selection()
    window.set_tool("draw")
    for x, y in corners[first:] + corners[:first]:
        click(qtbot, window, x, y)
    qtbot.keyClick(window.view, Qt.Key.Key_Return)
    new = window.doc.track.spaces[-1]
    assert new.id not in {sp.id for sp in window.doc.track.spaces[:-1]}
    assert new.lane == hole.lane == 0


def test_a_space_drawn_in_a_lane_goes_on_with_its_ids_and_is_said(window, qtbot):
    """A space drawn by hand in lane a of Harbour Loop (a1 to a48) is a49, not s1, and
    the status bar says so with the key that takes it back, as Delete does."""
    assert window.open_file(resolve_track("harbour-loop"))
    a10 = window.doc.track.space("a10")
    window.view.set_zoom(2.0)
    window.view.centerOn(*centre(a10))
    window.scene.select_indices([window.doc.index_of("a10")])
    window.delete_selection()
    assert window.statusBar().currentMessage() == "Deleted 1 space (Ctrl+Z brings it back)"
    highest = max(int(sp.id[1:]) for sp in window.doc.track.spaces if sp.id[0] == "a")
    window.set_tool("draw")
    for x, y in a10.corners:
        click(qtbot, window, float(x), float(y))
    qtbot.keyClick(window.view, Qt.Key.Key_Return)
    new = window.doc.track.spaces[-1]
    assert (new.id, new.lane) == (f"a{highest + 1}", 0)
    said = f"Added space a{highest + 1} (Ctrl+Z takes it back)"
    assert window.statusBar().currentMessage() == said
    assert window.doc.undo_stack.undoText() == f"Add space a{highest + 1}"


def test_select_by_click_shift_ctrl_and_rubber_band(window, qtbot, stadium_file):
    window.open_file(stadium_file)
    t = window.doc.track
    at = lambda sid: centre(t.space(sid))  # noqa: E731
    click(qtbot, window, *at("a5"))
    assert _selected_ids(window) == ["a5"]
    click(qtbot, window, *at("b5"), Qt.KeyboardModifier.ShiftModifier)
    assert _selected_ids(window) == ["a5", "b5"]
    click(qtbot, window, *at("a5"), Qt.KeyboardModifier.ControlModifier)
    assert _selected_ids(window) == ["b5"]
    xs = [float(x) for sid in ("a5", "c6") for x, _ in t.space(sid).corners]
    ys = [float(y) for sid in ("a5", "c6") for _, y in t.space(sid).corners]
    drag(window, (min(xs) - 2, min(ys) - 2), (max(xs) + 2, max(ys) + 2))
    assert sorted(_selected_ids(window)) == ["a5", "a6", "b5", "b6", "c5", "c6"]


def test_dragging_a_selection_is_one_undo_step_and_snaps(window, qtbot, stadium_file):
    window.open_file(stadium_file)
    t = window.doc.track
    before = [list(sp.corners) for sp in t.spaces]
    click(qtbot, window, *centre(t.space("a5")))
    click(qtbot, window, *centre(t.space("b5")), Qt.KeyboardModifier.ShiftModifier)
    cx, cy = centre(t.space("a5"))
    drag(window, (cx, cy), (cx + 23.7, cy + 51.2), steps=8)
    count = window.doc.undo_stack.count()
    assert count == 1
    moved = t.space("a5").corners
    dx = float(moved[0][0]) - float(before[t.spaces.index(t.space("a5"))][0][0])
    assert dx != 0
    qtbot.keyClick(window.view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert [list(sp.corners) for sp in t.spaces] == before


def test_arrow_keys_nudge_and_merge_into_one_step(window, qtbot, stadium_file):
    window.open_file(stadium_file)
    t = window.doc.track
    a5 = t.spaces.index(t.space("a5"))
    x0 = float(t.spaces[a5].corners[0][0])
    window.scene.select_indices([a5])
    for _ in range(3):
        qtbot.keyClick(window.view, Qt.Key.Key_Right)
    qtbot.keyClick(window.view, Qt.Key.Key_Right, Qt.KeyboardModifier.ShiftModifier)
    assert float(t.spaces[a5].corners[0][0]) == pytest.approx(x0 + 13, abs=1e-3)
    assert window.doc.undo_stack.count() == 1
    window.doc.undo_stack.undo()
    assert float(t.spaces[a5].corners[0][0]) == pytest.approx(x0)


def test_delete_and_duplicate_are_undoable(window, qtbot, stadium_file):
    window.open_file(stadium_file)
    t = window.doc.track
    n = len(t.spaces)
    window.scene.select_indices([0, 1])
    window.act_duplicate.trigger()
    assert len(t.spaces) == n + 2
    assert window.scene.selected_indices() == [n, n + 1]
    assert len({sp.id for sp in t.spaces}) == n + 2
    window.act_delete.trigger()
    assert len(t.spaces) == n
    window.scene.select_indices([5])
    window.view.setFocus()  # Delete acts on the canvas, not in the panels
    qtbot.keyClick(window.view, Qt.Key.Key_Delete)
    assert len(t.spaces) == n - 1
    window.inspector.corner_table.setFocus()
    qtbot.keyClick(window.inspector.corner_table, Qt.Key.Key_Backspace)
    assert len(t.spaces) == n - 1
    window.doc.undo_stack.undo()
    window.doc.undo_stack.undo()
    window.doc.undo_stack.undo()
    assert len(t.spaces) == n
    assert window.doc.track.to_dict() == _reload(stadium_file).to_dict()


def _corners_of_a5(window, qtbot, stadium_file):
    """Open the stadium, take up the Corners tool and click space a5: gives the track
    and a5."""
    window.open_file(stadium_file)
    t = window.doc.track
    window.set_tool("corners")
    a5 = t.space("a5")
    click(qtbot, window, *centre(a5))
    return t, a5


def _with_corner(track, point) -> list[str]:
    """The ids of the spaces with a corner at ``point``."""
    return [sp.id for sp in track.spaces if point in [(float(a), float(b)) for a, b in sp.corners]]


def test_corner_drag_moves_shared_corners_and_alt_moves_one(window, qtbot, stadium_file):
    t, a5 = _corners_of_a5(window, qtbot, stadium_file)
    x, y = (float(v) for v in a5.corners[1])
    sharing = _with_corner(t, (x, y))
    assert len(sharing) >= 2
    window.view.set_zoom(4.0)
    window.view.centerOn(x, y)
    drag(window, (x, y), (x + 3, y + 2))
    to = tuple(float(v) for v in a5.corners[1])
    assert to != (x, y)
    moved = _with_corner(t, to)
    assert sorted(moved) == sorted(sharing)
    assert window.doc.undo_stack.count() == 1
    window.doc.undo_stack.undo()
    ctrl_alt = Qt.KeyboardModifier.AltModifier | Qt.KeyboardModifier.ControlModifier
    drag(window, (x, y), (x + 3, y + 2), ctrl_alt)  # Ctrl: no snapping
    to = tuple(float(v) for v in a5.corners[1])
    assert to == (pytest.approx(x + 3, abs=0.3), pytest.approx(y + 2, abs=0.3))
    moved = _with_corner(t, to)
    assert moved == ["a5"]


def test_corner_tool_adds_and_deletes_corners(window, qtbot, stadium_file):
    t, a5 = _corners_of_a5(window, qtbot, stadium_file)
    (x0, y0), (x1, y1) = a5.corners[0], a5.corners[1]
    mx, my = (float(x0) + float(x1)) / 2, (float(y0) + float(y1)) / 2
    qtbot.mouseDClick(
        window.view.viewport(), Qt.MouseButton.LeftButton, pos=window.view.mapFromScene(mx, my)
    )
    assert len(a5.corners) == 5
    assert window.tool.picked == (t.spaces.index(a5), 1)
    qtbot.keyClick(window.view, Qt.Key.Key_Delete)
    assert len(a5.corners) == 4
    assert window.doc.undo_stack.count() == 2


def test_grid_tool_sets_the_grid_in_six_clicks(window, qtbot, stadium_file):
    window.open_file(stadium_file)
    t = window.doc.track
    window.set_tool("grid")
    order = ["c4", "b4", "a4", "c3", "b3", "a3"]
    for sid in order[:5]:
        click(qtbot, window, *centre(t.space(sid)))
    assert t.start_grid != order
    click(qtbot, window, *centre(t.space(order[0])))  # a repeat is refused
    click(qtbot, window, *centre(t.space(order[5])))
    assert t.start_grid == order
    pole = window.scene.space_items[t.spaces.index(t.space("c4"))]
    assert pole.grid_slot == 1
    window.doc.undo_stack.undo()
    assert t.start_grid == _reload(stadium_file).start_grid


def test_betting_and_finish_lines_are_dragged_across_the_track(window, qtbot, stadium_file):
    window.open_file(stadium_file)
    t = window.doc.track
    window.set_tool("betting")
    qtbot.keyClick(window.view, Qt.Key.Key_2)
    a8 = t.space("a8")
    c8 = t.space("c8")
    start = tuple(float(v) for v in a8.corners[1])
    end = tuple(float(v) for v in c8.corners[2])
    drag(window, (start[0] + 0.7, start[1] - 0.6), (end[0] - 0.5, end[1] + 0.8))
    seg = t.betting_lines[1]
    near = lambda v: pytest.approx(v, abs=1e-3)  # noqa: E731 - commands keep 0.001 mm
    assert seg == ((near(start[0]), near(start[1])), (near(end[0]), near(end[1])))
    window.set_tool("finish")
    drag(window, (start[0], start[1] - 1), (end[0], end[1] + 1))
    assert t.finish_line != _reload(stadium_file).finish_line
    assert window.doc.undo_stack.count() == 2


def test_tool_shortcuts_switch_tools(window, qtbot):
    window.activateWindow()
    window.view.setFocus()
    for key, name in [
        (Qt.Key.Key_P, "draw"),
        (Qt.Key.Key_A, "corners"),
        (Qt.Key.Key_G, "grid"),
        (Qt.Key.Key_B, "betting"),
        (Qt.Key.Key_F, "finish"),
        (Qt.Key.Key_V, "select"),
    ]:
        qtbot.keyClick(window.view, key)
        assert window.tool.name == name


def test_the_status_bar_hint_belongs_to_the_active_tool(window, qtbot, stadium_file):
    """A panel that changes an idle tool (the Lanes panel) never takes over the hint."""
    window.open_file(stadium_file)
    window.set_tool("select")
    assert window.hint_label.text() == window.tool.hint
    window.lane_panel.lanes.setValue(2 if window.lane_panel.lanes.value() != 2 else 3)
    assert window.tool.name == "select"
    assert window.hint_label.text() == window.tool.hint
    qtbot.keyClick(window.view, Qt.Key.Key_L)
    assert window.tool.name == "lanes"
    assert window.hint_label.text() == window.tool.step_hint()


def _selected_ids(window):
    return [window.doc.track.spaces[i].id for i in window.scene.selected_indices()]


def _reload(path):
    from trackside.engine.track.model import load_track

    return load_track(path)


def test_a_line_is_picked_before_the_space_under_it_and_moves(window, qtbot, stadium_file):
    window.open_file(stadium_file)
    t = window.doc.track
    (ax, ay), (bx, by) = ((float(x), float(y)) for x, y in t.betting_lines[0])
    mx, my = (ax + bx) / 2, (ay + by) / 2
    window.view.set_zoom(3.0)
    window.view.centerOn(mx, my)
    click(qtbot, window, mx, my)
    assert window.scene.selected_lines() == [0] and window.scene.selected_indices() == []
    drag(window, (mx, my), (mx + 20, my))
    (nax, nay), (nbx, nby) = ((float(x), float(y)) for x, y in t.betting_lines[0])
    assert nax - ax == pytest.approx(nbx - bx, abs=1e-3)  # both ends, one vector
    assert nay - ay == pytest.approx(nby - by, abs=1e-3)
    assert abs(nax - ax - 20) < 3.5  # within the snap reach
    assert window.doc.undo_stack.count() == 1


def test_double_click_a_space_to_edit_its_corners(window, qtbot, stadium_file):
    window.open_file(stadium_file)
    t = window.doc.track
    cx, cy = centre(t.space("b7"))
    qtbot.mouseDClick(
        window.view.viewport(), Qt.MouseButton.LeftButton, pos=window.view.mapFromScene(cx, cy)
    )
    assert window.tool.name == "corners"
    assert _selected_ids(window) == ["b7"]
    assert len(window.tool._handles) == 4


def test_grid_picking_starts_over_when_the_spaces_change(window, qtbot, stadium_file):
    window.open_file(stadium_file)
    t = window.doc.track
    window.set_tool("grid")
    for sid in ("c4", "b4"):
        click(qtbot, window, *centre(t.space(sid)))
    assert len(window.tool.picked) == 2
    window.scene.select_indices([0])
    window.view.setFocus()
    window.act_duplicate.trigger()
    assert window.tool.picked == []
    window.doc.undo_stack.undo()
    assert window.tool.picked == []


def _middle(space):
    xs, ys = zip(*space.corners, strict=True)
    return sum(xs) / len(xs), sum(ys) / len(ys)


def test_a_click_on_one_of_many_selected_spaces_selects_it_alone(window, qtbot, stadium_file):
    window.open_file(stadium_file)
    t = window.doc.track
    window.scene.select_indices(range(10))
    click(qtbot, window, *_middle(t.spaces[3]))
    assert window.scene.selected_indices() == [3]


def test_a_drag_of_many_selected_spaces_still_moves_them_all(window, qtbot, stadium_file):
    window.open_file(stadium_file)
    t = window.doc.track
    window.scene.select_indices([0, 1, 2])
    before = [list(t.spaces[i].corners) for i in range(3)]
    x, y = _middle(t.spaces[1])
    drag(window, (x, y), (x + 30, y))
    assert window.scene.selected_indices() == [0, 1, 2]
    after = [t.spaces[i].corners for i in range(3)]
    assert all(a[0][0] > b[0][0] + 20 for a, b in zip(after, before, strict=True))


def test_deleting_many_spaces_is_one_undo_step_and_says_so(window, qtbot, stadium_file):
    window.open_file(stadium_file)
    count = len(window.doc.track.spaces)
    window.scene.select_indices(range(12))
    window.act_delete.trigger()
    assert len(window.doc.track.spaces) == count - 12
    assert "Deleted 12 spaces" in window.statusBar().currentMessage()
    window.act_undo.trigger()
    assert len(window.doc.track.spaces) == count
