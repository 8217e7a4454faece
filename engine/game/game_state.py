"""The fields of a game, typed and declared once, and the base of its step mixins.

``GameState`` holds everything a game is at one moment: plain ints, lists,
sets and dicts (never shared between games except the immutable board,
variant, deck and log events), so that ``Game.copy`` is a handful of list
copies. ``Steps`` adds the flow helpers the step mixins share.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from trackside.engine.game.board import Board, Outcome
from trackside.engine.game.cards import COLOURS, Card, Deck
from trackside.engine.game.decisions import Decision, IllegalDecision
from trackside.engine.game.events import Event, Pending
from trackside.engine.game.result import Result
from trackside.engine.game.setup import Deal
from trackside.engine.game.steps import SEAT_NAMES, Next, Step, seat_name
from trackside.engine.game.variants import Variant

D = TypeVar("D", bound=Decision)


@dataclass(slots=True, eq=False, repr=False)
class GameState:
    """Every field of a game. Cars are indexed in ``COLOURS`` order, seats from 0.

    Read them freely; change them only through ``Game.apply``. Card fields hold
    card ids, ``bets`` is secret until the game is over (use ``Game.view``).
    """

    # -- the table: shared, never modified --------------------------------------
    board: Board
    variant: Variant
    deck: Deck
    cards: tuple[Card, ...]  # card by id (``deck.cards``)
    players: int
    seed: int
    deal: Deal  # the set-up used
    rng: random.Random  # the game's random source (R-SET-5)
    _rng_shared: bool  # ``rng`` is shared with a copy: unshare it before drawing
    logging: bool  # routine events (cards, moves, WILD colours) are logged
    # -- the flow -------------------------------------------------------------------
    step: Step  # what the game waits for now
    _due_seats: list[int]  # seats asked at this step
    _options: Mapping[int, Sequence[Decision]]  # legal options per seat asked (never changed)
    collected: dict[int, Decision]  # decisions given so far at a simultaneous step
    _pending: Pending | None  # what is asked, built on first use
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
    move_choices: dict[tuple[str, ...], Outcome]  # one path per distinct outcome
    # -- betting --------------------------------------------------------------------
    lines_crossed: int  # bitmask of betting lines crossed
    lines_just_crossed: int  # lines first crossed by the card resolving now
    lines_to_bet: list[int]  # lines whose bet is still to make, in order
    bets: list[list[int | None]]  # car per line per seat, None until made


class Steps(GameState):
    """Base of the step mixins: asking, logging and random draws over the state."""

    __slots__ = ()

    def _take(self, decision: Decision) -> Next:
        """Apply a due decision: each step's handler (``Game`` knows them all)."""
        raise NotImplementedError

    def due(self) -> list[int]:
        """Seats whose decision is due now (several for secret bids and bets)."""
        collected = self.collected
        if not collected:
            return self._due_seats[:]
        return [seat for seat in self._due_seats if seat not in collected]

    def _ask(
        self, step: Step, options: Mapping[int, Sequence[Decision]], then: Callable[[], Next]
    ) -> Next:
        """Ask the seats in ``options``; a seat with one option answers it at once."""
        self.step = step
        self._options = options
        self._due_seats = list(options)
        self.collected = {}
        if step.simultaneous:
            for seat, choices in options.items():
                if len(choices) == 1:
                    self.collected[seat] = choices[0]
            return then if not self.due() else None
        (seat,) = options
        if len(options[seat]) == 1:
            only = options[seat][0]
            return lambda: self._take(only)
        return None

    def _collected(self, kind: type[D]) -> list[tuple[int, D]]:
        """The decisions collected at a simultaneous step, by seat (each of ``kind``)."""
        out = []
        for seat in sorted(self.collected):
            decision = self.collected[seat]
            if not isinstance(decision, kind):
                raise IllegalDecision(f"seat {seat} gave a {decision.type}, not a {kind.type}")
            out.append((seat, decision))
        return out

    def _random(self) -> random.Random:
        """The game's own random source (R-SET-5), unshared from copies before a draw."""
        if self._rng_shared:
            own = random.Random.__new__(random.Random)
            own.setstate(self.rng.getstate())
            self.rng, self._rng_shared = own, False
        return self.rng

    def _say(self, kind: str, text: str, **data: Any) -> None:
        # The fields set directly: the frozen dataclass's __init__ takes twice as long.
        event = object.__new__(Event)
        fields = event.__dict__
        fields["kind"], fields["text"], fields["data"] = kind, text, data
        self.log.append(event)

    def _seat(self, seat: int) -> str:
        return SEAT_NAMES[seat] if 0 <= seat < len(SEAT_NAMES) else seat_name(seat)

    def _bet_name(self, code: int | None) -> str | None:
        return None if code is None else COLOURS[code]
