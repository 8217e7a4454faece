"""Fixtures of the panels' tests."""

from __future__ import annotations

import pytest

from trackside.engine.resources import resolve_track


@pytest.fixture
def quarry(window):
    """The main window with Quarry Hairpin open and the Balance panel set for quick runs:
    30 games, one worker."""
    assert window.open_file(resolve_track("quarry-hairpin"))
    panel = window.balance_panel
    panel.games_box.setMinimum(1)
    panel.games_box.setValue(30)
    panel.workers_box.setValue(1)
    return window
