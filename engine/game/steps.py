"""Shared pieces of the game flow: the continuation type, sentinels, and names in the log."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeAlias

# A step of the flow returns the next step, or None when it waits for decisions.
Next: TypeAlias = Callable[[], "Next"] | None
OFF = -1  # position of a car that has left the track (finished)
NOBODY = -1  # owner of an unowned car


def seat_name(seat: int) -> str:
    """How the log names a seat (seats count from 1 for people)."""
    return f"Player {seat + 1}"


def ordinal(k: int) -> str:
    """1st, 2nd, 3rd, 4th..."""
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(k, f"{k}th")
