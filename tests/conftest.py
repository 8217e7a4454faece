"""Shared test set-up: Qt runs offscreen, hypothesis has no deadline."""

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from hypothesis import HealthCheck, settings

settings.register_profile(
    "trackside",
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
settings.load_profile("trackside")
