"""A space's canvas item holds its space, not a place in the list, so it keeps
showing that space when spaces before it are deleted or put back."""

from __future__ import annotations

import pytest
from conftest_helpers import discard_scene
from tracks_for_tests import straight_track

from trackside.editor.canvas.scene import TrackScene
from trackside.editor.document import commands as c
from trackside.editor.document.track_document import TrackDocument

pytestmark = pytest.mark.gui

_made: list[TrackScene] = []


@pytest.fixture(autouse=True)
def _discard_scenes(qapp):
    yield
    while _made:
        discard_scene(_made.pop())


def _scene() -> tuple[TrackDocument, TrackScene]:
    doc = TrackDocument(straight_track(rows=4, lanes=2))
    _made.append(TrackScene(doc))
    return doc, _made[-1]


def test_the_item_of_a_space_follows_it_past_a_delete_before_it(qapp):
    doc, scene = _scene()
    b = doc.track.spaces[1].id
    item_b = scene.space_items[1]
    item_b.setSelected(True)
    doc.undo_stack.push(c.RemoveSpaces(doc, [0]))
    assert scene.space_items[0] is item_b
    assert item_b.space.id == b and item_b.index == 0
    assert scene.selected_indices() == [0]
    doc.undo_stack.undo()
    assert scene.space_items[1] is item_b and item_b.index == 1
    assert [it.space for it in scene.space_items] == doc.track.spaces
    assert all(it.space is sp for it, sp in zip(scene.space_items, doc.track.spaces, strict=True))


def test_items_name_their_own_spaces_while_a_removal_is_announced(qapp):
    doc = TrackDocument(straight_track(rows=4, lanes=2))
    ids = [sp.id for sp in doc.track.spaces]
    scenes: list[TrackScene] = []
    seen: list[list[str]] = []
    # Connected before the scene is made, so it runs before the scene drops the item:
    # every item must still name the space it showed, the departing one included.
    doc.spaceRemoved.connect(lambda _i: seen.append([it.space.id for it in scenes[0].space_items]))
    scenes.append(TrackScene(doc))
    _made.append(scenes[0])
    doc.undo_stack.push(c.RemoveSpaces(doc, [0]))
    assert seen == [ids]
    assert [it.space.id for it in scenes[0].space_items] == ids[1:]


def test_an_edit_after_a_delete_refreshes_the_item_of_the_edited_space(qapp):
    doc, scene = _scene()
    item_c = scene.space_items[2]
    doc.undo_stack.push(c.RemoveSpaces(doc, [0]))
    doc.undo_stack.push(c.SetCorners(doc, 1, [(0, 0), (3, 0), (3, 3), (0, 3)]))
    assert item_c.space is doc.track.spaces[1]
    assert item_c.polygon().boundingRect().width() == pytest.approx(3)
