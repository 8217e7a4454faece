"""How deep the tests dig: the "ci" profile by default, "deep" with TRACKSIDE_TEST_PROFILE=deep.

``make test`` runs the ci profile (moderate, repeatable: hypothesis is derandomized);
``make test-deep`` runs the same tests with many more examples and games. Test modules
import these helpers (a conftest is not importable by name from every folder).
"""

from __future__ import annotations

import os

PROFILES = ("ci", "deep")
PROFILE = os.environ.get("TRACKSIDE_TEST_PROFILE", "ci")
if PROFILE not in PROFILES:
    raise ValueError(f"TRACKSIDE_TEST_PROFILE must be one of {PROFILES}, not {PROFILE!r}")
DEEP = PROFILE == "deep"

# The deep profile runs every hypothesis test this many times over.
DEEP_FACTOR = 10


def examples(ci: int, deep: int | None = None) -> int:
    """Hypothesis examples for one test: ``ci`` normally, ``deep`` (10 x ci) when deep."""
    if not DEEP:
        return ci
    return deep if deep is not None else ci * DEEP_FACTOR


def game_count(default: int, deep: int) -> int:
    """How many games a long game run plays: ``default`` normally, ``deep`` when deep."""
    return deep if DEEP else default
