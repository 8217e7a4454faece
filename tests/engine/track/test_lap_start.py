"""The lap start of a closed circuit (docs/track-format.md): moving it re-orders the
racing line's points; the places it may go are space edges no space lies across."""

from __future__ import annotations

import math

import pytest
from tracks_for_tests import stadium_track

from trackside.engine.records import open_track
from trackside.engine.track.geometry import TrackGeometry
from trackside.engine.track.lap_start import (
    centerline_starting_at,
    clean_lap_start,
    edge_progress,
    point_and_normal,
)
from trackside.engine.track.model import Centerline


def test_the_racing_line_is_re_ordered_not_changed():
    square = Centerline(closed=True, points=[(0, 0), (10, 0), (10, 10), (0, 10)])
    moved = centerline_starting_at(square, 15)  # half way along the second side
    assert moved.points == [(10.0, 5.0), (10.0, 10.0), (0.0, 10.0), (0.0, 0.0), (10.0, 0.0)]
    assert centerline_starting_at(square, 20).points == [(10, 10), (0, 10), (0, 0), (10, 0)]
    assert centerline_starting_at(square, 40).points == square.points  # a whole lap
    open_line = Centerline(closed=False, points=[(0, 0), (10, 0), (20, 0)])
    assert centerline_starting_at(open_line, 5).points == open_line.points


def test_a_lap_started_at_a_space_edge_leaves_no_space_across_it():
    track = stadium_track(rows=40, lanes=3)
    g = TrackGeometry(track)
    i = g.index["b12"]
    start = clean_lap_start(g, edge_progress(g, i))
    assert start == pytest.approx(g.rear[i], abs=1e-6)
    track.centerline = centerline_starting_at(track.centerline, start)
    moved = TrackGeometry(track)
    assert not any(moved.straddles_seam)
    assert moved.rear[i] == pytest.approx(0.0, abs=0.01)  # points kept to 0.001 mm
    assert moved.wraps_seam(moved.index["a11"], moved.index["a12"])


def test_a_place_inside_a_space_moves_to_the_nearest_clean_edge():
    g = TrackGeometry(stadium_track(rows=40, lanes=2))
    i = g.index["a5"]
    inside = g.rear[i] + 0.3 * (g.front[i] - g.rear[i])
    assert clean_lap_start(g, inside) == pytest.approx(g.rear[i], abs=1e-6)
    near_front = g.rear[i] + 0.8 * (g.front[i] - g.rear[i])
    assert edge_progress(g, i, near_front) == pytest.approx(g.front[i], abs=1e-6)


def test_the_normal_is_across_the_driving_direction():
    g = TrackGeometry(stadium_track(rows=40, lanes=2))
    (x, y), (nx, ny) = point_and_normal(g, 10.0)  # on the lower straight, driving +x
    assert (x, y) == pytest.approx(g.centerline.interpolate(10.0).coords[0])
    assert abs(nx) < 1e-9 and math.isclose(abs(ny), 1.0)


def test_a_lap_start_moved_to_a_space_edge_is_plain_numbers():
    """The places come out of numpy arrays; what goes into the racing line must be plain
    float, or no file can hold it (np.float64 passes for a float everywhere but YAML)."""
    track = stadium_track(rows=40, lanes=2)
    g = TrackGeometry(track)
    i = g.index["b12"]
    start = clean_lap_start(g, edge_progress(g, i))
    assert type(start) is float and type(edge_progress(g, i)) is float
    moved = centerline_starting_at(track.centerline, start)
    assert {type(v) for p in moved.points for v in p} <= {int, float}
    assert {
        type(v) for p in centerline_starting_at(track.centerline, g.rear[i]).points[:1] for v in p
    } == {float}


def test_a_lap_start_between_points_saves_as_plain_numbers():
    """A clean lap start where the racing line has no point adds one; its coordinates
    must be plain numbers, or the track can no longer be written (the YAML writer
    refuses a numpy float, and autosave and Save failed)."""
    track = open_track("quarry-hairpin").copy()  # the bundled track is shared: not changed
    g = TrackGeometry(track)
    start = clean_lap_start(g, edge_progress(g, g.index["b10"]))
    assert type(start) is float
    track.centerline = centerline_starting_at(track.centerline, start)
    assert all(type(v) is float for v in track.centerline.points[0])
    assert "centerline" in track.to_yaml()
