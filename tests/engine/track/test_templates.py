"""The circuits to start from are finished, valid tracks (docs/validation.md)."""

from __future__ import annotations

import pytest

from trackside.engine.track.geometry import TrackGeometry
from trackside.engine.track.templates import TEMPLATES
from trackside.engine.track.validate import validate_track


@pytest.mark.parametrize("template", TEMPLATES, ids=lambda t: t.name)
def test_a_template_is_a_closed_circuit_without_a_single_issue(template):
    track = template.build()
    assert track.name == template.name and track.centerline.closed
    assert validate_track(track).issues == []
    g = TrackGeometry(track)
    assert not any(g.straddles_seam) and len(track.start_grid) == 6
