"""The issues list and the inspector, driven through the real widgets."""

from __future__ import annotations

import pytest
from conftest_helpers import centre, click, drag, hover, wait_issues
from PySide6.QtCore import Qt
from PySide6.QtGui import QTextDocumentFragment

pytestmark = pytest.mark.gui


def test_moving_a_corner_changes_the_issues_list(window, qtbot, stadium_file):
    window.open_file(stadium_file)
    wait_issues(qtbot, window)
    assert window.issues.counts_text() == (0, 0)
    assert "No problems" in window.issues.counts.text()
    t = window.doc.track
    a5 = t.space("a5")
    window.set_tool("corners")
    click(qtbot, window, *centre(a5))
    x, y = (float(v) for v in a5.corners[1])
    window.view.set_zoom(3.0)
    window.view.centerOn(x, y)
    # Drag a5's corner alone (Alt) deep into its neighbour: the spaces overlap.
    target = centre(t.space("a6"))
    drag(
        window,
        (x, y),
        target,
        Qt.KeyboardModifier.AltModifier | Qt.KeyboardModifier.ControlModifier,
    )
    wait_issues(qtbot, window)
    errors, _warnings = window.issues.counts_text()
    assert errors >= 1
    codes = {i.code for i in window.issues.issues}
    assert "overlap" in codes
    shown = [r.data(0, Qt.ItemDataRole.UserRole) for r in window.issues.rows()]
    assert all(issue in shown for issue in window.issues.all_issues())
    assert "error" in window.issues.counts.text()
    item = window.scene.space_items[t.spaces.index(a5)]
    assert item.problem
    qtbot.keyClick(window.view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    wait_issues(qtbot, window)
    assert window.issues.counts_text() == (0, 0)
    assert not item.problem


def cut_the_track(window, qtbot, stadium_file):
    """Open the stadium and delete a row across it: dead ends before the gap."""
    window.open_file(stadium_file)
    t = window.doc.track
    window.scene.select_indices([t.spaces.index(t.space(sid)) for sid in ("a30", "b30", "c30")])
    window.act_delete.trigger()
    wait_issues(qtbot, window)
    return t


def test_clicking_an_issue_selects_its_spaces_and_centres_them(window, qtbot, stadium_file):
    t = cut_the_track(window, qtbot, stadium_file)
    shown = window.issues.tree
    rows = window.issues.rows()
    row = next(r for r in rows if r.data(0, Qt.ItemDataRole.UserRole).spaces)
    issue = row.data(0, Qt.ItemDataRole.UserRole)
    window.view.set_zoom(4.0)
    window.view.centerOn(-2000, -2000)
    rect = shown.visualItemRect(row)
    qtbot.mouseClick(shown.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    selected = [t.spaces[i].id for i in window.scene.selected_indices()]
    assert selected and set(selected) <= set(issue.spaces)
    centre = window.view.mapToScene(window.view.viewport().rect().center())
    box = window.scene.space_items[window.scene.selected_indices()[0]].sceneBoundingRect()
    visible = window.view.mapToScene(window.view.viewport().rect()).boundingRect()
    assert visible.intersects(box)
    assert abs(centre.x() + 2000) > 100


def test_clicking_a_line_issue_selects_the_line(window, qtbot, stadium_file):
    window.open_file(stadium_file)
    window.set_tool("finish")
    t = window.doc.track
    a3 = t.space("a3")  # finish line across the start: out of race order
    (x0, y0), (x1, y1) = a3.corners[0], a3.corners[3]
    window.view.set_zoom(2.0)
    window.view.centerOn(float(x0), float(y0))
    drag(
        window,
        (float(x0), float(y0) + 40),
        (float(x1), float(y1) - 60),
        Qt.KeyboardModifier.ControlModifier,
    )
    wait_issues(qtbot, window)
    line_rows = [i for i in window.issues.issues if i.line == 3]
    assert line_rows
    window.show_issue(line_rows[0])
    assert window.scene.selected_lines() == [3]


def test_inspector_edits_are_undoable(window, qtbot, stadium_file):
    window.open_file(stadium_file)
    t = window.doc.track
    index = t.spaces.index(t.space("a2"))
    window.scene.select_indices([index])
    ins = window.inspector
    assert ins.id_edit.text() == "a2"
    assert ins.corner_table.rowCount() == 4
    ins.id_edit.clear()
    qtbot.keyClicks(ins.id_edit, "pole")
    qtbot.keyClick(ins.id_edit, Qt.Key.Key_Return)
    assert t.spaces[index].id == "pole"
    assert "pole" in t.start_grid and "a2" not in t.start_grid
    ins.lane_spin.setValue(2)
    assert t.spaces[index].lane == 2
    ins.kind_combo.setCurrentText("danger")
    assert t.spaces[index].kind == "danger"
    ins.corner_table.item(0, 0).setText("12.5")
    assert float(t.spaces[index].corners[0][0]) == 12.5
    ins.tolerance_spin.setValue(0.5)
    ins.tolerance_spin.editingFinished.emit()
    assert t.tolerance == 0.5
    ins.author_edit.setText("Ada")
    ins.author_edit.editingFinished.emit()
    assert t.author == "Ada"
    assert window.doc.undo_stack.count() == 6
    assert window.undo_view.stack() is window.doc.undo_stack
    while window.doc.undo_stack.canUndo():
        window.doc.undo_stack.undo()
    assert ins.id_edit.text() == "a2"
    from trackside.engine.track.model import load_track

    assert t.to_dict() == load_track(stadium_file).to_dict()


def test_inspector_refuses_an_id_with_spaces(window, qtbot, stadium_file):
    window.open_file(stadium_file)
    window.scene.select_indices([0])
    ins = window.inspector
    ins.id_edit.setText("two words")
    ins.id_edit.editingFinished.emit()
    assert window.doc.track.spaces[0].id == "a1"
    assert ins.id_edit.text() == "a1"
    assert window.doc.undo_stack.count() == 0


def test_fix_a_dead_end_by_drawing_the_missing_space(window, qtbot, stadium_file):
    """Deleting a space leaves dead ends behind it (R-MOVE-1); drawing it back fixes them."""
    window.open_file(stadium_file)
    t = window.doc.track
    gone = t.space("b12")
    corners = [tuple(float(v) for v in c) for c in gone.corners]
    index = t.spaces.index(gone)
    for sid in ("a12", "c12"):  # make b12 the only way through this row
        window.scene.select_indices([t.spaces.index(t.space(sid))])
        window.act_delete.trigger()
    index = t.spaces.index(gone)
    window.scene.select_indices([index])
    window.act_delete.trigger()
    wait_issues(qtbot, window)
    assert "dead-end" in {i.code for i in window.issues.issues}
    window.set_tool("draw")
    cx = sum(x for x, _ in corners) / 4
    cy = sum(y for _, y in corners) / 4
    window.view.set_zoom(3.0)
    window.view.centerOn(cx, cy)
    for x, y in corners:
        click(qtbot, window, x + 0.6, y - 0.5)  # snaps onto the neighbours' corners
    qtbot.keyClick(window.view, Qt.Key.Key_Return)
    new = t.spaces[-1]
    assert [tuple(float(v) for v in c) for c in new.corners] == [
        (pytest.approx(x, abs=1e-3), pytest.approx(y, abs=1e-3)) for x, y in corners
    ]
    wait_issues(qtbot, window)
    assert "dead-end" not in {i.code for i in window.issues.issues}


def test_movement_preview_lights_up_the_legal_moves(window, qtbot, stadium_file):
    """The preview shows R-MOVE-4's legal moves; a test car blocks (R-MOVE-3)."""
    from trackside.engine.track.geometry import TrackGeometry
    from trackside.engine.track.movement import MoveGraph

    window.open_file(stadium_file)
    t = window.doc.track
    window.set_tool("moves")
    qtbot.keyClick(window.view, Qt.Key.Key_2)
    a5 = t.spaces.index(t.space("a5"))
    hover(window, *centre(t.space("a5")))
    tool = window.tool
    qtbot.waitUntil(lambda: tool.origin == a5)
    expected = MoveGraph(TrackGeometry(t)).moves(a5, 2, set())
    assert {m.path for m in tool.last_moves} == {m.path for m in expected}
    ends = {t.spaces[m.end].id for m in tool.last_moves}
    assert ends == {"a7", "b7", "c7"}  # straight, one diagonal, two diagonals
    assert "moving 2" in window.hint_label.text()
    # Shift+click pins the car, then test cars on a6 and b6 block it.
    click(qtbot, window, *centre(t.space("a5")), Qt.KeyboardModifier.ShiftModifier)
    for sid in ("a6", "b6"):
        click(qtbot, window, *centre(t.space(sid)))
    assert tool.pinned == a5
    assert tool.last_moves == []
    click(qtbot, window, *centre(t.space("b6")))  # take the car on b6 away again
    assert {t.spaces[m.end].id for m in tool.last_moves} <= {"b7", "c7", "a7"}
    assert tool.last_moves


def test_forward_arrows_overlay_toggles(window, stadium_file):
    window.open_file(stadium_file)
    assert not window.scene.forward_arrows.isVisible()
    window.act_arrows.trigger()
    assert window.scene.forward_arrows.isVisible()
    assert window.scene.geometry() is not None
    window.view.viewport().grab()  # paints the overlay without error


def test_inspector_edits_the_ends_of_a_selected_line(window, qtbot, stadium_file):
    window.open_file(stadium_file)
    ins = window.inspector
    assert not ins.line_box.isVisibleTo(window)
    window.scene.select_indices([], [3])
    assert ins.line_box.isVisibleTo(window) and ins.line_box.title() == "Finish line"
    (ax, ay), _b = window.doc.track.finish_line
    assert ins.line_ends[0].value() == pytest.approx(float(ax), abs=1e-3)
    ins.line_ends[1].setValue(float(ay) - 4)
    ins.line_ends[1].editingFinished.emit()
    assert float(window.doc.track.finish_line[0][1]) == pytest.approx(float(ay) - 4, abs=1e-3)
    window.doc.undo_stack.undo()
    assert ins.line_ends[1].value() == pytest.approx(float(ay), abs=1e-3)


def _row(window, words):
    """The issues list's row whose text holds ``words``."""
    for item in window.issues.rows():
        if words in item.text(0):
            return item
    raise AssertionError(f"no row with {words!r}: {[i.message for i in window.issues.issues]}")


def test_what_is_not_placed_yet_is_said_so_and_a_click_takes_up_its_tool(
    window, qtbot, stadium_file
):
    from trackside.editor.document.commands import SetGrid, SetLine
    from trackside.editor.document.track_document import UNSET_SEGMENT

    window.open_file(stadium_file)
    stack = window.doc.undo_stack
    stack.push(SetGrid(window.doc, []))
    for k in (1, 3):
        stack.push(SetLine(window.doc, k, UNSET_SEGMENT))
    wait_issues(qtbot, window)
    messages = [i.message for i in window.issues.issues]
    assert sum("Betting line 2 is not placed yet" in m for m in messages) == 1
    assert sum("finish line is not placed yet" in m for m in messages) == 1
    assert sum("start grid is not placed yet" in m for m in messages) == 1
    window.issues.tree.itemClicked.emit(_row(window, "Betting line 2"), 0)
    assert window.tool.name == "betting" and window.tool.k == 1
    window.issues.tree.itemClicked.emit(_row(window, "finish line"), 0)
    assert window.tool.name == "finish"
    window.issues.tree.itemClicked.emit(_row(window, "start grid"), 0)
    assert window.tool.name == "grid"


def test_a_file_that_was_not_opened_is_listed_apart_and_goes_at_the_next_edit(
    window, qtbot, stadium_file, tmp_path
):
    window.open_file(stadium_file)
    wait_issues(qtbot, window)
    bad = tmp_path / "broken.yaml"
    bad.write_text("format: trackside-track/1\nname: 5\nspaces: 7\nstart_grid: x\n")
    assert not window.open_file(bad)
    rows = window.issues.all_issues()
    assert len(rows) >= 2 and all(r.code == "file" for r in rows)
    assert [r.line for r in rows] == sorted(r.line for r in rows)  # in file order
    assert "Not opened: broken.yaml" in window.issues.rows()[0].text(0)
    assert window.issues.counts_text() == (0, 0)  # the open track is fine
    headline = QTextDocumentFragment.fromHtml(window.issues.counts.text()).toPlainText()
    assert headline.split() == f"Not opened: {len(rows)} problems This track: no problems".split()
    window.scene.select_indices([0])
    window.view.setFocus()
    qtbot.keyClick(window.view, Qt.Key.Key_Right)
    wait_issues(qtbot, window)
    rows = window.issues.all_issues()
    assert all(r.code != "file" for r in rows)
    assert not any("Not opened" in r.text(0) for r in window.issues.rows())  # no heading either


def test_a_long_hint_is_shortened_with_an_ellipsis_and_kept_whole_in_its_tooltip(window):
    width = window.width()
    text = "Lanes: " + "staggered lanes share edges only where pieces meet; " * 12
    window.hint_label.setText(text)
    window.statusBar().layout().activate()
    assert window.width() == width
    shown = window.hint_label.shown_text()
    assert shown.endswith("…") and len(shown) < len(text)
    assert window.hint_label.toolTip() == text


def test_many_issues_of_one_kind_fold_under_one_row_errors_first(window, qtbot, stadium_file):
    t = cut_the_track(window, qtbot, stadium_file)
    issues = window.issues
    dead = [i for i in issues.issues if i.code == "dead-end"]
    assert len(dead) >= 3
    top = [issues.tree.topLevelItem(k) for k in range(issues.tree.topLevelItemCount())]
    group = next(r for r in top if r.childCount())
    assert group.text(0) == f"{len(dead)} spaces have no forward neighbour"
    assert group.childCount() == len(dead)
    severities = [r.data(0, Qt.ItemDataRole.UserRole).severity for r in top]
    assert severities == sorted(severities)  # "error" before "warning"
    issues.tree.itemClicked.emit(group, 0)  # a group selects every space it is about
    selected = {t.spaces[i].id for i in window.scene.selected_indices()}
    assert selected == {s for i in dead for s in i.spaces}
    group.setExpanded(True)
    issues.run_now()
    wait_issues(qtbot, window)
    top = [issues.tree.topLevelItem(k) for k in range(issues.tree.topLevelItemCount())]
    assert next(r for r in top if r.childCount()).isExpanded()  # kept open across checks
