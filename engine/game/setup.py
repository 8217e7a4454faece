"""Set-up (R-SET): the seeded shuffles, or an explicit deal that replaces them."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from trackside.engine.errors import InvalidInput
from trackside.engine.game.cards import COLOURS, Deck
from trackside.engine.game.pickled import by_constructor
from trackside.engine.game.variants import POWERS, Variant
from trackside.engine.text import plural


@dataclass(frozen=True)
class Deal:
    """An explicit set-up in place of the seed's shuffles.

    ``hands``: card ids per seat (in the common-pile mode, the opening hands);
    ``grid``: car colours in grid order, pole first; ``speed8``: the Speed-8
    deck top first (auction order, or dealing order without an auction);
    ``powers``: the power deck top first; ``pile``: the common draw pile, top
    first. Cards in no hand and no pile stay out of the game unseen.
    """

    hands: tuple[tuple[int, ...], ...]
    grid: tuple[str, ...]
    speed8: tuple[str, ...] = COLOURS
    powers: tuple[str, ...] = ()
    pile: tuple[int, ...] = ()

    def __reduce__(self) -> tuple[type, tuple[Any, ...]]:
        """Pickled through its constructor (the engine may run compiled)."""
        return by_constructor(self)

    def to_dict(self) -> dict[str, Any]:
        """The record form (lists of ints and colour names)."""
        return {
            "hands": [list(h) for h in self.hands],
            "grid": list(self.grid),
            "speed8": list(self.speed8),
            "powers": list(self.powers),
            "pile": list(self.pile),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Deal:
        """The deal stored by ``to_dict``."""
        try:
            return cls(
                hands=tuple(tuple(int(c) for c in h) for h in data["hands"]),
                grid=tuple(data["grid"]),
                speed8=tuple(data.get("speed8", COLOURS)),
                powers=tuple(data.get("powers", ())),
                pile=tuple(int(c) for c in data.get("pile", ())),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise InvalidInput(
                f"bad deal {exc}",
                hint="a deal has hands (card ids per seat) and grid (six colours, pole first)",
            ) from None


@dataclass
class SetUp:
    """What set-up produces: the deal actually used and the random source."""

    deal: Deal
    rng: random.Random = field(repr=False)


def shuffled_setup(variant: Variant, deck: Deck, players: int, seed: int) -> SetUp:
    """R-SET-2..5: shuffle Speed-8 deck, power deck, speed cards (and deal),
    then the grid, in that fixed order from ``random.Random(seed)``."""
    rng = random.Random(seed)
    speed8 = list(COLOURS)
    rng.shuffle(speed8)
    powers = list(variant.powers)
    rng.shuffle(powers)
    cards = list(range(deck.size))
    rng.shuffle(cards)
    grid = list(COLOURS)
    rng.shuffle(grid)
    return SetUp(_dealt(variant, players, speed8, powers, cards, grid), rng)


def paired_deal(variant: Variant, deck: Deck, players: int, seed: int) -> Deal:
    """The deal of game ``seed`` when two variants are compared on the same games: one
    set of shuffles from ``random.Random(seed)`` that every variant shares as far as its
    rules allow. The Speed-8 deck, the grid and the order of all six powers come first,
    so they are the same whatever the variant (a variant with fewer powers keeps those
    it has in that order); the speed cards are shuffled last, the same order for every
    variant with a deck of that size, and dealt by the variant's own hand rule."""
    rng = random.Random(seed)
    speed8 = list(COLOURS)
    rng.shuffle(speed8)
    grid = list(COLOURS)
    rng.shuffle(grid)
    every_power = list(POWERS)
    rng.shuffle(every_power)
    powers = [p for p in every_power if p in variant.powers]
    cards = list(range(deck.size))
    rng.shuffle(cards)
    return _dealt(variant, players, speed8, powers, cards, grid)


def _dealt(
    variant: Variant,
    players: int,
    speed8: list[str],
    powers: list[str],
    cards: list[int],
    grid: list[str],
) -> Deal:
    """The deal of shuffled decks: the speed cards cut into hands by the variant's
    hand rule (R-SET-3; a common draw pile, R-VAR beginner)."""
    pile: list[int] = []
    if variant.hand_mode == "common":
        size = variant.hand_size
        hands = [cards[i * size : (i + 1) * size] for i in range(players)]
        pile = cards[players * size :]
    else:
        share = len(cards) // players  # R-SET-3: the rest leaves the game unseen
        hands = [cards[i * share : (i + 1) * share] for i in range(players)]
    return Deal(
        tuple(tuple(h) for h in hands), tuple(grid), tuple(speed8), tuple(powers), tuple(pile)
    )


def check_deal(deal: Deal, variant: Variant, deck: Deck, players: int) -> None:
    """Refuse a deal that cannot be played, naming the problem."""

    def bad(message: str) -> None:
        raise InvalidInput(f"deal: {message}", hint="fix the explicit deal")

    if len(deal.hands) != players:
        bad(f"{plural(len(deal.hands), 'hand')} for {players} players")
    seen: set[int] = set()
    for card in [c for h in deal.hands for c in h] + list(deal.pile):
        if not 0 <= card < deck.size:
            bad(f"card id {card} is not in the deck (0 to {deck.size - 1})")
        if card in seen:
            bad(f"card id {card} is dealt twice")
        seen.add(card)
    if sorted(deal.grid) != sorted(COLOURS):
        bad(f"grid must list the six colours once each, found {list(deal.grid)}")
    if sorted(deal.speed8) != sorted(COLOURS):
        bad(f"speed8 must list the six colours once each, found {list(deal.speed8)}")
    if len(set(deal.powers)) != len(deal.powers) or not set(deal.powers) <= set(variant.powers):
        bad(
            f"powers {list(deal.powers)} must be distinct powers of the variant "
            f"({', '.join(variant.powers) or 'none'})"
        )
