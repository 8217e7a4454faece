"""What the scene keeps between edits (the track's extent, grid numbers, the moves
graph) is what it would work out afresh, after any sequence of edits."""

from __future__ import annotations

import pytest
from conftest_helpers import discard_scene
from depth import examples
from hypothesis import given, settings
from hypothesis import strategies as st
from PySide6.QtCore import QRectF
from tracks_for_tests import straight_track

from trackside.editor.canvas.scene import TrackScene
from trackside.editor.document import commands as c
from trackside.editor.document.track_document import TrackDocument
from trackside.engine.track.geometry import TrackGeometry
from trackside.engine.track.model import Space
from trackside.engine.track.movement import MoveGraph

pytestmark = pytest.mark.gui

coord = st.floats(-300, 300, allow_nan=False).map(lambda v: round(v, 1))
edit = st.one_of(
    st.tuples(st.just("move"), st.integers(0, 30), coord, coord),
    st.tuples(st.just("corners"), st.integers(0, 30), coord, coord),
    st.tuples(st.just("rename"), st.integers(0, 30), st.sampled_from(["a1", "b2", "zz"])),
    st.tuples(st.just("remove"), st.integers(0, 30)),
    st.tuples(st.just("add"), coord, coord),
    st.tuples(st.just("grid"), st.lists(st.sampled_from(["a1", "b1", "a2", "zz"]), max_size=4)),
    st.tuples(st.just("undo")),
)


def _apply(doc: TrackDocument, op: tuple) -> None:
    n, stack = len(doc.track.spaces), doc.undo_stack
    if op[0] == "move" and n:
        stack.push(c.MoveSpaces(doc, [op[1] % n], op[2], op[3]))
    elif op[0] == "corners" and n:
        corners = list(doc.track.spaces[op[1] % n].corners)
        corners[0] = (op[2], op[3])
        stack.push(c.SetCorners(doc, op[1] % n, corners))
    elif op[0] == "rename" and n:
        c.rename_space(doc, op[1] % n, op[2])
    elif op[0] == "remove" and n:
        c.delete_spaces(doc, [op[1] % n])
    elif op[0] == "add":
        x, y = op[1], op[2]
        square = [(x, y), (x + 20, y), (x + 20, y + 20), (x, y + 20)]
        stack.push(c.AddSpaces(doc, [Space(doc.unique_id("n"), 0, square)]))
    elif op[0] == "grid":
        stack.push(c.SetGrid(doc, op[1]))
    elif op[0] == "undo":
        stack.undo()


def _fresh_rect(scene: TrackScene) -> QRectF:
    rect = QRectF()
    shown = [item for item in scene.line_items if item.isVisible()]
    for item in (*scene.space_items, *shown, scene.racing_line):
        r = item.sceneBoundingRect()
        if not r.isEmpty():
            rect = rect.united(r)
    return rect


def _fresh_slots(doc: TrackDocument) -> list[int | None]:
    slots: dict[str, int] = {}
    for n, sid in enumerate(doc.track.start_grid, 1):
        slots.setdefault(sid, n)
    return [slots.pop(sp.id, None) for sp in doc.track.spaces]


@settings(max_examples=examples(15))
@given(ops=st.lists(edit, min_size=1, max_size=10))
def test_the_scene_kept_state_matches_a_fresh_computation_after_any_edits(qapp, ops):
    doc = TrackDocument(straight_track(rows=4, lanes=2))
    scene = TrackScene(doc)
    scene.track_rect()
    scene.move_graph()
    for op in ops:
        _apply(doc, op)
        qapp.processEvents()  # the scene's after-edit refresh, as in the running editor
        assert [item.grid_slot for item in scene.space_items] == _fresh_slots(doc)
        scene.flush()  # the tarmac's worker is done before the next example's scene
        assert scene.track_rect() == _fresh_rect(scene)
        graph = scene.move_graph()
        if graph is not None and graph.geometry.n:
            fresh = MoveGraph(TrackGeometry(doc.track))
            assert graph.moves(0, 3, set()) == fresh.moves(0, 3, set())
    discard_scene(scene)


def test_a_space_renamed_to_a_grid_id_gets_its_grid_number(qapp):
    doc = TrackDocument(straight_track(rows=4, lanes=2))
    scene = TrackScene(doc)
    doc.undo_stack.push(c.SetGrid(doc, ["zz"]))
    scene.flush()
    assert not any(item.grid_slot for item in scene.space_items)
    c.rename_space(doc, 2, "zz")
    qapp.processEvents()  # the scene's after-edit refresh, as in the running editor
    assert [item.grid_slot for item in scene.space_items] == _fresh_slots(doc)
    assert scene.space_items[2].grid_slot == 1
    discard_scene(scene)
