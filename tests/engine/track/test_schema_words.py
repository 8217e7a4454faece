"""A track file's schema problems in a designer's words: the space by its id, and how
to add what a half-drawn circuit still lacks (the editor saves such drafts)."""

from __future__ import annotations

import pytest
import yaml
from tracks_for_tests import BLANK_DRAFT, straight_track

from trackside.engine.track.validate import validate_file


def _issues(tmp_path, text: str) -> dict[tuple, str]:
    path = tmp_path / "track.yaml"
    path.write_text(text, encoding="utf-8")
    report = validate_file(path)
    assert set(report.codes()) == {"schema"}
    return {issue.path: issue.message for issue in report.issues}


def test_a_blank_draft_is_told_how_to_add_each_missing_part(tmp_path):
    issues = _issues(tmp_path, BLANK_DRAFT)
    assert set(issues) == {("centerline", "points"), ("spaces",), ("start_grid",)}
    assert "Grid tool (G)" in issues[("start_grid",)]
    assert "pole first" in issues[("start_grid",)]
    assert "Lanes tool (L)" in issues[("spaces",)]
    assert "Racing line tool (R)" in issues[("centerline", "points")]


def test_one_item_is_one_item(tmp_path):
    issues = _issues(tmp_path, BLANK_DRAFT)
    assert "at least 1 item," in issues[("spaces",)]
    assert "1 items" not in issues[("spaces",)]


@pytest.mark.parametrize(
    ("key", "tool"),
    [("start_grid", "Grid tool (G)"), ("spaces", "Lanes tool (L)"), ("finish_line", "(F)")],
)
def test_a_missing_required_key_is_told_how_to_add_it(tmp_path, key, tool):
    data = straight_track().to_dict()
    del data[key]
    (message,) = _issues(tmp_path, yaml.safe_dump(data, sort_keys=False)).values()
    assert repr(key) in message and tool in message


def test_a_problem_in_a_space_names_the_space_by_its_id(tmp_path):
    data = straight_track().to_dict()
    sid = data["spaces"][0]["id"]
    del data["spaces"][0]["corners"]
    issues = _issues(tmp_path, yaml.safe_dump(data, sort_keys=False))
    assert issues[("spaces", 0)].startswith(f"space {sid} (spaces[0]):")
    assert "'corners'" in issues[("spaces", 0)]


def test_a_space_without_an_id_is_named_by_its_place(tmp_path):
    data = straight_track().to_dict()
    del data["spaces"][0]["id"]
    issues = _issues(tmp_path, yaml.safe_dump(data, sort_keys=False))
    assert issues[("spaces", 0)].startswith("spaces[0]:")


# The parts a file may lack, each with words only its own advice has.
ADVICE = {
    "format": "begin the file with",
    "centerline": "Racing line tool (R)",
    "spaces": "Space tool (P)",
    "start_grid": "Grid tool (G)",
    "betting_lines": "Betting line tool (B)",
    "finish_line": "Finish line tool (F)",
}


def _messages(tmp_path, text: str) -> list[str]:
    path = tmp_path / "track.yaml"
    path.write_text(text, encoding="utf-8")
    return [issue.message for issue in validate_file(path).issues]


def test_advice_is_given_for_the_missing_key_only_not_for_a_misspelt_one(tmp_path):
    """A file without 'format' and with 'start_gird' was told to begin with the format
    and to list the start spaces, the grid's advice from a scan of the whole file, on
    top of the unknown key's own 'did you mean'."""
    text = yaml.safe_dump(straight_track().to_dict(), sort_keys=False)
    text = text.replace("format: trackside-track/1\n", "").replace("start_grid:", "start_gird:")
    messages = _messages(tmp_path, text)
    (missing,) = [m for m in messages if "'format'" in m]
    assert ADVICE["format"] in missing and "'start_grid'" not in missing
    assert not any(ADVICE["start_grid"] in m for m in messages)
    assert any("'start_gird'" in m and "'start_grid'" in m for m in messages)


def test_each_missing_key_is_a_problem_of_its_own_with_its_own_advice(tmp_path):
    """A file with only 'format' and 'name' was one long line naming five keys, then
    five pieces of advice."""
    messages = _messages(tmp_path, "format: trackside-track/1\nname: Few\n")
    parts = [part for part in ADVICE if part != "format"]
    assert len(messages) == len(parts)
    for part in parts:
        (message,) = [m for m in messages if repr(part) in m]
        assert ADVICE[part] in message
        assert not any(ADVICE[other] in message for other in parts if other != part)
