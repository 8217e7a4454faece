"""The lane tool (Lanes, L) and the issue's acceptance path, driven by mouse and keys.

From a blank page: lay out a loop with the lane tool, let the issues list say
what is missing (start grid, betting lines, finish line), fix each with its
tool, save, reopen and compare, then print it tiled on paper.
"""

from __future__ import annotations

import re

import pytest
from conftest_helpers import built_as, centre, click, drag, hover, wait_issues
from PySide6.QtCore import Qt
from shapely.geometry import Polygon

from trackside.editor.canvas.render import PAPERS
from trackside.engine.track.lanes import LaneLayout, Straight
from trackside.engine.track.model import load_track
from trackside.engine.track.validate import validate_track

pytestmark = pytest.mark.gui

PT_PER_MM = 72 / 25.4


def _lanes(window, zoom=1.5, centre=(200, 0)):
    window.tool_actions["lanes"].trigger()  # the toolbar button
    window.view.set_zoom(zoom)
    window.view.centerOn(*centre)
    assert window.tool.name == "lanes" and window.lane_dock.isVisible()
    return window.tool


def _point_and_click(qtbot, window, x, y):
    hover(window, x, y)
    click(qtbot, window, x, y)


def _codes(window, severity="error"):
    return {i.code for i in window.issues.issues if i.severity == severity}


def _row_edge(track, row: int, lanes: str = "abc") -> tuple[tuple[float, float], ...]:
    """The edge between rows ``row`` and ``row + 1``, from lane a's side to lane c's."""
    ends = []
    for lane in (lanes[0], lanes[-1]):
        shared = Polygon(track.space(f"{lane}{row}").corners).intersection(
            Polygon(track.space(f"{lane}{row + 1}").corners)
        )
        ends.append(list(shared.coords))
    (a, b), (c, d) = ends
    far = max(
        ((p, q) for p in (a, b) for q in (c, d)),
        key=lambda pq: (pq[0][0] - pq[1][0]) ** 2 + (pq[0][1] - pq[1][1]) ** 2,
    )
    return far


def _overshoot(edge, mm=25.0):
    """The edge stretched ``mm`` past both ends: a rough drag across the track."""
    (x0, y0), (x1, y1) = edge
    length = ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    return (x0 - ux * mm, y0 - uy * mm), (x1 + ux * mm, y1 + uy * mm)


def _ends(segment) -> list[float]:
    """A segment's end coordinates, in a fixed order (a line may be drawn either way)."""
    return [v for p in sorted(tuple(map(float, p)) for p in segment) for v in p]


def test_build_a_lane_strip_and_check_the_spaces(window, qtbot):
    tool = _lanes(window)
    window.lane_panel.lanes.setValue(3)
    click(qtbot, window, 0, 0)  # the start
    _point_and_click(qtbot, window, 401, 1.5)  # ahead: a straight of whole spaces
    assert tool.draft.pieces == [Straight(400)]
    assert len(tool.build.result.spaces) == 30  # previewed, not yet in the track
    assert window.doc.track.spaces == []
    qtbot.keyClick(window.view, Qt.Key.Key_Return)
    spaces = window.doc.track.spaces
    layout = LaneLayout(pieces=(Straight(400),), lanes=3, space_length=40, lane_width=30)
    assert built_as(spaces, layout)
    assert {s.lane for s in spaces} == {0, 1, 2}
    assert all(window.scene.space_items[i].rectangular for i in range(30))
    assert len(window.doc.track.start_grid) == 6
    assert window.doc.undo_stack.count() == 1
    assert window.inspector.track_stats.text().startswith("30 spaces · racing line 400 mm")
    qtbot.keyClick(window.view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert window.doc.track.spaces == [] and window.doc.track.start_grid == []


def test_a_new_valid_circuit_from_a_blank_page(window, qtbot, tmp_path, make_window):
    """The issue's acceptance path, as a new user does it."""
    window.new_blank()
    tool = _lanes(window, zoom=0.8, centre=(200, -150))
    panel = window.lane_panel
    panel.lanes.setValue(3)
    panel.furniture_box.setChecked(False)  # place grid and lines by hand
    click(qtbot, window, 0, 0)
    for x, y in [(401, 1), (402, -300), (0, -302)]:  # straight, half circle, straight back
        _point_and_click(qtbot, window, x, y)
    hover(window, 3, 2)
    assert tool.build.result.closed  # pointing at the start closes the loop
    _point_and_click(qtbot, window, 3, 2)
    qtbot.keyClick(window.view, Qt.Key.Key_Return)
    t = window.doc.track
    assert len(t.spaces) > 60 and t.centerline.closed and t.start_grid == []

    # The issues list says what is missing.
    wait_issues(qtbot, window)
    assert {"grid-size", "line-misses-centerline"} <= _codes(window)

    # Start grid: six spaces just after the seam, pole first.
    window.tool_actions["grid"].trigger()
    window.view.set_zoom(1.2)
    window.view.centerOn(100, 0)
    order = ["a3", "b3", "c3", "a2", "b2", "c2"]
    for sid in order:
        click(qtbot, window, *centre(t.space(sid)))
    assert t.start_grid == order
    wait_issues(qtbot, window)
    assert "grid-size" not in _codes(window)

    # Betting lines 1-3 and the finish line: rough drags across the track fit its edges.
    window.view.set_zoom(0.8)
    window.view.centerOn(200, -150)
    rows = len(t.spaces) // 3
    window.tool_actions["betting"].trigger()
    for k, row in enumerate((6, rows // 2, rows * 2 // 3)):
        edge = _row_edge(t, row)
        drag(window, *_overshoot(edge))
        assert _ends(t.betting_lines[k]) == pytest.approx(_ends(edge), abs=1e-3)
    window.tool_actions["finish"].trigger()
    drag(window, *_overshoot(_row_edge(t, rows - 4)))
    wait_issues(qtbot, window)
    assert window.issues.counts_text()[0] == 0, [i.message for i in window.issues.issues]
    assert validate_track(t).errors == 0

    # Save (an untitled track is named after its file), reopen, compare.
    path = tmp_path / "blank-page-loop.yaml"
    window.prompts.save_as_answer = str(path)
    window.act_save.trigger()
    assert not window.doc.is_modified() and t.name == "Blank Page Loop"
    other = make_window()
    assert other.open_file(path)
    assert other.doc.track.to_dict() == t.to_dict()
    assert load_track(path).to_dict() == t.to_dict()

    # Print it: true scale, tiled over A4 pages.
    window.prompts.export_answer = str(tmp_path / "loop-a4.pdf")
    assert window.export("pdf", "a4")
    data = (tmp_path / "loop-a4.pdf").read_bytes()
    boxes = re.findall(
        rb"/MediaBox\s*\[\s*([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)\s*\]", data
    )
    assert len(boxes) >= 2
    w, h = PAPERS["a4"]
    for x0, y0, x1, y1 in boxes:
        size = sorted(((float(x1) - float(x0)) / PT_PER_MM, (float(y1) - float(y0)) / PT_PER_MM))
        assert size == pytest.approx(sorted((w, h)), abs=0.5)
