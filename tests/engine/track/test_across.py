"""Lines across the track: a rough drag fitted to its edges, a line at a space's edge."""

from __future__ import annotations

import pytest
from tracks_for_tests import straight_track

from trackside.engine.resources import tracks_dir
from trackside.engine.track.across import fit_across_track, fit_drag_across, line_across
from trackside.engine.track.geometry import TrackGeometry
from trackside.engine.track.model import load_track


def _flat(seg):
    return [v for p in seg for v in p]


def test_a_drag_across_a_row_edge_is_fitted_to_that_edge():
    """Lanes span y 45 to -45; row edges are at multiples of 40 mm in x."""
    t = TrackGeometry(straight_track(rows=14, lanes=3))
    fitted = fit_across_track(t, (157.0, 70.0), (163.0, -70.0), reach=12.0)
    assert _flat(fitted) == pytest.approx([160.0, 45.0, 160.0, -45.0], abs=1e-6)


def test_a_slanted_drag_is_trimmed_not_skewed_through_spaces():
    """Ends that would snap to corners of different rows are kept where the drag
    leaves the track, as drawn (a drag with the line tools then goes to a row edge:
    fit_drag_across)."""
    t = TrackGeometry(straight_track(rows=14, lanes=3))
    fitted = fit_across_track(t, (145.0, 60.0), (185.0, -60.0), reach=12.0)
    assert _flat(fitted) == pytest.approx([150.0, 45.0, 180.0, -45.0], abs=1e-6)


def test_a_drag_off_the_track_is_left_as_drawn():
    t = TrackGeometry(straight_track(rows=14, lanes=3))
    assert fit_across_track(t, (100.0, 200.0), (140.0, 300.0), reach=12.0) == (
        (100.0, 200.0),
        (140.0, 300.0),
    )


def test_a_line_at_a_space_lies_on_its_rear_edge_across_every_lane():
    """Row 5 (x 160 to 200) of three lanes spanning y 45 to -45: its rear edge is x 160."""
    t = TrackGeometry(straight_track(rows=14, lanes=3))
    segment = line_across(t, t.index["b5"])
    assert segment is not None
    assert sorted(_flat(segment)) == pytest.approx(sorted([160.0, 45.0, 160.0, -45.0]), abs=1e-6)


def _bricks():
    """Three lanes along +x (rows 40 mm); the middle lane shifted half a row, so no
    edge between rows runs straight across the track."""
    track = straight_track(rows=14, lanes=3)
    for space in track.spaces:
        if space.lane == 1:
            space.corners = [(x + 20.0, y) for x, y in space.corners]
    return track


def test_a_slanted_drag_is_laid_on_the_nearest_row_edge():
    """The drag from x 150 to 180 (its middle at x 165) goes to the row edge at x 160,
    across every lane, instead of being kept slanted through spaces."""
    t = TrackGeometry(straight_track(rows=14, lanes=3))
    fitted = fit_drag_across(t, (145.0, 60.0), (185.0, -60.0), reach=12.0)
    assert fitted is not None and t.cut_spaces(fitted) == []
    assert sorted(_flat(fitted)) == pytest.approx(sorted([160.0, 45.0, 160.0, -45.0]), abs=1e-6)


def test_a_drag_across_a_bend_of_harbour_loop_is_laid_on_the_row_edge_it_crosses():
    """At x 205 the spaces of Harbour Loop's bend (a44 to c45) have no edge square to
    the drag: the line goes to the edge between rows 44 and 45 that it crosses."""
    track = load_track(tracks_dir() / "harbour-loop.yaml")
    g = TrackGeometry(track)
    fitted = fit_drag_across(g, (205.0, 345.0), (205.0, 500.0), reach=12.0)
    assert fitted is not None and g.cut_spaces(fitted) == []
    ends = sorted(
        tuple(map(float, p)) for p in (track.space("a45").corners[0], track.space("c44").corners[4])
    )
    assert sorted(fitted) == [pytest.approx(e, abs=1e-6) for e in ends]


def test_a_drag_where_no_row_edge_lies_across_the_track_is_refused():
    t = TrackGeometry(_bricks())
    assert fit_drag_across(t, (157.0, 70.0), (163.0, -70.0), reach=12.0) is None


def test_a_drag_already_on_a_row_edge_or_off_the_track_is_kept():
    t = TrackGeometry(straight_track(rows=14, lanes=3))
    fitted = fit_drag_across(t, (157.0, 70.0), (163.0, -70.0), reach=12.0)
    assert fitted is not None and _flat(fitted) == pytest.approx([160.0, 45.0, 160.0, -45.0])
    drawn = ((100.0, 200.0), (140.0, 300.0))
    assert fit_drag_across(t, *drawn, reach=12.0) == drawn
