"""Shared test set-up: Qt runs offscreen; hypothesis profiles; bundled data loaded once.

Hypothesis profiles (chosen by TRACKSIDE_TEST_PROFILE, see depth.py):
- "ci" (default): a moderate number of examples, derandomized so every run checks the
  same examples and a failure is repeatable; no deadline (the machines are shared).
- "deep" (``make test-deep``): ten times the examples, fresh random ones on each run.
Tests that set their own ``max_examples`` take it from ``depth.examples``, and long game
runs their length from ``depth.game_count``.
"""

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest
from depth import PROFILE, examples
from hypothesis import HealthCheck, settings

from trackside.engine.balance import players
from trackside.engine.resources import bundled_tracks
from trackside.engine.track.model import Track, load_track

# The lab's tests play with greedy bots: fast, and the bots their figures were
# written for. The command line and the Balance panel read ``LAB_BOTS`` when
# they are imported, which is after this file; a balance run reads it when made.
players.LAB_BOTS = ("greedy",)

QUIET = [HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
settings.register_profile(
    "ci", max_examples=examples(100), deadline=None, derandomize=True, suppress_health_check=QUIET
)
settings.register_profile(
    "deep", max_examples=examples(100), deadline=None, suppress_health_check=QUIET
)
settings.load_profile(PROFILE)


@pytest.fixture(scope="session")
def bundled() -> dict[str, Track]:
    """The bundled circuits by name, loaded once a session. Read-only: a test that
    changes a track takes a copy (``Track.from_dict(track.to_dict())``) or loads its own."""
    return {path.stem: load_track(path) for path in bundled_tracks()}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Run the tests marked slow first (otherwise in collection order): with
    ``-n`` their files start at once on different workers instead of ending the run."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)
