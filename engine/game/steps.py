"""Shared pieces of the game flow: the step type, sentinels, and names in the log."""

from __future__ import annotations

from collections.abc import Callable
from typing import Optional

# A step of the flow returns the next step, or None when it waits for decisions.
Step = Optional[Callable[[], "Step"]]
OFF = -1  # position of a car that has left the track (finished)
NOBODY = -1  # owner of an unowned car


def seat_name(p: int) -> str:
    """How the log names a seat (seats count from 1 for people)."""
    return f"Player {p + 1}"


def ordinal(k: int) -> str:
    """1st, 2nd, 3rd, 4th..."""
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(k, f"{k}th")


class Steps:
    """Base of the step mixins that make up ``Game``; holds no state of its own."""

    __slots__ = ()

    def _seat(self, p: int) -> str:
        return seat_name(p)
