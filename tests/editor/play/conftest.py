"""Fixtures for the play tests."""

from __future__ import annotations

import pytest
from play_helpers import HARBOUR


@pytest.fixture
def harbour_window(window):
    """The main window on Harbour Loop, bots playing at once and moves not animated."""
    assert window.open_file(HARBOUR, ask=False)
    window.play.bot_ms, window.play.anim_ms = 0, 0
    return window
