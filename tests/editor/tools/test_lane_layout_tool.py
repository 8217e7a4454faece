"""The lane tool (editor/tools/lane_tool.py, Lanes, L) driven with real mouse and key events.

Spaces come from the engine's lane builder; forward neighbours across the
strip are what R-MOVE-1 needs, so a dead end fixed with the tool disappears
from the issues list.
"""

from __future__ import annotations

import pytest
from conftest_helpers import built_as, drag, hover, view_point, wait_issues
from depth import examples
from hypothesis import given, settings
from hypothesis import strategies as st
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from tracks_for_tests import straight_track

from trackside.editor.document.lane_draft import (
    LaneDraft,
    build_draft,
    closing_pieces,
    piece_towards,
    plan_creation,
)
from trackside.engine.track.lanes import Arc, LaneLayout, Straight
from trackside.engine.track.model import Track, save_track
from trackside.engine.track.validate import validate_track

pytestmark = pytest.mark.gui

TOOL = "lanes"


def _tool(window, zoom=1.5, centre=(200, 0)):
    window.set_tool(TOOL)
    window.view.set_zoom(zoom)
    window.view.centerOn(*centre)
    return window.tool


def _straights_from_panel(qtbot, window, count=1, **view):
    """The lane tool (``view`` as for ``_tool``) with ``count`` straights added by the
    Lanes panel's button."""
    tool = _tool(window, **view)
    for _ in range(count):
        qtbot.mouseClick(window.lane_panel.add_straight_button, Qt.MouseButton.LeftButton)
    return tool


def test_drag_a_strip_preview_it_create_it_and_undo(window, qtbot):
    tool = _tool(window)
    panel = window.lane_panel
    assert window.lane_dock.isVisible()
    panel.lanes.setValue(3)
    drag(window, (0, 0), (398, 2))  # a drag ahead lays the first straight
    assert tool.draft.start == (0, 0)
    assert tool.draft.pieces == [Straight(400)]  # length snapped to whole 40 mm spaces
    assert panel.table.rowCount() == 1 and panel.table.item(0, 1).text() == "400"
    assert len(tool.build.result.spaces) == 30
    assert window.doc.track.spaces == []  # nothing is added before Create
    qtbot.keyClick(window.view, Qt.Key.Key_Return)
    spaces = window.doc.track.spaces
    layout = LaneLayout(pieces=(Straight(400),), lanes=3, space_length=40, lane_width=30)
    assert built_as(spaces, layout)
    t = window.doc.track
    assert len(t.centerline.points) >= 2 and not t.centerline.closed
    assert len(t.start_grid) == 6 and t.finish_line != ((0, 0), (0, 0))
    assert window.doc.undo_stack.count() == 1  # one macro for spaces, line, grid and lines
    assert tool.draft.start is None  # the draft is done
    qtbot.keyClick(window.view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert window.doc.track.spaces == [] and window.doc.track.start_grid == []
    assert window.scene.space_items == []
    assert window.doc.track.centerline.points == []


def test_the_piece_under_the_pointer_goes_when_the_pointer_leaves_the_canvas(window, qtbot):
    """The preview and summary then show what Create builds, not a piece never added."""
    from PySide6.QtCore import QEvent, QPoint
    from PySide6.QtGui import QCursor
    from PySide6.QtWidgets import QApplication

    tool = _tool(window, zoom=1.0, centre=(300, -150))
    drag(window, (0, 0), (400, 0))
    built = len(tool.build.result.spaces)
    hover(window, 402, -300)
    assert tool.ghost is not None and len(tool.build.result.spaces) > built
    vp = window.view.viewport()
    QCursor.setPos(vp.mapToGlobal(vp.rect().bottomRight()) + QPoint(40, 40))
    QApplication.sendEvent(vp, QEvent(QEvent.Type.Leave))
    assert tool.ghost is None and len(tool.build.result.spaces) == built
    assert str(built) in window.lane_panel.status.text()


def test_an_arc_follows_the_pointer_backspace_takes_it_back_escape_cancels(window, qtbot):
    tool = _tool(window, zoom=1.0, centre=(300, -150))
    drag(window, (0, 0), (400, 0))
    hover(window, 402, -300)  # beside the end: the arc through the pointer
    ghost = tool.ghost
    assert isinstance(ghost, Arc) and abs(ghost.angle) == 180 and ghost.radius == 150
    assert len(tool.build.result.spaces) > 20  # the preview includes the dragged arc
    assert len(window.tool._item.polygons) == len(tool.build.result.spaces)
    vp = window.view.viewport()
    QTest.mousePress(
        vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, view_point(window, 402, -300)
    )
    QTest.mouseRelease(
        vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, view_point(window, 402, -300)
    )
    assert len(tool.draft.pieces) == 2 and tool.draft.pieces[1] == ghost
    qtbot.keyClick(window.view, Qt.Key.Key_Backspace)
    assert tool.draft.pieces == [Straight(400)]
    qtbot.keyClick(window.view, Qt.Key.Key_Escape)
    assert tool.draft.start is None and tool.draft.pieces == []
    assert window.doc.track.spaces == []


def test_typed_values_in_the_panel_shape_the_strip(window, qtbot):
    tool = _tool(window)
    panel = window.lane_panel
    drag(window, (0, 0), (200, 0))
    panel.table.item(0, 1).setText("320")  # exact length
    panel.table.item(0, 3).setText("1")  # a single-file piece
    qtbot.mouseClick(panel.add_arc_button, Qt.MouseButton.LeftButton)
    assert tool.draft.pieces[0] == Straight(320, lanes=1, closes=False)  # kept as typed
    assert isinstance(tool.draft.pieces[1], Arc)
    panel.table.item(1, 1).setText("oops")
    assert "type numbers" in panel.status.text()
    assert isinstance(tool.draft.pieces[1], Arc)  # a bad value leaves the piece alone
    panel.space_length.setValue(80)
    assert tool.build.result.pieces[0].rows == 4
    panel.table.setCurrentCell(1, 0)  # picking a row outlines its piece
    assert window.tool._item.highlight == 1
    qtbot.mouseClick(panel.create_button, Qt.MouseButton.LeftButton)
    t = window.doc.track
    assert {sp.id[0] for sp in t.spaces if sp.id[1:] in ("1", "2", "3", "4")} == {"a"}


@pytest.mark.parametrize(
    "clicks",
    [
        [(402, -300), (0, -302), (-2, 0)],
        # A careless hand: the arc snaps to 165 degrees, the straight comes out skewed;
        # pointing at the start still closes the loop (an arc of the remaining turn).
        [(431, -290), (30, -330), (9, 6)],
    ],
)
def test_a_closed_loop_from_four_gestures_is_valid(window, qtbot, clicks):
    tool = _tool(window, zoom=0.8, centre=(200, -150))
    drag(window, (0, 0), (400, 0))
    for x, y in clicks:
        hover(window, x, y)
        vp = window.view.viewport()
        p = view_point(window, x, y)
        QTest.mousePress(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, p)
        QTest.mouseRelease(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, p)
    assert tool.build.result.closed, tool.summary()
    qtbot.keyClick(window.view, Qt.Key.Key_Return)
    t = window.doc.track
    assert t.centerline.closed
    report = validate_track(t)
    assert report.errors == 0, [i.message for i in report.issues]
    wait_issues(qtbot, window)
    assert window.issues.counts_text()[0] == 0


def test_new_ids_never_collide_and_the_racing_line_stays(window, qtbot, tmp_path):
    path = tmp_path / "straight.yaml"
    save_track(straight_track(rows=6), path)
    window.open_file(path)
    before = window.doc.snapshot()
    _tool(window, zoom=1.5, centre=(150, 200))
    drag(window, (0, 200), (120, 200))
    qtbot.keyClick(window.view, Qt.Key.Key_Return)
    t = window.doc.track
    new = t.spaces[len(before.spaces) :]
    assert len(new) == 6
    assert not {sp.id for sp in new} & {sp.id for sp in before.spaces}
    assert sorted(sp.id for sp in new) == ["a7", "a8", "a9", "b7", "b8", "b9"]
    assert t.centerline == before.centerline and t.start_grid == before.start_grid


def test_fixing_a_dead_end_with_the_tool_clears_the_issue(window, qtbot, tmp_path):
    path = tmp_path / "straight.yaml"
    save_track(straight_track(rows=12, lanes=2, length=40, width=30), path)
    window.open_file(path)
    wait_issues(qtbot, window)
    errors_before = window.issues.counts_text()[0]
    t = window.doc.track
    window.set_tool("select")
    window.scene.select_indices([t.spaces.index(t.space("a6")), t.spaces.index(t.space("b6"))])
    window.act_delete.trigger()  # row 6 goes: rows 5 are dead ends (R-MOVE-1)
    wait_issues(qtbot, window)
    dead = {s for i in window.issues.issues if i.code == "dead-end" for s in i.spaces}
    assert dead == {"a5", "b5"}
    _tool(window, zoom=4.0, centre=(220, 0))
    drag(window, (200.6, 0.4), (240, 0))  # from the dead ends' shared corner (snaps)
    assert window.tool.draft.start == (200, 0)
    qtbot.keyClick(window.view, Qt.Key.Key_Return)
    wait_issues(qtbot, window)
    assert "dead-end" not in {i.code for i in window.issues.issues}
    assert window.issues.counts_text()[0] == errors_before
    assert [sp.id for sp in window.doc.track.spaces[-2:]] == ["a13", "b13"]


def test_switching_tools_mid_draft_leaves_the_track_alone(window, qtbot):
    tool = _tool(window)
    drag(window, (0, 0), (200, 0))
    window.set_tool("select")
    assert window.doc.track.spaces == []
    assert tool._item is None  # the preview went with the tool


@settings(max_examples=examples(25), deadline=None)
@given(st.lists(st.floats(-25, 25), min_size=6, max_size=6), st.sampled_from([1, 2, 3]))
def test_pointing_at_the_start_closes_any_rough_stadium(jitter, lanes):
    """A hand-drawn stadium (pieces from rough clicks) always closes into a loop the
    validator accepts: forward neighbours all round (R-MOVE-1), grid and lines placed."""
    draft = LaneDraft(start=(0.0, 0.0))
    draft.settings.lanes = lanes
    draft.pieces.append(Straight(400))
    for (x, y), (dx, dy) in zip(
        [(400, -300), (0, -300)], zip(jitter[::2], jitter[1::2], strict=False), strict=False
    ):
        piece = piece_towards(draft.end_pose(), (x + dx, y + dy), 40)
        assert piece is not None
        draft.pieces.append(piece)
    draft.pieces.extend(closing_pieces(draft))
    build = build_draft(draft)
    assert build.ok and build.result.closed, build.summary()
    c = plan_creation(build, set(), False, False, draft.settings)
    track = Track(
        name="Rough",
        centerline=c.centerline,
        spaces=c.spaces,
        start_grid=c.grid,
        betting_lines=c.betting,
        finish_line=c.finish,
    )
    report = validate_track(track)
    assert report.errors == 0, [i.message for i in report.issues]


def test_a_staggered_loop_gets_its_grid_and_a_note_about_the_lines(window, qtbot):
    tool = _tool(window, zoom=0.8, centre=(200, -150))
    window.lane_panel.stagger.setValue(0.5)
    drag(window, (0, 0), (400, 0))
    for x, y in [(402, -300), (0, -302), (-2, 0)]:
        hover(window, x, y)
        p = view_point(window, x, y)
        QTest.mouseClick(
            window.view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, p
        )
    assert tool.build.result.closed
    qtbot.keyClick(window.view, Qt.Key.Key_Return)
    t = window.doc.track
    assert len(t.start_grid) == 6 and t.spaces
    assert "no betting or finish line placed" in window.hint_label.text()
    assert "split a straight in two" in window.hint_label.text()


def test_pieces_typed_in_the_panel_stay_in_view_and_fit_to_window_includes_the_draft(window, qtbot):
    tool = _straights_from_panel(qtbot, window, 4, zoom=2.0, centre=(0, 0))
    end = tool.draft.end_pose()
    shown = window.view.mapToScene(window.view.viewport().rect()).boundingRect()
    assert shown.contains(end.x, end.y)  # the end is scrolled into view
    window.view.fit_to_view()
    shown = window.view.mapToScene(window.view.viewport().rect()).boundingRect()
    assert shown.contains(tool.extent())  # the whole draft, though not built
    assert window.doc.track.spaces == []


def test_a_straight_fitted_to_close_the_loop_is_marked_in_the_table(window, qtbot):
    tool = _tool(window, zoom=0.8, centre=(200, -150))
    tool.set_start(0.0, 0.0, 0.0)
    for piece in (Straight(400), Arc(150, 180), Straight(320), Arc(150, 180)):
        tool.add_piece(piece)
    assert tool.build.result.closed, tool.build.summary()
    table = window.lane_panel.table
    fitted = [
        row
        for row in range(table.rowCount())
        if "to close the loop" in table.item(row, 1).toolTip()
    ]
    assert fitted and all(table.item(row, 1).font().italic() for row in fitted)
    assert table.item(1, 1).toolTip() == ""  # arcs are never refitted
    assert tool.draft.pieces[2] == Straight(320)  # the typed value stays


def test_enter_creates_after_a_click_on_a_panel_button(window, qtbot):
    tool = _straights_from_panel(qtbot, window)
    panel = window.lane_panel
    panel.add_straight_button.setFocus()
    qtbot.keyClick(panel.add_straight_button, Qt.Key.Key_Return)
    assert window.doc.track.spaces and tool.draft.start is None


def test_escape_in_a_panel_field_keeps_the_draft(window, qtbot):
    tool = _straights_from_panel(qtbot, window)
    panel = window.lane_panel
    panel.lanes.setFocus()
    qtbot.keyClick(panel.lanes, Qt.Key.Key_Escape)
    assert tool.draft.pieces  # only Cancel (Esc) on the canvas drops it


def test_a_closed_loop_gets_no_piece_following_the_pointer(window, qtbot):
    tool = _tool(window, zoom=0.8, centre=(200, -150))
    tool.set_start(0.0, 0.0, 0.0)
    for piece in (Straight(400), Arc(150, 180), Straight(400), Arc(150, 180)):
        tool.add_piece(piece)
    built = tool.build.result
    assert built.closed
    hover(window, 500, 100)
    hover(window, 520, 120)
    assert tool.ghost is None  # nothing would follow a finished loop
    assert tool.build.result.closed and len(tool.build.result.spaces) == len(built.spaces)
    assert "closed loop" in window.lane_panel.status.text()
    vp = window.view.viewport()
    p = view_point(window, 520, 120)
    QTest.mouseClick(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, p)
    assert len(tool.draft.pieces) == 4


def test_edit_layout_again_from_another_tool_takes_up_the_lanes_tool(window, qtbot):
    tool = _tool(window, zoom=0.8, centre=(200, -150))
    tool.set_start(0.0, 0.0, 0.0)
    for piece in (Straight(400), Arc(150, 180), Straight(400), Arc(150, 180)):
        tool.add_piece(piece)
    window.lane_panel.create_button.click()
    window.set_tool("select")
    assert window.tool is not tool
    window.lane_panel.edit_layout_button.click()
    assert window.tool is tool and window.tool_actions[TOOL].isChecked()
    assert tool.extent() is not None  # the draft is on the canvas
    assert "re-applies" in window.hint_label.text()
