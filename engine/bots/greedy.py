"""The greedy bot: one-step heuristics from precomputed tables, no search.

It values a car by the spaces its cards give it and the money it can earn,
plays the card whose rows help its own cars most and the leading rivals
least, orders (Tricky), skips (Strategic) and names WILD colours to the same
end, picks paths that gain most for its cars and jam rivals (a rival's car
left short, or a space taken in front of a rival; between equally good paths
it takes the one that a mix of where its spaces and the cars lie ranks first,
so that how a file lists its spaces changes no game), and bets on the car
whose bet is worth most on that line: each car's chance of each paying place,
from its distance to the finish over the spaces still to come for it, times
the line's payouts.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from functools import cache
from itertools import pairwise
from math import exp, factorial
from operator import mul

from trackside.engine.bots.base import OFF, Request, SeatView
from trackside.engine.bots.tables import DeckTables, TrackTables, deck_tables, track_tables
from trackside.engine.game import (
    COLOURS,
    Bet,
    Bid,
    Board,
    Decision,
    KeepPower,
    Order,
    Path,
    PlayCard,
    Skip,
    SwapPower,
    Wild,
)
from trackside.engine.game.cards import WILD_CODE, bid_value, hand_bids

CODE = {c: i for i, c in enumerate(COLOURS)}
FINISH_BONUS = 3.0  # a row that finishes a car is worth more than its spaces
OPEN = 99  # reach of a car with free road at least two steps ahead
BID_BASE, BID_SLOPE = 0.15, 0.2  # a car's worth: mean payout x (base + slope x strength)
JAM_WEIGHT = 0.8  # a forward space of a rival taken by the moved car
HAND_EXTRA = 0.25  # own cards count a little extra: sure to be played, by this seat
PACE_SCALE = 0.1  # spread of the place odds, as a share of the mean pace
PRUNE = 6.0  # cars slower than the fastest by this many scales get no odds
BOXED = 2.0  # own car ending with every forward space taken (weighed for Aggressive)
OWN, UNOWNED, RIVAL, LEADER = 1.0, -0.15, -0.3, -0.5
NOT_LIFTED = [False] * 7  # ``_Race.lifted`` when no row goes further
# What the race facts depend on: board, car spaces, owners, this seat's bets.
RaceKey = tuple[Board, tuple[int, ...], tuple[int, ...], tuple[int | None, ...]]
# Laps followed from the log: board, events read, laps per car, last space per car.
LapState = tuple[Board, int, list[int], list[int]]


class _Race:
    """The facts of one race decision, computed once per request."""

    __slots__ = (
        "_movable",
        "_orders",
        "_values",
        "aggressive",
        "ahead",
        "finish",
        "left",
        "lifted",
        "my_seat",
        "occupied",
        "owner",
        "power",
        "reach",
        "spaces",
        "tables",
        "weights",
    )

    def __init__(
        self, bot: GreedyBot, view: SeatView, request: Request, tables: TrackTables, key: RaceKey
    ):
        self.tables = tables
        _, spaces, owner, bets = key
        self.spaces, self.owner = spaces, owner
        self.my_seat = my_seat = request.seat
        self.power = view.powers[my_seat]
        self.aggressive = aggressive = self.power == "aggressive"
        # R-POW-AGG: per printed top row (colour code, WILD last), whether it goes a
        # space further: the top row of an own car.
        self.lifted = [o == my_seat for o in owner] + [False] if aggressive else NOT_LIFTED
        self.occupied = occupied = set(spaces)
        occupied.discard(OFF)
        self.finish = finish = tables.board.use_finish
        laps = None if finish else bot.laps(view, request, tables)
        finished = view.finished_codes
        forward, togo = tables.forward, tables.togo
        # reach[c]: how far the car can get now: 0 or 1 when boxed in within two
        # steps, else OPEN; left[c]: steps to the finish.
        reach = [0] * 6
        left = [0] * 6
        ahead = [0.0] * 6
        running = []
        for c in range(6):
            s = spaces[c]
            if s == OFF:
                ahead[c] = 1000.0 - (finished.index(c) if c in finished else 0)
                continue
            running.append(c)
            r = 0
            for b in forward[s]:
                if b not in occupied:
                    r = 1
                    if not occupied.issuperset(forward[b]):  # a free space beyond
                        r = OPEN
                        break
            reach[c] = r
            left[c] = togo[s]
            ahead[c] = (
                -float(togo[s])
                if laps is None
                else (laps[c] + tables.progress[s] / tables.length) * tables.lap_steps
            )
        self.reach, self.left, self.ahead = reach, left, ahead
        running.sort(key=ahead.__getitem__, reverse=True)
        w = [0.0] * 6
        last = max(1, len(running) - 1)
        for rank, c in enumerate(running):
            o = owner[c]
            w[c] = (
                OWN
                if o == my_seat
                else (UNOWNED if o == OFF else RIVAL) + LEADER * (1.0 - rank / last)
            )
        for k in bets:
            if k is not None and owner[k] != my_seat:
                w[k] += 0.25
        self.weights = w
        self._values: list[list[float] | None] = [None] * 16
        self._orders: list[list[int] | None] = [None] * 16
        self._movable = [c for c in running if reach[c]]  # the cars ``values`` can move

    def values(self, n: int) -> list[float]:
        """Per car: its weight times what it would gain moving ``n`` now (memoised)."""
        v = self._values[n]
        if v is None:
            w, reach, left, finish = self.weights, self.reach, self.left, self.finish
            v = [0.0] * 6
            for c in self._movable:
                r = reach[c]
                m = n if n <= r else r
                to_go = left[c]
                v[c] = w[c] * (to_go + FINISH_BONUS if finish and m >= to_go else m)
            self._values[n] = v
        return v

    def order(self, n: int) -> list[int]:
        """The cars by ``values(n)``, highest first, the lower code first among
        equal values (memoised)."""
        o = self._orders[n]
        if o is None:
            v = self._values[n] or self.values(n)
            o = self._orders[n] = sorted(range(6), key=v.__getitem__, reverse=True)
        return o

    def card_values(self, cards: Iterable[int], deck: DeckTables) -> list[float]:
        """What playing each of ``cards`` is worth to this seat now: each colour
        row's car weight times its gain, WILD rows on the best cars not on the
        card, the worst row dropped with Strategic."""
        w, reach, left, finish = self.weights, self.reach, self.left, self.finish
        lifted, top, colour_rows, wild_desc = (
            self.lifted,
            deck.top,
            deck.colour_rows,
            deck.wild_desc,
        )
        memo, orders = self._values, self._orders
        strategic = self.power == "strategic"
        unpredictable = self.power == "unpredictable"
        out = []
        for card in cards:
            total, worst = 0.0, 0.0
            lift = lifted[top[card]]  # the top row is the first colour row
            for c, n in colour_rows[card]:
                if lift:
                    n += 1  # R-POW-AGG: the printed top row of an own car
                    lift = False
                # values(n)[c], worked out for this car only: most numbers come up
                # on colour rows only, where the other cars' values are not needed.
                r = reach[c]
                if r:
                    m = n if n <= r else r
                    to_go = left[c]
                    v = w[c] * (to_go + FINISH_BONUS if finish and m >= to_go else m)
                else:
                    v = 0.0
                total += v
                if v < worst:
                    worst = v
            wild_ns = wild_desc[card]
            if wild_ns:
                used = 0 if unpredictable else deck.mask[card]  # R-RACE-4, R-POW-UNP
                for n in wild_ns:  # each on the best car not used yet
                    vs = memo[n] or self.values(n)
                    for c in orders[n] or self.order(n):
                        if not used >> c & 1:
                            total += vs[c]
                            used |= 1 << c
                            break
                    else:
                        break
            if strategic:  # R-POW-STR: the worst row goes
                total -= worst
            out.append(total)
        return out

    def gain(self, c: int, n: int) -> float:
        """Spaces car ``c`` would gain moving ``n`` now (0 if finished or blocked)."""
        m = n if n <= self.reach[c] else self.reach[c]
        if m and self.finish and m >= self.left[c]:
            return self.left[c] + FINISH_BONUS
        return float(m)


@cache
def _never_more_below(payout: tuple[int, ...]) -> bool:
    """True when no place of ``payout`` pays more than the place above it."""
    return all(a >= b for a, b in pairwise(payout))


def _column_sums(rows: Iterable[tuple[int, ...]]) -> list[int]:
    """Spaces per colour, then WILD, summed over card rows of ``DeckTables.spaces7``."""
    return [sum(col) for col in zip(*rows, strict=True)] or [0] * 7


def place_odds(paces: list[float | None], slots: int) -> list[list[float]]:
    """Per car, its chance of each of the next ``slots`` places (at most 3) among
    the running cars (pace not None; finished cars get 0), by a Plackett-Luce
    draw: weight exp(-pace / scale), so that a car needing less of what is still
    to come is likelier to come first."""
    odds = [[0.0] * slots for _ in paces]
    running = [c for c, p in enumerate(paces) if p is not None]
    if not running or slots <= 0:
        return odds
    pace = [paces[c] or 0.0 for c in running]
    scale = PACE_SCALE * max(0.05, sum(pace) / len(pace))
    fastest = min(pace)
    # Cars far slower than the slots-th fastest have a few in 1000 chances of a
    # place asked: left at 0.
    cut = sorted(pace)[min(slots, len(pace)) - 1] + PRUNE * scale
    running = [c for c, p in zip(running, pace, strict=True) if p <= cut]
    w = [exp((fastest - p) / scale) for p in pace if p <= cut]  # the fastest weighs 1
    total = sum(w)
    n = len(w)
    first = [x / total for x in w]
    rest = [total - x for x in w]
    # P(b 2nd) = w_b * sum over a != b of P(a 1st) / (total - w_a); P(c 3rd) the
    # same over pairs a, b, summed once for all and corrected for the pairs with c.
    ratio = [first[a] / rest[a] if rest[a] > 0 else 0.0 for a in range(n)]
    every = sum(ratio)
    pairs, with_c = 0.0, [0.0] * n
    if slots >= 3:
        for a in range(n):
            for b in range(n):
                left = rest[a] - w[b]
                if b != a and left > 0:
                    k = ratio[a] * w[b] / left
                    pairs += k
                    with_c[a] += k
                    with_c[b] += k
    for i, c in enumerate(running):
        row = odds[c]
        row[0] = first[i]
        if slots >= 2:
            row[1] = w[i] * (every - ratio[i])
        if slots >= 3:
            row[2] = w[i] * (pairs - with_c[i])
    return odds


def bet_values(
    payout: tuple[int, ...], finished: tuple[int, ...], paces: list[float | None]
) -> list[float]:
    """Expected payout of a bet on each car (R-BET-5): a finished car pays by its
    place; the places still open go by ``place_odds``."""
    values = [0.0] * len(paces)
    for place, c in enumerate(finished):
        if place < len(payout):
            values[c] = float(payout[place])
    base = len(finished)
    slots = min(3, len(payout) - base)
    if slots <= 0:
        return values
    odds = place_odds(paces, slots)
    pays = payout[base : base + slots]
    for c, p in enumerate(paces):
        if p is not None:
            values[c] = sum(map(mul, odds[c], pays))
    return values


FNV_START, FNV_PRIME, MASK64 = 0xCBF29CE484222325, 0x100000001B3, (1 << 64) - 1


def _mixed(start: int, values: Iterable[int]) -> int:
    """``values`` mixed into ``start`` (FNV-1a over whole numbers): the same on
    every machine, unlike ``hash``."""
    h = start
    for v in values:
        h = ((h ^ v) * FNV_PRIME) & MASK64
    return h


class GreedyBot:
    """Fast heuristic player; deterministic for a seed (used only for ties)."""

    kind = "greedy"

    def __init__(self, seed: int | str = 0):
        self.seed = seed
        self._rng: random.Random | None = None
        self._lap_state: LapState | None = None
        self._race: tuple[RaceKey, _Race] | None = None  # of the last race decision

    @property
    def rng(self) -> random.Random:
        """The bot's random source, made on first use (seeding takes longer than
        most decisions, and most games never draw from it)."""
        if self._rng is None:
            self._rng = random.Random(self.seed)
        return self._rng

    def choose(self, view: SeatView, request: Request) -> Decision:
        """The option the heuristics like best."""
        options = request.options
        if len(options) == 1:
            return options[0]
        kind = request.kind
        if kind == "path":
            return self._path(view, request)
        if kind == "bid":
            return self._bid(view, request)
        if kind in ("keep_power", "swap_power"):
            return self._power(view, request)
        if kind == "bet":
            return self._bet(view, request)
        race = self._race_facts(view, request)
        if kind == "play_card":
            return self._card(race, request, deck_tables(request.cards))
        if kind == "order":
            return self._order(race, request, deck_tables(request.cards))
        if kind == "skip":
            return self._skip(race, request, deck_tables(request.cards))
        if kind == "wild":
            return self._wild(race, request, deck_tables(request.cards))
        return options[0]

    def _race_facts(self, view: SeatView, request: Request) -> _Race:
        """The race facts, reused while cars, owners and bets stay the same
        (a card's first path follows the card choice with nothing moved)."""
        key: RaceKey = (request.board, view.spaces, view.owner_codes, view.bet_codes)
        if self._race is not None and self._race[0] == key:
            return self._race[1]
        race = _Race(self, view, request, track_tables(request.board), key)
        self._race = (key, race)
        return race

    # -- auction --------------------------------------------------------------
    def _hand_spaces(self, colour: int, hand: list[int], deck: DeckTables) -> float:
        total = 0.0
        spaces_for = deck.spaces_for  # a WILD row counts a quarter: it may go to this car
        for card in hand:
            total += spaces_for[card][colour]
        return total

    def _car_value(
        self,
        colour: int,
        power: str | None,
        view: SeatView,
        request: Request,
        hand: list[int] | None = None,
    ) -> float:
        """Rough money a car is worth to this seat: payout by hand strength, plus
        power (``hand``: the seat's hand, when the caller has it already)."""
        deck = deck_tables(request.cards)
        if hand is None:
            hand = view.hand
        expected = deck.colour_total[colour] * len(hand) / max(1, deck.size)
        strength = self._hand_spaces(colour, hand, deck) / max(1.0, expected)
        payout = request.variant.race_payout
        mean_pay = sum(payout[:6]) / 6
        value = mean_pay * (BID_BASE + BID_SLOPE * min(strength, 2.0))
        if power:
            mine = [c for c, o in enumerate(view.owner_codes) if o == request.seat] + [colour]
            value += 0.5 * self._power_value(power, mine, hand, deck, request)
        return value

    def _bid(self, view: SeatView, request: Request) -> Bid:
        seat, pending = request.seat, request.pending
        hand = view.hand
        cards = request.cards
        hand_cards = [cards[c] for c in hand]
        owners = view.owner_codes
        has_car = seat in owners
        options = request.options_of(Bid)
        if pending.set_aside:  # R-AUC-8 second chance: the best car at the lowest price
            chosen, chosen_score = None, -99.0
            for o in options:
                if o.card is None or o.car is None:
                    continue
                price = bid_value(cards[o.card], o.car, hand_cards) or 0
                score = self._car_value(CODE[o.car], None, view, request, hand) - price
                if score > chosen_score:
                    chosen, chosen_score = o, score
            return (
                chosen
                if chosen is not None and chosen_score > -2
                else next(o for o in options if o.card is None)
            )
        colour = pending.car
        if colour is None:  # not an auction: take what is offered
            return options[0]
        target = self._car_value(CODE[colour], pending.power, view, request, hand)
        unsold = owners.count(OFF)
        carless = sum(1 for p in range(request.players) if p not in owners)
        if not has_car and unsold <= carless + 1:  # R-AUC-7: a car is needed to earn
            target += 3.0
        elif has_car and owners.count(seat) >= 2:
            target -= 1.5
        best: Bid | None = None
        best_key: tuple[int, int, int] | None = None
        cheapest: tuple[int, Bid] | None = None
        bids = dict(zip(hand, hand_bids(colour, hand_cards), strict=True))  # bid_value per card
        for o in options:
            if o.card is None:
                continue
            card = cards[o.card]
            value = bids[o.card] if o.card in bids else bid_value(card, colour, hand_cards)
            if value is None:
                continue
            if cheapest is None or value < cheapest[0]:
                cheapest = (value, o)
            if value <= target:
                key = (value, len(card.rows), -card.wild_rows)  # R-AUC-3 tie-breaks
                if best_key is None or key > best_key:
                    best, best_key = o, key
        if best is not None:
            return best
        passes = [o for o in options if o.card is None]
        if passes:
            return passes[0]
        return cheapest[1] if cheapest else options[0]

    def _power_value(
        self, power: str, mine: list[int], hand: list[int], deck: DeckTables, request: Request
    ) -> float:
        """How much a power suits these cars and this hand (a few $M at most)."""
        if power == "aggressive":
            tops = sum(1 for c in hand if deck.rows[c] and deck.rows[c][0][0] in mine)
            return 0.6 * tops * request.variant.aggressive_bonus
        if power == "determined":
            rows = sum(1 for c in hand for k, _ in deck.rows[c] if k in mine)
            return (
                0.25
                * rows
                * track_tables(request.board).rect_share
                * request.variant.determined_bonus
            )
        if power == "tricky":
            return 0.2 * sum(1 for c in hand if len(deck.rows[c]) > 2)
        if power == "strategic":
            return 0.15 * sum(1 for c in hand if len(deck.rows[c]) > 1)
        if power == "unpredictable":
            return 0.4 * sum(deck.wilds[c] for c in hand)
        if power == "cunning":
            rows = sum(1 for c in hand for k, _ in deck.rows[c] if k in mine)
            return 0.1 * rows
        return 0.0

    def _power(self, view: SeatView, request: Request) -> Decision:
        deck = deck_tables(request.cards)
        hand = view.hand + view.face_up
        mine = [c for c, o in enumerate(view.owner_codes) if o == request.seat]
        options = [o for o in request.options if isinstance(o, (KeepPower, SwapPower))]
        return max(options, key=lambda o: self._power_value(o.power, mine, hand, deck, request))

    # -- betting (R-BET) --------------------------------------------------------
    def _bet(self, view: SeatView, request: Request) -> Decision:
        """R-BET-2/5: the car whose bet is worth most on this line: each car's chance
        of each paying place (``place_odds``) times the line's payouts."""
        options = request.options_of(Bet)
        if not request.board.use_finish:  # long distance: the car furthest ahead
            return self._bet_ahead(view, request, options)
        # The line bet now is the first this seat has no bet on (R-BET-3: in line order).
        line = next((k for k, b in enumerate(view.bet_codes) if b is None), 0)
        table = request.variant.bet_payouts
        payout = table[line] if line < len(table) else table[-1]
        finished, paces = view.finished_codes, self._paces(view, request)
        if _never_more_below(tuple(payout)):
            # A table that pays less for lower places: the best expected value is
            # the winner if one has finished, else the car likeliest to win (the
            # odds keep the order of the paces), so the odds need not be worked out.
            if finished:
                return next(o for o in options if CODE[o.car] == finished[0])
            fastest = min((p, c) for c, p in enumerate(paces) if p is not None)[1]
            return next(o for o in options if CODE[o.car] == fastest)
        values = bet_values(payout, finished, paces)
        best, best_value = options[0], -1.0
        for o in options:
            v = values[CODE[o.car]]
            if v > best_value:
                best, best_value = o, v
        return best

    def _paces(self, view: SeatView, request: Request) -> list[float | None]:
        """Per car: its steps to the finish over the spaces still to come for it
        (cards not yet played, this seat's hand counted as more certain, a share
        of the WILD rows); None once finished. Smaller is faster."""
        tables = track_tables(request.board)
        deck = deck_tables(request.cards)
        spaces7 = deck.spaces7
        # Played spaces, Speed-8 cards included: an owned car's Speed-8 card counts
        # as still to come until it is played (an unowned car's is out of the game).
        played = _column_sums(map(spaces7.__getitem__, view.discard))
        own = _column_sums(map(spaces7.__getitem__, view.hand))
        owners, total = view.owner_codes, deck.colour_total
        share = max(0, deck.wild_total - played[6]) / 6
        togo, spaces = tables.togo, view.spaces
        paces: list[float | None] = []
        for c in range(6):
            s = spaces[c]
            if s == OFF:
                paces.append(None)
                continue
            held = 8 if owners[c] != OFF else 0
            supply = total[c] + held - played[c] + HAND_EXTRA * own[c] + share
            paces.append(togo[s] / (supply if supply > 1.0 else 1.0))
        return paces

    def _bet_ahead(self, view: SeatView, request: Request, options: list[Bet]) -> Decision:
        """Long distance: the car furthest ahead, counting the cards still to come."""
        tables = track_tables(request.board)
        deck = deck_tables(request.cards)
        spaces = view.spaces
        played = [0] * 6
        for card in view.discard:
            for c, n in deck.rows[card]:
                if c >= 0:
                    played[c] += n
        laps = self.laps(view, request, tables)
        best, best_score = options[0], None
        for o in options:
            c = CODE[o.car]
            s = spaces[c]
            future = max(0, deck.colour_total[c] - played[c])
            score = (laps[c] + tables.progress[s] / tables.length) * tables.lap_steps
            score += 0.3 * future
            if best_score is None or score > best_score:
                best, best_score = o, score
        return best

    # -- race (R-RACE, R-POW) ---------------------------------------------------
    def card_values(self, view: SeatView, request: Request, cards: Sequence[int]) -> list[float]:
        """What playing each of ``cards`` is worth to the seat asked now: the
        evaluation by which this bot plays its best card (for bots that search)."""
        return self._race_facts(view, request).card_values(cards, deck_tables(request.cards))

    def _card(self, race: _Race, request: Request, deck: DeckTables) -> Decision:
        options = request.options_of(PlayCard)
        values = race.card_values([o.card for o in options], deck)
        best, best_value = options[0], values[0]
        for o, value in zip(options, values, strict=True):
            if value > best_value:
                best, best_value = o, value
        return best

    def _order(self, race: _Race, request: Request, deck: DeckTables) -> Decision:
        """R-POW-TRI: own cars first (free road ahead), rivals' last (maybe blocked by then)."""
        card = request.card
        if card is None:  # not a card play: take what is offered
            return request.options[0]
        rows = deck.rows[card]
        w = race.weights

        def weight(k: int) -> float:
            c = rows[k][0]
            return 0.5 if c == WILD_CODE else w[c]

        size = len(rows)
        weights = [weight(k) for k in range(size)]
        options = request.options_of(Order)
        if len(options) == factorial(size):  # every order is offered: take the best at once
            return Order(request.seat, tuple(sorted(range(size), key=lambda k: -weights[k])))
        # Rows resolved earlier weigh more; the options are the orders that differ.
        return max(
            options, key=lambda o: sum(weights[k] * (size - i) for i, k in enumerate(o.rows))
        )

    def _skip(self, race: _Race, request: Request, deck: DeckTables) -> Decision:
        """R-POW-STR: skip the row that helps rivals most, if any does."""
        card = request.card
        if card is None:  # not a card play: take what is offered
            return request.options[0]
        rows = deck.rows[card]
        best, best_value = Skip(request.seat, None), -0.1
        for k, (c, n) in enumerate(rows):
            if c == WILD_CODE:
                continue
            value = race.weights[c] * race.gain(c, n)
            if value < best_value:
                best, best_value = Skip(request.seat, k), value
        return best if best in request.options else request.options[0]

    def _wild(self, race: _Race, request: Request, deck: DeckTables) -> Decision:
        card = request.card
        options = request.options_of(Wild)
        if card is None or not options:  # not a card play: take what is offered
            return request.options[0]
        ns = [n for c, n in deck.rows[card] if c == WILD_CODE]
        best, best_value = options[0], None
        # The car values of each WILD row, looked up once per number of colours named.
        by_k: dict[int, list[list[float]]] = {}
        for o in options:
            colours = o.colours
            k = len(colours)
            rows = by_k.get(k)
            if rows is None:
                use = ns if len(ns) == k else sorted(ns, reverse=True)[:k]
                rows = by_k[k] = [race.values(n) for n in use]
            value = 0.0
            for c, row in zip(colours, rows, strict=False):
                value += row[CODE[c]]
            if best_value is None or value > best_value:
                best, best_value = o, value
        return best

    def _path(self, view: SeatView, request: Request) -> Decision:
        """The path best for this seat: own cars far (Determined bonus kept), others
        short, and an end space that takes a rival's road ahead. Cars count by owner
        only (own +1, rival's -0.5, unowned -0.2): paths are the most frequent
        decision, so they skip the ranking of the race facts."""
        board = request.board
        tables = track_tables(board)
        index = board.index
        spaces_of, owner, my_seat = view.spaces, view.owner_codes, request.seat
        options = request.options_of(Path)
        car = CODE[options[0].car]
        own = owner[car] == my_seat
        sign = 1.0 if own else (UNOWNED if owner[car] == OFF else RIVAL + LEADER)
        start = spaces_of[car]
        power = view.powers[my_seat] if own else None
        determined = power == "determined" and request.pending.kind == "path"
        spaces = (request.pending.spaces or 0) if determined else 0
        # R-POW-AGG: with the extra space on offer, an end boxed in by cars costs more
        # than the space gains, so the bot declines a 7th space that jams its own car.
        boxed = {spaces_of[c] for c in range(6) if c != car} if power == "aggressive" else set()
        if boxed and not request.pending.extra:
            boxed = set()
        beyond = board.graph.beyond_finish
        forward, togo, behind = tables.forward, tables.togo, tables.behind
        car_at = {}  # the other cars by space
        for c in range(6):
            s = spaces_of[c]
            if c != car and s != OFF:
                car_at[s] = c
        finish = board.use_finish
        best, best_score = options[0], None
        ties: list[Path] | None = None  # the paths as good as ``best``, when there are
        for option in options:
            path = option.path
            e = index[path[-1]]
            if finish:
                advance = 100.0 if beyond[e] else -float(togo[e])
            else:
                advance = (
                    (tables.progress[e] - tables.progress[start])
                    % tables.length
                    / tables.length
                    * tables.lap_steps
                )
            if (
                determined and len(path) == spaces and all(tables.rect[index[s]] for s in path)
            ):  # R-POW-DET bonus step
                advance += 1.0
            score = sign * advance
            if boxed and not beyond[e] and all(b in boxed for b in forward[e]):
                score -= BOXED
            if not beyond[e]:
                for b in behind[e]:
                    if b in car_at:  # a car has ``e`` ahead: rarely, so worked out apart
                        score = self._jam(score, e, car_at, spaces_of, owner, my_seat, tables)
                        break
            if best_score is None or score > best_score:
                best, best_score, ties = option, score, None
            elif score == best_score:
                ties = (ties or [best]) + [option]
        return best if ties is None else self._tie(ties, tables, spaces_of)

    @staticmethod
    def _tie(ties: list[Path], tables: TrackTables, spaces_of: tuple[int, ...]) -> Path:
        """One of equally good paths: the one a mix of where its end space and the
        cars lie on the board ranks first. The choice depends on the track's shape,
        not on the order its file lists the spaces in (the first listed took every
        tie, and showed hot on the heat map); it changes from move to move, so ties
        spread over the lanes; and every bot makes the same one, so a search
        foresees it. The spaces passed count only between paths to one end space:
        the engine offers one path per outcome, found in file order, so two paths
        to one end differ in their outcome (a Determined bonus step), not merely in
        the spaces passed on the way."""
        spot, index = tables.spots, tables.board.index
        moment = _mixed(FNV_START, (spot[s] for s in spaces_of if s != OFF))

        def rank(option: Path) -> tuple[int, int]:
            end = _mixed(moment, (spot[index[option.path[-1]]],))
            return end, _mixed(end, (spot[index[s]] for s in option.path))

        return min(ties, key=rank)

    @staticmethod
    def _jam(
        score: float,
        end: int,
        car_at: dict[int, int],
        spaces_of: tuple[int, ...],
        owner: tuple[int, ...],
        my_seat: int,
        tables: TrackTables,
    ) -> float:
        """``score`` less what taking a forward space of each car with ``end``
        ahead costs (cars in COLOURS order; ``car_at``: the other cars by space)."""
        forward = tables.forward
        for c in sorted(car_at[b] for b in tables.behind[end] if b in car_at):
            o = owner[c]
            w = OWN if o == my_seat else (UNOWNED if o == OFF else RIVAL + LEADER / 2)
            score -= JAM_WEIGHT * w / len(forward[spaces_of[c]])
        return score

    # -- laps (long distance) -----------------------------------------------------
    def laps(self, view: SeatView, request: Request, tables: TrackTables) -> list[int]:
        """Laps completed by each car, followed from the public log's moves."""
        board = request.board
        state = self._lap_state
        if state is None or state[0] is not board or len(view.log_since(0)) < state[1]:
            state = (board, 0, [0] * 6, [-1] * 6)
        _, seen, laps, last = state
        laps, last = list(laps), list(last)
        events = view.log_since(seen)
        for ev in events:
            if ev.kind == "setup":
                for slot, colour in enumerate(ev.data.get("grid", ())):
                    last[COLOURS.index(colour)] = board.grid[slot]
            elif ev.kind in ("move", "finish"):
                c = COLOURS.index(ev.data["car"])
                here = last[c]
                for sid in ev.data.get("path", ()):
                    b = board.index[sid]
                    if (here, b) in board.wraps:
                        laps[c] += 1
                    here = b
                last[c] = here
        self._lap_state = (board, seen + len(events), laps, last)
        return laps
