"""Shared pieces of the game flow: the continuation type, sentinels, and names in the log."""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum
from typing import TypeAlias

from trackside.engine.game.events import Phase
from trackside.engine.text import ordinal as ordinal  # the log's places: "finishes 2nd"

# A step of the flow returns the next step, or None when it waits for decisions.
Next: TypeAlias = Callable[[], "Next"] | None
OFF = -1  # position of a car that has left the track (finished)
NOBODY = -1  # owner of an unowned car


def seat_name(seat: int) -> str:
    """How the log names a seat (seats count from 1 for people)."""
    return f"Player {seat + 1}"


SEAT_NAMES = tuple(seat_name(seat) for seat in range(16))  # the log names them at every turn


class Step(Enum):
    """A step of the flow: what the game waits for now.

    Each step knows the decision ``kind`` it asks for (``Pending.kind``), the
    ``phase`` it belongs to, and whether every seat asked answers at once
    (``simultaneous``: secret bids, power choices and bets).
    """

    label: str
    kind: str
    phase: Phase
    simultaneous: bool

    START = ("start", "over", Phase.AUCTION)
    BID = ("bid", "bid", Phase.AUCTION, True)
    SECOND = ("second", "bid", Phase.AUCTION)
    KEEP = ("keep", "keep_power", Phase.POWER, True)
    SWAP = ("swap", "swap_power", Phase.POWER)
    CARD = ("card", "play_card", Phase.RACE)
    ORDER = ("order", "order", Phase.RACE)
    SKIP = ("skip", "skip", Phase.RACE)
    WILD = ("wild", "wild", Phase.RACE)
    PATH = ("path", "path", Phase.RACE)
    BET = ("bet", "bet", Phase.BET, True)
    OVER = ("over", "over", Phase.OVER)

    def __init__(self, label: str, kind: str, phase: Phase, simultaneous: bool = False) -> None:
        self.label = label
        self.kind = kind
        self.phase = phase
        self.simultaneous = simultaneous


# The steps as plain names for the paths taken at every decision: on Python 3.11
# ``Step.PATH`` goes through ``EnumType.__getattr__``, ten times slower than a global.
STEP_BID, STEP_SECOND, STEP_KEEP = Step.BID, Step.SECOND, Step.KEEP
STEP_CARD, STEP_ORDER, STEP_SKIP, STEP_WILD, STEP_PATH = (
    Step.CARD,
    Step.ORDER,
    Step.SKIP,
    Step.WILD,
    Step.PATH,
)
STEP_BET, STEP_OVER = Step.BET, Step.OVER
