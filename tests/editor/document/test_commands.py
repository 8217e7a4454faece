"""Every edit is a command: any sequence undone restores the track exactly, redone repeats it."""

from __future__ import annotations

import copy

import pytest
from depth import examples
from hypothesis import given, settings
from hypothesis import strategies as st
from tracks_for_tests import straight_track

from trackside.editor.document import commands as c
from trackside.editor.document.track_document import TrackDocument
from trackside.engine.track.model import Centerline, Space

pytestmark = pytest.mark.gui

coord = st.floats(-500, 500, allow_nan=False).map(lambda v: round(v, 2))

step = st.one_of(
    st.tuples(
        st.just("move"),
        st.lists(st.integers(0, 40), min_size=1, max_size=4),
        coord,
        coord,
        st.booleans(),
    ),
    st.tuples(
        st.just("corners"),
        st.integers(0, 40),
        st.lists(st.tuples(coord, coord), min_size=3, max_size=6),
    ),
    st.tuples(
        st.just("field"),
        st.integers(0, 40),
        st.sampled_from([("lane", 2), ("kind", "danger"), ("label", "x"), ("id", "zz")]),
    ),
    st.tuples(st.just("add"), st.integers(1, 3)),
    st.tuples(st.just("remove"), st.lists(st.integers(0, 40), min_size=1, max_size=3)),
    st.tuples(st.just("grid"), st.lists(st.sampled_from(["a1", "b1", "a2", "zz"]), max_size=6)),
    st.tuples(st.just("line"), st.integers(0, 3), coord, coord, coord, coord),
    st.tuples(st.just("centerline"), st.lists(st.tuples(coord, coord), min_size=2, max_size=5)),
    st.tuples(
        st.just("meta"),
        st.sampled_from(
            [("name", "N"), ("author", "A"), ("description", None), ("tolerance", 0.5)]
        ),
    ),
    st.tuples(st.just("rename"), st.integers(0, 40), st.sampled_from(["p", "q", "a1"])),
    st.tuples(st.just("duplicate"), st.lists(st.integers(0, 40), min_size=1, max_size=3)),
)


def _apply(doc: TrackDocument, op: tuple) -> None:
    n = len(doc.track.spaces)
    stack = doc.undo_stack
    kind = op[0]
    if kind == "move" and n:
        stack.push(c.MoveSpaces(doc, sorted({i % n for i in op[1]}), op[2], op[3], nudge=op[4]))
    elif kind == "corners" and n:
        stack.push(c.SetCorners(doc, op[1] % n, op[2]))
    elif kind == "field" and n:
        stack.push(c.SetSpaceField(doc, op[1] % n, *op[2]))
    elif kind == "add":
        stack.push(
            c.AddSpaces(
                doc, [Space(doc.unique_id("n"), 0, [(0, 0), (5, 0), (5, 5)]) for _ in range(op[1])]
            )
        )
    elif kind == "remove" and n:
        c.delete_spaces(doc, sorted({i % n for i in op[1]}))
    elif kind == "grid":
        stack.push(c.SetGrid(doc, op[1]))
    elif kind == "line":
        stack.push(c.SetLine(doc, op[1], ((op[2], op[3]), (op[4], op[5]))))
    elif kind == "centerline":
        stack.push(c.SetCenterline(doc, Centerline(True, op[1])))
    elif kind == "meta":
        stack.push(c.SetMeta(doc, *op[1]))
    elif kind == "rename" and n:
        c.rename_space(doc, op[1] % n, op[2])
    elif kind == "duplicate" and n:
        c.duplicate_spaces(doc, sorted({i % n for i in op[1]}))


@settings(max_examples=examples(60))
@given(ops=st.lists(step, max_size=25))
def test_any_edits_undo_to_the_original_and_redo_to_the_result(qapp, ops):
    doc = TrackDocument(straight_track(rows=8, lanes=3))
    original = copy.deepcopy(doc.track.to_dict())
    for op in ops:
        _apply(doc, op)
    result = copy.deepcopy(doc.track.to_dict())
    while doc.undo_stack.canUndo():
        doc.undo_stack.undo()
    assert doc.track.to_dict() == original
    assert not doc.is_modified()
    while doc.undo_stack.canRedo():
        doc.undo_stack.redo()
    assert doc.track.to_dict() == result


def test_signals_name_what_changed(qapp):
    doc = TrackDocument(straight_track(rows=4, lanes=2))
    seen = []
    doc.spaceAdded.connect(lambda i: seen.append(("added", i)))
    doc.spaceRemoved.connect(lambda i: seen.append(("removed", i)))
    doc.spaceChanged.connect(lambda i: seen.append(("changed", i)))
    doc.linesChanged.connect(lambda k: seen.append(("line", k)))
    doc.gridChanged.connect(lambda: seen.append(("grid",)))
    doc.metaChanged.connect(lambda name: seen.append(("meta", name)))
    doc.centerlineChanged.connect(lambda: seen.append(("centerline",)))
    doc.undo_stack.push(c.MoveSpaces(doc, [1], 1, 0))
    doc.undo_stack.push(c.RemoveSpaces(doc, [0]))
    doc.undo_stack.undo()
    doc.undo_stack.push(c.SetLine(doc, 3, ((0, 0), (1, 1))))
    doc.undo_stack.push(c.SetGrid(doc, ["a1"]))
    doc.undo_stack.push(c.SetMeta(doc, "author", "me"))
    doc.undo_stack.push(c.SetCenterline(doc, Centerline(False, [(0, 0), (9, 0)])))
    assert seen == [
        ("changed", 1),
        ("removed", 0),
        ("added", 0),
        ("line", 3),
        ("grid",),
        ("meta", "author"),
        ("centerline",),
    ]


def test_nudges_merge_but_drags_do_not(qapp):
    doc = TrackDocument(straight_track(rows=4, lanes=2))
    for _ in range(5):
        doc.undo_stack.push(c.MoveSpaces(doc, [0, 1], 1, 0, nudge=True))
    assert doc.undo_stack.count() == 1
    doc.undo_stack.push(c.MoveSpaces(doc, [0, 1], 1, 0))
    doc.undo_stack.push(c.MoveSpaces(doc, [0, 1], 1, 0))
    assert doc.undo_stack.count() == 3
    doc.undo_stack.push(c.MoveSpaces(doc, [0], 1, 0, nudge=True))
    doc.undo_stack.push(c.MoveSpaces(doc, [1], 1, 0, nudge=True))  # other spaces: no merge
    assert doc.undo_stack.count() == 5


def test_a_long_session_of_nudges_does_not_exhaust_true(qapp):
    """PySide6 6.12 on Python 3.11 drops a reference to the bool that mergeWith returns;
    a minute of held arrow keys aborted the process (that release is excluded)."""
    doc = TrackDocument(straight_track(rows=2, lanes=1))
    for _ in range(20_000):
        doc.undo_stack.push(c.MoveSpaces(doc, [0], 0.5, 0, nudge=True))
    assert doc.undo_stack.count() == 1
    assert float(doc.track.spaces[0].corners[0][0]) == pytest.approx(10_000, abs=1e-6)


@settings(max_examples=examples(30))
@given(ops=st.lists(step, max_size=15), undos=st.integers(0, 6))
def test_the_shared_snapshot_the_issues_list_checks_is_the_track_after_any_edits(qapp, ops, undos):
    """The cheap copy the validator runs on (spaces shared between copies until they
    change) equals a deep copy of the track after every edit, undo and redo."""
    from trackside.engine.track.validate import validate_track

    doc = TrackDocument(straight_track(rows=8, lanes=3))

    def same() -> None:
        shared = doc.shared_snapshot()
        assert shared.to_dict() == doc.snapshot().to_dict()
        assert not any(a is b for a, b in zip(shared.spaces, doc.track.spaces, strict=True))

    same()
    for op in ops:
        _apply(doc, op)
        same()
    for _ in range(undos):
        doc.undo_stack.undo()
        same()
    doc.undo_stack.redo()
    same()
    found = validate_track(doc.shared_snapshot()).issues
    assert found == validate_track(doc.snapshot()).issues
