"""The game log: human-readable events, public to every player when logged."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


class Phase(StrEnum):
    """Where a game is: what kind of decision is due."""

    AUCTION = "auction"
    POWER = "power"
    RACE = "race"
    BET = "bet"
    OVER = "over"


@dataclass(frozen=True)
class Event:
    """One log line. ``kind`` is a short tag (``reveal``, ``bid``, ``auction``,
    ``play``, ``move``, ``stay``, ``finish``, ``cross``, ``bet``, ``score``, ...)
    and ``data`` holds the facts behind the text for programs."""

    kind: str
    text: str
    data: dict[str, Any] = field(default_factory=dict, compare=False)

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class Pending:
    """What is being asked now, for prompts: ``kind`` is the step
    (``bid``, ``keep_power``, ``swap_power``, ``play_card``, ``order``, ``skip``,
    ``wild``, ``path``, ``bonus``, ``bet``, ``over``), ``players`` the seats
    due; the other fields give context where they apply."""

    kind: str
    players: tuple[int, ...]
    car: str | None = None  # car auctioned, or the car to move
    power: str | None = None  # power auctioned with the car
    card: int | None = None  # card being played
    spaces: int | None = None  # spaces the car must move
    line: int | None = None  # betting line of the bet (0-based)
    set_aside: tuple[str, ...] = ()  # cars bid on again (R-AUC-8)
    row: int | None = None  # the card row being resolved (0 = printed top)
    # Spaces the owner may add to ``spaces`` (R-POW-AGG); the longer paths are among
    # the options only then.
    extra: int = 0
