"""What one seat may see (``PlayerView``) and what is asked now (``Pending``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from trackside.engine.game.cards import COLOURS
from trackside.engine.game.decisions import Bet
from trackside.engine.game.events import Event, Pending, Phase
from trackside.engine.game.pickled import by_constructor
from trackside.engine.game.race import move_limit
from trackside.engine.game.state import GameState
from trackside.engine.game.steps import (
    NOBODY,
    OFF,
    STEP_BET,
    STEP_BID,
    STEP_OVER,
    STEP_PATH,
    STEP_SECOND,
)


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

    def __reduce__(self) -> tuple[type, tuple[Any, ...]]:
        """Pickled through its constructor (the engine may run compiled)."""
        return by_constructor(self)


def player_view(state: GameState, seat: int, pending: Pending) -> PlayerView:
    """What ``seat`` may see: own hand and bets; others' only as counts."""
    ids = state.board.ids
    over = state.step is STEP_OVER
    return PlayerView(
        seat=seat,
        phase=state.step.phase,
        pending=pending,
        hand=tuple(state.hands[seat]),
        hand_sizes=tuple(len(h) for h in state.hands),
        pile_sizes=tuple(len(pile) for pile in state.piles)
        if state.variant.hand_mode == "private"
        else (len(state.pile),),
        face_up=tuple(tuple(f) for f in state.face_up),
        positions={
            c: (None if state.car_spaces[i] == OFF else ids[state.car_spaces[i]])
            for i, c in enumerate(COLOURS)
        },
        finished=tuple(COLOURS[c] for c in state.finished),
        owners={
            c: (None if state.owner[i] == NOBODY else state.owner[i]) for i, c in enumerate(COLOURS)
        },
        powers=tuple(state.power),
        held_powers=tuple(tuple(h) for h in state.held_powers),
        prices=tuple(sum(price for _, price in paid) for paid in state.prices),
        my_bets=_my_bets(state, seat),
        bets_made=tuple(bet_lines_done(state)),
        all_bets=tuple(tuple(state.bet_name(b) for b in state.bets[k]) for k in range(3))
        if over
        else (),
        turn=state.turn,
        log=tuple(state.log),
    )


def _my_bets(state: GameState, seat: int) -> tuple[str | None, ...]:
    """A seat's bets, the one it just chose among them while others still choose."""
    bets = [state.bet_name(state.bets[k][seat]) for k in range(3)]
    chosen = state.collected.get(seat)
    if isinstance(chosen, Bet) and state.lines_to_bet:
        bets[state.lines_to_bet[0]] = chosen.car
    return tuple(bets)


def bet_lines_done(state: GameState) -> list[int]:
    """Betting lines (0-based) whose bet has been made."""
    return [k for k in range(3) if all(b is not None for b in state.bets[k])]


def describe(state: GameState, due: list[int]) -> Pending:
    """What is asked now of the seats ``due``, with its context."""
    step = state.step
    kind = step.kind
    path = step is STEP_PATH
    if path and state.bonus_step:
        kind = "bonus"
    car = None
    if step is STEP_BID and state.auctioned_car != NOBODY:
        car = COLOURS[state.auctioned_car]
    elif path:
        car = COLOURS[state.moving_car]
    line = state.lines_to_bet[0] if step is STEP_BET and state.lines_to_bet else None
    # Filled in directly: a frozen dataclass's __init__ takes twice as long, and
    # bots read ``pending`` at most of their decisions.
    pending = object.__new__(Pending)
    pending.__dict__.update(
        kind=kind,
        players=tuple(due),
        car=car,
        power=state.auctioned_power if step is STEP_BID else None,
        card=state.card,
        spaces=state.move_spaces if path else None,
        line=line,
        set_aside=tuple(COLOURS[c] for c, _ in state.set_aside) if step is STEP_SECOND else (),
        row=state.current_row if path and not state.bonus_step else None,
        extra=move_limit(state) - state.move_spaces if path else 0,
    )
    return pending
