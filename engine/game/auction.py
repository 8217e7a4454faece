"""Set-up after the shuffles, the auction (R-AUC-1..8) and the powers (R-AUC-9).

Plain step functions over the ``GameState``: ``start`` runs first; a secret
bid is collected by ``Game.apply`` and ``resolve_bids`` reveals the bids once
every seat asked has bid; ``on_second`` takes a bid on a set-aside car,
``resolve_keep`` the powers kept, ``on_swap`` the two-player Cunning swap.
The last step hands over to the race (``race.start``).
"""

from __future__ import annotations

from trackside.engine.game import race
from trackside.engine.game.cards import (
    COLOURS,
    Card,
    bid_value,
    hand_bids,
    lowest_card,
    lowest_price,
)
from trackside.engine.game.decisions import Bid, Decision, KeepPower, SwapPower
from trackside.engine.game.state import GameState, Next
from trackside.engine.game.steps import NOBODY, STEP_BID, STEP_SECOND, Step

# Bid decisions by (seat, card or None for a pass, car), shared by every game as
# decisions are immutable.
_BIDS: dict[tuple[int, int | None, str | None], Bid] = {}


def _bid(seat: int, card: int | None, car: str | None) -> Bid:
    bid = _BIDS.get((seat, card, car))
    if bid is None:
        bid = _BIDS[(seat, card, car)] = Bid(seat, card, car)
    return bid


# -- set-up -------------------------------------------------------------------
def start(state: GameState) -> Next:
    """The first step: the grid in the log, then the auction (or the dealt cars)."""
    grid = ", ".join(state.deal.grid)
    state.say("setup", f"Grid (pole first): {grid}", grid=list(state.deal.grid))
    if state.variant.auction:
        return _next_car
    return _deal_cars


def _deal_cars(state: GameState) -> Next:
    """R-VAR beginner: Speed-8 cards (and so cars) dealt equally, rest unowned."""
    each = len(COLOURS) // state.players
    for k, car in enumerate(state.speed8_queue[: each * state.players]):
        seat = k % state.players
        power = state.power_queue[k] if k < len(state.power_queue) else None
        _award(state, seat, car, power, None)
        state.say(
            "deal",
            f"{state.seat_name(seat)} is dealt the {COLOURS[car]} car"
            + (f" with {power}" if power else ""),
            seat=seat,
            car=COLOURS[car],
        )
    for car in state.speed8_queue[each * state.players :]:
        state.out_of_game.append(state.deck.speed8(COLOURS[car]))  # races unowned
    state.speed8_queue = []
    return _powers


def _award(state: GameState, seat: int, car: int, power: str | None, price: int | None) -> None:
    state.owner[car] = seat
    if price is not None:
        state.prices[seat].append((car, price))
    s8 = state.deck.speed8(COLOURS[car])
    if state.variant.speed8 == "face_up":
        state.face_up[seat].append(s8)
    else:
        state.hands[seat].append(s8)
    if power:
        state.held_powers[seat].append(power)
        if power == "cunning":
            state.cunning_winner = seat


# -- auction (R-AUC) ------------------------------------------------------------
def _carless(state: GameState) -> list[int]:
    has = set(state.owner)
    return [seat for seat in range(state.players) if seat not in has]


def _next_car(state: GameState) -> Next:
    if not state.speed8_queue:
        return _second_round
    car = state.speed8_queue.pop(0)
    power = state.power_queue.pop(0) if state.power_queue else None
    state.auctioned_car, state.auctioned_power = car, power
    state.say(
        "reveal",
        f"Up for auction: the {COLOURS[car]} car" + (f" with {power}" if power else " (no power)"),
        car=COLOURS[car],
        power=power,
    )
    remaining = len(state.speed8_queue) + 1
    carless = _carless(state)
    eligible = list(range(state.players))
    if carless and remaining <= len(carless):  # R-AUC-7
        eligible = carless
        if remaining == 1:
            return _take_last if len(carless) == 1 else _forced_bids
    state.ask(STEP_BID, {seat: bid_options(state, seat, COLOURS[car]) for seat in eligible})
    return None


def _take_last(state: GameState) -> Next:
    """R-AUC-7: the last car goes to the last player without one."""
    (seat,) = _carless(state)
    colour = COLOURS[state.auctioned_car]
    price = lowest_price(colour, [state.cards[c] for c in state.hands[seat]])
    _award(state, seat, state.auctioned_car, state.auctioned_power, price)
    state.say(
        "auction",
        f"{state.seat_name(seat)} takes the {colour} car without bidding for "
        f"${price}M (everyone must own a car)",
        seat=seat,
        car=colour,
        price=price,
        reason="last car",
    )
    return _next_car


def _forced_bids(state: GameState) -> Next:
    """R-AUC-7 ruling: the last car and several players without one: each
    shows their lowest card for it, and those bids compete under R-AUC-3."""
    colour = COLOURS[state.auctioned_car]
    state.collected = {}
    for seat in _carless(state):
        hand = state.hands[seat]
        k = lowest_card(colour, [state.cards[c] for c in hand])
        state.collected[seat] = Bid(seat, None if k is None else hand[k])
    return lambda state: resolve_bids(state, forced=True)


def _bid_value(state: GameState, seat: int, card: int, colour: str) -> int | None:
    hand = [state.cards[c] for c in state.hands[seat]]
    return bid_value(state.cards[card], colour, hand)


def bid_options(state: GameState, seat: int, colour: str, car: str | None = None) -> list[Bid]:
    """Cards that bid something for ``colour``, then one pass (R-AUC-2); ``car``
    is the car the bids name (a set-aside car, R-AUC-8), None for the car up."""
    hand = state.hands[seat]
    values = hand_bids(colour, [state.cards[c] for c in hand])
    shared = _BIDS
    options = [
        shared.get((seat, c, car)) or _bid(seat, c, car)
        for c, v in zip(hand, values, strict=False)
        if v is not None
    ]
    # A card without the colour passes; the ruling lets a bidder without it pass too.
    if len(options) < len(hand) or not any(state.cards[c].number(colour) for c in hand):
        options.append(_bid(seat, None, None))
    return options


def bid_legal(state: GameState, decision: Bid) -> bool:
    """A bid not among the options that is legal all the same: a pass played
    with a card that bids nothing (R-AUC-2)."""
    if decision.card is None or decision.card not in state.hands[decision.player]:
        return False
    second = state.step is STEP_SECOND
    if not second and decision.car not in (None, COLOURS[state.auctioned_car]):
        return False
    colour = decision.car if second else COLOURS[state.auctioned_car]
    if colour is None:  # a second-round bid names its car
        return False
    if second and COLOURS.index(colour) not in [c for c, _ in state.set_aside]:
        return False
    return (
        _bid_value(state, decision.player, decision.card, colour) is None
        and Bid(decision.player, None) in state.options[decision.player]
    )


def resolve_bids(state: GameState, forced: bool = False) -> Next:
    """R-AUC-2/3: the bids revealed and the winner (``forced``: the lowest
    cards shown for the last car under R-AUC-7, not chosen)."""
    colour = COLOURS[state.auctioned_car]
    bids: dict[int, tuple[int, Card]] = {}
    parts = []
    for seat, bid in state.collected_of(Bid):
        value = None if bid.card is None else _bid_value(state, seat, bid.card, colour)
        if bid.card is None or value is None:
            parts.append(f"{state.seat_name(seat)} passes")
        else:
            card = state.cards[bid.card]
            bids[seat] = (value, card)
            verb = "shows" if forced else "bids"
            parts.append(f"{state.seat_name(seat)} {verb} {value} with {card}")
    state.say(
        "bids",
        ("Lowest cards shown for the last car: " if forced else "Bids: ") + "; ".join(parts),
        bids={seat: (v, c.id) for seat, (v, c) in bids.items()},
        forced=forced,
    )
    state.collected = {}
    if not bids:
        state.set_aside.append((state.auctioned_car, state.auctioned_power))
        state.say(
            "auction",
            f"Nobody bids on the {colour} car: set aside"
            + (f" with {state.auctioned_power}" if state.auctioned_power else ""),
            car=colour,
            reason="no bids",
        )
        return _next_car
    winner, reason = _auction_winner(state, bids)
    if forced:
        reason = f"last car, {reason}"
    price = bids[winner][0]
    _award(state, winner, state.auctioned_car, state.auctioned_power, price)
    state.say(
        "auction",
        f"{state.seat_name(winner)} wins the {colour} car for ${price}M "
        f"({reason})" + (f" and takes {state.auctioned_power}" if state.auctioned_power else ""),
        seat=winner,
        car=colour,
        price=price,
        reason=reason,
    )
    return _next_car


def _auction_winner(state: GameState, bids: dict[int, tuple[int, Card]]) -> tuple[int, str]:
    """R-AUC-3: highest bid; more rows; no WILD row; then the seeded random source."""
    top = max(v for v, _ in bids.values())
    tied = [seat for seat, (v, _) in bids.items() if v == top]
    if len(tied) == 1:
        return tied[0], "highest bid"
    most = max(len(bids[seat][1].rows) for seat in tied)
    tied = [seat for seat in tied if len(bids[seat][1].rows) == most]
    if len(tied) == 1:
        return tied[0], "tied bid, card with more rows"
    plain = [seat for seat in tied if not bids[seat][1].wild_rows]
    if len(plain) == 1:
        return plain[0], "tied bid, card without a WILD row"
    if plain:
        tied = plain
    tied.sort()
    winner = tied[state.random().randrange(len(tied))]
    return winner, "tied bid, decided at random"


def _second_round(state: GameState) -> Next:
    """R-AUC-8: each player still without a car, in seat order, may bid on
    one set-aside car; cars passed on again stay unowned."""
    state.auctioned_car, state.auctioned_power = NOBODY, None
    state.second_queue = _carless(state) if state.set_aside else []
    return _next_second


def _next_second(state: GameState) -> Next:
    if not state.second_queue or not state.set_aside:
        for car, _ in state.set_aside:
            state.say(
                "auction",
                f"The {COLOURS[car]} car stays unowned",
                car=COLOURS[car],
                reason="passed twice",
            )
            state.out_of_game.append(state.deck.speed8(COLOURS[car]))
        state.set_aside = []
        return _powers
    seat = state.second_queue.pop(0)
    state.ask(STEP_SECOND, {seat: second_options(state, seat)})
    return None


def second_options(state: GameState, seat: int) -> list[Decision]:
    """R-AUC-8: the bids of ``seat`` on each set-aside car, then a pass."""
    options: list[Decision] = []
    for car, _ in state.set_aside:
        options += [
            option
            for option in bid_options(state, seat, COLOURS[car], COLOURS[car])
            if option.card is not None
        ]
    options.append(_bid(seat, None, None))
    return options


def on_second(state: GameState, decision: Bid) -> Next:
    """A bid on a set-aside car, or a pass (R-AUC-8)."""
    seat = decision.player
    value = None
    if decision.card is not None and decision.car is not None:
        value = _bid_value(state, seat, decision.card, decision.car)
    if decision.card is None or decision.car is None or value is None:
        state.say("bids", f"{state.seat_name(seat)} passes on the set-aside cars", seat=seat)
        return _next_second
    car = COLOURS.index(decision.car)
    entry = next(e for e in state.set_aside if e[0] == car)
    state.set_aside.remove(entry)
    _award(state, seat, car, entry[1], value)
    state.say(
        "auction",
        f"{state.seat_name(seat)} bids {value} with {state.cards[decision.card]} and takes "
        f"the set-aside {decision.car} car for ${value}M"
        + (f" and {entry[1]}" if entry[1] else ""),
        seat=seat,
        car=decision.car,
        price=value,
        reason="second chance",
    )
    return _next_second


# -- powers (R-AUC-9) -----------------------------------------------------------
def _powers(state: GameState) -> Next:
    options = {
        seat: [KeepPower(seat, w) for w in state.held_powers[seat]]
        for seat in range(state.players)
        if state.held_powers[seat]
    }
    if not options:
        return _swap
    state.ask(Step.KEEP, options)
    return None


def resolve_keep(state: GameState) -> Next:
    """R-AUC-9: the powers kept, revealed together."""
    for seat, decision in state.collected_of(KeepPower):
        state.power[seat] = decision.power
        returned = [w for w in state.held_powers[seat] if w != decision.power]
        state.say(
            "power",
            f"{state.seat_name(seat)} keeps {decision.power}"
            + (f" and returns {', '.join(returned)}" if returned else ""),
            seat=seat,
            power=decision.power,
        )
    state.collected = {}
    return _swap


def _swap(state: GameState) -> Next:
    seat = state.cunning_winner
    if not state.variant.cunning_swap or seat == NOBODY or state.power[seat] != "cunning":
        return _private_piles
    kept = set(state.power)
    others = [w for w in state.variant.powers if w not in kept]
    state.ask(Step.SWAP, {seat: [SwapPower(seat, w) for w in ("cunning", *others)]})
    return None


def on_swap(state: GameState, decision: SwapPower) -> Next:
    """R-VAR two players: Cunning kept, or swapped for a power nobody kept."""
    if decision.power != "cunning":
        state.power[decision.player] = decision.power
        state.say(
            "power",
            f"{state.seat_name(decision.player)} swaps Cunning for {decision.power}",
            seat=decision.player,
            power=decision.power,
        )
    return _private_piles


def _private_piles(state: GameState) -> Next:
    """R-VAR two players: own speed cards shuffled into a private pile, draw N."""
    if state.variant.hand_mode == "private":
        size = state.variant.hand_size
        for seat in range(state.players):
            pile = state.hands[seat]
            state.random().shuffle(pile)
            state.hands[seat], state.piles[seat] = pile[:size], pile[size:]
    return race.start
