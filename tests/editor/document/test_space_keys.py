"""Undo commands name a space by the space itself, never by its place in the list.

A space's place shifts whenever a space before it is deleted or put back, and an id
may repeat (a duplicate-id error the editor lets you make) or change (rename): a
command made for one space must change that space, and only it, whenever it runs.
"""

from __future__ import annotations

import pytest
from tracks_for_tests import straight_track

from trackside.editor.document import commands as c
from trackside.editor.document.track_document import TrackDocument

pytestmark = pytest.mark.gui


def _doc() -> TrackDocument:
    return TrackDocument(straight_track(rows=4, lanes=2))


def _by_id(doc: TrackDocument) -> dict[str, dict]:
    return {sp.id: sp.to_dict() for sp in doc.track.spaces}


def test_edit_b_then_delete_a_before_it_undoes_and_redoes_the_right_spaces(qapp):
    doc = _doc()
    stack = doc.undo_stack
    a, b = doc.track.spaces[0].id, doc.track.spaces[1].id
    original = doc.track.to_dict()
    stack.push(c.SetSpaceField(doc, 1, "lane", 3))
    stack.push(c.MoveSpaces(doc, [1], 5, 0))
    stack.push(c.RemoveSpaces(doc, [0]))
    stack.push(c.SetSpaceField(doc, doc.index_of(b), "label", "B"))
    result = _by_id(doc)
    assert a not in result and result[b]["lane"] == 3 and result[b]["label"] == "B"
    while stack.canUndo():
        stack.undo()
    assert doc.track.to_dict() == original
    while stack.canRedo():
        stack.redo()
    assert _by_id(doc) == result
    assert doc.track.spaces[0].id == b


def test_a_command_made_before_a_delete_still_changes_its_own_space(qapp):
    doc = _doc()
    stack = doc.undo_stack
    ids = [sp.id for sp in doc.track.spaces]
    a, b, after_b = ids[0], ids[1], ids[2]
    before = _by_id(doc)
    edit_b = c.SetSpaceField(doc, 1, "kind", "danger")
    corners_b = c.SetCorners(doc, 1, [(0, 0), (9, 0), (9, 9), (0, 9)])
    stack.push(c.RemoveSpaces(doc, [0]))  # b is now first, after_b second
    stack.push(edit_b)
    stack.push(corners_b)
    now = _by_id(doc)
    assert now[b]["kind"] == "danger" and now[b]["corners"] == [[0, 0], [9, 0], [9, 9], [0, 9]]
    assert now[after_b] == before[after_b]
    stack.undo()
    stack.undo()
    assert _by_id(doc)[b] == before[b]
    stack.undo()
    assert _by_id(doc) == before and doc.track.spaces[0].id == a


def test_a_space_put_back_by_undo_is_the_one_later_commands_change(qapp):
    doc = _doc()
    stack = doc.undo_stack
    b = doc.track.spaces[1].id
    stack.push(c.RemoveSpaces(doc, [0, 1]))
    stack.undo()  # both back, at their old places
    stack.push(c.MoveSpaces(doc, [1], 0, 7))
    moved = _by_id(doc)[b]["corners"]
    stack.undo()
    stack.redo()
    assert _by_id(doc)[b]["corners"] == moved


def test_two_spaces_with_one_id_are_told_apart(qapp):
    doc = _doc()
    stack = doc.undo_stack
    first_id = doc.track.spaces[0].id
    c.rename_space(doc, 1, first_id)  # a duplicate id: the issues list reports it
    twin = doc.track.spaces[1].to_dict()
    stack.push(c.SetSpaceField(doc, 1, "lane", 4))
    stack.push(c.RemoveSpaces(doc, [0]))
    assert doc.track.spaces[0].lane == 4
    stack.undo()
    stack.undo()
    assert doc.track.spaces[1].to_dict() == twin
    assert doc.track.spaces[0].lane != 4
    stack.redo()
    assert doc.track.spaces[1].lane == 4 and doc.track.spaces[0].lane != 4


def test_nudges_of_the_same_spaces_merge_only_while_they_are_the_same_spaces(qapp):
    doc = _doc()
    stack = doc.undo_stack
    stack.push(c.MoveSpaces(doc, [1], 1, 0, nudge=True))
    stack.push(c.MoveSpaces(doc, [1], 1, 0, nudge=True))
    assert stack.count() == 1
    first_x = float(doc.track.spaces[0].corners[0][0])
    stack.push(c.MoveSpaces(doc, [0], 1, 0, nudge=True))  # another space: a new step
    assert stack.count() == 2 and float(doc.track.spaces[0].corners[0][0]) == first_x + 1


def test_duplicate_returns_where_the_copies_are(qapp):
    doc = _doc()
    n = len(doc.track.spaces)
    sources = [doc.track.spaces[i] for i in (0, 3)]
    new = c.duplicate_spaces(doc, [3, 0], dx=10, dy=0)
    assert new == [n, n + 1]
    for i, source in zip(new, sources, strict=True):
        copy = doc.track.spaces[i]
        assert copy.id != source.id
        assert [float(x) for x, _y in copy.corners] == [float(x) + 10 for x, _y in source.corners]


def test_indices_of_many_ids_takes_the_first_space_of_each_id_and_skips_unknown_ones(qapp):
    """The problem marks look up every id of every error at once (one pass, not one per id)."""
    doc = _doc()
    ids = [sp.id for sp in doc.track.spaces]
    doc.undo_stack.push(c.SetSpaceField(doc, 3, "id", ids[1]))  # a duplicate of the second id
    assert doc.indices_of([ids[2], "nope", ids[1], ids[0]]) == [2, 1, 0]
