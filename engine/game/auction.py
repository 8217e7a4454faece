"""Set-up after the shuffles, the auction (R-AUC-1..8) and the powers (R-AUC-9)."""

from __future__ import annotations

from trackside.engine.game.cards import COLOURS, Card, bid_value, hand_bids, lowest_price
from trackside.engine.game.decisions import Bid, Decision, KeepPower, SwapPower
from trackside.engine.game.race import RaceSteps
from trackside.engine.game.steps import NOBODY, Next, Step


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
            p = k % self.players
            power = self.power_queue[k] if k < len(self.power_queue) else None
            self._award(p, car, power, None)
            self._say(
                "deal",
                f"{self._seat(p)} is dealt the {COLOURS[car]} car"
                + (f" with {power}" if power else ""),
                seat=p,
                car=COLOURS[car],
            )
        for car in self.speed8_queue[each * self.players :]:
            self.out_of_game.append(self.deck.speed8(COLOURS[car]))  # races unowned
        self.speed8_queue = []
        return self._powers

    def _award(self, p: int, car: int, power: str | None, price: int | None) -> None:
        self.owner[car] = p
        if price is not None:
            self.prices[p].append((car, price))
        s8 = self.deck.speed8(COLOURS[car])
        if self.variant.speed8 == "face_up":
            self.face_up[p].append(s8)
        else:
            self.hands[p].append(s8)
        if power:
            self.held_powers[p].append(power)
            if power == "cunning":
                self.cunning_winner = p

    # -- auction (R-AUC) ------------------------------------------------------
    def _carless(self) -> list[int]:
        has = set(self.owner)
        return [p for p in range(self.players) if p not in has]

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
            if remaining == 1 and len(carless) == 1:
                return self._take_last
        opts = {p: self._bid_options(p, COLOURS[car]) for p in eligible}
        return self._ask(Step.BID, opts, self._resolve_bids)

    def _take_last(self) -> Next:
        """R-AUC-7: the last car goes to the last player without one."""
        (p,) = self._carless()
        colour = COLOURS[self.auctioned_car]
        price = lowest_price(colour, [self.cards[c] for c in self.hands[p]])
        self._award(p, self.auctioned_car, self.auctioned_power, price)
        self._say(
            "auction",
            f"{self._seat(p)} takes the {colour} car without bidding for "
            f"${price}M (everyone must own a car)",
            seat=p,
            car=colour,
            price=price,
            reason="last car",
        )
        return self._next_car

    def _bid_value(self, p: int, card: int, colour: str) -> int | None:
        hand = [self.cards[c] for c in self.hands[p]]
        return bid_value(self.cards[card], colour, hand)

    def _bid_options(self, p: int, colour: str, car: str | None = None) -> list[Decision]:
        """Cards that bid something, then one pass (R-AUC-2)."""
        hand = self.hands[p]
        values = hand_bids(colour, [self.cards[c] for c in hand])
        opts: list[Decision] = [
            Bid(p, c, car) for c, v in zip(hand, values, strict=False) if v is not None
        ]
        # A card without the colour passes; the ruling lets a bidder without it pass too.
        if len(opts) < len(hand) or not any(self.cards[c].number(colour) for c in hand):
            opts.append(Bid(p, None))
        return opts

    def _resolve_bids(self) -> Next:
        colour = COLOURS[self.auctioned_car]
        bids: dict[int, tuple[int, Card]] = {}
        parts = []
        for p in sorted(self.collected):
            d = self.collected[p]
            value = None if d.card is None else self._bid_value(p, d.card, colour)
            if value is None:
                parts.append(f"{self._seat(p)} passes")
            else:
                card = self.cards[d.card]
                bids[p] = (value, card)
                parts.append(f"{self._seat(p)} bids {value} with {card}")
        self._say(
            "bids", "Bids: " + "; ".join(parts), bids={p: (v, c.id) for p, (v, c) in bids.items()}
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
        tied = [p for p, (v, _) in bids.items() if v == top]
        if len(tied) == 1:
            return tied[0], "highest bid"
        most = max(len(bids[p][1].rows) for p in tied)
        tied = [p for p in tied if len(bids[p][1].rows) == most]
        if len(tied) == 1:
            return tied[0], "tied bid, card with more rows"
        plain = [p for p in tied if not bids[p][1].wild_rows]
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
        p = self.second_queue.pop(0)
        opts: list[Decision] = []
        for car, _ in self.set_aside:
            opts += [
                o for o in self._bid_options(p, COLOURS[car], COLOURS[car]) if o.card is not None
            ]
        opts.append(Bid(p, None))
        return self._ask(Step.SECOND, {p: opts}, self._next_second)

    def _on_second(self, d: Bid) -> Next:
        p = d.player
        value = None
        if d.card is not None and d.car is not None:
            value = self._bid_value(p, d.card, d.car)
        if value is None:
            self._say("bids", f"{self._seat(p)} passes on the set-aside cars", seat=p)
            return self._next_second
        car = COLOURS.index(d.car)
        entry = next(e for e in self.set_aside if e[0] == car)
        self.set_aside.remove(entry)
        self._award(p, car, entry[1], value)
        self._say(
            "auction",
            f"{self._seat(p)} bids {value} with {self.cards[d.card]} and takes "
            f"the set-aside {d.car} car for ${value}M" + (f" and {entry[1]}" if entry[1] else ""),
            seat=p,
            car=d.car,
            price=value,
            reason="second chance",
        )
        return self._next_second

    # -- powers (R-AUC-9) -----------------------------------------------------
    def _powers(self) -> Next:
        opts = {
            p: [KeepPower(p, w) for w in self.held_powers[p]]
            for p in range(self.players)
            if self.held_powers[p]
        }
        if not opts:
            return self._swap
        return self._ask(Step.KEEP, opts, self._resolve_keep)

    def _resolve_keep(self) -> Next:
        for p in sorted(self.collected):
            d = self.collected[p]
            self.power[p] = d.power
            returned = [w for w in self.held_powers[p] if w != d.power]
            self._say(
                "power",
                f"{self._seat(p)} keeps {d.power}"
                + (f" and returns {', '.join(returned)}" if returned else ""),
                seat=p,
                power=d.power,
            )
        self.collected = {}
        return self._swap

    def _swap(self) -> Next:
        p = self.cunning_winner
        if not self.variant.cunning_swap or p == NOBODY or self.power[p] != "cunning":
            return self._private_piles
        kept = set(self.power)
        opts = [SwapPower(p, "cunning")] + [
            SwapPower(p, w) for w in self.variant.powers if w not in kept
        ]
        return self._ask(Step.SWAP, {p: opts}, self._private_piles)

    def _on_swap(self, d: SwapPower) -> Next:
        if d.power != "cunning":
            self.power[d.player] = d.power
            self._say(
                "power",
                f"{self._seat(d.player)} swaps Cunning for {d.power}",
                seat=d.player,
                power=d.power,
            )
        return self._private_piles

    def _private_piles(self) -> Next:
        """R-VAR two players: own speed cards shuffled into a private pile, draw N."""
        if self.variant.hand_mode == "private":
            size = self.variant.hand_size
            for p in range(self.players):
                pile = self.hands[p]
                self._random().shuffle(pile)
                self.hands[p], self.piles[p] = pile[:size], pile[size:]
        return self._race_start
