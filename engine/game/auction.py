"""Set-up after the shuffles, the auction (R-AUC-1..8) and the powers (R-AUC-9)."""

from __future__ import annotations

from trackside.engine.game.cards import (
    COLOURS,
    Card,
    bid_value,
    hand_bids,
    lowest_card,
    lowest_price,
)
from trackside.engine.game.decisions import Bid, Decision, KeepPower, SwapPower
from trackside.engine.game.race import RaceSteps
from trackside.engine.game.steps import NOBODY, Next, Step

# Bid decisions by (seat, card or None for a pass, car), shared by every game as
# decisions are immutable.
_BIDS: dict[tuple[int, int | None, str | None], Bid] = {}


def _bid(seat: int, card: int | None, car: str | None) -> Bid:
    bid = _BIDS.get((seat, card, car))
    if bid is None:
        bid = _BIDS[(seat, card, car)] = Bid(seat, card, car)
    return bid


class AuctionSteps(RaceSteps):
    """The steps from set-up to the start of the race, which they hand over to."""

    __slots__ = ()

    # -- set-up ---------------------------------------------------------------
    def _start(self) -> Next:
        grid = ", ".join(self.deal.grid)
        self._say("setup", f"Grid (pole first): {grid}", grid=list(self.deal.grid))
        if self.variant.auction:
            return self._next_car
        return self._deal_cars

    def _deal_cars(self) -> Next:
        """R-VAR beginner: Speed-8 cards (and so cars) dealt equally, rest unowned."""
        each = len(COLOURS) // self.players
        for k, car in enumerate(self.speed8_queue[: each * self.players]):
            seat = k % self.players
            power = self.power_queue[k] if k < len(self.power_queue) else None
            self._award(seat, car, power, None)
            self._say(
                "deal",
                f"{self._seat(seat)} is dealt the {COLOURS[car]} car"
                + (f" with {power}" if power else ""),
                seat=seat,
                car=COLOURS[car],
            )
        for car in self.speed8_queue[each * self.players :]:
            self.out_of_game.append(self.deck.speed8(COLOURS[car]))  # races unowned
        self.speed8_queue = []
        return self._powers

    def _award(self, seat: int, car: int, power: str | None, price: int | None) -> None:
        self.owner[car] = seat
        if price is not None:
            self.prices[seat].append((car, price))
        s8 = self.deck.speed8(COLOURS[car])
        if self.variant.speed8 == "face_up":
            self.face_up[seat].append(s8)
        else:
            self.hands[seat].append(s8)
        if power:
            self.held_powers[seat].append(power)
            if power == "cunning":
                self.cunning_winner = seat

    # -- auction (R-AUC) ------------------------------------------------------
    def _carless(self) -> list[int]:
        has = set(self.owner)
        return [seat for seat in range(self.players) if seat not in has]

    def _next_car(self) -> Next:
        if not self.speed8_queue:
            return self._second_round
        car = self.speed8_queue.pop(0)
        power = self.power_queue.pop(0) if self.power_queue else None
        self.auctioned_car, self.auctioned_power = car, power
        self._say(
            "reveal",
            f"Up for auction: the {COLOURS[car]} car"
            + (f" with {power}" if power else " (no power)"),
            car=COLOURS[car],
            power=power,
        )
        remaining = len(self.speed8_queue) + 1
        carless = self._carless()
        eligible = list(range(self.players))
        if carless and remaining <= len(carless):  # R-AUC-7
            eligible = carless
            if remaining == 1:
                return self._take_last if len(carless) == 1 else self._forced_bids
        options = {seat: self._bid_options(seat, COLOURS[car]) for seat in eligible}
        return self._ask(Step.BID, options, self._resolve_bids)

    def _take_last(self) -> Next:
        """R-AUC-7: the last car goes to the last player without one."""
        (seat,) = self._carless()
        colour = COLOURS[self.auctioned_car]
        price = lowest_price(colour, [self.cards[c] for c in self.hands[seat]])
        self._award(seat, self.auctioned_car, self.auctioned_power, price)
        self._say(
            "auction",
            f"{self._seat(seat)} takes the {colour} car without bidding for "
            f"${price}M (everyone must own a car)",
            seat=seat,
            car=colour,
            price=price,
            reason="last car",
        )
        return self._next_car

    def _forced_bids(self) -> Next:
        """R-AUC-7 ruling: the last car and several players without one: each
        shows their lowest card for it, and those bids compete under R-AUC-3."""
        colour = COLOURS[self.auctioned_car]
        self.collected = {}
        for seat in self._carless():
            hand = self.hands[seat]
            k = lowest_card(colour, [self.cards[c] for c in hand])
            self.collected[seat] = Bid(seat, None if k is None else hand[k])
        return lambda: self._resolve_bids(forced=True)

    def _bid_value(self, seat: int, card: int, colour: str) -> int | None:
        hand = [self.cards[c] for c in self.hands[seat]]
        return bid_value(self.cards[card], colour, hand)

    def _bid_options(self, seat: int, colour: str, car: str | None = None) -> list[Bid]:
        """Cards that bid something, then one pass (R-AUC-2)."""
        hand = self.hands[seat]
        values = hand_bids(colour, [self.cards[c] for c in hand])
        shared = _BIDS
        options = [
            shared.get((seat, c, car)) or _bid(seat, c, car)
            for c, v in zip(hand, values, strict=False)
            if v is not None
        ]
        # A card without the colour passes; the ruling lets a bidder without it pass too.
        if len(options) < len(hand) or not any(self.cards[c].number(colour) for c in hand):
            options.append(_bid(seat, None, None))
        return options

    def _resolve_bids(self, forced: bool = False) -> Next:
        """R-AUC-2/3: the bids revealed and the winner (``forced``: the lowest
        cards shown for the last car under R-AUC-7, not chosen)."""
        colour = COLOURS[self.auctioned_car]
        bids: dict[int, tuple[int, Card]] = {}
        parts = []
        for seat, bid in self._collected(Bid):
            value = None if bid.card is None else self._bid_value(seat, bid.card, colour)
            if bid.card is None or value is None:
                parts.append(f"{self._seat(seat)} passes")
            else:
                card = self.cards[bid.card]
                bids[seat] = (value, card)
                verb = "shows" if forced else "bids"
                parts.append(f"{self._seat(seat)} {verb} {value} with {card}")
        self._say(
            "bids",
            ("Lowest cards shown for the last car: " if forced else "Bids: ") + "; ".join(parts),
            bids={seat: (v, c.id) for seat, (v, c) in bids.items()},
            forced=forced,
        )
        self.collected = {}
        if not bids:
            self.set_aside.append((self.auctioned_car, self.auctioned_power))
            self._say(
                "auction",
                f"Nobody bids on the {colour} car: set aside"
                + (f" with {self.auctioned_power}" if self.auctioned_power else ""),
                car=colour,
                reason="no bids",
            )
            return self._next_car
        winner, reason = self._auction_winner(bids)
        if forced:
            reason = f"last car, {reason}"
        price = bids[winner][0]
        self._award(winner, self.auctioned_car, self.auctioned_power, price)
        self._say(
            "auction",
            f"{self._seat(winner)} wins the {colour} car for ${price}M "
            f"({reason})" + (f" and takes {self.auctioned_power}" if self.auctioned_power else ""),
            seat=winner,
            car=colour,
            price=price,
            reason=reason,
        )
        return self._next_car

    def _auction_winner(self, bids: dict[int, tuple[int, Card]]) -> tuple[int, str]:
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
        winner = tied[self._random().randrange(len(tied))]
        return winner, "tied bid, decided at random"

    def _second_round(self) -> Next:
        """R-AUC-8: each player still without a car, in seat order, may bid on
        one set-aside car; cars passed on again stay unowned."""
        self.auctioned_car, self.auctioned_power = NOBODY, None
        self.second_queue = self._carless() if self.set_aside else []
        return self._next_second

    def _next_second(self) -> Next:
        if not self.second_queue or not self.set_aside:
            for car, _ in self.set_aside:
                self._say(
                    "auction",
                    f"The {COLOURS[car]} car stays unowned",
                    car=COLOURS[car],
                    reason="passed twice",
                )
                self.out_of_game.append(self.deck.speed8(COLOURS[car]))
            self.set_aside = []
            return self._powers
        seat = self.second_queue.pop(0)
        options: list[Decision] = []
        for car, _ in self.set_aside:
            options += [
                option
                for option in self._bid_options(seat, COLOURS[car], COLOURS[car])
                if option.card is not None
            ]
        options.append(_bid(seat, None, None))
        return self._ask(Step.SECOND, {seat: options}, self._next_second)

    def _on_second(self, decision: Bid) -> Next:
        seat = decision.player
        value = None
        if decision.card is not None and decision.car is not None:
            value = self._bid_value(seat, decision.card, decision.car)
        if decision.card is None or decision.car is None or value is None:
            self._say("bids", f"{self._seat(seat)} passes on the set-aside cars", seat=seat)
            return self._next_second
        car = COLOURS.index(decision.car)
        entry = next(e for e in self.set_aside if e[0] == car)
        self.set_aside.remove(entry)
        self._award(seat, car, entry[1], value)
        self._say(
            "auction",
            f"{self._seat(seat)} bids {value} with {self.cards[decision.card]} and takes "
            f"the set-aside {decision.car} car for ${value}M"
            + (f" and {entry[1]}" if entry[1] else ""),
            seat=seat,
            car=decision.car,
            price=value,
            reason="second chance",
        )
        return self._next_second

    # -- powers (R-AUC-9) -----------------------------------------------------
    def _powers(self) -> Next:
        options = {
            seat: [KeepPower(seat, w) for w in self.held_powers[seat]]
            for seat in range(self.players)
            if self.held_powers[seat]
        }
        if not options:
            return self._swap
        return self._ask(Step.KEEP, options, self._resolve_keep)

    def _resolve_keep(self) -> Next:
        for seat, decision in self._collected(KeepPower):
            self.power[seat] = decision.power
            returned = [w for w in self.held_powers[seat] if w != decision.power]
            self._say(
                "power",
                f"{self._seat(seat)} keeps {decision.power}"
                + (f" and returns {', '.join(returned)}" if returned else ""),
                seat=seat,
                power=decision.power,
            )
        self.collected = {}
        return self._swap

    def _swap(self) -> Next:
        seat = self.cunning_winner
        if not self.variant.cunning_swap or seat == NOBODY or self.power[seat] != "cunning":
            return self._private_piles
        kept = set(self.power)
        others = [w for w in self.variant.powers if w not in kept]
        options = [SwapPower(seat, w) for w in ("cunning", *others)]
        return self._ask(Step.SWAP, {seat: options}, self._private_piles)

    def _on_swap(self, decision: SwapPower) -> Next:
        if decision.power != "cunning":
            self.power[decision.player] = decision.power
            self._say(
                "power",
                f"{self._seat(decision.player)} swaps Cunning for {decision.power}",
                seat=decision.player,
                power=decision.power,
            )
        return self._private_piles

    def _private_piles(self) -> Next:
        """R-VAR two players: own speed cards shuffled into a private pile, draw N."""
        if self.variant.hand_mode == "private":
            size = self.variant.hand_size
            for seat in range(self.players):
                pile = self.hands[seat]
                self._random().shuffle(pile)
                self.hands[seat], self.piles[seat] = pile[:size], pile[size:]
        return self._race_start
