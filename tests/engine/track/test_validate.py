"""The validator: every code with a failing fixture, locations, order, JSON form.

Each file in ``fixtures/invalid`` is a valid track with one change, named for
the code it must raise (``fixtures/generate.py`` writes them).
"""

from __future__ import annotations

import json
import re

import pytest
from repo_paths import FIXTURES, ROOT
from tracks_for_tests import stadium_track, straight_track

from trackside.engine.errors import UnreadableInput
from trackside.engine.track import validate as validate_module
from trackside.engine.track.model import Space, read_track_document
from trackside.engine.track.validate import CODES, ERROR, WARNING, validate_file, validate_track

INVALID = FIXTURES / "invalid"

# Codes that the schema keeps out of files: checked on tracks built in memory.
IN_MEMORY_ONLY = {"grid-size", "line-count"}


def test_valid_fixtures_have_no_issue():
    for name in ("valid-loop.yaml", "valid-straight.yaml"):
        report = validate_file(FIXTURES / name)
        assert report.issues == [], [i.message for i in report.issues]
        assert report.ok and report.errors == 0 and report.warnings == 0


def test_every_code_has_a_failing_fixture():
    on_file = {p.stem for p in INVALID.glob("*.yaml")} | {"schema"}
    assert on_file | IN_MEMORY_ONLY == set(CODES)


@pytest.mark.parametrize("code", sorted(set(CODES) - IN_MEMORY_ONLY - {"schema"}))
def test_fixture_raises_its_code(code):
    report = validate_file(INVALID / f"{code}.yaml")
    assert code in report.codes()
    assert report.ok == (CODES[code] == WARNING) or code == "coarse-centerline"
    for issue in report.issues:
        if issue.code == code:
            assert issue.severity == CODES[code]
            assert issue.file == str(INVALID / f"{code}.yaml")
            assert issue.yaml_line is not None
            problem, _sep, advice = issue.message.partition("; ")
            assert problem and advice, "a message says what is wrong; then what to do"


@pytest.mark.parametrize(
    "code, others",
    [
        ("duplicate-id", set()),
        ("grid-unknown-id", set()),
        ("line-order", set()),
        ("line-cuts-space", set()),
        ("line-gap", set()),
        ("line-misses-centerline", set()),
        ("centerline-degenerate", set()),
        ("grid-not-behind-line", set()),
        ("lane-mismatch", set()),
        ("single-file", set()),
        ("unreachable", set()),
        ("across-seam", set()),
        ("grid-order", set()),
        ("off-racing-line", {"unreachable"}),
    ],
)
def test_a_single_change_gives_only_its_own_codes(code, others):
    assert set(validate_file(INVALID / f"{code}.yaml").codes()) == {code} | others


def test_schema_problems_are_issues_and_skip_geometry(tmp_path):
    text = (FIXTURES / "valid-straight.yaml").read_text()
    text = text.replace("lane: 1", "lane: one", 1).replace("finish_line:", "finish_lines:")
    path = tmp_path / "schema.yaml"
    path.write_text(text)
    report = validate_file(path)
    assert set(report.codes()) == {"schema"}
    lane = next(i for i in report.issues if i.path == ("spaces", 1, "lane"))
    assert lane.yaml_line == text.splitlines().index("  lane: one") + 1
    assert lane.yaml_column == 9
    assert "expected a whole number" in lane.message
    assert any("finish_line" in i.message for i in report.issues)


def test_unreadable_file_raises(tmp_path):
    with pytest.raises(UnreadableInput):
        validate_file(tmp_path / "missing.yaml")
    (tmp_path / "bad.yaml").write_text("a: [1,\n")
    with pytest.raises(UnreadableInput):
        validate_file(tmp_path / "bad.yaml")


def test_dead_end_points_at_the_space_and_its_line():
    path = INVALID / "dead-end.yaml"
    report = validate_file(path)
    dead = [i for i in report.issues if i.code == "dead-end"]
    assert [i.spaces for i in dead] == [["a6"], ["b6"]]
    lines = path.read_text().splitlines()
    assert lines[dead[0].yaml_line - 1].strip() == "- id: a6"
    _track, doc, _ = read_track_document(path)
    assert dead[0].path == ("spaces", 10)
    assert doc.data["spaces"][10]["id"] == "a6"


def test_line_issues_carry_the_line_index():
    report = validate_file(INVALID / "line-cuts-space.yaml")
    (issue,) = report.issues
    assert issue.line == 2 and issue.path == ("betting_lines", 2)
    assert issue.spaces == ["a10", "b10"]
    report = validate_file(INVALID / "no-finish-space.yaml")
    finish = next(i for i in report.issues if i.code == "no-finish-space")
    assert finish.line == 3 and finish.path == ("finish_line",)


def test_grid_issues_point_at_the_grid_entry():
    (issue,) = validate_file(INVALID / "grid-unknown-id.yaml").issues
    assert issue.path == ("start_grid", 2) and issue.spaces == []
    assert "'zz9'" in issue.message


def test_start_cannot_finish_and_dead_end():
    report = validate_file(INVALID / "start-cannot-finish.yaml")
    stuck = [i.spaces[0] for i in report.issues if i.code == "start-cannot-finish"]
    assert stuck == ["a3", "b3", "a2", "b2", "a1", "b1"]
    assert [i.spaces for i in report.issues if i.code == "dead-end"] == [["a3"], ["b3"]]


def test_single_file_names_the_whole_stretch():
    (issue,) = validate_file(INVALID / "single-file.yaml").issues
    assert issue.spaces == ["a7", "a8", "a9"] and issue.severity == WARNING


def test_in_memory_track_has_no_file_places():
    track = straight_track()
    track.start_grid = track.start_grid[:5]
    track.betting_lines = track.betting_lines[:2]
    report = validate_track(track)
    assert {"grid-size", "line-count"} <= set(report.codes())
    for issue in report.issues:
        assert issue.file is None and issue.yaml_line is None and issue.yaml_column is None
    assert report.file is None


def test_every_problem_is_reported_at_once():
    track = straight_track()
    track.spaces[3].id = track.spaces[2].id  # duplicate id
    track.start_grid[1] = "nowhere"  # unknown grid id
    track.spaces.append(Space("far", 1, [(0, 900), (40, 900), (40, 930), (0, 930)]))
    (ax, ay), (bx, by) = track.betting_lines[2]
    track.betting_lines[2] = ((ax + 20, ay), (bx + 20, by))  # cuts spaces
    report = validate_track(track)
    assert {
        "duplicate-id",
        "grid-unknown-id",
        "off-racing-line",
        "line-cuts-space",
        "unreachable",
    } <= set(report.codes())


def test_errors_come_first_then_file_order():
    report = validate_file(INVALID / "grid-repeat.yaml")
    severities = [i.severity for i in report.issues]
    assert severities == sorted(severities, key=lambda s: s != ERROR)
    report = validate_file(INVALID / "start-cannot-finish.yaml")
    errors = [(i.yaml_line, i.yaml_column) for i in report.issues if i.severity == ERROR]
    assert errors == sorted(errors)


def test_in_memory_order_is_deterministic():
    def run():
        track = straight_track()
        track.spaces = [s for s in track.spaces if s.id not in ("a7", "b7")]
        track.start_grid = track.start_grid[::-1]
        return [i.to_dict() for i in validate_track(track).issues]

    first = run()
    assert first == run()
    paths = [i["path"] for i in first if i["severity"] == ERROR]
    assert paths == sorted(paths, key=validate_module._path_key)


def test_report_to_dict_is_json():
    report = validate_file(INVALID / "lane-mismatch.yaml")
    data = json.loads(json.dumps(report.to_dict()))
    assert data["ok"] is True and data["errors"] == 0 and data["warnings"] == 1
    (issue,) = data["issues"]
    assert set(issue) == {
        "code",
        "severity",
        "message",
        "spaces",
        "line",
        "path",
        "file",
        "yaml_line",
        "yaml_column",
    }
    assert issue["code"] == "lane-mismatch" and issue["spaces"] == ["a5", "b5"]
    assert issue["path"] == ["spaces", 9, "lane"]


def test_coarse_centerline_only_where_it_matters():
    assert "coarse-centerline" not in validate_track(stadium_track(degrees_per_point=1)).codes()
    report = validate_track(stadium_track(degrees_per_point=5))
    coarse = [i for i in report.issues if i.code == "coarse-centerline"]
    assert len(coarse) >= 2  # one per curve
    assert all(i.path[:2] == ("centerline", "points") for i in coarse)


def test_geometry_can_be_reused():
    from trackside.engine.track.geometry import TrackGeometry

    track = stadium_track()
    geometry = TrackGeometry(track)
    assert validate_track(track, geometry=geometry).issues == []


def test_codes_are_documented_in_one_table_each():
    table = re.compile(
        r"^(?:\|\s*`?)?([a-z]+(?:-[a-z0-9]+)*)`?\s*(?:\|\s*)?(error|warning)\b", re.M
    )
    doc_codes = dict(table.findall(validate_module.__doc__))
    assert doc_codes == CODES
    md = (ROOT / "docs" / "validation.md").read_text(encoding="utf-8")
    assert dict(table.findall(md)) == CODES


def test_codes_are_kebab_case_and_severities_known():
    for code, severity in CODES.items():
        assert re.fullmatch(r"[a-z]+(-[a-z0-9]+)*", code)
        assert severity in (ERROR, WARNING)


# -- tracks half-drawn in the editor: the validator answers, never crashes ------------

from depth import examples  # noqa: E402
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

COORD = st.floats(-500, 500, allow_nan=False, allow_infinity=False)
POINT = st.tuples(COORD, COORD)


@settings(max_examples=examples(100))
@given(st.data())
def test_half_drawn_tracks_in_memory_never_crash(data):
    track = straight_track(rows=6, lanes=2)
    draw = data.draw
    for _ in range(draw(st.integers(1, 5))):
        op = draw(
            st.sampled_from(
                [
                    "corners",
                    "drop",
                    "centerline",
                    "grid",
                    "lines",
                    "line",
                    "lane",
                    "closed",
                    "tolerance",
                ]
            )
        )
        if op == "corners" and track.spaces:
            space = draw(st.sampled_from(track.spaces))
            space.corners = draw(st.lists(POINT, max_size=6))
        elif op == "drop" and track.spaces:
            del track.spaces[draw(st.integers(0, len(track.spaces) - 1))]
        elif op == "centerline":
            track.centerline.points = draw(st.lists(POINT, max_size=5))
        elif op == "grid":
            track.start_grid = draw(st.lists(st.sampled_from(["a1", "b1", "a2", "zz"]), max_size=7))
        elif op == "lines":
            track.betting_lines = draw(st.lists(st.tuples(POINT, POINT), max_size=4))
        elif op == "line":
            track.finish_line = draw(st.tuples(POINT, POINT))
        elif op == "lane" and track.spaces:
            draw(st.sampled_from(track.spaces)).lane = draw(st.integers(-1, 9))
        elif op == "closed":
            track.centerline.closed = not track.centerline.closed
        elif op == "tolerance":
            track.tolerance = draw(st.floats(0.01, 20))
    report = validate_track(track)
    assert all(i.code in CODES for i in report.issues)


def test_centerline_crossing_points_at_the_later_pass():
    report = validate_file(INVALID / "centerline-crossing.yaml")
    (issue,) = [i for i in report.issues if i.code == "centerline-crossing"]
    assert issue.path == ("centerline", "points", 3) and "near point 4" in issue.message
    assert (issue.yaml_line, issue.yaml_column) == (5, 52)


def test_finish_line_on_the_seam_of_a_closed_track_says_so():
    track = stadium_track(rows=40, lanes=2)
    (_ax, ay), (_bx, by) = track.finish_line
    track.finish_line = ((0.0, ay), (0.0, by))  # the seam is at x = 0 on the lower straight
    report = validate_track(track)
    order = [i for i in report.issues if i.code == "line-order"]
    assert len(order) == 1 and order[0].line == 3
    assert "it lies on the lap start" in order[0].message
    assert "Set Lap Start Here" in order[0].message


def test_a_line_that_stops_on_a_lane_boundary_does_not_span_the_track():
    """A line ending exactly at the corner between lanes b and c touches c's spaces
    but does not lie across their shared edge: c4 to c5 passes it (R-BET-1)."""
    t = straight_track(rows=14, lanes=3)
    (x, _y0), _end = t.betting_lines[0]
    t.betting_lines[0] = ((x, 50.0), (x, -15.0))
    gaps = [i for i in validate_track(t).issues if i.code == "line-gap"]
    assert len(gaps) == 1 and set(gaps[0].spaces) == {"c4", "c5"}


def test_a_space_across_the_lap_start_is_told_how_to_move_it():
    track = stadium_track(rows=40, lanes=2)
    track.centerline.points[0] = (10.0, track.centerline.points[0][1])
    issues = [i for i in validate_track(track).issues if i.code == "across-seam"]
    assert issues and all("Set Lap Start Here" in i.message for i in issues)
    assert "lap start marker" in issues[0].message


def test_a_stray_space_in_the_infield_far_from_the_lap_start_is_not_across_it():
    """Its corners lie nearest to both straights of the oval, so their progress along
    the racing line spans the seam; the space lies nowhere near the lap start."""
    track = stadium_track(rows=40, lanes=3, radius=100.0)
    corners = [(150.0, -10.0), (190.0, -10.0), (190.0, 10.0), (150.0, 10.0)]
    track.spaces.append(Space(id="s1", lane=0, corners=corners))
    codes = {(i.code, tuple(i.spaces)) for i in validate_track(track).issues}
    assert ("dead-end", ("s1",)) in codes  # the space is checked...
    assert not any(code == "across-seam" for code, _ in codes)  # ...and not across the seam


def test_a_stray_space_in_the_infield_in_line_with_the_lap_start_is_not_across_it():
    """Its centre lies on the lap start's line carried on into the oval's infield, 40
    mm inside the racing lanes and touching none of them: the line runs through it, but
    not where the lanes cross it. The spaces that do lie across it still are."""
    track = stadium_track(rows=40, lanes=3, radius=100.0)
    corners = [(-20.0, -15.0), (20.0, -15.0), (20.0, 15.0), (-20.0, 15.0)]
    track.spaces.append(Space(id="s1", lane=0, corners=corners))
    codes = {(i.code, tuple(i.spaces)) for i in validate_track(track).issues}
    assert ("dead-end", ("s1",)) in codes  # the space is checked...
    assert not any(code == "across-seam" for code, _ in codes)  # ...and not across the seam
    track.centerline.points[0] = (10.0, track.centerline.points[0][1])
    across = {s for i in validate_track(track).issues if i.code == "across-seam" for s in i.spaces}
    assert across == {"a1", "b1", "c1"}


def test_lanes_drawn_apart_still_carry_the_lap_start_across_every_lane():
    """Spaces drawn a little smaller than their lanes leave 6 mm between the lanes at
    the lap start (more than the tolerance): a space across it in every lane is still
    told so, not only the one in the lane at the racing line's first point."""
    track = stadium_track(rows=40, lanes=3, radius=100.0)
    for space in track.spaces:
        cx = sum(x for x, _ in space.corners) / len(space.corners)
        cy = sum(y for _, y in space.corners) / len(space.corners)
        space.corners = [(cx + 0.8 * (x - cx), cy + 0.8 * (y - cy)) for x, y in space.corners]
    track.centerline.points[0] = (10.0, track.centerline.points[0][1])
    across = {s for i in validate_track(track).issues if i.code == "across-seam" for s in i.spaces}
    assert across == {"a1", "b1", "c1"}


def test_a_background_that_is_a_named_pipe_is_a_warning_and_is_never_opened(tmp_path):
    """The editor froze opening it, and validate called the track ok; a missing picture
    (often not shared with the track) is no problem of the track."""
    import os

    from tracks_for_tests import straight_track

    from trackside.engine.track.model import Background, save_track

    track = straight_track(rows=14)
    track.background = Background(path="pictures/scan.png", at=(0, 0), mm_per_pixel=0.5)
    path = tmp_path / "traced.yaml"
    save_track(track, path)
    assert "background-not-a-file" not in validate_file(path).codes()  # not there: fine
    (tmp_path / "pictures").mkdir()
    os.mkfifo(tmp_path / "pictures" / "scan.png")
    report = validate_file(path)  # would wait for ever if the pipe were opened
    (issue,) = [i for i in report.issues if i.code == "background-not-a-file"]
    assert issue.severity == WARNING and issue.path == ("background", "path")
    assert "'pictures/scan.png' is a named pipe, not a picture file" in issue.message


def _order_issues(bets, finish=18):
    track = straight_track(rows=20, bets=bets, finish=finish)
    return [i for i in validate_track(track).issues if i.code == "line-order"]


@pytest.mark.parametrize(
    "bets, line, words",
    [
        ([16, 10, 14], 0, "betting line 1 lies after betting line 3 along the track"),
        ([6, 10, 4], 2, "betting line 3 lies before betting line 1 along the track"),
    ],
)
def test_the_line_order_error_names_the_line_that_moved(bets, line, words):
    """Betting line 1 moved past line 3 (or line 3 back before line 1): the other lines
    are still in order, so the one moved is named and pointed at, and where it goes."""
    (issue,) = _order_issues(bets)
    assert issue.line == line and words in issue.message, issue.message
    assert "may be the one moved" not in issue.message
    back = "before betting line 2" if line == 0 else "between betting line 2 and the finish line"
    assert f"(move it {back}, " in issue.message


@pytest.mark.parametrize(
    "bets, likely, other",
    [
        ([12, 10, 14], 0, 1),  # line 1 moved just past line 2, far from where it belongs
        ([6, 4, 14], 1, 0),  # line 2 moved just back before line 1
    ],
)
def test_two_lines_the_wrong_way_round_point_at_the_likelier_and_name_both(bets, likely, other):
    """Two neighbouring lines the wrong way round: either may have moved. The issue
    points at the one whose place among the others is wider (a line moved a little
    past its neighbour leaves a wide gap where it was) and names the other too."""
    (issue,) = _order_issues(bets)
    assert issue.line == likely
    names = ["betting line 1", "betting line 2"]
    assert issue.message.startswith(names[likely]), issue.message
    assert f"{names[other]} may be the one moved instead" in issue.message


def test_lines_in_reverse_order_are_one_issue_about_the_racing_line():
    """Every line in reverse order: the racing line runs against the driving direction,
    said once rather than once a line."""
    (issue,) = _order_issues([16, 12, 8], finish=4)
    assert "reverse order" in issue.message and "driving direction" in issue.message
