"""Kept lanes in the Lanes panel: the Keep combo of a piece with more or fewer
lanes than the layout chooses which lanes carry on (docs/lane-tool.md); it is
saved with the layout, and Re-apply honours it as one undo step."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from trackside.editor.document.lane_draft import (
    DraftSettings,
    LaneDraft,
    build_draft,
    draft_of,
    keep_draft,
)
from trackside.engine.track.lanes import Arc, Straight
from trackside.engine.track.layout import KeptLayout
from trackside.engine.track.transform import map_kept_layout, mirror_left_right

# a file written before kept lanes existed: its layout has no 'keep' anywhere
OLD_LAYOUT = {
    "start": [0, 0],
    "heading": 0,
    "pieces": [{"straight": 200}, {"straight": 200, "lanes": 2}, {"arc": 150, "turn": 90}],
    "lanes": 3,
    "space_length": 40,
    "lane_width": 30,
    "stagger": 0,
    "close": True,
    "racing_line": True,
}


def across(spaces, space_id: str) -> tuple[float, float]:
    """The board-y range of a space on a straight along +x."""
    ys = [round(y, 3) for _x, y in next(sp for sp in spaces if sp.id == space_id).corners]
    return min(ys), max(ys)


def test_a_layout_saved_without_keep_reads_builds_and_writes_as_before():
    kept = KeptLayout.from_data(OLD_LAYOUT)
    assert all(p.keep is None for p in kept.pieces)
    assert kept.to_data() == OLD_LAYOUT  # saved again byte for byte
    build = build_draft(draft_of(kept))
    assert build.result is not None
    assert across(build.result.track_spaces(), "a6") == (-30, 0)  # centred, as before


def test_keep_is_saved_read_back_and_swapped_by_a_mirror():
    draft = LaneDraft(
        start=(0, 0),
        pieces=[Straight(200), Straight(200, lanes=2, keep="left"), Arc(150, 90, keep="right")],
        settings=DraftSettings(lanes=3),
    )
    data = keep_draft(draft, {}, False).to_data()
    assert [p.get("keep") for p in data["pieces"]] == [None, "left", "right"]
    again = KeptLayout.from_data(data)
    assert [p.keep for p in again.pieces] == [None, "left", "right"]
    mirrored = map_kept_layout(again, mirror_left_right((0.0, 0.0)))
    assert [p.keep for p in mirrored.pieces] == [None, "right", "left"]


@pytest.mark.gui
def test_the_keep_combo_re_applies_as_one_step_and_undo_restores(window, qtbot):
    window.set_tool("lanes")
    tool = window.tool
    tool.set_start(0, 0, 0)
    panel = window.lane_panel
    panel.lanes.setValue(3)
    tool.add_piece(Straight(200))
    tool.add_piece(Straight(200, lanes=2))
    panel.create_button.click()
    doc = window.doc
    before = {sp.id: sp for sp in doc.track.spaces}
    corners = {sid: list(sp.corners) for sid, sp in before.items()}
    assert across(doc.track.spaces, "a6") == (-30, 0)  # centred between a5 and b5

    panel.edit_layout_button.click()
    assert not panel.keep_combo(0).isEnabled()  # three lanes, as the layout: nothing to keep
    combo = panel.keep_combo(1)
    assert combo.isEnabled() and "carry on" in combo.toolTip()
    assert combo.currentText() == "Centre"
    combo.setFocus()
    qtbot.keyClick(combo, Qt.Key.Key_Down)
    qtbot.keyClick(combo, Qt.Key.Key_Down)
    assert combo.currentText() == "Right"
    assert tool.draft.pieces[1].keep == "right"
    qtbot.keyClick(panel, Qt.Key.Key_Return)  # Re-apply

    after = {sp.id: sp for sp in doc.track.spaces}
    assert doc.undo_stack.count() == 2  # Create, then one Re-apply
    middle = {f"{lane}{row}" for lane in "abc" for row in range(6, 11)}
    assert set(after) & middle == {f"{lane}{row}" for lane in "bc" for row in range(6, 11)}
    assert set(after) - middle == set(before) - middle  # the first straight: all still there
    assert after["b6"] is before["b6"]  # the lane that stays keeps its ids and objects
    for row in range(6, 11):  # b and c carry on from the first straight, edge to edge
        assert across(doc.track.spaces, f"b{row}") == across(doc.track.spaces, "b5")
        assert across(doc.track.spaces, f"c{row}") == across(doc.track.spaces, "c5")
    assert after["a1"].corners == corners["a1"]
    assert doc.lane_layouts[0].to_data()["pieces"][1]["keep"] == "right"

    doc.undo_stack.undo()
    assert {sp.id: list(sp.corners) for sp in doc.track.spaces} == corners
    assert doc.lane_layouts[0].pieces[1].keep is None
    panel.edit_layout_button.click()
    assert panel.keep_combo(1).currentText() == "Centre"
