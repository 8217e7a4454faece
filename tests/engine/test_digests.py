"""Games stay exactly as they were: the determinism digests of ``tests/digests.py``.

Bot games, engine-alone games, views, determinized worlds, a strong bot and
records, hashed and compared with ``tests/digests.json``: the fast size here,
every game of the full size in the deep profile (``make test-deep``).
"""

import pytest
from depth import DEEP
from digests import digests, stored

pytestmark = pytest.mark.slow


def test_games_are_as_recorded():
    size = "full" if DEEP else "fast"
    found = digests(size)
    want = stored()[size]
    changed = sorted(name for name in want if found.get(name) != want[name])
    assert not changed, f"games changed ({size}): {', '.join(changed)}"
    assert set(found) == set(want)
