"""Lanes > Edit Layout Again: the layout made by Create is kept with the document,
loads back into the Lanes panel, and Re-apply changes the spaces in place as one
undo step, the spaces that remain keeping their ids."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from trackside.engine.track.lanes import Arc, Straight

pytestmark = pytest.mark.gui


def created(window, qtbot, pieces, lanes=2):
    window.set_tool("lanes")
    tool = window.tool
    tool.set_start(0, 0, 0)
    window.lane_panel.lanes.setValue(lanes)
    for piece in pieces:
        tool.add_piece(piece)
    window.lane_panel.create_button.click()
    assert window.doc.track.spaces
    return tool


def test_create_keeps_the_layout_and_undo_forgets_it(window, qtbot):
    created(window, qtbot, [Straight(400)])
    panel = window.lane_panel
    assert len(window.doc.lane_layouts) == 1
    assert panel.edit_layout_button.isEnabled()
    window.doc.undo_stack.undo()
    assert window.doc.lane_layouts == [] and window.doc.track.spaces == []
    assert not panel.edit_layout_button.isEnabled()


def test_a_wider_piece_re_applied_keeps_the_ids_of_the_spaces_that_remain(window, qtbot):
    tool = created(window, qtbot, [Straight(400), Straight(400)])
    before = {sp.id: sp for sp in window.doc.track.spaces}
    assert set(before) == {f"{lane}{row}" for lane in "ab" for row in range(1, 21)}
    panel = window.lane_panel
    window.scene.select_indices([0])
    assert panel.edit_layout_button.isEnabled()
    panel.edit_layout_button.click()
    assert tool.editing is not None
    assert panel.table.rowCount() == 2
    assert panel.create_button.text().startswith("Re-apply")
    item = panel.table.item(1, 3)
    item.setText("3")  # the second straight gets three lanes
    assert tool.draft.pieces[1].lanes == 3
    qtbot.keyClick(panel, Qt.Key.Key_Return)
    after = {sp.id: sp for sp in window.doc.track.spaces}
    assert window.doc.undo_stack.count() == 2  # Create, then one Re-apply
    assert {f"a{row}" for row in range(1, 11)} <= set(after)
    for row in range(1, 11):  # the first straight did not change: same spaces, same places
        assert after[f"a{row}"] is before[f"a{row}"]
        assert after[f"a{row}"].corners == before[f"a{row}"].corners
    assert len(after) == 20 + 30
    assert len(window.doc.lane_layouts) == 1
    assert tool.editing is None
    window.doc.undo_stack.undo()
    assert {sp.id: sp.corners for sp in window.doc.track.spaces} == {
        sid: sp.corners for sid, sp in before.items()
    }


def test_deleting_a_piece_removes_its_spaces_and_keeps_the_others(window, qtbot):
    tool = created(window, qtbot, [Straight(200), Straight(200), Straight(200)])
    panel = window.lane_panel
    panel.edit_layout()
    panel.table.selectRow(2)
    panel.delete_piece_button.click()
    assert len(tool.draft.pieces) == 2
    panel.create_button.click()
    ids = {sp.id for sp in window.doc.track.spaces}
    assert ids == {f"{lane}{row}" for lane in "ab" for row in range(1, 11)}


def test_split_and_insert_change_the_pieces_of_the_draft(window, qtbot):
    tool = created(window, qtbot, [Straight(400), Arc(200, 90)])
    panel = window.lane_panel
    panel.edit_layout()
    panel.table.selectRow(1)
    panel.split_button.click()
    assert tool.draft.pieces[1:] == [Arc(200, 45), Arc(200, 45)]
    panel.table.selectRow(1)
    panel.insert_button.click()
    assert isinstance(tool.draft.pieces[1], Straight)
    assert len(tool.draft.pieces) == 4
    count = len(window.doc.track.spaces)
    panel.create_button.click()
    assert len(window.doc.track.spaces) > count
    assert window.doc.undo_stack.count() == 2


def test_escape_stops_editing_and_create_then_adds_anew(window, qtbot):
    tool = created(window, qtbot, [Straight(200)])
    window.lane_panel.edit_layout()
    tool.cancel()
    assert tool.editing is None
    assert window.lane_panel.create_button.text().startswith("Create")


def test_the_layout_is_saved_with_the_track_and_edits_again_after_reopening(
    make_window, qtbot, tmp_path
):
    first = make_window()
    created(first, qtbot, [Straight(400), Straight(400)])
    first.scene.select_indices([0])
    qtbot.keyClick(first.view, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClick(first.view, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)
    path = tmp_path / "strip.yaml"
    first.prompts.save_as_answer = str(path)
    assert first.save_as()
    assert "lane_layouts:" in path.read_text()
    second = make_window()
    assert second.open_file(path, ask=False)
    assert len(second.doc.lane_layouts) == 1
    pasted = second.doc.track.spaces[-1]  # not the layout's: it stays as it is
    second.set_tool("lanes")
    panel = second.lane_panel
    assert panel.edit_layout()
    assert second.tool.draft.pieces == [Straight(400), Straight(400)]
    panel.table.item(0, 3).setText("1")  # the first straight down to one lane
    panel.create_button.click()
    ids = {sp.id for sp in second.doc.track.spaces}
    assert {f"a{row}" for row in range(1, 21)} <= ids
    assert not {f"b{row}" for row in range(1, 11)} & ids  # gone with the second lane
    assert {f"b{row}" for row in range(11, 21)} <= ids
    assert pasted.id in ids
    assert second.doc.undo_stack.count() == 1


def test_a_mirrored_circuit_re_applies_its_layout_in_the_mirrored_place(window, qtbot):
    created(window, qtbot, [Straight(200), Arc(150, 180), Straight(200), Arc(150, 180)])
    before = window.doc.snapshot()
    window.transforms.act_mirror_lr.trigger()
    mirrored = {sp.id: sp.corners for sp in window.doc.track.spaces}
    assert mirrored != {sp.id: sp.corners for sp in before.spaces}
    window.lane_panel.edit_layout()
    window.lane_panel.create_button.click()
    again = {sp.id: sp.corners for sp in window.doc.track.spaces}
    assert set(again) == set(mirrored)
    for sid, corners in again.items():
        flat = [v for p in sorted(corners) for v in p]
        assert flat == pytest.approx([v for p in sorted(mirrored[sid]) for v in p], abs=0.01)


def test_a_copy_of_a_bundled_circuit_is_laid_out_again(make_window, qtbot, tmp_path):
    """A designer's copy of a bundled circuit keeps the layout it was drawn with: Edit
    Layout Again loads its pieces, and Re-apply unchanged keeps every space."""
    from repo_paths import ROOT

    path = tmp_path / "my-harbour.yaml"
    path.write_text((ROOT / "tracks" / "harbour-loop.yaml").read_text())
    window = make_window()
    assert window.open_file(path, ask=False)
    before = {sp.id: [v for c in sp.corners for v in c] for sp in window.doc.track.spaces}
    window.set_tool("lanes")
    panel = window.lane_panel
    assert panel.edit_layout_button.isEnabled()
    panel.edit_layout_button.click()
    assert panel.table.rowCount() == 14 and panel.create_button.text().startswith("Re-apply")
    assert window.tool.draft.pieces[0] == Straight(76, lanes=6)
    panel.create_button.click()
    after = {sp.id: [v for c in sp.corners for v in c] for sp in window.doc.track.spaces}
    assert after.keys() == before.keys()
    assert all(after[i] == pytest.approx(before[i], abs=0.001) for i in before)
