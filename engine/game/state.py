"""The game state: set-up, whose decisions are due, legal options, applying one.

The state is a small set of lists; ``copy`` duplicates them shallowly, so bots
can search cheaply. The flow is a trampoline of step functions: each either
asks for decisions (sets ``_due`` and returns None) or returns the next step.
A step whose only legal option is one decision applies it without asking.
"""
from __future__ import annotations

import itertools
import random
from dataclasses import dataclass
from typing import Callable, Optional

from ..errors import InvalidInput
from ..track import Track
from .board import Board
from .cards import COLOURS, WILD_CODE, Card, bid_value, lowest_price
from .decisions import (Bet, Bid, Decision, IllegalDecision, KeepPower, Order, Path, PlayCard,
                        Skip, SwapPower, Wild)
from .events import Event, Pending, Phase
from .scoring import Result, bet_payout, money_winners
from .setup import Deal, check_deal, shuffled_setup
from .variants import Variant

Step = Optional[Callable[[], "Step"]]
PHASE_OF = {"bid": Phase.AUCTION, "second": Phase.AUCTION, "keep": Phase.POWER,
            "swap": Phase.POWER, "card": Phase.RACE, "order": Phase.RACE, "skip": Phase.RACE,
            "wild": Phase.RACE, "path": Phase.RACE, "bet": Phase.BET, "over": Phase.OVER}
KIND_OF = {"bid": "bid", "second": "bid", "keep": "keep_power", "swap": "swap_power",
           "card": "play_card", "order": "order", "skip": "skip", "wild": "wild",
           "path": "path", "bet": "bet", "over": "over"}
OFF = -1  # position of a car that has left the track (finished)
NOBODY = -1


@dataclass(frozen=True)
class PlayerView:
    """What one seat may see (issue 3): its own hand and bets, public facts.

    Other players' hands appear only as sizes and their bets only as
    counts until the game is over.
    """

    seat: int
    phase: Phase
    pending: Pending
    hand: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    pile_sizes: tuple[int, ...]
    face_up: tuple[tuple[int, ...], ...]
    positions: dict[str, str | None]
    finished: tuple[str, ...]
    owners: dict[str, int | None]
    powers: tuple[str | None, ...]
    held_powers: tuple[tuple[str, ...], ...]
    prices: tuple[int, ...]
    my_bets: tuple[str | None, ...]
    bets_made: tuple[int, ...]
    turn: int | None
    log: tuple[Event, ...]


class Game:
    """One Downforce race under a variant on a board (see ``engine.game``).

    Read-only state for views, bots and records (change it only through
    ``apply``). Cars are indexed in ``COLOURS`` order, seats from 0:
    ``hands``, ``piles`` (private draw piles), ``pile`` (common draw pile, top
    first), ``face_up`` (unused face-up Speed-8 cards), ``discard``, ``out``
    (cards out of the game) hold card ids; ``pos`` is each car's space index
    (-1 once finished), ``occ`` the occupied spaces, ``laps`` the laps done
    (long distance), ``finished`` the cars in finishing order; ``owner`` the
    seat per car (-1 unowned); ``held`` the powers won per seat and ``power``
    the power kept; ``prices`` per seat a list of (car, price); ``lines`` the
    bitmask of betting lines crossed; ``bets[line][seat]`` a car index or None
    (secret: use ``view``); ``turn`` the seat playing a card (None outside the
    race); ``card`` the card being resolved; ``cards_played``; ``retired`` the
    seats whose cars have all finished; ``deal`` the set-up used; ``log``.
    """

    __slots__ = ("board", "variant", "deck", "cards", "players", "seed", "deal", "rng", "step",
                 "hands", "piles", "pile", "face_up", "discard", "out", "owner", "held", "power",
                 "prices", "pos", "occ", "laps", "finished", "lines", "bets", "bet_lines",
                 "s8_queue", "pw_queue", "car_up", "power_up", "set_aside", "second_queue",
                 "collected", "turn", "card", "order", "skipped", "wild", "row_at", "mover",
                 "move_n", "bonus", "new_lines", "log", "_due", "_opts", "_moves", "result",
                 "cards_played", "retired", "cunning_winner", "from_hand", "_rng_shared")

    # -- creation -------------------------------------------------------------
    @classmethod
    def new(cls, track: Track | Board, variant: Variant, players: int, seed: int = 0,
            deal: Deal | None = None) -> "Game":
        """A game after set-up (R-SET), waiting for its first decisions.

        ``track`` may be a prepared ``Board`` (share one across games). With
        ``deal`` the set-up shuffles are replaced by that deal; ``seed`` still
        drives later random steps (auction ties, private piles).
        """
        board = track if isinstance(track, Board) else Board.of(track, variant.use_finish)
        if not variant.min_players <= players <= variant.max_players:
            raise InvalidInput(f"variant {variant.name!r} is for {variant.min_players} to "
                               f"{variant.max_players} players, not {players}",
                               hint="choose another number of players or another variant")
        if len(board.grid) != len(COLOURS):
            raise InvalidInput(f"track {board.track.name!r} has {len(board.grid)} start spaces; "
                               "a game needs 6", hint="validate the track")
        deck = variant.deck
        if deal is None:
            setup = shuffled_setup(variant, deck, players, seed)
            deal, rng = setup.deal, setup.rng
        else:
            check_deal(deal, variant, deck, players)
            rng = random.Random(seed)
        g = cls.__new__(cls)
        g.board, g.variant, g.deck, g.cards = board, variant, deck, deck.cards
        g.players, g.seed, g.deal, g.rng = players, seed, deal, rng
        g._rng_shared = False
        g._init_state()
        g._run(g._start)
        return g

    def _init_state(self) -> None:
        n, deal = self.players, self.deal
        self.hands = [list(h) for h in deal.hands]
        self.piles = [[] for _ in range(n)]
        self.pile = list(deal.pile)
        self.face_up = [[] for _ in range(n)]
        self.discard: list[int] = []
        used = {c for h in deal.hands for c in h} | set(deal.pile)
        self.out = [c for c in range(self.deck.size) if c not in used]
        self.owner = [NOBODY] * 6
        self.held = [[] for _ in range(n)]
        self.power: list[str | None] = [None] * n
        self.prices = [[] for _ in range(n)]
        self.pos = [OFF] * 6
        for slot, colour in enumerate(deal.grid):  # R-SET-4
            self.pos[COLOURS.index(colour)] = self.board.grid[slot]
        self.occ = set(self.pos)
        self.laps = [0] * 6
        self.finished: list[int] = []
        self.lines = 0
        self.bets = [[None] * n for _ in range(3)]
        self.bet_lines: list[int] = []
        self.s8_queue = [COLOURS.index(c) for c in deal.speed8]
        self.pw_queue = list(deal.powers)
        self.car_up, self.power_up = NOBODY, None
        self.set_aside: list[tuple[int, str | None]] = []
        self.second_queue: list[int] = []
        self.collected: dict[int, Decision] = {}
        self.turn = None
        self.card = None
        self.order: list[int] = []
        self.skipped = None
        self.wild: dict[int, int] = {}
        self.row_at = 0
        self.mover, self.move_n, self.bonus = NOBODY, 0, False
        self.new_lines = 0
        self.log: list[Event] = []
        self._due: list[int] = []
        self._opts: dict[int, list[Decision]] = {}
        self._moves: dict = {}
        self.result: Result | None = None
        self.cards_played = 0
        self.retired = [False] * n
        self.cunning_winner = NOBODY
        self.from_hand = True
        self.step = "start"

    def copy(self) -> "Game":
        """An independent copy (shares the board, variant, deck and log events)."""
        g = Game.__new__(Game)
        for name in ("board", "variant", "deck", "cards", "players", "seed", "deal", "step",
                     "car_up", "power_up", "turn", "card", "skipped", "row_at", "mover",
                     "move_n", "bonus", "new_lines", "result", "cards_played", "lines",
                     "cunning_winner", "from_hand"):
            setattr(g, name, getattr(self, name))
        # Copy-on-draw: both games share the random source until one draws from it.
        g.rng = self.rng
        g._rng_shared = self._rng_shared = True
        g.hands = [list(h) for h in self.hands]
        g.piles = [list(p) for p in self.piles]
        g.face_up = [list(f) for f in self.face_up]
        g.held = [list(h) for h in self.held]
        g.prices = [list(p) for p in self.prices]
        g.bets = [list(b) for b in self.bets]
        for name in ("pile", "discard", "out", "owner", "power", "pos", "laps", "finished",
                     "bet_lines", "s8_queue", "pw_queue", "set_aside", "second_queue", "order",
                     "log", "_due", "retired"):
            setattr(g, name, list(getattr(self, name)))
        g.occ = set(self.occ)
        g.collected = dict(self.collected)
        g.wild = dict(self.wild)
        g._opts = {k: v for k, v in self._opts.items()}
        g._moves = dict(self._moves)
        return g

    # -- public queries -------------------------------------------------------
    @property
    def phase(self) -> Phase:
        """The phase: auction, power, race, bet or over."""
        return PHASE_OF.get(self.step, Phase.AUCTION)

    @property
    def over(self) -> bool:
        return self.step == "over"

    def due(self) -> list[int]:
        """Seats whose decision is due now (several for secret bids and bets)."""
        return [p for p in self._due if p not in self.collected]

    def options(self, seat: int) -> list[Decision]:
        """The legal options of ``seat`` now (empty when nothing is due from it).

        Paths are offered one per distinct outcome; ``all_paths`` lists every
        concrete path, and any of them may be applied.
        """
        if seat in self.collected:
            return []
        return list(self._opts.get(seat, ()))

    def all_paths(self, seat: int) -> list[Path]:
        """Every concrete legal path for the pending move (R-MOVE-4), if any."""
        if self.step != "path" or seat not in self._due:
            return []
        start, n = self._moves["start"], self._moves["n"]
        occ = self.occ - {start}
        car = COLOURS[self.mover]
        return [Path(seat, car, tuple(self.board.ids[i] for i in m.path))
                for m in self.board.graph.moves(start, n, occ)]

    @property
    def pending(self) -> Pending:
        """What is asked now, with its context."""
        kind = KIND_OF.get(self.step, "over")
        if self.step == "path" and self.bonus:
            kind = "bonus"
        car = None
        if self.step in ("bid",) and self.car_up != NOBODY:
            car = COLOURS[self.car_up]
        elif self.step == "path":
            car = COLOURS[self.mover]
        line = self.bet_lines[0] if self.step == "bet" and self.bet_lines else None
        return Pending(kind, tuple(self.due()), car=car,
                       power=self.power_up if self.step == "bid" else None,
                       card=self.card, spaces=self.move_n if self.step == "path" else None,
                       line=line,
                       set_aside=tuple(COLOURS[c] for c, _ in self.set_aside)
                       if self.step == "second" else ())

    def card_of(self, card_id: int) -> Card:
        """The card with this id."""
        return self.cards[card_id]

    def position(self, colour: str) -> str | None:
        """The space id of a car, or None once it has finished."""
        i = self.pos[COLOURS.index(colour)]
        return None if i == OFF else self.board.ids[i]

    def owner_of(self, colour: str) -> int | None:
        """The seat owning a car, or None."""
        o = self.owner[COLOURS.index(colour)]
        return None if o == NOBODY else o

    def view(self, seat: int) -> PlayerView:
        """What ``seat`` may see: own hand and bets; others' only as counts."""
        ids = self.board.ids
        return PlayerView(
            seat=seat, phase=self.phase, pending=self.pending,
            hand=tuple(self.hands[seat]),
            hand_sizes=tuple(len(h) for h in self.hands),
            pile_sizes=tuple(len(p) for p in self.piles) if self.variant.hand_mode == "private"
            else (len(self.pile),),
            face_up=tuple(tuple(f) for f in self.face_up),
            positions={c: (None if self.pos[i] == OFF else ids[self.pos[i]])
                       for i, c in enumerate(COLOURS)},
            finished=tuple(COLOURS[c] for c in self.finished),
            owners={c: (None if self.owner[i] == NOBODY else self.owner[i])
                    for i, c in enumerate(COLOURS)},
            powers=tuple(self.power),
            held_powers=tuple(tuple(h) for h in self.held),
            prices=tuple(sum(p for _, p in pr) for pr in self.prices),
            my_bets=tuple(self._bet_name(self.bets[k][seat]) for k in range(3)),
            bets_made=tuple(self.bet_lines_done()),
            turn=self.turn,
            log=tuple(self.log),
        )

    def bet_lines_done(self) -> list[int]:
        """Betting lines (0-based) whose bet has been made."""
        return [k for k in range(3) if all(b is not None for b in self.bets[k])]

    def _bet_name(self, code: int | None) -> str | None:
        return None if code is None else COLOURS[code]

    # -- applying -------------------------------------------------------------
    def is_legal(self, decision: Decision) -> bool:
        """True when ``decision`` may be applied now."""
        try:
            self._check(decision)
        except IllegalDecision:
            return False
        return True

    def apply(self, decision: Decision) -> None:
        """Apply one decision; raises ``IllegalDecision`` if it is not legal now."""
        self._check(decision)
        self._run(lambda: self._take(decision))

    def _check(self, d: Decision) -> None:
        seat = d.player
        if self.step == "over":
            raise IllegalDecision("the game is over; no decision is due")
        if seat not in self._due or seat in self.collected:
            due = ", ".join(f"seat {p}" for p in self.due()) or "nobody"
            raise IllegalDecision(f"seat {seat} has no decision due now ({due} must decide)")
        kind = KIND_OF[self.step]
        if d.type != kind:
            raise IllegalDecision(f"a {kind} decision is due from seat {seat}, not {d.type}")
        if d in self._opts.get(seat, ()):
            return
        if self._also_legal(d):
            return
        raise IllegalDecision(f"{d.type} {d.to_dict()} is not a legal option now",
                              hint=f"legal: {self._short_options(seat)}")

    def _short_options(self, seat: int) -> str:
        opts = self._opts.get(seat, [])
        text = ", ".join(str({k: v for k, v in o.to_dict().items() if k not in ('type', 'player')})
                         for o in opts[:6])
        return text + (f" and {len(opts) - 6} more" if len(opts) > 6 else "")

    def _also_legal(self, d: Decision) -> bool:
        """Legal decisions not listed as options: a pass played with a card,
        any row order (Tricky), any concrete legal path."""
        if isinstance(d, Bid) and d.card is not None:
            if d.card not in self.hands[d.player]:
                return False
            if self.step == "bid" and d.car not in (None, COLOURS[self.car_up]):
                return False
            colour = d.car if self.step == "second" else COLOURS[self.car_up]
            if self.step == "second" and COLOURS.index(colour) not in [c for c, _ in self.set_aside]:
                return False
            return self._bid_value(d.player, d.card, colour) is None and Bid(d.player, None) \
                in self._opts[d.player]
        if isinstance(d, Order):
            n = len(self.cards[self.card].rows)
            return sorted(d.rows) == list(range(n))
        if isinstance(d, Path):
            return d.car == COLOURS[self.mover] and self._path_legal(d.path)
        return False

    def _path_legal(self, path: tuple[str, ...]) -> bool:
        """R-MOVE-4 checked directly on a concrete path."""
        index, graph = self.board.index, self.board.graph
        start, n = self._moves["start"], self._moves["n"]
        if not path or len(path) > n or any(s not in index for s in path):
            return False
        occ = self.occ - {start}
        here = start
        for k, sid in enumerate(path):
            b = index[sid]
            if b not in graph.forward[here] or b in occ:
                return False
            if graph.beyond_finish[b] and not graph.beyond_finish[here]:
                return k == len(path) - 1  # R-FIN-1: a finishing step ends the move
            here = b
        return len(path) == n or not graph.free_forward(here, occ)

    def _take(self, d: Decision) -> Step:
        step = self.step
        if step in ("bid", "keep", "bet"):
            self.collected[d.player] = d
            if self.due():
                return None
            return {"bid": self._resolve_bids, "keep": self._resolve_keep,
                    "bet": self._resolve_bet}[step]
        return {"second": self._on_second, "swap": self._on_swap, "card": self._on_card,
                "order": self._on_order, "skip": self._on_skip, "wild": self._on_wild,
                "path": self._on_path}[step](d)

    def _run(self, fn: Step) -> None:
        while fn is not None:
            fn = fn()

    def _ask(self, step: str, opts: dict[int, list[Decision]], then: Callable[[], Step]) -> Step:
        """Ask the seats in ``opts``; a seat with one option answers it at once."""
        self.step = step
        self._opts = opts
        self._due = list(opts)
        self.collected = {}
        simultaneous = step in ("bid", "keep", "bet")
        if simultaneous:
            for seat, choices in opts.items():
                if len(choices) == 1:
                    self.collected[seat] = choices[0]
            return then if not self.due() else None
        (seat,) = opts
        if len(opts[seat]) == 1:
            return lambda: self._take(opts[seat][0])
        return None

    def _random(self) -> random.Random:
        """The game's own random source (R-SET-5), unshared from copies before a draw."""
        if self._rng_shared:
            own = random.Random.__new__(random.Random)
            own.setstate(self.rng.getstate())
            self.rng, self._rng_shared = own, False
        return self.rng

    def _say(self, kind: str, text: str, **data) -> None:
        self.log.append(Event(kind, text, data))

    # -- set-up ---------------------------------------------------------------
    def _start(self) -> Step:
        grid = ", ".join(self.deal.grid)
        self._say("setup", f"Grid (pole first): {grid}", grid=list(self.deal.grid))
        if self.variant.auction:
            return self._next_car
        return self._deal_cars

    def _seat(self, p: int) -> str:
        return f"Player {p + 1}"

    def _deal_cars(self) -> Step:
        """R-VAR beginner: Speed-8 cards (and so cars) dealt equally, rest unowned."""
        each = len(COLOURS) // self.players
        for k, car in enumerate(self.s8_queue[:each * self.players]):
            p = k % self.players
            power = self.pw_queue[k] if k < len(self.pw_queue) else None
            self._award(p, car, power, None)
            self._say("deal", f"{self._seat(p)} is dealt the {COLOURS[car]} car"
                      + (f" with {power}" if power else ""), seat=p, car=COLOURS[car])
        for car in self.s8_queue[each * self.players:]:
            self.out.append(self.deck.speed8(COLOURS[car]))  # races unowned
        self.s8_queue = []
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
            self.held[p].append(power)
            if power == "cunning":
                self.cunning_winner = p

    # -- auction (R-AUC) ------------------------------------------------------
    def _carless(self) -> list[int]:
        has = set(self.owner)
        return [p for p in range(self.players) if p not in has]

    def _next_car(self) -> Step:
        if not self.s8_queue:
            return self._second_round
        car = self.s8_queue.pop(0)
        power = self.pw_queue.pop(0) if self.pw_queue else None
        self.car_up, self.power_up = car, power
        self._say("reveal", f"Up for auction: the {COLOURS[car]} car"
                  + (f" with {power}" if power else " (no power)"), car=COLOURS[car], power=power)
        remaining = len(self.s8_queue) + 1
        carless = self._carless()
        eligible = list(range(self.players))
        if carless and remaining <= len(carless):  # R-AUC-7
            eligible = carless
            if remaining == 1 and len(carless) == 1:
                return self._take_last
        opts = {p: self._bid_options(p, COLOURS[car]) for p in eligible}
        return self._ask("bid", opts, self._resolve_bids)

    def _take_last(self) -> Step:
        """R-AUC-7: the last car goes to the last player without one."""
        (p,) = self._carless()
        colour = COLOURS[self.car_up]
        price = lowest_price(colour, [self.cards[c] for c in self.hands[p]])
        self._award(p, self.car_up, self.power_up, price)
        self._say("auction", f"{self._seat(p)} takes the {colour} car without bidding for "
                  f"${price}M (everyone must own a car)", seat=p, car=colour, price=price,
                  reason="last car")
        return self._next_car

    def _bid_value(self, p: int, card: int, colour: str) -> int | None:
        hand = [self.cards[c] for c in self.hands[p]]
        return bid_value(self.cards[card], colour, hand)

    def _bid_options(self, p: int, colour: str, car: str | None = None) -> list[Decision]:
        """Cards that bid something, then one pass (R-AUC-2)."""
        hand = [self.cards[c] for c in self.hands[p]]
        opts: list[Decision] = []
        can_pass = False
        for card in hand:
            if bid_value(card, colour, hand) is None:
                can_pass = True
            else:
                opts.append(Bid(p, card.id, car))
        if can_pass or not any(card.number(colour) for card in hand):
            opts.append(Bid(p, None))
        return opts

    def _resolve_bids(self) -> Step:
        colour = COLOURS[self.car_up]
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
        self._say("bids", "Bids: " + "; ".join(parts),
                  bids={p: (v, c.id) for p, (v, c) in bids.items()})
        self.collected = {}
        if not bids:
            self.set_aside.append((self.car_up, self.power_up))
            self._say("auction", f"Nobody bids on the {colour} car: set aside"
                      + (f" with {self.power_up}" if self.power_up else ""), car=colour,
                      reason="no bids")
            return self._next_car
        winner, reason = self._auction_winner(bids)
        price = bids[winner][0]
        self._award(winner, self.car_up, self.power_up, price)
        self._say("auction", f"{self._seat(winner)} wins the {colour} car for ${price}M "
                  f"({reason})" + (f" and takes {self.power_up}" if self.power_up else ""),
                  seat=winner, car=colour, price=price, reason=reason)
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

    def _second_round(self) -> Step:
        """R-AUC-8: each player still without a car, in seat order, may bid on
        one set-aside car; cars passed on again stay unowned."""
        self.car_up, self.power_up = NOBODY, None
        self.second_queue = self._carless() if self.set_aside else []
        return self._next_second

    def _next_second(self) -> Step:
        if not self.second_queue or not self.set_aside:
            for car, _ in self.set_aside:
                self._say("auction", f"The {COLOURS[car]} car stays unowned", car=COLOURS[car],
                          reason="passed twice")
                self.out.append(self.deck.speed8(COLOURS[car]))
            self.set_aside = []
            return self._powers
        p = self.second_queue.pop(0)
        opts: list[Decision] = []
        for car, _ in self.set_aside:
            opts += [o for o in self._bid_options(p, COLOURS[car], COLOURS[car])
                     if o.card is not None]
        opts.append(Bid(p, None))
        return self._ask("second", {p: opts}, self._next_second)

    def _on_second(self, d: Bid) -> Step:
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
        self._say("auction", f"{self._seat(p)} bids {value} with {self.cards[d.card]} and takes "
                  f"the set-aside {d.car} car for ${value}M"
                  + (f" and {entry[1]}" if entry[1] else ""), seat=p, car=d.car, price=value,
                  reason="second chance")
        return self._next_second

    # -- powers (R-AUC-9) -----------------------------------------------------
    def _powers(self) -> Step:
        opts = {p: [KeepPower(p, w) for w in self.held[p]] for p in range(self.players)
                if self.held[p]}
        if not opts:
            return self._swap
        return self._ask("keep", opts, self._resolve_keep)

    def _resolve_keep(self) -> Step:
        for p in sorted(self.collected):
            d = self.collected[p]
            self.power[p] = d.power
            returned = [w for w in self.held[p] if w != d.power]
            self._say("power", f"{self._seat(p)} keeps {d.power}"
                      + (f" and returns {', '.join(returned)}" if returned else ""),
                      seat=p, power=d.power)
        self.collected = {}
        return self._swap

    def _swap(self) -> Step:
        p = self.cunning_winner
        if not self.variant.cunning_swap or p == NOBODY or self.power[p] != "cunning":
            return self._private_piles
        kept = set(self.power)
        opts = [SwapPower(p, "cunning")] + [SwapPower(p, w) for w in self.variant.powers
                                            if w not in kept]
        return self._ask("swap", {p: opts}, self._private_piles)

    def _on_swap(self, d: SwapPower) -> Step:
        if d.power != "cunning":
            self.power[d.player] = d.power
            self._say("power", f"{self._seat(d.player)} swaps Cunning for {d.power}",
                      seat=d.player, power=d.power)
        return self._private_piles

    def _private_piles(self) -> Step:
        """R-VAR two players: own speed cards shuffled into a private pile, draw N."""
        if self.variant.hand_mode == "private":
            size = self.variant.hand_size
            for p in range(self.players):
                pile = self.hands[p]
                self._random().shuffle(pile)
                self.hands[p], self.piles[p] = pile[:size], pile[size:]
        return self._race_start

    # -- race (R-RACE) --------------------------------------------------------
    def _race_start(self) -> Step:
        first = 0
        for slot in range(len(self.board.grid)):  # R-RACE-1 and its ruling
            car = COLOURS.index(self.deal.grid[slot])
            if self.owner[car] != NOBODY:
                first = self.owner[car]
                break
        self._say("race", f"The race starts: {self._seat(first)} plays first", seat=first)
        return lambda: self._begin_turn(first)

    def _can_play(self, p: int) -> bool:
        return not self.retired[p] and bool(self.hands[p] or self.face_up[p])

    def _begin_turn(self, start: int) -> Step:
        if self.variant.use_finish and len(self.finished) == len(COLOURS):
            return self._end_race
        for k in range(self.players):  # R-RACE-5: skip empty hands
            p = (start + k) % self.players
            if self._can_play(p):
                break
        else:
            return self._end_race  # R-RACE-6
        self.turn = p
        opts = [PlayCard(p, c) for c in self.hands[p]] + [PlayCard(p, c) for c in self.face_up[p]]
        return self._ask("card", {p: opts}, lambda: None)

    def _on_card(self, d: PlayCard) -> Step:
        p = d.player
        self.from_hand = d.card in self.hands[p]
        if self.from_hand:
            self.hands[p].remove(d.card)
        else:
            self.face_up[p].remove(d.card)
        self.card = d.card
        self.cards_played += 1
        card = self.cards[d.card]
        self._say("play", f"{self._seat(p)} plays {card}", seat=p, card=d.card)
        self.order = list(range(len(card.rows)))
        self.skipped = None
        self.wild = {}
        self.new_lines = 0
        power = self.power[p]
        if power == "tricky" and len(card.rows) > 1:
            # Rows of finished cars move nothing: their place in the order cannot matter.
            dead = tuple(r for r, (c, _) in enumerate(card.rows)
                         if c != "wild" and self.pos[COLOURS.index(c)] == OFF)
            live = [r for r in self.order if r not in dead]
            opts = [Order(p, perm + dead) for perm in itertools.permutations(live)]
            return self._ask("order", {p: opts}, lambda: None)
        if power == "strategic":
            opts = [Skip(p, None)] + [Skip(p, r) for r in self.order]
            return self._ask("skip", {p: opts}, lambda: None)
        return self._ask_wild

    def _on_order(self, d: Order) -> Step:
        self.order = list(d.rows)
        if d.rows != tuple(sorted(d.rows)):
            self._say("order", f"{self._seat(d.player)} resolves the rows in the order "
                      + ", ".join(str(r + 1) for r in d.rows) + " (Tricky)", rows=list(d.rows))
        return self._ask_wild

    def _on_skip(self, d: Skip) -> Step:
        if d.row is not None:
            self.skipped = d.row
            self.order.remove(d.row)
            colour, n = self.cards[self.card].rows[d.row]
            label = "WILD" if colour == "wild" else colour
            self._say("skip", f"{self._seat(d.player)} skips the row {label} {n} (Strategic)",
                      row=d.row)
        return self._ask_wild

    def _ask_wild(self) -> Step:
        p = self.turn
        card = self.cards[self.card]
        rows = [r for r in self.order if card.rows[r][0] == "wild"]
        if not rows:
            self.row_at = 0
            return self._next_row
        on_card = {c for c, _ in card.rows}
        allowed = [c for c in COLOURS if self.power[p] == "unpredictable" or c not in on_card]
        rows.sort()  # colours are named top to bottom
        opts = [Wild(p, combo) for combo in itertools.permutations(allowed, len(rows))]
        self._moves = {"wild_rows": rows}
        return self._ask("wild", {p: opts}, lambda: None)

    def _on_wild(self, d: Wild) -> Step:
        rows = self._moves["wild_rows"]
        self.wild = {r: COLOURS.index(c) for r, c in zip(rows, d.colours)}
        self._say("wild", f"WILD names {', '.join(d.colours)}", colours=list(d.colours))
        self.row_at = 0
        return self._next_row

    def _next_row(self) -> Step:
        if self.row_at >= len(self.order):
            return self._end_card
        r = self.order[self.row_at]
        self.row_at += 1
        colour, n = self.cards[self.card].rows[r]
        p = self.turn
        if colour == "wild":
            car = self.wild[r]
        else:
            car = COLOURS.index(colour)
            # R-POW-AGG: the printed top row of the player's own car.
            if r == 0 and self.owner[car] == p and self.power[p] == "aggressive":
                n += self.variant.aggressive_bonus
        return self._start_move(car, n, False)

    def _start_move(self, car: int, n: int, bonus: bool) -> Step:
        start = self.pos[car]
        name = COLOURS[car]
        if start == OFF:
            if not bonus:
                self._say("stay", f"The {name} car has finished: nothing moves", car=name)
            return self._next_row
        occ = self.occ
        occ.discard(start)
        o = self.owner[car]
        det = not bonus and o != NOBODY and self.power[o] == "determined"
        moves = self.board.outcomes(start, n, occ, 0b1000 | (0b111 & ~self.lines), det)
        occ.add(start)
        if not moves:
            self._say("stay", f"The {name} car cannot move" + (" its bonus step" if bonus else "")
                      + " (no free space ahead)", car=name)
            return self._next_row
        chooser = self.turn
        if o != NOBODY and self.power[o] == "cunning":  # R-POW-CUN
            chooser = o
        self.mover, self.move_n, self.bonus = car, n, bonus
        ids = self.board.ids
        by_path = {tuple([ids[i] for i in m[0]]): m for m in moves}
        self._moves = {"start": start, "n": n, "by_path": by_path}
        opts = [Path(chooser, name, p) for p in by_path]
        return self._ask("path", {chooser: opts}, lambda: None)

    def _on_path(self, d: Path) -> Step:
        board = self.board
        start = self._moves["start"]
        move = self._moves["by_path"].get(d.path)
        if move is None:  # a concrete path chosen by a person
            move = board.outcome_of(start, tuple(board.index[s] for s in d.path), self.move_n)
        path, finished, blocked, crossed, rect = move
        car = self.mover
        name = COLOURS[car]
        self.occ.discard(start)
        if not board.use_finish:
            here = start
            for b in path:
                if (here, b) in board.wraps:
                    self.laps[car] += 1
                here = b
        via = " -> ".join(d.path)
        if finished:  # R-FIN-1
            self.pos[car] = OFF
            self.finished.append(car)
            place = len(self.finished)
            self._say("finish", f"The {name} car moves {via} and finishes {_ordinal(place)}",
                      car=name, path=list(d.path), place=place)
        else:
            self.pos[car] = path[-1]
            self.occ.add(path[-1])
            self._say("move", f"The {name} car moves {via}" + (" (blocked)" if blocked else "")
                      + (" (Determined bonus)" if self.bonus else ""),
                      car=name, path=list(d.path), blocked=blocked, bonus=self.bonus)
        crossed &= 0b111 & ~self.lines
        if crossed:
            self.lines |= crossed
            self.new_lines |= crossed
            for k in range(3):
                if crossed >> k & 1:
                    self._say("cross", f"The {name} car is first across betting line {k + 1}",
                              car=name, line=k)
        o = self.owner[car]
        if (not self.bonus and not finished and not blocked and rect
                and o != NOBODY and self.power[o] == "determined"
                and self.variant.determined_bonus > 0):  # R-POW-DET
            return self._start_move(car, self.variant.determined_bonus, True)
        self.bonus = False
        return self._next_row

    def _end_card(self) -> Step:
        p = self.turn
        self.discard.append(self.card)
        self.card = None
        self.bonus = False
        mode = self.variant.hand_mode
        if not self.from_hand:
            pass  # a face-up Speed-8 card is not replaced (R-VAR two players)
        elif mode == "common" and self.pile:
            self.hands[p].append(self.pile.pop(0))
        elif mode == "private" and self.piles[p]:
            self.hands[p].append(self.piles[p].pop(0))
        for q in range(self.players):  # R-RACE-5
            cars = [c for c in range(6) if self.owner[c] == q]
            if cars and not self.retired[q] and all(self.pos[c] == OFF for c in cars):
                self.retired[q] = True
                self.discard.extend(self.hands[q] + self.piles[q] + self.face_up[q])
                self.hands[q], self.piles[q], self.face_up[q] = [], [], []
                self._say("retire", f"{self._seat(q)}'s cars have all finished: "
                          "the hand is discarded", seat=q)
        if self.variant.betting:  # R-BET-3: one bet per line, in line order
            self.bet_lines = [k for k in range(3) if self.new_lines >> k & 1]
        self.new_lines = 0
        return self._next_bet

    def _next_bet(self) -> Step:
        if not self.bet_lines:
            return lambda: self._begin_turn((self.turn + 1) % self.players)
        k = self.bet_lines[0]
        opts = {p: [Bet(p, c) for c in COLOURS] for p in range(self.players)}
        self._say("bet-open", f"Bet {k + 1}: every player secretly chooses a car to win",
                  line=k)
        return self._ask("bet", opts, self._resolve_bet)

    def _resolve_bet(self) -> Step:
        k = self.bet_lines.pop(0)
        for p, d in self.collected.items():
            self.bets[k][p] = COLOURS.index(d.car)
        self.collected = {}
        self._say("bet", f"Bet {k + 1} is made (revealed at scoring)", line=k)
        return self._next_bet

    # -- end (R-RACE-6, R-SCORE) ----------------------------------------------
    def _end_race(self) -> Step:
        self.turn = None
        self.step = "over"
        self._due, self._opts, self.collected = [], {}, {}
        self.result = self._score()
        for line in self.result.sheet:
            self._say("score", line)
        return None

    def _ranking(self) -> list[int]:
        if self.variant.use_finish:
            return list(self.finished)
        board = self.board

        def key(c: int) -> tuple:
            at = self.pos[c]
            return (-(self.laps[c] * board.length + board.progress[at]), board.lanes[at], c)
        return sorted(range(6), key=key)

    def _score(self) -> Result:
        v, n = self.variant, self.players
        ranking = self._ranking()
        place = {c: i for i, c in enumerate(ranking)}
        stalled = [c for c in range(6) if c not in place]
        earnings = [0] * n
        best = [float("inf")] * n
        for c, i in place.items():
            o = self.owner[c]
            if o != NOBODY:
                earnings[o] += v.race_payout[i] if i < len(v.race_payout) else 0
                best[o] = min(best[o], i)
        payouts = [0] * n
        for k in range(3):
            for p, c in enumerate(self.bets[k]):
                if c is not None:
                    payouts[p] += bet_payout(v.bet_payouts[k], place.get(c))
        prices = [sum(x for _, x in pr) for pr in self.prices]
        scores = [earnings[p] + payouts[p] - prices[p] for p in range(n)]  # R-SCORE-1
        if v.winner == "money":
            winners = money_winners(scores, best)
        else:  # first_car / furthest_car: the owner of the best-placed owned car
            owned = [c for c in ranking if self.owner[c] != NOBODY]
            winners = [self.owner[owned[0]]] if owned else money_winners(scores, best)
        sheet = self._sheet(ranking, stalled, earnings, payouts, prices, scores, winners)
        return Result(tuple(COLOURS[c] for c in ranking), tuple(COLOURS[c] for c in stalled),
                      tuple(earnings), tuple(payouts), tuple(prices), tuple(scores),
                      tuple(winners),
                      tuple(tuple(self._bet_name(b) for b in self.bets[k]) for k in range(3)),
                      tuple(sheet))

    def _sheet(self, ranking, stalled, earnings, payouts, prices, scores, winners) -> list[str]:
        lines = ["Race result: " + ", ".join(f"{_ordinal(i + 1)} {COLOURS[c]}"
                                              for i, c in enumerate(ranking))]
        if stalled:
            lines.append("Stalled: " + ", ".join(COLOURS[c] for c in stalled))
        for k in range(3):
            if all(b is None for b in self.bets[k]):
                continue
            lines.append(f"Bet {k + 1}: " + "; ".join(
                f"{self._seat(p)} on {self._bet_name(b)}" for p, b in enumerate(self.bets[k])))
        for p in range(self.players):
            cars = ", ".join(COLOURS[c] for c in range(6) if self.owner[c] == p) or "no car"
            lines.append(f"{self._seat(p)} ({cars}): cars {earnings[p]} + bets {payouts[p]} "
                         f"- prices {prices[p]} = {scores[p]}")
        names = " and ".join(self._seat(p) for p in winners)
        why = {"money": "highest winnings", "first_car": "owner of the first car to finish",
               "furthest_car": "owner of the car furthest ahead"}[self.variant.winner]
        lines.append(f"Winner: {names} ({why}" + (", shared)" if len(winners) > 1 else ")"))
        return lines


def _ordinal(k: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(k, f"{k}th")
