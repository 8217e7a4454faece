"""A fix chosen in the Balance panel's list is drawn over the board before it is applied
(a line at its new place, a grid's new slots, a lane fix's spaces), and goes when no
fix is chosen, the list is cleared, the fix is applied or the circuit changes."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtWidgets import QGraphicsItem
from tracks_for_tests import narrow_loop

from trackside.editor.canvas.compare_overlay import polygon
from trackside.editor.canvas.painting import badge_boxes, space_text_box
from trackside.engine.balance import BalanceReport
from trackside.engine.balance.edits import Edit, Proposal, make_edit
from trackside.engine.balance.fixes import FixSearch, Measured, Trial
from trackside.engine.balance.lane_fixes import lane_fix
from trackside.engine.track.diff import diff_tracks
from trackside.engine.track.model import save_track

pytestmark = pytest.mark.gui


def offer(window, edits: list[Edit]) -> None:
    """List ``edits`` as the fixes of the circuit open, as a search would (measured
    alike: what is drawn does not depend on the figures)."""
    base = BalanceReport(window.doc.track.name, "standard", 4, ["greedy"], games=30)
    same = Measured(1.0, 1.0, -0.5, 0.5)
    trials = [Trial(edit, 30, same, same, same, same, base) for edit in edits]
    window.balance_panel.fixes.show_search(FixSearch(base, trials, track=window.doc.snapshot()))


def click_fix(qtbot, window, row: int, modifier=Qt.KeyboardModifier.NoModifier) -> None:
    fix_list = window.balance_panel.fixes.fix_list
    window.balance_dock.raise_()
    item = fix_list.item(row)
    fix_list.scrollToItem(item)
    rect = fix_list.visualItemRect(item)
    qtbot.mouseClick(fix_list.viewport(), Qt.MouseButton.LeftButton, modifier, rect.center())


def middle(segment) -> QPointF:
    (ax, ay), (bx, by) = segment
    return QPointF((ax + bx) / 2, (ay + by) / 2)


def test_a_fix_clicked_is_drawn_at_its_new_place_until_none_is_chosen(qtbot, quarry):
    """The finish two spaces earlier: the preview holds the finish as it is and as the
    fix puts it, tagged with the fix's number, over the board where the new line lies;
    it takes no clicks. The grid moved back: its new slots. Ctrl+click on the fix chosen
    and clearing the list take the preview away."""
    track = quarry.doc.snapshot()
    finish, grid = make_edit(track, Proposal("line", 2)), make_edit(track, Proposal("grid", 2))
    offer(quarry, [finish, grid])
    preview = quarry.balance_menu.fix_preview
    assert not preview.showing  # the fixes arrive with none chosen
    click_fix(qtbot, quarry, 0)
    qtbot.waitUntil(lambda: preview.showing)
    assert preview.lines == {3: (track.finish_line, finish.track.finish_line)}
    assert finish.track.finish_line != track.finish_line
    assert preview.tag_texts() == ["Finish (fix 1)"]
    assert preview in quarry.scene.items(middle(finish.track.finish_line))
    assert preview.acceptedMouseButtons() == Qt.MouseButton.NoButton
    assert not preview.flags() & QGraphicsItem.GraphicsItemFlag.ItemIsSelectable
    assert quarry.doc.track.finish_line == track.finish_line  # drawn, not made
    assert "Fix 1 is drawn in pink" in quarry.statusBar().currentMessage()

    click_fix(qtbot, quarry, 1)
    qtbot.waitUntil(lambda: preview.tag_texts() == ["Grid (fix 2)", "Lap start (fix 2)"])
    corners = {sp.id: sp.corners for sp in grid.track.spaces}
    assert preview.slots == [corners[s] for s in grid.track.start_grid]
    assert preview.lines == {}

    centre = quarry.view.mapToScene(quarry.view.viewport().rect().center())
    click_fix(qtbot, quarry, 1, Qt.KeyboardModifier.ControlModifier)  # chosen no more
    qtbot.waitUntil(lambda: not preview.showing)
    assert quarry.view.mapToScene(quarry.view.viewport().rect().center()) == centre
    assert not quarry.balance_panel.fixes.apply_button.isEnabled()
    click_fix(qtbot, quarry, 0)
    qtbot.waitUntil(lambda: preview.showing)
    quarry.balance_panel.fixes.clear_search()
    assert not preview.showing and preview.tag_texts() == []


def test_applying_a_fix_or_editing_the_circuit_takes_its_preview_away(qtbot, quarry):
    """Apply makes the fix, so the preview of it goes (the fixes are now of the circuit
    as it was); an undo back to that circuit shows it again, with Apply; any other edit
    takes it away too."""
    track = quarry.doc.snapshot()
    bet = make_edit(track, Proposal("line", 2, line=1))
    offer(quarry, [bet])
    preview, fixes = quarry.balance_menu.fix_preview, quarry.balance_panel.fixes
    click_fix(qtbot, quarry, 0)
    qtbot.waitUntil(lambda: preview.showing)
    assert preview.tag_texts() == ["Bet 2 (fix 1)"]
    assert preview.lines[1][1] == bet.track.betting_lines[1]
    qtbot.mouseClick(fixes.apply_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not preview.showing)
    assert quarry.doc.track.betting_lines[1] == bet.track.betting_lines[1]
    quarry.doc.undo_stack.undo()
    qtbot.waitUntil(lambda: preview.showing)
    assert fixes.apply_button.isEnabled()
    quarry.scene.select_indices([12])
    qtbot.keyClick(quarry.view, Qt.Key.Key_Right, Qt.KeyboardModifier.ShiftModifier)
    qtbot.waitUntil(lambda: not preview.showing)


def test_a_lane_fix_shows_the_spaces_it_adds_and_moves(qtbot, window, tmp_path):
    """A lane more on the single-lane piece of a loop: the spaces it adds are drawn where
    the layout built again puts them, and those it moves at their new place."""
    path = tmp_path / "narrow.yaml"
    save_track(narrow_loop(), path)
    assert window.open_file(str(path))
    track = window.doc.snapshot()
    fix = lane_fix(track, Proposal("lanes", 1, piece=3))
    assert fix is not None
    offer(window, [fix.edit])
    click_fix(qtbot, window, 0)
    preview = window.balance_menu.fix_preview
    qtbot.waitUntil(lambda: preview.showing)
    diff = diff_tracks(track, fix.edit.track)
    after = {sp.id: sp.corners for sp in fix.edit.track.spaces}
    assert diff.added and preview.added == [after[s] for s in diff.added]
    assert preview.moved == [after[s] for s in diff.moved]
    assert preview.tag_texts() == [
        f"Spaces: {len(diff.added)} added, {len(diff.moved)} moved (fix 1)"
    ]


@pytest.mark.parametrize("where", ["canvas", "panel"])
def test_esc_takes_the_preview_away_with_the_outline_and_the_choice(qtbot, quarry, where):
    """Esc clears what is shown over the board without being made: the outline of the
    fix's space and its pink preview, with the focus on the canvas or in the Balance
    panel. The fix is chosen no more (Apply off), so the preview does not come back
    unasked; clicking the fix again shows it again."""
    quarry.show()
    quarry.activateWindow()
    qtbot.waitUntil(quarry.isActiveWindow)
    track = quarry.doc.snapshot()
    offer(quarry, [make_edit(track, Proposal("line", 2))])
    fixes, preview = quarry.balance_panel.fixes, quarry.balance_menu.fix_preview
    click_fix(qtbot, quarry, 0)
    qtbot.waitUntil(lambda: preview.showing)
    quarry.scene.point_out([3])  # as a hint's space outlined
    focus = quarry.view if where == "canvas" else fixes.fix_list
    focus.setFocus()
    qtbot.waitUntil(lambda: focus.hasFocus())
    qtbot.keyClick(focus, Qt.Key.Key_Escape)
    assert quarry.scene.pointed_indices() == []
    assert not preview.showing
    assert fixes.selected_trial() is None and not fixes.fix_list.selectedItems()
    assert not fixes.apply_button.isEnabled()
    assert "drawn in pink" not in quarry.statusBar().currentMessage()
    click_fix(qtbot, quarry, 0)
    qtbot.waitUntil(lambda: preview.showing)


def on_screen(view, item) -> QRectF:
    """Where ``item`` (a tag, the same size at any zoom) lies in the view, in pixels."""
    return item.deviceTransform(view.viewportTransform()).mapRect(item.boundingRect())


@pytest.mark.parametrize("zoom", [None, 0.6, 4.0])
def test_a_preview_covers_no_label_of_the_board(qtbot, quarry, zoom):
    """At the zoom the circuit opens at, and zoomed out or in: the preview's tags cover
    neither the lap start's tag, nor a betting line's numbered badge, nor a grid number,
    nor each other (the grid moved back tagged its lap start over the green one). The
    new slots' pink numbers sit in their slots on badges of their own, off the white
    numbers the spaces print now (beside them, plain, they read as one: "14")."""
    track = quarry.doc.snapshot()
    edits = [
        make_edit(track, Proposal("grid", 1)),
        make_edit(track, Proposal("line", 1, line=1)),
        make_edit(track, Proposal("line", 2)),
    ]
    offer(quarry, edits)
    view, preview = quarry.view, quarry.balance_menu.fix_preview
    if zoom is not None:
        view.set_zoom(zoom)
    spaces = {sp.id: sp for sp in track.spaces}
    printed = [
        space_text_box(spaces[sid], grid_slot=n, show_id=True)
        for n, sid in enumerate(track.start_grid, 1)
    ]
    badges = badge_boxes(track.betting_lines)
    for row, edit in enumerate(edits):
        click_fix(qtbot, quarry, row)
        qtbot.waitUntil(lambda: preview.showing)
        labels = [view.viewportTransform().mapRect(box) for box in printed + badges]
        labels.append(on_screen(view, quarry.scene.lap_start.label))
        tags = [on_screen(view, tag) for tag in preview.tags]
        for k, tag in enumerate(tags):
            assert not any(tag.intersects(label) for label in labels), preview.tag_texts()[k]
            assert not any(tag.intersects(other) for other in tags[k + 1 :]), edit.text
    click_fix(qtbot, quarry, 0)
    qtbot.waitUntil(lambda: preview.slots != [])
    grid = edits[0].track.start_grid
    assert len(preview.slot_numbers) == len(grid) == 6
    for sid, (at, radius) in zip(grid, preview.slot_numbers, strict=True):
        now = track.start_grid.index(sid) + 1 if sid in track.start_grid else None
        space = spaces[sid]
        pink = QRectF(at.x() - radius, at.y() - radius, 2 * radius, 2 * radius)
        assert not pink.intersects(space_text_box(space, grid_slot=now, show_id=True)), sid
        assert polygon(space.corners).containsPoint(at, Qt.FillRule.OddEvenFill)
