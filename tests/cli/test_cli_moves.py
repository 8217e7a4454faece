"""``trackside moves``: legal moves of one car with the others in place (R-MOVE, R-FIN)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from repo_paths import FIXTURES

from trackside.cli.main import main

STRAIGHT = str(FIXTURES / "valid-straight.yaml")  # 2 lanes, 14 rows, finish after row 12
LOOP = str(FIXTURES / "valid-loop.yaml")


def run(capsys, *args):
    code = main(["moves", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_r_move_5_json_lists_every_path_sorted(capsys):
    code, out, err = run(
        capsys, STRAIGHT, "--at", "red=a1", "--car", "red", "--spaces", "2", "--json"
    )
    assert code == 0 and err == ""
    data = json.loads(out)
    assert data["moves"] == [["a2", "a3"], ["a2", "b3"], ["b2", "a3"], ["b2", "b3"]]
    assert [o["path"] for o in data["outcomes"]] == data["moves"]
    assert not any(o["finished"] or o["blocked"] for o in data["outcomes"])


def test_r_move_3_other_cars_block_and_the_diagonal_squeeze_is_legal(capsys):
    code, out, _ = run(
        capsys,
        STRAIGHT,
        "--at",
        "red=a1",
        "--at",
        "Blue=a2",
        "--at",
        "green=b1",
        "--car",
        "red",
        "--spaces",
        "1",
        "--json",
    )
    assert code == 0 and json.loads(out)["moves"] == [["b2"]]


def test_r_move_4_blocked_moves_are_marked(capsys):
    args = [
        STRAIGHT,
        "--at",
        "red=a1",
        "--at",
        "blue=a3",
        "--at",
        "green=b3",
        "--car",
        "red",
        "--spaces",
        "4",
    ]
    code, out, _ = run(capsys, *args)
    assert code == 0
    assert out.splitlines() == [
        "red on a1, moving 4: 2 legal moves",
        "  a2  (blocked after 1: no free space ahead)",
        "  b2  (blocked after 1: no free space ahead)",
    ]
    _, out, _ = run(capsys, *args, "--json")
    assert all(o["blocked"] for o in json.loads(out)["outcomes"])


def test_r_move_4_no_legal_move_the_car_stays(capsys):
    args = (STRAIGHT, "--at", "red=a1", "--at", "blue=a2", "--at", "yellow=b2")
    code, out, _ = run(capsys, *args, "--car", "red", "--spaces", "3")
    assert code == 0
    assert out == "red on a1, moving 3: no legal move: the car stays on a1\n"
    _, out, _ = run(capsys, *args, "--car", "red", "--spaces", "3", "--json")
    assert json.loads(out) == {"moves": [], "outcomes": []}


def test_r_fin_1_finishing_moves_end_beyond_the_finish(capsys):
    code, out, _ = run(capsys, STRAIGHT, "--at", "black=a11", "--car", "black", "--spaces", "6")
    assert code == 0
    assert out.splitlines()[1:] == [
        f"  {x} {y}  (finishes)" for x in ("a12", "b12") for y in ("a13", "b13")
    ]


def test_closed_track_moves(capsys):
    code, out, _ = run(
        capsys, LOOP, "--at", "orange=b3", "--car", "orange", "--spaces", "1", "--json"
    )
    assert code == 0 and json.loads(out)["moves"] == [["a4"], ["b4"], ["c4"]]


@pytest.mark.parametrize(
    "args, words",
    [
        (["--at", "pink=a1", "--car", "red", "--spaces", "1"], "unknown colour 'pink'"),
        (["--at", "red=a1", "--car", "purple", "--spaces", "1"], "unknown colour 'purple'"),
        (["--at", "red=zz9", "--car", "red", "--spaces", "1"], "no space 'zz9'"),
        (
            ["--at", "red=a1", "--at", "blue=a1", "--car", "red", "--spaces", "1"],
            "already holds the red car",
        ),
        (["--at", "red=a1", "--at", "red=a2", "--car", "red", "--spaces", "1"], "placed twice"),
        (["--at", "blue=a1", "--car", "red", "--spaces", "1"], "red car is not on the track"),
        (["--at", "red=a1", "--car", "red", "--spaces", "0"], "give 1 to 20"),
        (["--at", "red=a1", "--car", "red", "--spaces", "21"], "give 1 to 20"),
        (["--at", "red", "--car", "red", "--spaces", "1"], "expected COLOUR=SPACE"),
        (
            ["--at", "red=a1", "--at", "blue=b13", "--car", "red", "--spaces", "1"],
            "space b13 is beyond the finish line",
        ),
    ],
)
def test_bad_arguments_exit_2_with_one_line(capsys, args, words):
    code, out, err = run(capsys, STRAIGHT, *args)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and words in err and err.startswith("trackside: ")


def test_invalid_track_exits_1_with_the_errors_summarised(capsys):
    track = str(FIXTURES / "invalid" / "dead-end.yaml")
    code, out, err = run(capsys, track, "--at", "red=a1", "--car", "red", "--spaces", "2")
    assert code == 1 and out == ""
    lines = err.splitlines()
    assert lines[0] == f"trackside: {track}: the track is invalid (8 errors); fix it first"
    assert lines[1].startswith(f"trackside: {track}:37:3: error dead-end:")
    assert lines[-1] == f"trackside: ... and 3 more; run 'trackside validate {track}'"


def test_schema_invalid_track_exits_1(capsys, tmp_path):
    path = tmp_path / "t.yaml"
    path.write_text(Path(STRAIGHT).read_text().replace("lane: 1", "lane: -1", 1))
    code, _, err = run(capsys, str(path), "--at", "red=a1", "--car", "red", "--spaces", "2")
    assert code == 1 and "error schema" in err and "spaces[1].lane" in err


def test_unreadable_track_exits_2(capsys, tmp_path):
    code, _, err = run(
        capsys, str(tmp_path / "none.yaml"), "--at", "red=a1", "--car", "red", "--spaces", "2"
    )
    assert code == 2 and "no such file" in err
    code, _, err = run(capsys, str(tmp_path), "--at", "red=a1", "--car", "red", "--spaces", "2")
    assert code == 2 and "directory" in err
