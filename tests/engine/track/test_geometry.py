"""Derived geometry (docs/design.md, track model): progress, adjacency, forward, lines."""

from __future__ import annotations

import math

import pytest
from tracks_for_tests import stadium_track, straight_track

from trackside.engine.track.geometry import FINISH, TrackGeometry
from trackside.engine.track.model import Space


@pytest.fixture(scope="module")
def straight():
    return TrackGeometry(straight_track(rows=12, lanes=2))


@pytest.fixture(scope="module")
def loop():
    return TrackGeometry(stadium_track(rows=40, lanes=3))


def ids(g, indices):
    return sorted(g.ids[i] for i in indices)


def test_progress_front_and_rear_follow_the_centerline(straight):
    g = straight
    i = g.index["a3"]
    assert g.length == pytest.approx(480.0)
    assert g.rear[i] == pytest.approx(80.0)
    assert g.front[i] == pytest.approx(120.0)
    assert g.centroid_progress[i] == pytest.approx(100.0)
    assert g.offset[i] == pytest.approx(15.0)
    assert g.progress(123.0, 40.0) == pytest.approx(123.0)


def test_adjacent_includes_edges_and_corners_only(straight):
    g = straight
    assert ids(g, g.adjacent[g.index["a2"]]) == ["a1", "a3", "b1", "b2", "b3"]
    assert g.index["a4"] not in g.adjacent[g.index["a2"]]


def test_forward_is_straight_or_diagonal_ahead(straight):
    g = straight
    assert ids(g, g.forward[g.index["a2"]]) == ["a3", "b3"]
    assert ids(g, g.forward[g.index["b12"]]) == []


def test_touching_within_tolerance_counts_as_adjacent():
    track = straight_track(rows=4, lanes=1)
    track.spaces[1].corners = [(x + 0.5, y) for x, y in track.spaces[1].corners]
    track.spaces[2].corners = [(x + 3.0, y) for x, y in track.spaces[2].corners]
    track.spaces[3].corners = [(x + 3.0, y) for x, y in track.spaces[3].corners]
    g = TrackGeometry(track)
    assert g.index["a2"] in g.adjacent[g.index["a1"]]
    assert g.index["a3"] not in g.adjacent[g.index["a2"]]


def test_overlapping_spaces_are_not_adjacent_but_listed():
    track = straight_track(rows=4, lanes=1)
    track.spaces[1].corners = [(x - 10.0, y) for x, y in track.spaces[1].corners]
    g = TrackGeometry(track)
    assert [(o.a, o.b) for o in g.overlaps] == [(0, 1)]
    assert g.overlaps[0].area == pytest.approx(300.0)
    assert 1 not in g.adjacent[0]


@pytest.mark.parametrize(
    "corners, reason",
    [
        ([(0, 0), (40, 30), (40, 0), (0, 30)], "not a simple polygon"),
        ([(0, 0), (0, 0), (40, 0)], "fewer than 3 distinct corners"),
        ([(40, 0), (40.5, 0), (40, 0.5)], "too small"),
    ],
)
def test_unusable_polygons_are_listed_and_left_out(corners, reason):
    track = straight_track(rows=3, lanes=1)
    track.spaces[1] = Space("a2", 0, corners)
    g = TrackGeometry(track)
    assert reason in g.bad_polygons[1]
    assert g.adjacent[1] == set() and g.forward[1] == ()


def test_rectangular_spaces_straight_yes_curve_wedges_no(loop):
    g = loop
    assert g.rectangular[g.index["a2"]]
    wedge = next(i for i, sp in enumerate(g.track.spaces) if g.centroids[i][0] > 420)
    assert not g.rectangular[wedge]


def test_closed_track_forward_wraps_over_the_seam(loop):
    g = loop
    last, first = g.index["b40"], g.index["b1"]
    assert g.closed and g.wraps
    assert ids(g, g.forward[last]) == ["a1", "b1", "c1"]
    assert g.delta(g.front[last], g.front[first]) == pytest.approx(g.length / 40, rel=0.05)
    assert g.wraps_seam(last, first) and not g.wraps_seam(first, g.index["b2"])
    assert not any(g.straddles_seam)


def test_delta_is_wrapped_into_half_a_lap(loop):
    g = loop
    assert g.delta(g.length - 10, 10) == pytest.approx(20)
    assert g.delta(10, g.length - 10) == pytest.approx(-20)


def test_space_across_the_seam_is_flagged():
    track = stadium_track(rows=40, lanes=2)
    track.centerline.points[0] = (10.0, track.centerline.points[0][1])
    g = TrackGeometry(track)
    assert g.straddles_seam[g.index["a1"]] and g.straddles_seam[g.index["b1"]]


def test_lines_progress_beyond_and_crossed(straight):
    g = straight  # betting lines after rows 3, 6, 8; finish after row 10
    assert g.line_progress == pytest.approx([120.0, 240.0, 320.0, 400.0])
    assert [len(c) for c in g.line_crossings] == [1, 1, 1, 1]
    a3, a4, a11 = g.index["a3"], g.index["a4"], g.index["a11"]
    assert not g.beyond[0][a3] and g.beyond[0][a4]
    assert g.beyond[FINISH][a11] and not g.beyond[FINISH][g.index["b10"]]
    assert g.crossed(a3, a4) == 0b0001
    assert g.crossed(g.index["b3"], a4) == 0b0001
    assert g.crossed(a3, a11) == 0b1111
    assert g.cuts == [[], [], [], []]


def test_a_line_through_spaces_cuts_them():
    track = straight_track(rows=12, lanes=2)
    (ax, ay), (bx, by) = track.betting_lines[1]
    track.betting_lines[1] = ((ax + 20, ay), (bx + 20, by))
    g = TrackGeometry(track)
    assert ids(g, g.cuts[1]) == ["a7", "b7"]


def test_touches_means_within_tolerance(straight):
    g = straight
    seg = ((120.0, 40.0), (120.0, -40.0))
    assert g.touches(g.index["a3"], seg) and g.touches(g.index["a4"], seg)
    assert not g.touches(g.index["a5"], seg)
    assert g.touches(g.index["a5"], ((160.9, 40.0), (160.9, 0.0)))


def test_curve_fronts_agree_across_lanes_with_a_dense_centerline(loop):
    g = loop
    for row in range(1, 41):
        fronts = [g.front[g.index[f"{lane}{row}"]] for lane in "abc"]
        spread = max(g.delta(fronts[0], f) for f in fronts) - min(
            g.delta(fronts[0], f) for f in fronts
        )
        assert spread < g.tol, row


def test_degenerate_centerline_gives_no_forward_moves():
    track = straight_track(rows=4, lanes=1)
    track.centerline.points = [(5.0, 5.0), (5.0, 5.0)]
    g = TrackGeometry(track)
    assert g.length == 0 and all(f == () for f in g.forward)
    assert g.line_progress == [None] * 4
    assert not math.isnan(sum(g.offset))
