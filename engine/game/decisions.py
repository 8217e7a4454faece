"""Decisions: the plain, immutable answers that players (people or bots) give.

Every decision names the seat (``player``, 0-based) that makes it and converts
to and from a simple dict, so that game records can store it::

    Bid(player=1, card=12).to_dict() == {"type": "bid", "player": 1, "card": 12}
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, fields
from typing import Any, ClassVar

from trackside.engine.errors import InvalidInput, TracksideError


class IllegalDecision(TracksideError):
    """A decision that is not legal now (wrong player, step or option)."""

    exit_code = 1


@dataclass(frozen=True, slots=True)
class Decision:
    """Base class: the seat that decides."""

    player: int
    type: ClassVar[str] = ""

    def to_dict(self) -> dict[str, Any]:
        """The record form: ``{"type": ..., "player": ..., field: value}``."""
        out: dict[str, Any] = {"type": self.type}
        for key, value in asdict(self).items():
            out[key] = list(value) if isinstance(value, tuple) else value
        return out


@dataclass(frozen=True, slots=True)
class Bid(Decision):
    """A secret auction bid (R-AUC-2): a card id from hand, or None to pass.

    In the second round for set-aside cars (R-AUC-8) ``car`` names the
    set-aside car bid on; a pass has ``card`` None and ``car`` None.
    """

    card: int | None
    car: str | None = None
    type: ClassVar[str] = "bid"


@dataclass(frozen=True, slots=True)
class KeepPower(Decision):
    """The one power kept by a player who won several (R-AUC-9)."""

    power: str
    type: ClassVar[str] = "keep_power"


@dataclass(frozen=True, slots=True)
class SwapPower(Decision):
    """Two-player option: the Cunning holder keeps Cunning or takes another
    power that nobody kept (R-VAR two players)."""

    power: str
    type: ClassVar[str] = "swap_power"


@dataclass(frozen=True, slots=True)
class PlayCard(Decision):
    """The card played this turn (R-RACE-2): a card id from hand, or an unused
    face-up Speed-8 card (two players)."""

    card: int
    type: ClassVar[str] = "play_card"


@dataclass(frozen=True, slots=True)
class Order(Decision):
    """Tricky (R-POW-TRI): the card's row indices (0 = printed top) in the
    order to resolve them."""

    rows: tuple[int, ...]
    type: ClassVar[str] = "order"


@dataclass(frozen=True, slots=True)
class Skip(Decision):
    """Strategic (R-POW-STR): the row index to skip, or None to skip nothing."""

    row: int | None
    type: ClassVar[str] = "skip"


@dataclass(frozen=True, slots=True)
class Wild(Decision):
    """The colours named by the card's unskipped WILD rows, top to bottom
    (R-RACE-4, R-POW-UNP)."""

    colours: tuple[str, ...]
    type: ClassVar[str] = "wild"


@dataclass(frozen=True, slots=True)
class Path(Decision):
    """The spaces (ids, in order) that ``car`` enters for the row being
    resolved, or for its Determined bonus step (R-MOVE-4/5, R-POW-DET)."""

    car: str
    path: tuple[str, ...]
    type: ClassVar[str] = "path"


@dataclass(frozen=True, slots=True)
class Bet(Decision):
    """A secret bet on the car to win (R-BET-2)."""

    car: str
    type: ClassVar[str] = "bet"


DECISION_TYPES: dict[str, type[Decision]] = {
    cls.type: cls for cls in (Bid, KeepPower, SwapPower, PlayCard, Order, Skip, Wild, Path, Bet)
}


def decision_from_dict(data: dict[str, Any]) -> Decision:
    """The decision stored as ``data`` (see ``Decision.to_dict``)."""
    if not isinstance(data, dict) or data.get("type") not in DECISION_TYPES:
        kinds = ", ".join(DECISION_TYPES)
        raise InvalidInput(f"not a decision: {data!r}", hint=f"'type' must be one of {kinds}")
    cls = DECISION_TYPES[data["type"]]
    kwargs: dict[str, Any] = {}
    for f in fields(cls):
        if f.name in data:
            value = data[f.name]
            kwargs[f.name] = value = tuple(value) if isinstance(value, list) else value
            wanted = FIELD_KINDS[str(f.type)]
            if not wanted[0](value):
                raise InvalidInput(
                    f"bad {data['type']} decision {data!r}: {f.name} must be {wanted[1]}"
                )
    try:
        return cls(**kwargs)
    except TypeError as exc:
        raise InvalidInput(f"bad {data['type']} decision {data!r}: {exc}") from None


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# What each annotation of a decision's field takes, and how a message names it: a
# record is read from a file, and the engine's compiled modules refuse (with an
# unworded TypeError) a value of another type than the one annotated.
FIELD_KINDS: dict[str, tuple[Callable[[Any], bool], str]] = {
    "int": (_whole, "a whole number"),
    "int | None": (lambda v: v is None or _whole(v), "a whole number or null"),
    "str": (lambda v: isinstance(v, str), "a text"),
    "str | None": (lambda v: v is None or isinstance(v, str), "a text or null"),
    "tuple[int, ...]": (
        lambda v: isinstance(v, tuple) and all(map(_whole, v)),
        "a list of whole numbers",
    ),
    "tuple[str, ...]": (
        lambda v: isinstance(v, tuple) and all(isinstance(x, str) for x in v),
        "a list of texts",
    ),
}
