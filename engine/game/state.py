"""The state of one game, typed and declared once, with the few primitives that change it.

``GameState`` holds everything a game is at one moment: plain ints, lists,
sets and dicts (never shared between games except the immutable board,
variant, deck and log events), so that a copy is a handful of list copies.
Its fields are public because the rules modules (``auction``, ``race``,
``scoring``) change them; everything else reads them only, and changes a
game only through ``Game.apply`` (``engine/game/game.py``).

The flow is a trampoline of step functions, each a plain function of the
state (``Next``): a step either asks for decisions (``GameState.ask``) and
returns None, or returns the step that follows.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeAlias, TypeVar

from trackside.engine.game.board import Board
from trackside.engine.game.cards import COLOURS, Card, Deck
from trackside.engine.game.decisions import Decision, IllegalDecision
from trackside.engine.game.events import Event, Pending
from trackside.engine.game.result import Result
from trackside.engine.game.setup import Deal
from trackside.engine.game.steps import NOBODY, OFF, SEAT_NAMES, Step, seat_name
from trackside.engine.game.variants import Variant
from trackside.engine.track.movement import Move

D = TypeVar("D", bound=Decision)


@dataclass(slots=True, eq=False, repr=False)
class GameState:
    """Every field of a game. Cars are indexed in ``COLOURS`` order, seats from 0.

    Card fields hold card ids; ``bets`` is secret until the game is over (a
    seat's own view is ``Game.view``).
    """

    # -- the table: shared, never modified --------------------------------------
    board: Board
    variant: Variant
    deck: Deck
    cards: tuple[Card, ...]  # card by id (``deck.cards``)
    players: int
    seed: int
    deal: Deal  # the set-up used
    rng: random.Random  # the game's random source (R-SET-5): draw through ``random()``
    rng_shared: bool  # ``rng`` is shared with a copy: ``random()`` unshares it first
    logging: bool  # routine events (cards, moves, WILD colours) are logged
    # -- the flow -------------------------------------------------------------------
    step: Step  # what the game waits for now
    due_seats: list[int]  # seats asked at this step
    options: Mapping[int, Sequence[Decision]]  # legal options per seat asked (never changed)
    collected: dict[int, Decision]  # decisions given so far at a simultaneous step
    pending: Pending | None  # what is asked (``Game.pending``), built on first use
    log: list[Event]
    result: Result | None  # once the game is over
    # -- cards ----------------------------------------------------------------------
    hands: list[list[int]]  # per seat
    piles: list[list[int]]  # private draw piles per seat (two players)
    pile: list[int]  # the common draw pile, top first
    face_up: list[list[int]]  # unused face-up Speed-8 cards per seat (two players)
    discard: list[int]  # cards played
    out_of_game: list[int]  # cards out of the game
    # -- cars -----------------------------------------------------------------------
    owner: list[int]  # seat per car, NOBODY when unowned
    car_spaces: list[int]  # space index per car, OFF once finished
    occupied: set[int]  # the spaces occupied
    laps: list[int]  # laps completed per car (long distance)
    finished: list[int]  # cars in finishing order
    retired: list[bool]  # per seat: all its cars have finished
    # -- auction and powers ---------------------------------------------------------
    speed8_queue: list[int]  # cars still to auction (or deal), next first
    power_queue: list[str]  # powers still to reveal, next first
    auctioned_car: int  # the car auctioned now, NOBODY between auctions
    auctioned_power: str | None  # the power auctioned with it
    set_aside: list[tuple[int, str | None]]  # (car, power) nobody bid on (R-AUC-8)
    second_queue: list[int]  # seats still to bid on set-aside cars
    held_powers: list[list[str]]  # powers won per seat
    power: list[str | None]  # the power kept per seat
    prices: list[list[tuple[int, int]]]  # per seat: (car, price) paid
    cunning_winner: int  # the seat that won Cunning, NOBODY if none
    # -- the card being resolved ----------------------------------------------------
    turn: int | None  # the seat playing a card, None outside the race
    card: int | None  # the card being resolved
    from_hand: bool  # it came from the hand (not a face-up Speed-8 card)
    cards_played: int
    row_order: list[int]  # its rows (0 = printed top) in the order they resolve
    skipped_row: int | None  # the row skipped (Strategic)
    wild_cars: dict[int, int]  # car named per WILD row
    wild_rows: list[int]  # the WILD rows to name, top first
    rows_started: int  # how many rows of ``row_order`` have started
    current_row: int | None  # the row resolving now
    # -- the move being chosen ------------------------------------------------------
    moving_car: int  # the car moving
    move_start: int  # its space before the move
    move_spaces: int  # spaces to move
    bonus_step: bool  # the move is a Determined bonus step
    move_choices: dict[tuple[str, ...], Move]  # one path per distinct outcome
    # -- betting --------------------------------------------------------------------
    lines_crossed: int  # bitmask of betting lines crossed
    lines_just_crossed: int  # lines first crossed by the card resolving now
    lines_to_bet: list[int]  # lines whose bet is still to make, in order
    bets: list[list[int | None]]  # car per line per seat, None until made

    @classmethod
    def dealt(
        cls,
        board: Board,
        variant: Variant,
        players: int,
        seed: int,
        deal: Deal,
        rng: random.Random,
        logging: bool,
    ) -> GameState:
        """The state after the deal (R-SET), before the first step has run."""
        n = players
        used = {c for h in deal.hands for c in h} | set(deal.pile)
        car_spaces = [OFF] * len(COLOURS)
        for slot, colour in enumerate(deal.grid):  # R-SET-4
            car_spaces[COLOURS.index(colour)] = board.grid[slot]
        deck = variant.deck
        return cls(
            board=board,
            variant=variant,
            deck=deck,
            cards=deck.cards,
            players=players,
            seed=seed,
            deal=deal,
            rng=rng,
            rng_shared=False,
            logging=logging,
            step=Step.START,
            due_seats=[],
            options={},
            collected={},
            pending=None,
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

    def copy(self, log: bool | None = None) -> GameState:
        """An independent copy (sharing the board, variant, deck, log events and,
        until one of them draws, the random source); ``log`` None keeps the setting."""
        # Copy-on-draw: both states share the random source until one draws from it.
        self.rng_shared = True
        # Slot by slot (twice as fast as the constructor's keywords); the tests check
        # that every field is set.
        twin = GameState.__new__(GameState)
        twin.board = self.board
        twin.variant = self.variant
        twin.deck = self.deck
        twin.cards = self.cards
        twin.players = self.players
        twin.seed = self.seed
        twin.deal = self.deal
        twin.rng = self.rng
        twin.rng_shared = True
        twin.logging = self.logging if log is None else log
        twin.step = self.step
        twin.due_seats = list(self.due_seats)
        twin.options = self.options  # replaced at each step, never changed
        twin.collected = dict(self.collected)
        twin.pending = self.pending
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

    # -- the flow --------------------------------------------------------------------
    def due(self) -> list[int]:
        """Seats whose decision is due now (several for secret bids and bets)."""
        collected = self.collected
        if not collected:
            return self.due_seats[:]
        return [seat for seat in self.due_seats if seat not in collected]

    def ask(self, step: Step, options: Mapping[int, Sequence[Decision]]) -> None:
        """Wait at ``step`` for the seats in ``options``; at a simultaneous step a
        seat with one option has answered it already (``Game`` answers a lone
        seat's only option itself)."""
        self.step = step
        self.options = options
        self.due_seats = list(options)
        self.collected = {}
        if step.simultaneous:
            for seat, choices in options.items():
                if len(choices) == 1:
                    self.collected[seat] = choices[0]

    def collected_of(self, kind: type[D]) -> list[tuple[int, D]]:
        """The decisions collected at a simultaneous step, by seat (each of ``kind``)."""
        out = []
        for seat in sorted(self.collected):
            decision = self.collected[seat]
            if not isinstance(decision, kind):
                raise IllegalDecision(f"seat {seat} gave a {decision.type}, not a {kind.type}")
            out.append((seat, decision))
        return out

    def random(self) -> random.Random:
        """The game's own random source (R-SET-5), unshared from copies before a draw."""
        if self.rng_shared:
            own = random.Random.__new__(random.Random)
            own.setstate(self.rng.getstate())
            self.rng, self.rng_shared = own, False
        return self.rng

    # -- the log ---------------------------------------------------------------------
    def say(self, kind: str, text: str, **data: Any) -> None:
        """Add an event to the log."""
        # The fields set directly: the frozen dataclass's __init__ takes twice as long.
        event = object.__new__(Event)
        fields = event.__dict__
        fields["kind"], fields["text"], fields["data"] = kind, text, data
        self.log.append(event)

    def seat_name(self, seat: int) -> str:
        """How the log names a seat."""
        return SEAT_NAMES[seat] if 0 <= seat < len(SEAT_NAMES) else seat_name(seat)

    def bet_name(self, code: int | None) -> str | None:
        """The car of a bet, by name (None where no bet is made)."""
        return None if code is None else COLOURS[code]


# A step of the flow returns the next step, or None when it waits for decisions.
Next: TypeAlias = Callable[[GameState], "Next"] | None
