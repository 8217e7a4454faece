"""``trackside diff``: the differences of two tracks, exit codes 0 / 1 / 2."""

from __future__ import annotations

import json

from tracks_for_tests import stadium_track

from trackside.cli.main import main
from trackside.engine.resources import tracks_dir
from trackside.engine.track.model import Space, load_track, save_track


def run(capsys, *args):
    code = main(["diff", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_the_same_track_exits_0(capsys):
    code, out, err = run(capsys, "harbour-loop", "harbour-loop")
    assert code == 0 and err == ""
    assert out == "harbour-loop -> harbour-loop: no differences\n"


def test_differences_are_listed_and_exit_1(capsys, tmp_path):
    old, new = tmp_path / "old.yaml", tmp_path / "new.yaml"
    track = stadium_track()
    save_track(track, old)
    gone = track.spaces.pop(0).id
    save_track(track, new)
    code, out, err = run(capsys, str(old), str(new))
    assert code == 1 and err == ""
    assert out.splitlines()[0] == f"- {gone}  removed"
    assert out.splitlines()[-1].endswith("spaces 1 removed")
    code, out, _err = run(capsys, "--json", str(old), str(new))
    data = json.loads(out)
    assert code == 1 and data["removed"] == [gone] and data["same"] is False


def test_an_unreadable_file_exits_2_with_one_line(capsys, tmp_path):
    code, out, err = run(capsys, str(tmp_path / "nowhere.yaml"), "harbour-loop")
    assert code == 2 and out == ""
    assert err.startswith("trackside: ") and "no such file" in err
    assert len(err.splitlines()) == 1
    code, out, _err = run(capsys, "--json", str(tmp_path / "nowhere.yaml"), "harbour-loop")
    assert code == 2 and json.loads(out)["ok"] is False


def test_a_file_with_two_problems_gets_a_line_for_each(capsys, tmp_path):
    text = (tracks_dir() / "harbour-loop.yaml").read_text()
    bad = tmp_path / "bad.yaml"
    bad.write_text(
        text.replace("name: Harbour Loop", "name: 7", 1).replace(
            "author: Trackside", "author: [1]", 1
        )
    )
    code, out, err = run(capsys, str(bad), "harbour-loop")
    lines = err.splitlines()
    assert code == 2 and out == "" and len(lines) == 2
    assert {line.split(":")[2] for line in lines} == {"2", "3"}  # each at its own line


def test_a_space_wound_the_other_way_or_drawn_again_under_another_id(capsys, tmp_path):
    track = load_track(tracks_dir() / "quarry-hairpin.yaml")
    at = next(k for k, sp in enumerate(track.spaces) if sp.id == "a10")
    corners = track.spaces[at].corners
    track.spaces[at].corners = corners[::-1]
    save_track(track, tmp_path / "wound.yaml")
    track.spaces[at] = Space("s1", track.spaces[at].lane, [*corners[1:], corners[0]])
    save_track(track, tmp_path / "drawn.yaml")
    code, out, _err = run(capsys, "quarry-hairpin", str(tmp_path / "wound.yaml"))
    assert code == 0 and out.endswith(": no differences\n")
    code, out, _err = run(capsys, "quarry-hairpin", str(tmp_path / "drawn.yaml"))
    assert code == 1 and out.splitlines()[0] == "> a10 -> s1  renamed"
    assert out.splitlines()[-1].endswith("spaces 1 renamed")
