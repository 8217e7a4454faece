"""Hidden information: the world as one seat may believe it.

What a seat cannot see: other players' hands, the draw piles, the cards
left out of the game, the order of the Speed-8 and power decks still to
come, the other players' bets and secret answers not yet revealed, and the
game's random source. ``determinized`` builds a copy of a game's state in
which all of these are drawn again, consistently with everything the seat
may see: its own cards, the cards played, the hand and pile sizes, the
Speed-8 cards of owned cars and the cards other players showed when bidding
(bids are revealed and the cards go back to the hand, R-AUC-3). The draw
depends only on that knowledge and on the random source given.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from trackside.engine.game import auction, race
from trackside.engine.game.cards import COLOURS
from trackside.engine.game.decisions import Decision
from trackside.engine.game.events import Event
from trackside.engine.game.state import GameState
from trackside.engine.game.steps import NOBODY, STEP_BID, STEP_CARD, STEP_SECOND


def revealed_cards(log: Sequence[Event]) -> dict[int, set[int]]:
    """Card ids each seat has shown in a bid (from the public log)."""
    shown: dict[int, set[int]] = {}
    for event in log:
        if event.kind == "bids":
            for seat, (_value, card) in event.data.get("bids", {}).items():
                shown.setdefault(int(seat), set()).add(int(card))
    return shown


def determinized(
    state: GameState,
    seat: int,
    rng: random.Random,
    bet_guess: Mapping[int, int] | None = None,
) -> GameState:
    """A copy of ``state`` (not logging) in which everything ``seat`` cannot see
    is drawn from ``rng``, consistently with what it can see. Other players'
    bets already made become ``bet_guess[line]`` (a car code) or a random car;
    their secret answers at a simultaneous step are taken back, and what other
    seats are asked now is asked again from their drawn cards."""
    world = state.copy(log=False)
    world.rng = random.Random(rng.getrandbits(64))
    world.rng_shared = False
    _deal_hidden_cards(state, world, seat, rng)
    _shuffle_decks(world, rng)
    _guess_bets(world, seat, rng, bet_guess or {})
    _ask_others_again(world, seat)
    return world


def _deal_hidden_cards(state: GameState, world: GameState, seat: int, rng: random.Random) -> None:
    """Refill other seats' hands and piles, the common pile and the cards out of
    the game from the cards this seat has not seen, keeping the known ones."""
    size = state.deck.size
    seen = set(state.discard) | set(state.hands[seat]) | set(state.piles[seat])
    for up in state.face_up:
        seen.update(up)
    if state.card is not None:  # the card being resolved, face up
        seen.add(state.card)
    known: dict[int, list[int]] = {}
    # With a common pile, a shown card may have been played and the hand redrawn.
    shown = revealed_cards(state.log) if state.variant.hand_mode != "common" else {}
    for other in range(state.players):
        if other == seat:
            continue
        mine = sorted(
            {size + c for c in range(len(COLOURS)) if state.owner[c] == other}
            | shown.get(other, set())
        )
        keep = [c for c in mine if c not in seen]
        known[other] = keep
        seen.update(keep)
    pool = [c for c in range(size) if c not in seen]  # sorted: independent of the real deal
    rng.shuffle(pool)
    for other, keep in known.items():
        hand_n, pile_n = len(state.hands[other]), len(state.piles[other])
        zone = keep[: hand_n + pile_n]
        need = hand_n + pile_n - len(zone)
        zone += pool[:need]
        del pool[:need]
        rng.shuffle(zone)
        world.hands[other], world.piles[other] = zone[:hand_n], zone[hand_n:]
    common = len(state.pile)
    world.pile = pool[:common]
    del pool[:common]
    world.out_of_game = pool + [c for c in state.out_of_game if c >= size]
    if world.piles[seat]:  # this seat knows its pile's cards, not their order
        rng.shuffle(world.piles[seat])


def _shuffle_decks(world: GameState, rng: random.Random) -> None:
    """The Speed-8 cards and powers still to be revealed, in a new order."""
    rng.shuffle(world.speed8_queue)
    rng.shuffle(world.power_queue)


def _guess_bets(world: GameState, seat: int, rng: random.Random, guess: Mapping[int, int]) -> None:
    for line, bets in enumerate(world.bets):
        for other, car in enumerate(bets):
            if other != seat and car is not None:
                bets[other] = guess.get(line, rng.randrange(len(COLOURS)))


def _ask_others_again(world: GameState, seat: int) -> None:
    """The other seats asked now are asked again: their secret answers at a
    simultaneous step are forgotten (secret until resolved), and options that
    come from their cards (bids, cards to play) are drawn from their new hands."""
    if world.step.simultaneous:
        world.collected = {s: d for s, d in world.collected.items() if s == seat}
    others = [other for other in world.due_seats if other != seat]
    step = world.step
    if others and step in (STEP_BID, STEP_SECOND, STEP_CARD):
        options: dict[int, Sequence[Decision]] = dict(world.options)
        for other in others:
            if step is STEP_CARD:
                options[other] = race.card_options(world, other)
            elif step is STEP_SECOND:
                options[other] = auction.second_options(world, other)
            elif world.auctioned_car != NOBODY:
                options[other] = auction.bid_options(world, other, COLOURS[world.auctioned_car])
        world.options = options
    world.pending = None
