"""The words of the Issues list's rows: sentences a designer reads, each with its fix."""

from __future__ import annotations

import pytest
from tracks_for_tests import stadium_track

from trackside.editor.document.track_document import UNSET_SEGMENT
from trackside.editor.panels.issues import validate

pytestmark = pytest.mark.gui


def test_a_space_across_the_lap_start_is_a_sentence_in_the_designer_s_words():
    """The row began lower-case among the editor's own capitalised rows, and named the
    lap start by its place in the file."""
    track = stadium_track(rows=40, lanes=2)
    track.centerline.points[0] = (10.0, track.centerline.points[0][1])
    across = [i for i in validate(track) if i.code == "across-seam"]
    assert across
    for issue in across:
        assert issue.message[0].isupper()
        assert "centerline" not in issue.message and "points[" not in issue.message
        assert "Set Lap Start Here" in issue.message


@pytest.mark.parametrize(("k", "what"), [(0, "Betting line 1"), (3, "The finish line")])
def test_an_unplaced_line_says_the_quick_way_to_place_it_first(k, what):
    """The tool's own hint says: click a space, or drag across; the row said drag only."""
    track = stadium_track(rows=40, lanes=2)
    if k < 3:
        track.betting_lines[k] = UNSET_SEGMENT
    else:
        track.finish_line = UNSET_SEGMENT
    row = next(i for i in validate(track) if i.line == k)
    assert row.message.startswith(f"{what} is not placed yet")
    assert row.tool == ("betting" if k < 3 else "finish")
    click, drag = row.message.find("click a space"), row.message.find("drag")
    assert 0 <= click < drag
