"""Speed cards and decks (R-DECK): cards as ordered rows of colour and spaces."""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from trackside.engine.game.pickled import by_constructor
from trackside.engine.schema import Violation, ViolationKind, check, refusal
from trackside.engine.stamps import ReadCache
from trackside.engine.yamlio import load_yaml

COLOURS: tuple[str, ...] = ("black", "blue", "green", "yellow", "orange", "red")
WILD = "wild"
# Internal colour code of a WILD row; colours are 0..5 in COLOURS order.
WILD_CODE = -1
COLOUR_CODE = {c: i for i, c in enumerate(COLOURS)}


@dataclass(frozen=True)
class Card:
    """One speed card: ``rows`` top to bottom as (colour or "wild", spaces).

    ``id`` is the card's number in the game: deck cards 0..n-1 in deck-file
    order, then the six Speed-8 cards in COLOURS order.
    """

    id: int
    rows: tuple[tuple[str, int], ...]
    speed8: bool = False

    def __reduce__(self) -> tuple[type, tuple[Any, ...]]:
        """Pickled through its constructor (the engine may run compiled)."""
        return by_constructor(self)

    @property
    def codes(self) -> tuple[tuple[int, int], ...]:
        """Rows as (colour code, spaces), WILD as ``WILD_CODE``."""
        return tuple((COLOUR_CODE.get(c, WILD_CODE), n) for c, n in self.rows)

    def number(self, colour: str) -> int | None:
        """The spaces on this card's row of ``colour`` (the first such row), or None."""
        return self._numbers.get(colour)

    @cached_property
    def _numbers(self) -> dict[str, int]:
        return {c: n for c, n in reversed(self.rows)}  # the first row of a colour wins

    @cached_property
    def wild_rows(self) -> int:
        """How many WILD rows the card has."""
        return sum(1 for c, _ in self.rows if c == WILD)

    @cached_property
    def label(self) -> str:
        """The card as the log shows it: ``[red 6 / WILD 2 / blue 1]``."""
        text = " / ".join(f"{'WILD' if c == WILD else c} {n}" for c, n in self.rows)
        return f"[{'Speed-8 ' if self.speed8 else ''}{text}]"

    def __str__(self) -> str:
        return self.label


@dataclass(frozen=True)
class Deck:
    """The regular speed cards of a game plus the six Speed-8 cards."""

    cards: tuple[Card, ...]
    source: str = "<deck>"

    def __reduce__(self) -> tuple[type, tuple[Any, ...]]:
        """Pickled through its constructor (the engine may run compiled)."""
        return by_constructor(self)

    @property
    def size(self) -> int:
        """How many regular cards (Speed-8 cards not counted)."""
        return len(self.cards) - len(COLOURS)

    def speed8(self, colour: str) -> int:
        """The card id of ``colour``'s Speed-8 card."""
        return self.size + COLOUR_CODE[colour]

    @classmethod
    def from_rows(cls, rows: list[list[tuple[str, int]]], source: str = "<deck>") -> Deck:
        """A deck from card rows (top to bottom); Speed-8 cards are added."""
        cards = [Card(i, tuple((c, int(n)) for c, n in r)) for i, r in enumerate(rows)]
        base = len(cards)
        cards += [Card(base + k, ((c, 8),), True) for k, c in enumerate(COLOURS)]
        return cls(tuple(cards), source)


def deck_problems(data: object) -> list[Violation]:
    """Every problem of deck file data: schema, then colours repeated on a card."""
    problems = check("deck", data)
    if problems or not isinstance(data, list):
        return problems
    for i, card in enumerate(data):
        seen: set[str] = set()
        for j, row in enumerate(card):
            (colour,) = row.keys()
            if colour != WILD and colour in seen:
                problems.append(
                    Violation(
                        f"[{i}][{j}]: colour {colour!r} appears twice on card {i + 1}",
                        (i, j),
                        ViolationKind.REPEATED,
                    )
                )
            seen.add(colour)
    return problems


_DECKS: ReadCache[Deck] = ReadCache(lambda _deck: ())  # a deck is read from its file only


def load_deck(path: str | os.PathLike[str]) -> Deck:
    """Read a deck file (a list of cards, each a list of ``colour: spaces``); kept
    for the next call until the file changes."""
    resolved = str(Path(path).resolve())
    return _DECKS.get(resolved, lambda: _read_deck(resolved))


def _read_deck(path: str) -> Deck:
    doc = load_yaml(path, "deck file")
    problems = deck_problems(doc.data)
    if problems:
        raise refusal(
            problems,
            doc,
            "deck",
            "each card is a list of 1 to 6 rows such as [red: 6, wild: 2], "
            "spaces 1 to 9, no colour twice",
        )
    rows = [[next(iter(r.items())) for r in card] for card in doc.data]
    return Deck.from_rows(rows, path)


def bid_value(card: Card, colour: str, hand: list[Card] | tuple[Card, ...]) -> int | None:
    """What ``card`` bids for ``colour`` from this hand (R-AUC-2), None for a pass.

    A bidder who holds no card with the colour bids the card's WILD row (the
    higher of two), or, holding no WILD card either, the card's lowest number.
    """
    n = card.number(colour)
    if n is not None:
        return n
    if any(c.number(colour) is not None for c in hand):
        return None
    wilds = [m for c, m in card.rows if c == WILD]
    if wilds:
        return max(wilds)
    if any(c.wild_rows for c in hand):
        return None
    return min(m for _, m in card.rows)


def hand_bids(colour: str, hand: list[Card] | tuple[Card, ...]) -> list[int | None]:
    """``bid_value`` of every card of the hand for ``colour``, in one pass."""
    numbers = [c._numbers.get(colour) for c in hand]  # ``number``, without a call per card
    if any(n is not None for n in numbers):
        return numbers
    wilds = [max((m for k, m in c.rows if k == WILD), default=None) for c in hand]
    if any(w is not None for w in wilds):
        return wilds
    return [min(m for _, m in c.rows) for c in hand]


def lowest_price(colour: str, hand: list[Card] | tuple[Card, ...]) -> int:
    """The price of a car taken without bidding (R-AUC-7): the lowest number
    for the colour in hand, else the lowest WILD bid, else the lowest number."""
    values = [v for c in hand if (v := bid_value(c, colour, hand)) is not None]
    return min(values) if values else 0


def lowest_card(colour: str, hand: list[Card] | tuple[Card, ...]) -> int | None:
    """The place in ``hand`` of the card shown as a forced bid for the last car
    (R-AUC-7 ruling): the lowest bid for ``colour`` (as in ``lowest_price``);
    among equal ones the card that ranks first under R-AUC-3's tie-breaks (more
    rows, then no WILD row), then the first in hand. None for an empty hand."""
    best: tuple[int, int, int] | None = None
    found = None
    for k, (card, value) in enumerate(zip(hand, hand_bids(colour, hand), strict=True)):
        if value is None:
            continue
        key = (value, -len(card.rows), card.wild_rows)
        if best is None or key < best:
            best, found = key, k
    return found
