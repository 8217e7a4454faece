"""The track file contract: load, save and round trips (docs/design.md, track model)."""

from __future__ import annotations

import pytest
from repo_paths import FIXTURES
from tracks_for_tests import stadium_track, straight_track

from trackside.engine.errors import InvalidInput, UnreadableInput
from trackside.engine.resources import load_schema
from trackside.engine.track.layout import Arc, KeptLayout, LayoutError, Straight
from trackside.engine.track.model import (
    FILE_KEYS,
    FORMAT,
    Label,
    load_track,
    read_track_document,
    save_track,
)
from trackside.engine.yamlio import dump_yaml

LOOP = FIXTURES / "valid-loop.yaml"

MINIMAL = """\
format: trackside-track/1
name: Tiny
centerline:
  closed: false
  points: [[0, 0], [120, 0]]
spaces:
- {id: a1, lane: 0, corners: [[0, 0], [40, 0], [40, 30], [0, 30]]}
- {id: a2, lane: 0, corners: [[40, 0], [80, 0], [80, 30], [40, 30]]}
- {id: a3, lane: 0, corners: [[80, 0], [120, 0], [120, 30], [80, 30]]}
start_grid: [a1, a1, a1, a1, a1, a1]
betting_lines:
- [[40, -5], [40, 35]]
- [[60, -5], [60, 35]]
- [[70, -5], [70, 35]]
finish_line: [[80, -5], [80, 35]]
"""


def test_load_save_load_is_equal(tmp_path):
    first = load_track(LOOP)
    save_track(first, tmp_path / "copy.yaml")
    assert load_track(tmp_path / "copy.yaml") == first


def test_saved_text_is_stable(tmp_path):
    text = load_track(LOOP).to_yaml()
    again, _doc, problems = read_track_document("again.yaml", text=text)
    assert problems == []
    assert again.to_yaml() == text


def test_optional_keys_round_trip(tmp_path):
    track = load_track(LOOP)
    assert track.author == "Trackside tests"
    assert track.description == "A small closed three-lane loop.\nUsed by the tests."
    assert track.tolerance == 1.0
    assert track.labels == [
        Label("Fixture Loop", (150.0, 0.0), 12.0, 0.0),
        Label("Pits", (0.0, 40.0)),
    ]
    assert [track.spaces[i].kind for i in (10, 11, 12)] == ["danger", "normal", None]
    assert track.spaces[12].label == "Chicane"
    save_track(track, tmp_path / "copy.yaml")
    data = (tmp_path / "copy.yaml").read_text()
    for key in (
        "author:",
        "description:",
        "tolerance:",
        "labels:",
        "kind: danger",
        "kind: normal",
        "label: Chicane",
        "size: 12.0",
        "angle: 0.0",
    ):
        assert key in data
    assert load_track(tmp_path / "copy.yaml") == track


def test_absent_optional_keys_stay_absent(tmp_path):
    track, _doc, problems = read_track_document("tiny.yaml", text=MINIMAL)
    assert problems == []
    assert track.author is None and track.tolerance is None and track.labels == []
    assert track.tol == 1.0
    text = track.to_yaml()
    for key in ("author", "description", "tolerance", "labels", "kind", "label:"):
        assert key not in text


def test_whole_numbers_stay_whole_and_floats_stay_floats(tmp_path):
    track, _doc, _ = read_track_document(
        "<input>", text=MINIMAL.replace("[40, 0], [80, 0]", "[40.0, 0], [80, 0.5]")
    )
    corners = track.space("a2").corners
    assert corners[0] == (40.0, 0) and isinstance(corners[0][0], float)
    assert isinstance(corners[0][1], int)
    again, _doc, _ = read_track_document("<input>", text=track.to_yaml())
    assert again.space("a2").corners == corners
    assert isinstance(again.space("a2").corners[0][0], float)
    assert isinstance(again.space("a2").corners[0][1], int)


def test_tracks_built_in_code_round_trip():
    for track in (straight_track(), stadium_track()):
        again, _doc, problems = read_track_document("<input>", text=track.to_yaml())
        assert problems == [] and again == track


def test_file_form_starts_with_format_and_keeps_key_order():
    track = load_track(LOOP)
    track.lane_layouts = [KeptLayout.from_data(LAYOUT)]
    data = track.to_dict()
    assert list(data)[:2] == ["format", "name"]
    assert data["format"] == FORMAT
    assert list(data) == [key for key in FILE_KEYS if key in data]
    assert len(data) == len(FILE_KEYS) - 1  # every key but background


def test_the_key_order_is_the_schemas():
    assert list(FILE_KEYS) == list(load_schema("track")["properties"])


def test_schema_problems_point_into_the_file():
    text = MINIMAL.replace("lane: 0, corners: [[40", "lane: x, corners: [[40")
    track, _doc, problems = read_track_document("bad.yaml", text=text)
    assert track is None
    assert len(problems) == 1
    assert problems[0].path == ("spaces", 1, "lane")
    assert (problems[0].place.line, problems[0].place.column) == (8, 18)
    assert "expected a whole number" in problems[0].message


def test_load_track_raises_invalid_input_with_the_place(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text(MINIMAL.replace("name: Tiny\n", ""))
    with pytest.raises(InvalidInput) as err:
        load_track(path)
    assert err.value.exit_code == 1
    assert "missing required key 'name'" in err.value.message
    assert err.value.place.file == str(path) and err.value.place.line == 1


@pytest.mark.parametrize(
    "text, what", [("", "empty"), ("- 1\n- 2\n", "list"), ("just text\n", "single line of text")]
)
def test_a_document_that_is_not_a_mapping_is_unreadable(tmp_path, text, what):
    path = tmp_path / "odd.yaml"
    path.write_text(text)
    with pytest.raises(UnreadableInput) as err:
        read_track_document(path)
    assert what in err.value.message and err.value.place.line == 1
    assert err.value.exit_code == 2


def test_copy_is_independent():
    track = straight_track()
    twin = track.copy()
    twin.spaces[0].corners[0] = (-1, -1)
    twin.start_grid[0] = "b1"
    assert track.spaces[0].corners[0] != (-1, -1) and track.start_grid[0] != "b1"
    assert track.space("b2").lane == 1
    with pytest.raises(KeyError):
        track.space("zz")


def test_inlined_schema_reports_the_same_problems_as_the_schema_with_refs():
    """engine.schema inlines $defs for speed; the verdicts must not change."""
    import jsonschema

    from trackside.engine.resources import load_schema
    from trackside.engine.schema import check, inline_refs

    schema = load_schema("track")
    plain = jsonschema.Draft202012Validator(schema)
    inlined = jsonschema.Draft202012Validator(inline_refs(schema))
    good = {
        "format": "trackside-track/1",
        "name": "T",
        "centerline": {"closed": False, "points": [[0, 0], [10, 0]]},
        "spaces": [{"id": "a1", "lane": 0, "corners": [[0, 0], [1, 0], [1, 1]]}],
        "start_grid": ["a1"] * 6,
        "betting_lines": [[[0, 0], [1, 1]]] * 3,
        "finish_line": [[0, 0], [1, 1]],
    }
    bad = dict(
        good,
        spaces=[{"id": "a 1", "lane": -1, "corners": [[0, "x"]], "extra": 1}],
        tolerance=0,
        betting_lines=[[[0, 0]]],
    )
    for data in (good, bad):
        assert sorted(e.message for e in plain.iter_errors(data)) == sorted(
            e.message for e in inlined.iter_errors(data)
        )
    assert check("track", good) == []
    assert len(check("track", bad)) >= 5


def test_schema_violations_carry_their_kind():
    """Code acts on a violation's kind, never on the words of its message."""
    from trackside.engine.schema import ViolationKind, check

    data = straight_track().to_dict()
    data["spaces"][0].update(id="a 1", lane=-1, extra=1)
    data["spaces"][1]["corners"][0] = [0, "x"]
    data["betting_lines"] = data["betting_lines"][:1]
    data["start_grid"] = data["start_grid"] * 2
    del data["finish_line"]
    kinds = {(v.path, v.kind) for v in check("track", data)}
    assert kinds == {
        ((), ViolationKind.MISSING_KEY),
        (("spaces", 0), ViolationKind.UNKNOWN_KEY),
        (("spaces", 0, "id"), ViolationKind.WRONG_VALUE),
        (("spaces", 0, "lane"), ViolationKind.OUT_OF_RANGE),
        (("spaces", 1, "corners", 0, 1), ViolationKind.WRONG_TYPE),
        (("betting_lines",), ViolationKind.TOO_FEW),
        (("start_grid",), ViolationKind.TOO_MANY),
    }


LAYOUT = {
    "start": [0, 0],
    "heading": 0,
    "pieces": [{"straight": 400}, {"arc": 160, "turn": 180, "lanes": 2}],
    "lanes": 3,
    "space_length": 40,
    "lane_width": 30,
    "stagger": 0,
    "close": True,
    "racing_line": True,
    "renamed": {"a1": "a31"},
}


def test_lane_layouts_round_trip_and_are_optional():
    track = stadium_track()
    assert "lane_layouts" not in track.to_yaml()
    track.lane_layouts = [KeptLayout.from_data(LAYOUT)]
    text = track.to_yaml()
    again, _doc, problems = read_track_document("<input>", text=text)
    assert problems == []
    assert [kept.to_data() for kept in again.lane_layouts] == [LAYOUT]
    assert again.lane_layouts[0].pieces == (Straight(400), Arc(160, 180, lanes=2))
    assert again.lane_layouts[0].names() == {"a1": "a31"}
    assert again.to_yaml() == text


def test_a_kept_layout_is_written_back_as_it_was_read():
    """Keys left out stay out (their defaults hold), and 90.0 stays 90.0: a file
    written by hand round-trips byte for byte."""
    sparse = {"start": [10.5, -3], "heading": 90.0, "pieces": [{"straight": 400.0}]}
    track = stadium_track()
    data = track.to_dict()
    data["lane_layouts"] = [sparse, LAYOUT]
    text = dump_yaml(data)
    again, _doc, problems = read_track_document("<input>", text=text)
    assert problems == []
    kept = again.lane_layouts[0]
    assert kept.lanes is None and kept.settings.lanes == 2 and kept.settings.lane_width == 30
    assert kept.settings.close and not kept.sets_racing_line
    assert again.to_yaml() == text


@pytest.mark.parametrize(
    ("data", "says"),
    [
        ({**LAYOUT, "lanes": 2.5}, "lanes must be a whole number"),
        ({**LAYOUT, "lanes": True}, "lanes must be a whole number"),
        ({**LAYOUT, "heading": "north"}, "heading must be a number"),
        ({**LAYOUT, "close": 1}, "close must be true or false"),
        ({**LAYOUT, "start": [0]}, "start must be a point"),
        ({**LAYOUT, "pieces": []}, "at least one piece"),
        ({**LAYOUT, "pieces": [{"straight": 40, "keep": "middle"}]}, "keep must be one of"),
        ({**LAYOUT, "pieces": [{"straight": 40, "turn": 90}]}, "unknown key 'turn'"),
        ({**LAYOUT, "renamed": {"a1": 7}}, "renamed ids must be text"),
        ({**LAYOUT, "colour": "red"}, "unknown key 'colour'"),
        ({**LAYOUT, "space_lenght": 40}, r"'space_lenght' .*\(did you mean 'space_length'\?\)"),
    ],
)
def test_a_kept_layout_is_read_strictly(data, says):
    with pytest.raises(LayoutError, match=says):
        KeptLayout.from_data(data)


def test_a_piece_is_a_straight_or_an_arc_with_its_turn():
    data = stadium_track().to_dict()
    data["lane_layouts"] = [{**LAYOUT, "pieces": [{"straight": 400, "arc": 100, "turn": 90}]}]
    _track, _doc, problems = read_track_document("<input>", text=dump_yaml(data))
    assert problems and "lane_layouts" in problems[0].message
    data["lane_layouts"] = [{**LAYOUT, "pieces": [{"arc": 100}]}]
    assert read_track_document("<input>", text=dump_yaml(data))[2]


def test_a_background_round_trips_and_is_optional():
    from trackside.engine.track.model import Background

    track = stadium_track()
    track.background = Background("scan.png", (-10, 5.5), 0.25, opacity=0.4, hidden=True)
    text = track.to_yaml()
    again, _doc, problems = read_track_document("<input>", text=text)
    assert problems == []
    assert again.background == track.background
    assert again.to_yaml() == text
    track.background = None
    assert "background" not in track.to_yaml()


def test_a_pdf_background_keeps_its_page_and_a_picture_has_none():
    from trackside.engine.track.model import Background

    track = stadium_track()
    track.background = Background("board.pdf", (0, 0), 0.35, page=3)
    again, _doc, problems = read_track_document("<input>", text=track.to_yaml())
    assert problems == [] and again.background.page == 3
    track.background = Background("scan.png", (0, 0), 0.25)
    assert "page" not in track.to_yaml()
    bad = track.to_yaml().replace("mm_per_pixel: 0.25", "mm_per_pixel: 0.25\n  page: 0")
    assert any("background.page" in str(p) for p in read_track_document("<input>", text=bad)[2])


def test_the_space_cap_is_the_one_the_schema_sets():
    """The lane tool refuses layouts over MAX_SPACES; a file over it fails the schema."""
    from trackside.engine.resources import load_schema
    from trackside.engine.track.model import MAX_SPACES

    assert load_schema("track")["properties"]["spaces"]["maxItems"] == MAX_SPACES
