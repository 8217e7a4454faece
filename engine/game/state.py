"""The game state: set-up, whose decisions are due, legal options, applying one.

The state is a small set of lists; ``copy`` duplicates them shallowly, so bots
can search cheaply. The flow is a trampoline of step functions: each either
asks for decisions (sets ``_due_seats`` and returns None) or returns the next step.
A step whose only legal option is one decision applies it without asking.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from trackside.engine.errors import InvalidInput
from trackside.engine.game.auction import AuctionSteps
from trackside.engine.game.board import Board
from trackside.engine.game.cards import COLOURS, Card
from trackside.engine.game.decisions import (
    Bet,
    Bid,
    Decision,
    IllegalDecision,
    Order,
    Path,
    PlayCard,
    Skip,
    SwapPower,
    Wild,
)
from trackside.engine.game.events import Event, Pending, Phase
from trackside.engine.game.setup import Deal, check_deal, shuffled_setup
from trackside.engine.game.steps import (
    NOBODY,
    OFF,
    STEP_BET,
    STEP_BID,
    STEP_KEEP,
    STEP_OVER,
    STEP_PATH,
    STEP_SECOND,
    Next,
    Step,
)
from trackside.engine.game.variants import Variant
from trackside.engine.text import plural
from trackside.engine.track.model import Track


@dataclass(frozen=True)
class PlayerView:
    """What one seat may see: its own hand and bets, public facts.

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
    all_bets: tuple[tuple[str | None, ...], ...]  # every seat's bets, once the game is over
    turn: int | None
    log: tuple[Event, ...]


class Game(AuctionSteps):
    """One Downforce race under a variant on a board (see ``engine.game``).

    Its fields (``GameState``) are read-only for views, bots and records
    (change them only through ``apply``): ``hands``, ``piles``, ``pile``,
    ``face_up``, ``discard``, ``out_of_game`` hold card ids; ``car_spaces``,
    ``occupied``, ``laps``, ``finished`` the cars; ``owner``, ``held_powers``, ``power``,
    ``prices`` the auction; ``lines_crossed`` and ``bets`` the betting (``bets`` is
    secret: use ``view``); ``turn`` the seat playing a card (None outside the
    race), ``card`` the card being resolved; ``deal`` the set-up used; ``log``.
    """

    __slots__ = ()

    # -- creation -------------------------------------------------------------
    @classmethod
    def new(
        cls,
        track: Track | Board,
        variant: Variant,
        players: int,
        seed: int = 0,
        deal: Deal | None = None,
        log: bool = True,
    ) -> Game:
        """A game after set-up (R-SET), waiting for its first decisions.

        ``track`` may be a prepared ``Board`` (share one across games). With
        ``deal`` the set-up shuffles are replaced by that deal; ``seed`` still
        drives later random steps (auction ties, private piles). With
        ``log=False`` the routine events (cards, moves, WILD colours) are not
        logged, for fast simulation; auctions, finishes, bets and the score
        sheet still are.
        """
        board = track if isinstance(track, Board) else Board.of(track, variant.use_finish)
        if not variant.min_players <= players <= variant.max_players:
            raise InvalidInput(
                f"variant {variant.name!r} is for {variant.min_players} to "
                f"{variant.max_players} players, not {players}",
                hint="choose another number of players or another variant",
            )
        if len(board.grid) != len(COLOURS):
            raise InvalidInput(
                f"track {board.track.name!r} has {plural(len(board.grid), 'start space')}; "
                "a game needs 6",
                hint="validate the track",
            )
        if variant.finish == "distance" and not board.geometry.wraps:
            raise InvalidInput(
                f"{variant.name!r} races lap after lap, but track "
                f"{board.track.name!r} is not a closed circuit",
                hint="choose a closed circuit (centerline closed: true)",
            )
        if board.use_finish != variant.use_finish:
            board = Board.of(board.track, variant.use_finish)
        deck = variant.deck
        if deal is None:
            setup = shuffled_setup(variant, deck, players, seed)
            deal, rng = setup.deal, setup.rng
        else:
            check_deal(deal, variant, deck, players)
            rng = random.Random(seed)
        n = players
        used = {c for h in deal.hands for c in h} | set(deal.pile)
        car_spaces = [OFF] * len(COLOURS)
        for slot, colour in enumerate(deal.grid):  # R-SET-4
            car_spaces[COLOURS.index(colour)] = board.grid[slot]
        game = cls(
            board=board,
            variant=variant,
            deck=deck,
            cards=deck.cards,
            players=players,
            seed=seed,
            deal=deal,
            rng=rng,
            _rng_shared=False,
            logging=log,
            step=Step.START,
            _due_seats=[],
            _options={},
            collected={},
            _pending=None,
            log=[],
            result=None,
            hands=[list(h) for h in deal.hands],
            piles=[[] for _ in range(n)],
            pile=list(deal.pile),
            face_up=[[] for _ in range(n)],
            discard=[],
            out_of_game=[c for c in range(deck.size) if c not in used],
            owner=[NOBODY] * len(COLOURS),
            car_spaces=car_spaces,
            occupied=set(car_spaces),
            laps=[0] * len(COLOURS),
            finished=[],
            retired=[False] * n,
            speed8_queue=[COLOURS.index(c) for c in deal.speed8],
            power_queue=list(deal.powers),
            auctioned_car=NOBODY,
            auctioned_power=None,
            set_aside=[],
            second_queue=[],
            held_powers=[[] for _ in range(n)],
            power=[None] * n,
            prices=[[] for _ in range(n)],
            cunning_winner=NOBODY,
            turn=None,
            card=None,
            from_hand=True,
            cards_played=0,
            row_order=[],
            skipped_row=None,
            wild_cars={},
            wild_rows=[],
            rows_started=0,
            current_row=None,
            moving_car=NOBODY,
            move_start=OFF,
            move_spaces=0,
            bonus_step=False,
            move_choices={},
            lines_crossed=0,
            lines_just_crossed=0,
            lines_to_bet=[],
            bets=[[None] * n for _ in range(3)],
        )
        game._run(game._start)
        return game

    def copy(self, log: bool | None = None) -> Game:
        """An independent copy (shares the board, variant, deck and log events).

        ``log=False`` gives a copy that stops logging routine events (for bots
        that search); None keeps this game's setting."""
        # Copy-on-draw: both games share the random source until one draws from it.
        self._rng_shared = True
        # Slot by slot (twice as fast as the constructor's keywords); the tests check
        # that every field of GameState is set.
        twin = Game.__new__(Game)
        twin.board = self.board
        twin.variant = self.variant
        twin.deck = self.deck
        twin.cards = self.cards
        twin.players = self.players
        twin.seed = self.seed
        twin.deal = self.deal
        twin.rng = self.rng
        twin._rng_shared = True
        twin.logging = self.logging if log is None else log
        twin.step = self.step
        twin._due_seats = list(self._due_seats)
        twin._options = self._options  # replaced at each step, never changed
        twin.collected = dict(self.collected)
        twin._pending = self._pending
        twin.log = list(self.log)
        twin.result = self.result
        twin.hands = [list(h) for h in self.hands]
        twin.piles = [list(pile) for pile in self.piles]
        twin.pile = list(self.pile)
        twin.face_up = [list(f) for f in self.face_up]
        twin.discard = list(self.discard)
        twin.out_of_game = list(self.out_of_game)
        twin.owner = list(self.owner)
        twin.car_spaces = list(self.car_spaces)
        twin.occupied = set(self.occupied)
        twin.laps = list(self.laps)
        twin.finished = list(self.finished)
        twin.retired = list(self.retired)
        twin.speed8_queue = list(self.speed8_queue)
        twin.power_queue = list(self.power_queue)
        twin.auctioned_car = self.auctioned_car
        twin.auctioned_power = self.auctioned_power
        twin.set_aside = list(self.set_aside)
        twin.second_queue = list(self.second_queue)
        twin.held_powers = [list(h) for h in self.held_powers]
        twin.power = list(self.power)
        twin.prices = [list(paid) for paid in self.prices]
        twin.cunning_winner = self.cunning_winner
        twin.turn = self.turn
        twin.card = self.card
        twin.from_hand = self.from_hand
        twin.cards_played = self.cards_played
        twin.row_order = list(self.row_order)
        twin.skipped_row = self.skipped_row
        twin.wild_cars = dict(self.wild_cars)
        twin.wild_rows = list(self.wild_rows)
        twin.rows_started = self.rows_started
        twin.current_row = self.current_row
        twin.moving_car = self.moving_car
        twin.move_start = self.move_start
        twin.move_spaces = self.move_spaces
        twin.bonus_step = self.bonus_step
        twin.move_choices = self.move_choices  # shared with the board's cache, never changed
        twin.lines_crossed = self.lines_crossed
        twin.lines_just_crossed = self.lines_just_crossed
        twin.lines_to_bet = list(self.lines_to_bet)
        twin.bets = [list(b) for b in self.bets]
        return twin

    # -- public queries -------------------------------------------------------
    @property
    def phase(self) -> Phase:
        """The phase: auction, power, race, bet or over."""
        return self.step.phase

    @property
    def over(self) -> bool:
        return self.step is STEP_OVER

    def options(self, seat: int) -> list[Decision]:
        """The legal options of ``seat`` now (empty when nothing is due from it).

        Paths are offered one per distinct outcome; ``all_paths`` lists every
        concrete path, and any of them may be applied.
        """
        if seat in self.collected:
            return []
        return list(self._options.get(seat, ()))

    def all_paths(self, seat: int) -> list[Path]:
        """Every concrete legal path for the pending move (R-MOVE-4), if any."""
        if self.step is not STEP_PATH or seat not in self._due_seats:
            return []
        start, n = self.move_start, self.move_spaces
        others = self.occupied - {start}
        car = COLOURS[self.moving_car]
        moves = self.board.graph.moves(start, n, others)
        limit = self.move_limit()
        if limit > n:  # R-POW-AGG: the moves that take the extra space too
            moves += [m for m in self.board.graph.moves(start, limit, others) if len(m.path) > n]
        return [Path(seat, car, tuple(self.board.ids[i] for i in m.path)) for m in moves]

    @property
    def pending(self) -> Pending:
        """What is asked now, with its context."""
        if self._pending is None:
            self._pending = self._describe()
        return self._pending

    def _describe(self) -> Pending:
        step = self.step
        kind = step.kind
        path = step is STEP_PATH
        if path and self.bonus_step:
            kind = "bonus"
        car = None
        if step is STEP_BID and self.auctioned_car != NOBODY:
            car = COLOURS[self.auctioned_car]
        elif path:
            car = COLOURS[self.moving_car]
        line = self.lines_to_bet[0] if step is STEP_BET and self.lines_to_bet else None
        # Filled in directly: a frozen dataclass's __init__ takes twice as long, and
        # bots read ``pending`` at most of their decisions.
        pending = object.__new__(Pending)
        pending.__dict__.update(
            kind=kind,
            players=tuple(self.due()),
            car=car,
            power=self.auctioned_power if step is STEP_BID else None,
            card=self.card,
            spaces=self.move_spaces if path else None,
            line=line,
            set_aside=tuple(COLOURS[c] for c, _ in self.set_aside) if step is STEP_SECOND else (),
            row=self.current_row if path and not self.bonus_step else None,
            extra=self.move_limit() - self.move_spaces if path else 0,
        )
        return pending

    def card_of(self, card_id: int) -> Card:
        """The card with this id."""
        return self.cards[card_id]

    def position(self, colour: str) -> str | None:
        """The space id of a car, or None once it has finished."""
        i = self.car_spaces[COLOURS.index(colour)]
        return None if i == OFF else self.board.ids[i]

    def owner_of(self, colour: str) -> int | None:
        """The seat owning a car, or None."""
        owner = self.owner[COLOURS.index(colour)]
        return None if owner == NOBODY else owner

    def view(self, seat: int) -> PlayerView:
        """What ``seat`` may see: own hand and bets; others' only as counts."""
        ids = self.board.ids
        return PlayerView(
            seat=seat,
            phase=self.phase,
            pending=self.pending,
            hand=tuple(self.hands[seat]),
            hand_sizes=tuple(len(h) for h in self.hands),
            pile_sizes=tuple(len(pile) for pile in self.piles)
            if self.variant.hand_mode == "private"
            else (len(self.pile),),
            face_up=tuple(tuple(f) for f in self.face_up),
            positions={
                c: (None if self.car_spaces[i] == OFF else ids[self.car_spaces[i]])
                for i, c in enumerate(COLOURS)
            },
            finished=tuple(COLOURS[c] for c in self.finished),
            owners={
                c: (None if self.owner[i] == NOBODY else self.owner[i])
                for i, c in enumerate(COLOURS)
            },
            powers=tuple(self.power),
            held_powers=tuple(tuple(h) for h in self.held_powers),
            prices=tuple(sum(price for _, price in paid) for paid in self.prices),
            my_bets=self._my_bets(seat),
            bets_made=tuple(self.bet_lines_done()),
            all_bets=tuple(tuple(self._bet_name(b) for b in self.bets[k]) for k in range(3))
            if self.over
            else (),
            turn=self.turn,
            log=tuple(self.log),
        )

    def _my_bets(self, seat: int) -> tuple[str | None, ...]:
        """A seat's bets, the one it just chose among them while others still choose."""
        bets = [self._bet_name(self.bets[k][seat]) for k in range(3)]
        chosen = self.collected.get(seat)
        if isinstance(chosen, Bet) and self.lines_to_bet:
            bets[self.lines_to_bet[0]] = chosen.car
        return tuple(bets)

    def bet_lines_done(self) -> list[int]:
        """Betting lines (0-based) whose bet has been made."""
        return [k for k in range(3) if all(b is not None for b in self.bets[k])]

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
        self._pending = None
        self._run(self._take(decision))

    def _check(self, decision: Decision) -> None:
        seat = decision.player
        if self.step is STEP_OVER:
            raise IllegalDecision("the game is over; no decision is due")
        if seat not in self._due_seats or seat in self.collected:
            due = ", ".join(f"seat {other}" for other in self.due()) or "nobody"
            raise IllegalDecision(f"seat {seat} has no decision due now ({due} must decide)")
        kind = self.step.kind
        if decision.type != kind:
            raise IllegalDecision(f"a {kind} decision is due from seat {seat}, not {decision.type}")
        options = self._options.get(seat, ())
        for option in options:  # bots answer with one of the options themselves
            if option is decision:
                return
        if not isinstance(decision, Order) and decision in options:
            return
        if self._also_legal(decision):
            return
        raise IllegalDecision(
            f"{decision.type} {decision.to_dict()} is not a legal option now",
            hint=f"legal: {self._short_options(seat)}",
        )

    def _short_options(self, seat: int) -> str:
        options = self._options.get(seat, [])
        text = ", ".join(
            str({k: v for k, v in option.to_dict().items() if k not in ("type", "player")})
            for option in options[:6]
        )
        return text + (f" and {len(options) - 6} more" if len(options) > 6 else "")

    def _also_legal(self, decision: Decision) -> bool:
        """Legal decisions not listed as options: a pass played with a card,
        any row order (Tricky), any concrete legal path."""
        if isinstance(decision, Bid) and decision.card is not None:
            if decision.card not in self.hands[decision.player]:
                return False
            if self.step is STEP_BID and decision.car not in (None, COLOURS[self.auctioned_car]):
                return False
            colour = decision.car if self.step is STEP_SECOND else COLOURS[self.auctioned_car]
            if colour is None:  # a second-round bid names its car
                return False
            if self.step is STEP_SECOND and COLOURS.index(colour) not in [
                c for c, _ in self.set_aside
            ]:
                return False
            return (
                self._bid_value(decision.player, decision.card, colour) is None
                and Bid(decision.player, None) in self._options[decision.player]
            )
        if isinstance(decision, Order) and self.card is not None:
            n = len(self.cards[self.card].rows)
            rows = decision.rows if isinstance(decision.rows, tuple) else ()
            return all(type(r) is int for r in rows) and sorted(rows) == list(range(n))
        if isinstance(decision, Path):
            return (
                decision.car == COLOURS[self.moving_car]
                and isinstance(decision.path, tuple)
                and all(isinstance(s, str) for s in decision.path)
                and self._path_legal(decision.path)
            )
        return False

    def _path_legal(self, path: tuple[str, ...]) -> bool:
        """R-MOVE-4 checked directly on a concrete path."""
        index, graph = self.board.index, self.board.graph
        start, n = self.move_start, self.move_spaces
        limit = self.move_limit()  # more than n when an Aggressive extra is offered
        if not path or len(path) > limit or any(s not in index for s in path):
            return False
        others = self.occupied - {start}
        here = start
        for k, sid in enumerate(path):
            b = index[sid]
            if b not in graph.forward[here] or b in others:
                return False
            if graph.beyond_finish[b] and not graph.beyond_finish[here]:
                return k == len(path) - 1  # R-FIN-1: a finishing step ends the move
            here = b
        return len(path) in (n, limit) or not graph.free_forward(here, others)

    def _take(self, decision: Decision) -> Next:
        step = self.step
        if step.simultaneous:  # resolved once every seat asked has answered
            self.collected[decision.player] = decision
            if self.due():
                return None
            if step is STEP_BID:
                return self._resolve_bids
            return self._resolve_keep if step is STEP_KEEP else self._resolve_bet
        # Otherwise each step asks for its own kind of decision (checked by ``_check``).
        if isinstance(decision, Path):
            return self._on_path(decision)
        if isinstance(decision, PlayCard):
            return self._on_card(decision)
        if isinstance(decision, Wild):
            return self._on_wild(decision)
        if isinstance(decision, Order):
            return self._on_order(decision)
        if isinstance(decision, Skip):
            return self._on_skip(decision)
        if isinstance(decision, Bid):
            return self._on_second(decision)
        if isinstance(decision, SwapPower):
            return self._on_swap(decision)
        raise IllegalDecision(f"no step takes a {decision.type} decision")

    def _run(self, first: Next) -> None:
        step = first
        while step is not None:
            step = step()
