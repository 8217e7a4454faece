"""Lines across the track: a rough drag fitted to its edges, a line at a space's edge."""

from __future__ import annotations

import pytest
from tracks_for_tests import straight_track

from trackside.engine.track.across import fit_across_track, line_across
from trackside.engine.track.geometry import TrackGeometry


def _flat(seg):
    return [v for p in seg for v in p]


def test_a_drag_across_a_row_edge_is_fitted_to_that_edge():
    """Lanes span y 45 to -45; row edges are at multiples of 40 mm in x."""
    t = TrackGeometry(straight_track(rows=14, lanes=3))
    fitted = fit_across_track(t, (157.0, 70.0), (163.0, -70.0), reach=12.0)
    assert _flat(fitted) == pytest.approx([160.0, 45.0, 160.0, -45.0], abs=1e-6)


def test_a_slanted_drag_is_trimmed_not_skewed_through_spaces():
    """Ends that would snap to corners of different rows are kept where the drag
    leaves the track, as drawn (the validator then says it cuts spaces)."""
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
