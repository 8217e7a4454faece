"""A space drawn into the place of one taken away fills its lane: the lane is read from
where the space lies across the track, and, where the lane count changes, from the
spaces beside it in its row."""

from __future__ import annotations

from dataclasses import replace

import pytest

from trackside.engine.resources import resolve_track
from trackside.engine.track.geometry import GeometryCache, TrackGeometry
from trackside.engine.track.lane_slot import lane_across, lane_space_id
from trackside.engine.track.model import Centerline, Space, load_track

# Quarry Hairpin's one space alone in its row, where three lanes meet one: nothing
# beside it says its number, and the lanes ahead and behind carry another.
ALONE = {("quarry-hairpin", "a28")}


@pytest.mark.slow
@pytest.mark.parametrize("name", ["harbour-loop", "quarry-hairpin", "estuary-sweep"])
def test_every_space_taken_away_is_given_its_lane_back(name):
    """Each space of a bundled circuit, taken away and looked up by its corners: on the
    straights, on the curves, on the grid's six lanes and where the lanes change."""
    track, cache = load_track(resolve_track(name)), GeometryCache()
    wrong = []
    for i, space in enumerate(track.spaces):
        rest = replace(track, spaces=track.spaces[:i] + track.spaces[i + 1 :])
        lane = lane_across(TrackGeometry(rest, cache), space.corners)
        if lane != space.lane and (name, space.id) not in ALONE:
            wrong.append((space.id, space.lane, lane))
    assert wrong == []


def test_without_a_racing_line_or_a_space_near_it_says_nothing():
    track = load_track(resolve_track("harbour-loop"))
    far = [(5000.0, 5000.0), (5037.0, 5000.0), (5037.0, 5037.0), (5000.0, 5037.0)]
    assert lane_across(TrackGeometry(track), far) is None
    bare = replace(track, centerline=Centerline(closed=False, points=[]))
    assert lane_across(TrackGeometry(bare), track.spaces[0].corners) is None


def _square(x: float, y: float) -> list[tuple[float, float]]:
    return [(x, y), (x + 40, y), (x + 40, y + 30), (x, y + 30)]


def test_a_new_space_goes_on_with_the_ids_of_the_lane_beside_it():
    """The letters of the lane's nearest space and the number after the highest in use
    with them; nothing to go on with when that id is no letters and number."""
    spaces = [
        *(Space(f"a{n}", 0, _square(40 * n, 0)) for n in range(1, 6)),
        Space("a9", 1, _square(0, 500)),  # the highest a, in another lane
        Space("pit", 0, _square(0, 300)),
        Space("b2", 1, _square(40, 30)),
    ]
    assert lane_space_id(spaces, 0, _square(80, -30)) == "a10"
    assert lane_space_id(spaces, 1, _square(80, 60)) == "b3"
    assert lane_space_id(spaces, 0, _square(0, 330)) is None  # beside "pit"
    assert lane_space_id(spaces, 2, _square(0, 60)) is None  # a lane of no space
