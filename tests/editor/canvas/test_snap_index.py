"""Snapping through the scene's index finds exactly what a search over every space finds."""

from __future__ import annotations

import pytest
from depth import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from trackside.editor.canvas.snapping import SnapIndex, SnapSettings, snap_point
from trackside.engine.track.model import Centerline, Space, Track

coord = st.floats(-200, 400, allow_nan=False)
ALL = SnapSettings(grid=True, corners=True, edges=True, racing_line=False, grid_step=5)


def _track(jitter: list[float]) -> Track:
    """Rows of touching 40 x 30 mm spaces, their corners shifted by ``jitter``."""
    spaces = []
    for n in range(24):
        x, y = (n % 6) * 40.0, (n // 6) * 30.0
        d = jitter[n % len(jitter)]
        corners = [(x + d, y), (x + 40, y - d), (x + 40, y + 30), (x, y + 30 + d)]
        spaces.append(Space(f"s{n}", n // 6, corners))
    return Track("t", Centerline(False, []), spaces, [], [], ((0, 0), (0, 0)))


def _same(track: Track, index: SnapIndex, x: float, y: float, radius: float, exclude) -> None:
    for kinds in (ALL, SnapSettings(corners=False, racing_line=False)):
        expected = snap_point(track, x, y, radius, kinds, exclude)
        assert snap_point(track, x, y, radius, kinds, exclude, index) == expected


@settings(max_examples=examples(25))
@given(
    jitter=st.lists(st.floats(-8, 8, allow_nan=False), min_size=1, max_size=5),
    edits=st.lists(st.tuples(st.integers(0, 23), st.integers(0, 3), coord, coord), max_size=6),
    queries=st.lists(
        st.tuples(coord, coord, st.sampled_from([0.5, 3.0, 9.0, 60.0, 5000.0])),
        min_size=1,
        max_size=6,
    ),
    exclude=st.sets(st.integers(0, 23), max_size=3),
)
def test_the_index_snaps_as_the_full_search_after_any_corner_edits(jitter, edits, queries, exclude):
    track = _track(jitter)
    index = SnapIndex(track)
    for i, k, x, y in edits:  # a corner dragged far away: the index is patched
        track.spaces[i].corners[k] = (x, y)
        index.update(i)
        for qx, qy, radius in queries:
            _same(track, index, qx, qy, radius, exclude)
    for qx, qy, radius in queries:
        _same(track, index, qx, qy, radius, exclude)
        cx, cy = track.spaces[0].corners[2]  # right on a corner and a shared edge
        _same(track, index, float(cx), float(cy), radius, exclude)


def test_a_hostile_corner_is_searched_everywhere_instead_of_breaking_the_index():
    track = _track([0.0])
    track.spaces[3].corners[1] = (float("inf"), 5.0)
    index = SnapIndex(track)
    _same(track, index, 150.0, 1.0, 9.0, set())
    assert 3 in index.near(-1000.0, -1000.0, 1.0)


@pytest.mark.gui
def test_the_scene_snaps_with_an_index_that_follows_edits(window, stadium_file, qtbot):
    """Moving a space through a command: the scene's snap finds the moved corner."""
    from PySide6.QtCore import QPointF, Qt

    from trackside.editor.canvas.interaction import ToolEvent
    from trackside.editor.document.commands import MoveSpaces

    window.open_file(stadium_file)
    scene, doc = window.scene, window.doc
    x, y = (float(v) for v in doc.track.spaces[0].corners[0])

    def at(px: float, py: float) -> ToolEvent:
        return ToolEvent(
            QPointF(px, py),
            Qt.MouseButton.NoButton,
            Qt.MouseButton.NoButton,
            Qt.KeyboardModifier.NoModifier,
        )

    scene.snap(at(x, y), show=False)  # the index is built
    doc.undo_stack.push(MoveSpaces(doc, [0], 500.0, 500.0))
    hit = scene.snap(at(x + 500.5, y + 500.2), show=False)
    assert (hit.kind, hit.space, hit.x, hit.y) == ("corner", 0, x + 500, y + 500)
    doc.undo_stack.undo()
    moved_back = scene.snap(at(x + 0.5, y + 0.2), show=False)
    reach = 9.0 * scene.pixel_mm()
    expected = snap_point(doc.track, x + 0.5, y + 0.2, reach, scene.snap_settings_for_view())
    assert moved_back == expected
    scene.flush()
