"""The numbered badges of two betting lines drawn close together never overlap: the
later line's badges move out along it, clear of the earlier line's, at any distance
between the two lines and whichever of them is moved."""

from __future__ import annotations

import itertools

import pytest
from conftest_helpers import discard_scene
from tracks_for_tests import straight_track

from trackside.editor.canvas.painting import DEFAULT_STYLE
from trackside.editor.canvas.scene import TrackScene
from trackside.editor.document import commands as c
from trackside.editor.document.track_document import TrackDocument

pytestmark = pytest.mark.gui


@pytest.fixture
def straight(qapp):
    """A straight with three betting lines across it, and its scene (deleted after)."""
    doc = TrackDocument(straight_track(rows=10, lanes=2))
    scene = TrackScene(doc)
    yield doc, scene
    discard_scene(scene)


def _badges_apart(scene: TrackScene) -> None:
    """No two badges of the betting lines touch, and each line's item covers its own."""
    boxes = []
    for item in scene.line_items[:3]:
        rects = item.badge_rects()
        assert len(rects) == 2
        for rect in rects:
            assert item.sceneBoundingRect().contains(rect)
        boxes += [(item.k, rect) for rect in rects]
    for (k, a), (j, b) in itertools.combinations(boxes, 2):
        assert not a.intersects(b), (k, a, j, b)


@pytest.mark.parametrize("apart", [0.0, 2.0, 5.0, 8.0])
def test_two_lines_close_together_have_badges_that_do_not_overlap(straight, apart):
    doc, scene = straight
    (x1, y1), (x2, y2) = doc.lines()[1]
    # Line 3 beside line 2, ``apart`` mm along the track: their ends side by side.
    doc.undo_stack.push(c.SetLine(doc, 2, ((x1 + apart, y1), (x2 + apart, y2))))
    _badges_apart(scene)
    # Line 2 moved up to line 3 instead: line 3's badges move clear of it.
    doc.undo_stack.undo()
    (x3, y3), (x4, y4) = doc.lines()[2]
    doc.undo_stack.push(c.SetLine(doc, 1, ((x3 - apart, y3), (x4 - apart, y4))))
    _badges_apart(scene)


def test_lines_far_apart_keep_their_badges_just_beyond_their_ends(straight):
    _doc, scene = straight
    for item in scene.line_items[:3]:
        (ax, ay), (bx, by) = item.segment
        first, last = (rect.center() for rect in item.badge_rects())
        reach = DEFAULT_STYLE.badge_radius + 0.5  # just beyond the end
        assert abs(abs(first.y() - ay) - reach) < 1e-6 and first.x() == pytest.approx(ax)
        assert abs(abs(last.y() - by) - reach) < 1e-6 and last.x() == pytest.approx(bx)
