"""A geometry built with a ``GeometryCache`` (reusing the last one's polygons and overlap
tests for unchanged spaces) equals one built afresh, after any sequence of edits."""

from __future__ import annotations

import copy

import shapely
from depth import examples
from hypothesis import given, settings
from hypothesis import strategies as st
from tracks_for_tests import straight_track

from trackside.engine.track.geometry import GeometryCache, TrackGeometry
from trackside.engine.track.model import Track
from trackside.engine.track.validate import validate_track

coord = st.floats(-60, 60, allow_nan=False).map(lambda v: round(v, 1))
edit = st.one_of(
    st.tuples(st.just("move"), st.integers(0, 40), coord, coord),  # new corners list
    st.tuples(st.just("corner"), st.integers(0, 40), coord, coord),  # one corner, in place
    st.tuples(st.just("copy"), st.integers(0, 40)),  # the same space as a new object
    st.tuples(st.just("remove"), st.integers(0, 40)),
    st.tuples(st.just("duplicate"), st.integers(0, 40)),  # an overlapping copy
    st.tuples(st.just("tol"), st.sampled_from([0.5, 1.0, 2.0])),
)


def _apply(track: Track, op: tuple) -> None:
    spaces, n = track.spaces, len(track.spaces)
    if op[0] == "tol":
        track.tolerance = op[1]
    elif not n:
        return
    elif op[0] == "move":
        sp = spaces[op[1] % n]
        sp.corners = [(x + op[2], y + op[3]) for x, y in sp.corners]
    elif op[0] == "corner":
        spaces[op[1] % n].corners[0] = (op[2], op[3])
    elif op[0] == "copy":
        spaces[op[1] % n] = copy.deepcopy(spaces[op[1] % n])
    elif op[0] == "remove":
        del spaces[op[1] % n]
    elif op[0] == "duplicate":
        twin = copy.deepcopy(spaces[op[1] % n])
        twin.id += "x"
        spaces.append(twin)


def _same(cached: TrackGeometry, fresh: TrackGeometry) -> None:
    assert cached.bad_polygons == fresh.bad_polygons
    assert [p is None for p in cached.polygons] == [p is None for p in fresh.polygons]
    for a, b in zip(cached.polygons, fresh.polygons, strict=True):
        assert a is None or shapely.equals_exact(a, b, 0.0)
    assert cached.adjacent == fresh.adjacent
    assert cached.overlaps == fresh.overlaps
    assert cached.forward == fresh.forward


@settings(max_examples=examples(20))
@given(ops=st.lists(edit, min_size=1, max_size=6))
def test_a_cached_geometry_equals_a_fresh_one_after_any_edits(ops):
    track = straight_track(rows=4, lanes=2)
    cache = GeometryCache()
    TrackGeometry(track, cache)
    for op in ops:
        _apply(track, op)
        cached, fresh = TrackGeometry(track, cache), TrackGeometry(track)
        _same(cached, fresh)
    assert validate_track(track, geometry=cached).issues == validate_track(track).issues


def test_an_unchanged_track_reuses_its_polygons_and_a_moved_space_does_not():
    track = straight_track(rows=4, lanes=2)
    cache = GeometryCache()
    first = TrackGeometry(track, cache)
    track.spaces[3].corners = [(x + 5, y) for x, y in track.spaces[3].corners]
    second = TrackGeometry(track, cache)
    assert second.polygons[0] is first.polygons[0]
    assert second.polygons[3] is not first.polygons[3]
    _same(second, TrackGeometry(track))
