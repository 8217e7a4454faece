"""Determinization: a copy of a game with what one seat cannot see drawn again.

A bot that searches by playing games forward must not read other players'
hands, the draw piles, the cards left out of the game, the order of the
Speed-8 and power decks still to come, the other players' bets or the game's
random source. ``determinize`` builds a copy of the game in which all of
these are replaced by a random draw that agrees with everything the seat may
see: its own cards, the cards played, the hand and pile sizes, the Speed-8
cards of owned cars and the cards other players showed when bidding (bids
are revealed and the cards go back to the hand, R-AUC-3). The draw depends
only on that public knowledge and on ``rng``, never on where the hidden cards
really are.
"""

from __future__ import annotations

import random
from collections.abc import Mapping

from trackside.engine.game import COLOURS, Game
from trackside.engine.game.steps import Step

NOBODY = -1


def revealed_cards(game: Game) -> dict[int, set[int]]:
    """Card ids each seat has shown in a bid (from the public log)."""
    shown: dict[int, set[int]] = {}
    for event in game.log:
        if event.kind == "bids":
            for seat, (_value, card) in event.data.get("bids", {}).items():
                shown.setdefault(int(seat), set()).add(int(card))
    return shown


def determinize(
    game: Game,
    seat: int,
    rng: random.Random,
    bet_guess: Mapping[int, int] | None = None,
) -> Game:
    """A copy of ``game`` (not logging) in which everything ``seat`` cannot see is
    drawn from ``rng``, consistently with what it can see. Other players' bets
    already made become ``bet_guess[line]`` (a car code) or a random car, and
    their secret decisions not yet revealed at a simultaneous step are taken back."""
    world = game.copy(log=False)
    world.rng = random.Random(rng.getrandbits(64))
    world._rng_shared = False
    _deal_hidden_cards(game, world, seat, rng)
    _shuffle_decks(world, rng)
    _guess_bets(world, seat, rng, bet_guess or {})
    _take_back_secrets(world, seat)
    return world


def _deal_hidden_cards(game: Game, world: Game, seat: int, rng: random.Random) -> None:
    """Refill other seats' hands and piles, the common pile and the cards out of
    the game from the cards this seat has not seen, keeping the known ones."""
    size = game.deck.size
    seen = set(game.discard) | set(game.hands[seat]) | set(game.piles[seat])
    for up in game.face_up:
        seen.update(up)
    if game.card is not None:  # the card being resolved, face up
        seen.add(game.card)
    known: dict[int, list[int]] = {}
    # With a common pile, a shown card may have been played and the hand redrawn.
    shown = revealed_cards(game) if game.variant.hand_mode != "common" else {}
    for other in range(game.players):
        if other == seat:
            continue
        mine = sorted(
            {size + c for c in range(len(COLOURS)) if game.owner[c] == other}
            | shown.get(other, set())
        )
        keep = [c for c in mine if c not in seen]
        known[other] = keep
        seen.update(keep)
    pool = [c for c in range(size) if c not in seen]  # sorted: independent of the real deal
    rng.shuffle(pool)
    for other, keep in known.items():
        hand_n, pile_n = len(game.hands[other]), len(game.piles[other])
        zone = keep[: hand_n + pile_n]
        need = hand_n + pile_n - len(zone)
        zone += pool[:need]
        del pool[:need]
        rng.shuffle(zone)
        world.hands[other], world.piles[other] = zone[:hand_n], zone[hand_n:]
    common = len(game.pile)
    world.pile = pool[:common]
    del pool[:common]
    world.out_of_game = pool + [c for c in game.out_of_game if c >= size]
    if world.piles[seat]:  # this seat knows its pile's cards, not their order
        rng.shuffle(world.piles[seat])


def _shuffle_decks(world: Game, rng: random.Random) -> None:
    """The Speed-8 cards and powers still to be revealed, in a new order."""
    rng.shuffle(world.speed8_queue)
    rng.shuffle(world.power_queue)


def _guess_bets(world: Game, seat: int, rng: random.Random, guess: Mapping[int, int]) -> None:
    for line, bets in enumerate(world.bets):
        for other, car in enumerate(bets):
            if other != seat and car is not None:
                bets[other] = guess.get(line, rng.randrange(len(COLOURS)))


def _take_back_secrets(world: Game, seat: int) -> None:
    """At a simultaneous step, forget the other seats' answers (secret until
    resolved) and ask them again, with bid options from their drawn hands."""
    if not world.step.simultaneous:
        return
    world.collected = {s: d for s, d in world.collected.items() if s == seat}
    if world.step is Step.BID and world.auctioned_car != NOBODY:
        colour = COLOURS[world.auctioned_car]
        options = dict(world._options)
        for other in world._due_seats:
            if other != seat:
                options[other] = world._bid_options(other, colour)
        world._options = options
    world._pending = None
