"""``Game``: one Downforce race, and the whole contract of the rules engine.

As python-chess's ``Board`` is for chess: a game answers what is due
(``due``, ``options``, ``pending``), takes one decision at a time
(``apply``) and takes it back (``undo``), copies itself for search
(``copy``), shows each seat only what it may see (``view``), and draws the
world as one seat may believe it (``determinized``). What the rules do is
in plain step functions over the typed state (``GameState``,
``engine/game/state.py``): ``auction.py`` (set-up, auction, powers),
``race.py`` (turns, cards, moves, bets) and ``scoring.py`` (the end); the
two tables below say which function takes each answer.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from trackside.engine.errors import InvalidInput
from trackside.engine.game import auction, hidden, race
from trackside.engine.game.board import Board
from trackside.engine.game.cards import COLOURS, Card, Deck
from trackside.engine.game.decisions import Bid, Decision, IllegalDecision, Order, Path
from trackside.engine.game.events import Event, Pending, Phase
from trackside.engine.game.result import Result
from trackside.engine.game.setup import Deal, check_deal, shuffled_setup
from trackside.engine.game.state import GameState, Next
from trackside.engine.game.steps import NOBODY, OFF, STEP_OVER, STEP_PATH, Step
from trackside.engine.game.variants import Variant
from trackside.engine.game.view import PlayerView, bet_lines_done, describe, player_view
from trackside.engine.text import plural
from trackside.engine.track.model import Track
from trackside.engine.track.movement import Move


class Link:
    """One decision applied, with the link of the decisions before it: a copy of
    a game shares its links, and a decision applied adds one. (A class, not a
    recursive tuple type, which the engine's C compiler cannot take.)"""

    __slots__ = ("before", "decision")

    def __init__(self, before: Link | None, decision: Decision) -> None:
        self.before = before
        self.decision = decision


# The function that takes the answer of the one seat asked at each step ...
ANSWERS: dict[Step, Callable[[GameState, Any], Next]] = {
    Step.SECOND: auction.on_second,
    Step.SWAP: auction.on_swap,
    Step.CARD: race.on_card,
    Step.ORDER: race.on_order,
    Step.SKIP: race.on_skip,
    Step.WILD: race.on_wild,
    Step.PATH: race.on_path,
}
# ... and, at a step where every seat asked answers in secret, the function that
# reveals the answers once all are in.
RESOLVES: dict[Step, Callable[[GameState], Next]] = {
    Step.BID: auction.resolve_bids,
    Step.KEEP: auction.resolve_keep,
    Step.BET: race.resolve_bet,
}


class Game:
    """One Downforce race under a variant on a board (see ``engine.game``).

    ``state`` is the ``GameState``: read it freely (hands, cars, auction,
    the card being resolved, bets ...), change it only through ``apply`` and
    ``undo``. The table (``board``, ``variant``, ``players``, ``deck``,
    ``cards``, ``seed``, ``deal``) never changes.
    """

    __slots__ = ("_base", "_history", "state")

    def __init__(
        self, state: GameState, base: GameState | None = None, history: Link | None = None
    ) -> None:
        """A game at ``state``, where its history begins (``undo`` goes back as far
        as this), or, for a copy, where ``base`` and ``history`` say it began and
        what was applied since. Games are made by ``new``, ``copy`` and
        ``determinized``."""
        self.state = state
        # Never changed: undo sets the game up again from it.
        self._base = state.copy() if base is None else base
        self._history = history  # shared with copies: never changed, only extended

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
        _check_table(board, variant, players)
        if board.use_finish != variant.use_finish:
            board = Board.of(board.track, variant.use_finish)
        if deal is None:
            setup = shuffled_setup(variant, variant.deck, players, seed)
            deal, rng = setup.deal, setup.rng
        else:
            check_deal(deal, variant, variant.deck, players)
            rng = random.Random(seed)
        state = GameState.dealt(board, variant, players, seed, deal, rng, log)
        _run(state, auction.start)
        return cls(state)

    def copy(self, log: bool | None = None) -> Game:
        """An independent copy that ``undo`` can take back as far as this game can.

        It shares the board, variant, deck and log events. ``log=False`` gives
        a copy that stops logging routine events (for bots that search; its
        ``undo`` goes back only to the copy); None keeps this game's setting."""
        state = self.state
        if log is None or log == state.logging:
            return Game(state.copy(), self._base, self._history)
        return Game(state.copy(log))

    def determinized(
        self, seat: int, rng: random.Random, bet_guess: Mapping[int, int] | None = None
    ) -> Game:
        """The world as ``seat`` may believe it: a copy (not logging) in which what
        it cannot see (other hands, the piles, the cars and powers still to come,
        others' bets and secret answers) is drawn from ``rng``, consistently with
        what it has seen (``engine/game/hidden.py``). Others' bets already made
        become ``bet_guess[line]`` (a car code) where given. Its ``undo`` goes
        back only to the moment it was drawn."""
        return Game(hidden.determinized(self.state, seat, rng, bet_guess))

    # -- the table ------------------------------------------------------------
    @property
    def board(self) -> Board:
        return self.state.board

    @property
    def variant(self) -> Variant:
        return self.state.variant

    @property
    def players(self) -> int:
        return self.state.players

    @property
    def deck(self) -> Deck:
        return self.state.deck

    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards by id."""
        return self.state.cards

    @property
    def seed(self) -> int:
        return self.state.seed

    @property
    def deal(self) -> Deal:
        """The set-up used (the seed's shuffles, or the deal given)."""
        return self.state.deal

    # -- what is due ----------------------------------------------------------
    @property
    def phase(self) -> Phase:
        """The phase: auction, power, race, bet or over."""
        return self.state.step.phase

    @property
    def over(self) -> bool:
        return self.state.step is STEP_OVER

    @property
    def result(self) -> Result | None:
        """The result once the game is over (R-SCORE), else None."""
        return self.state.result

    @property
    def log(self) -> list[Event]:
        """The public log so far (read-only)."""
        return self.state.log

    def due(self) -> list[int]:
        """Seats whose decision is due now (several for secret bids and bets)."""
        return self.state.due()

    def options(self, seat: int) -> list[Decision]:
        """The legal options of ``seat`` now (empty when nothing is due from it).

        Paths are offered one per distinct outcome; ``all_paths`` lists every
        concrete path, and any of them may be applied.
        """
        state = self.state
        if seat in state.collected:
            return []
        return list(state.options.get(seat, ()))

    def all_paths(self, seat: int) -> list[Path]:
        """Every concrete legal path for the pending move (R-MOVE-4), if any."""
        return race.all_paths(self.state, seat)

    @property
    def pending(self) -> Pending:
        """What is asked now, with its context."""
        state = self.state
        if state.pending is None:
            state.pending = describe(state, state.due())
        return state.pending

    def move_of(self, decision: Path) -> Move | None:
        """The move a path for the pending move makes, all it does told (every line
        crossed, whether it finishes, ends blocked, enters only rectangular
        spaces), or None when it is not legal now."""
        if self.state.step is not STEP_PATH:
            return None
        return race.path_move(self.state, decision)

    def move_limit(self) -> int:
        """The most spaces the pending move may take (more than ``pending.spaces``
        when an Aggressive extra space is offered, R-POW-AGG)."""
        return race.move_limit(self.state)

    # -- what a seat sees -----------------------------------------------------
    def view(self, seat: int) -> PlayerView:
        """What ``seat`` may see: own hand and bets; others' only as counts."""
        return player_view(self.state, seat, self.pending)

    def card_of(self, card_id: int) -> Card:
        """The card with this id."""
        return self.state.cards[card_id]

    def position(self, colour: str) -> str | None:
        """The space id of a car, or None once it has finished."""
        i = self.state.car_spaces[COLOURS.index(colour)]
        return None if i == OFF else self.state.board.ids[i]

    def owner_of(self, colour: str) -> int | None:
        """The seat owning a car, or None."""
        owner = self.state.owner[COLOURS.index(colour)]
        return None if owner == NOBODY else owner

    def bet_lines_done(self) -> list[int]:
        """Betting lines (0-based) whose bet has been made."""
        return bet_lines_done(self.state)

    # -- applying and taking back ---------------------------------------------
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
        state = self.state
        state.pending = None
        self._history = Link(self._history, decision)
        if state.step.simultaneous:  # revealed once every seat asked has answered
            state.collected[decision.player] = decision
            _run(state, None)
        else:
            _run(state, ANSWERS[state.step](state, decision))

    @property
    def history(self) -> tuple[Decision, ...]:
        """The decisions applied so far (since set-up, or since this game was
        drawn or copied without its history), oldest first."""
        out = []
        link = self._history
        while link is not None:
            out.append(link.decision)
            link = link.before
        return tuple(reversed(out))

    def undo(self) -> Decision:
        """Take back the last decision applied and return it: the game is exactly
        as it was before it, random source included (python-chess's ``pop``).

        The game is set up again from where its history begins and the other
        decisions are applied again: a game's every step follows from its state
        and its seeded random source, so the result is exact. Raises
        ``IllegalDecision`` when there is nothing to take back."""
        if self._history is None:
            raise IllegalDecision("no decision to take back")
        *kept, last = self.history
        self.state = self._base.copy()
        self._history = None
        for decision in kept:
            self.apply(decision)
        return last

    def _check(self, decision: Decision) -> None:
        state = self.state
        seat = decision.player
        if state.step is STEP_OVER:
            raise IllegalDecision("the game is over; no decision is due")
        if seat not in state.due_seats or seat in state.collected:
            due = ", ".join(f"seat {other}" for other in state.due()) or "nobody"
            raise IllegalDecision(f"seat {seat} has no decision due now ({due} must decide)")
        kind = state.step.kind
        if decision.type != kind:
            raise IllegalDecision(f"a {kind} decision is due from seat {seat}, not {decision.type}")
        options = state.options.get(seat, ())
        for option in options:  # bots answer with one of the options themselves
            if option is decision:
                return
        if not isinstance(decision, Order) and decision in options:
            return
        if _also_legal(state, decision):
            return
        raise IllegalDecision(
            f"{decision.type} {decision.to_dict()} is not a legal option now",
            hint=f"legal: {_short_options(options)}",
        )


def _also_legal(state: GameState, decision: Decision) -> bool:
    """Legal decisions not listed as options: a pass played with a card, any
    row order (Tricky), any concrete legal path."""
    if isinstance(decision, Bid):
        return auction.bid_legal(state, decision)
    if isinstance(decision, Order):
        return race.order_legal(state, decision)
    if isinstance(decision, Path):
        return race.move_of(state, decision) is not None
    return False


def _short_options(options: Any) -> str:
    text = ", ".join(
        str({k: v for k, v in option.to_dict().items() if k not in ("type", "player")})
        for option in options[:6]
    )
    return text + (f" and {len(options) - 6} more" if len(options) > 6 else "")


def _run(state: GameState, step: Next) -> None:
    """Run steps until the game waits for a decision that is not the only one."""
    answers, resolves = ANSWERS, RESOLVES
    while True:
        while step is not None:
            step = step(state)
        asked = state.step
        if asked.simultaneous:
            if state.due():
                return
            step = resolves[asked]  # every seat asked has answered
        else:
            if not state.due_seats:
                return
            (seat,) = state.due_seats
            options = state.options[seat]
            if len(options) != 1:
                return
            step = answers[asked](state, options[0])  # a step with one option answers itself


def _check_table(board: Board, variant: Variant, players: int) -> None:
    """Refuse a table the variant cannot be played at, saying why."""
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
