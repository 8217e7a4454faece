"""The changes the balance lab proposes and tries, made on real circuits."""

from __future__ import annotations

from tracks_for_tests import straight_track

from trackside.engine.balance.edits import Proposal, make_edit, steps_to_line
from trackside.engine.records import open_track
from trackside.engine.track.geometry import FINISH, TrackGeometry
from trackside.engine.track.validate import validate_track


def _pole_steps(track, line=FINISH):
    g = TrackGeometry(track)
    return steps_to_line(g, line)[g.index[track.start_grid[0]]]


def test_the_finish_moved_earlier_and_later_by_whole_spaces():
    track = straight_track(rows=40, lanes=3, finish=36)
    before = _pole_steps(track)
    for steps in (4, -2):
        edit = make_edit(track, Proposal("line", steps))
        assert edit is not None and validate_track(edit.track).ok
        assert _pole_steps(edit.track) == before - steps
        assert edit.track.spaces is track.spaces  # the same spaces: only the line moved
    earlier = make_edit(track, Proposal("line", 4))
    assert earlier.text == "Finish line 4 spaces earlier (at the rear edge of a33)"
    assert earlier.spaces == ("a33",)
    assert track.finish_line != earlier.track.finish_line  # the track given is not changed


def test_a_betting_line_moves_alone():
    track = open_track("harbour-loop")
    edit = make_edit(track, Proposal("line", 2, line=2))
    assert edit is not None and edit.text.startswith("Betting line 3 2 spaces earlier")
    assert _pole_steps(edit.track, 2) == _pole_steps(track, 2) - 2
    assert edit.track.finish_line == track.finish_line


def test_a_finish_moved_past_the_betting_lines_takes_them_along():
    """Quarry Hairpin's third betting line lies 9 spaces before its finish."""
    track = open_track("quarry-hairpin")
    edit = make_edit(track, Proposal("line", 12))
    assert edit is not None and validate_track(edit.track).ok
    assert "betting lines moved along" in edit.text
    assert _pole_steps(edit.track) == _pole_steps(track) - 12
    for line in range(3):
        assert _pole_steps(edit.track, line) < _pole_steps(track, line)


def test_the_grid_moved_back_takes_the_lap_start_along_on_a_loop():
    track = open_track("quarry-hairpin")
    edit = make_edit(track, Proposal("grid", 1))
    assert edit is not None and validate_track(edit.track).ok
    assert edit.track.start_grid == ["b1", "c1", "a1", "d1", "b48", "c48"]
    assert "the lap start just behind it" in edit.text
    assert edit.track.centerline.points[0] != track.centerline.points[0]


def test_a_change_the_circuit_has_no_room_for_is_not_made():
    track = straight_track(rows=40, lanes=3, finish=36)
    assert make_edit(track, Proposal("grid", 1)) is None  # nothing behind the grid
    assert make_edit(track, Proposal("line", 60)) is None  # before the grid
