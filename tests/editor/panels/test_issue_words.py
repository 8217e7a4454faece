"""The words of the Issues list's rows: sentences a designer reads, each with its fix."""

from __future__ import annotations

import pytest
from tracks_for_tests import BLANK_DRAFT, stadium_track

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


def test_a_blank_draft_lists_its_gaps_as_errors_and_the_file_s_words_as_warnings(
    window, qtbot, tmp_path
):
    """As docs/editor.md has it: what a draft lacks is an error (no race can be run on
    it), each row with its fix; the file's own account, until the first edit, is a
    warning, and says how to add the part too."""
    from conftest_helpers import wait_issues

    path = tmp_path / "draft.yaml"
    path.write_text(BLANK_DRAFT, encoding="utf-8")
    assert window.open_file(path)
    wait_issues(qtbot, window)
    rows = window.issues.all_issues()
    grid = next(r for r in rows if r.code == "grid-size")
    assert grid.severity == "error" and grid.tool == "grid"
    told = [r for r in rows if r.code == "file"]
    assert told and all(r.severity == "warning" for r in told)
    start_grid = next(r for r in told if "start_grid" in r.message)
    assert "Grid tool (G)" in start_grid.message
