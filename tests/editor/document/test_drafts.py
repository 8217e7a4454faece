"""Which files open as drafts: only those the schema refuses for missing parts alone."""

from __future__ import annotations

import pytest
import yaml
from repo_paths import FIXTURES
from tracks_for_tests import straight_track

from trackside.editor.document.files import load_for_editing


def _write(tmp_path, data) -> str:
    path = tmp_path / "track.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    return str(path)


def test_a_file_short_of_lines_and_grid_entries_opens_as_a_draft(tmp_path):
    data = straight_track().to_dict()
    data["betting_lines"] = data["betting_lines"][:1]
    data["start_grid"] = data["start_grid"][:2]
    result = load_for_editing(_write(tmp_path, data))
    assert result.draft and result.ok
    assert len(result.track.betting_lines) == 3
    assert result.track.start_grid == data["start_grid"]


@pytest.mark.parametrize("value", ["needs at least 6 items", "x needs at least"])
def test_a_wrong_value_that_reads_like_a_missing_part_is_refused(tmp_path, value):
    """The draft is told by the kind of each violation, not by the words of its message."""
    data = straight_track().to_dict()
    data["start_grid"] = data["start_grid"][:2]
    data["spaces"][0]["kind"] = value
    result = load_for_editing(_write(tmp_path, data))
    assert not result.ok and not result.draft
    assert any(value in p.message for p in result.problems)


def test_a_game_record_opened_as_a_track_is_named_for_what_it_is_not_drafted():
    result = load_for_editing(FIXTURES / "records" / "auction-example.yaml")
    assert not result.ok and not result.draft
    (problem,) = result.problems
    assert "this is a game record" in problem.message and problem.line == 6
