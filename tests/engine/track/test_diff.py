"""What changed between two versions of a circuit (engine/track/diff.py)."""

from __future__ import annotations

from tracks_for_tests import stadium_track

from trackside.engine.track.diff import diff_tracks
from trackside.engine.track.geometry import FINISH
from trackside.engine.track.model import Space
from trackside.engine.track.transform import map_space, map_track, translation


def test_a_track_is_the_same_as_itself():
    found = diff_tracks(stadium_track(), stadium_track())
    assert found.same
    assert found.summary() == "no differences"
    assert found.lines_of_text() == []


def test_added_removed_moved_and_changed_spaces_are_told_apart():
    old = stadium_track()
    new = stadium_track()
    gone = new.spaces.pop(3).id
    new.spaces[0] = map_space(new.spaces[0], translation(5, 0))
    new.spaces[1].lane = 7
    new.spaces.append(Space("z1", 0, [(900, 900), (910, 900), (910, 910)]))
    found = diff_tracks(old, new)
    assert found.added == ["z1"]
    assert found.removed == [gone]
    assert found.moved == [new.spaces[0].id]
    assert found.changed == [new.spaces[1].id]
    assert not found.lines and not found.grid and not found.racing_line
    assert found.summary() == "spaces 1 added, 1 removed, 1 moved, 1 changed"
    assert f"- {gone}  removed" in found.lines_of_text()


def test_a_space_back_under_another_id_in_the_same_place_is_renamed():
    old = stadium_track()
    new = stadium_track()
    was = new.spaces[2].id
    new.spaces[2].id = "fresh"
    found = diff_tracks(old, new)
    assert found.renamed == [(was, "fresh")]
    assert not found.added and not found.removed


def test_moving_the_whole_circuit_moves_every_space_line_and_the_racing_line():
    old = stadium_track()
    found = diff_tracks(old, map_track(old, translation(0, 1)))
    assert len(found.moved) == len(old.spaces)
    assert found.lines == [0, 1, 2, FINISH]
    assert found.racing_line
    assert "also betting line 1" in found.summary()


def test_a_shift_below_the_files_rounding_is_no_move():
    old = stadium_track()
    new = map_track(old, translation(0.0004, 0))
    assert diff_tracks(old, new).moved == []


def test_the_same_corners_from_another_corner_or_wound_back_are_no_move():
    old = stadium_track()
    new = stadium_track()
    new.spaces[4].corners = new.spaces[4].corners[::-1]
    new.spaces[5].corners = new.spaces[5].corners[2:] + new.spaces[5].corners[:2]
    new.spaces[6].corners = (new.spaces[6].corners[1:] + new.spaces[6].corners[:1])[::-1]
    assert diff_tracks(old, new).same


def test_a_space_drawn_again_from_another_corner_under_another_id_is_renamed():
    old = stadium_track()
    new = stadium_track()
    space = new.spaces.pop(2)
    new.spaces.append(Space("s1", space.lane, [*space.corners[1:], space.corners[0]][::-1]))
    found = diff_tracks(old, new)
    assert found.renamed == [(space.id, "s1")]
    assert not found.added and not found.removed and not found.moved


def test_a_space_drawn_again_within_the_files_rounding_is_renamed():
    old = stadium_track()
    new = stadium_track()
    space = new.spaces.pop(2)
    # 0.0002 mm apart across a rounding edge: the same place, other rounded figures.
    old.spaces[2].corners = [(round(x, 3) + 0.0004, y) for x, y in space.corners]
    drawn = [(round(x, 3) + 0.0006, y) for x, y in space.corners]
    new.spaces.append(Space("s1", space.lane, drawn))
    assert diff_tracks(old, new).renamed == [(space.id, "s1")]


def test_a_different_shape_with_the_same_corners_is_moved():
    old = stadium_track()
    new = stadium_track()
    a, b, c, d = new.spaces[4].corners
    new.spaces[4].corners = [a, c, b, d]  # the same four points, crossed over
    assert diff_tracks(old, new).moved == [new.spaces[4].id]
