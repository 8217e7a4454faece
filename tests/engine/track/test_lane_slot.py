"""A space drawn into the place of one taken away fills its lane: the lane is read from
where the space lies across the track, and, where the lane count changes, from the
spaces beside it in its row."""

from __future__ import annotations

from dataclasses import replace

import pytest

from trackside.engine.resources import resolve_track
from trackside.engine.track.geometry import GeometryCache, TrackGeometry
from trackside.engine.track.lane_slot import lane_across
from trackside.engine.track.model import Centerline, load_track

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
