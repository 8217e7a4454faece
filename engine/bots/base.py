"""The seat interface: bots and people answer the same decision requests.

A seat (``Seat``) is anything with ``choose(view, request) -> Decision``. The
``view`` is a ``SeatView``: what that seat may see (its own hand and bets, the
public board), read lazily from the game so that bots stay fast. The
``request`` holds what is asked (``pending``), the legal ``options`` and the
public facts of the table (board, variant, the cards by id). ``drive`` plays a
game (a ``Game`` or a world-tour ``Series``) to the end with one seat per
player.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Protocol, TypeVar

from trackside.engine.game import COLOURS, Board, Card, Decision, Game, PlayerView, Series, Variant
from trackside.engine.game.events import Event, Pending, Phase

OFF = -1  # space index of a car that has finished
D = TypeVar("D", bound=Decision)


class Request:
    """One decision asked of ``seat``: its legal ``options``, what is asked
    (``pending``, read on first use) and the public table: board, variant,
    the cards by id, the number of players."""

    __slots__ = ("_pending", "_race", "board", "cards", "options", "players", "seat", "variant")

    def __init__(self, race: Game, seat: int, options: Sequence[Decision]):
        self.seat = seat
        self.options = options
        table = race.state  # the fields themselves: a request is made at every decision
        self.board: Board = table.board
        self.variant: Variant = table.variant
        self.cards: tuple[Card, ...] = table.cards
        self.players: int = table.players
        self._race = race
        self._pending: Pending | None = None

    @property
    def pending(self) -> Pending:
        """The step asked, with its context (car, card, spaces, line ...)."""
        if self._pending is None:
            self._pending = self._race.pending
        return self._pending

    def options_of(self, kind: type[D]) -> list[D]:
        """The options that are ``kind`` decisions (every option, at a step that
        asks for that kind)."""
        options = self.options
        for option in options:
            if type(option) is not kind:
                return [option for option in options if isinstance(option, kind)]
        return list(options)  # type: ignore[arg-type]  # each option is exactly a ``kind``

    @property
    def card(self) -> int | None:
        """The card being resolved (``pending.card``), without building ``pending``."""
        return self._race.state.card

    @property
    def kind(self) -> str:
        """The decision type asked (``bid``, ``play_card``, ``path`` ...), without
        building ``pending``; a Determined bonus step is ``path`` here."""
        return self.options[0].type if self.options else self.pending.kind


class SeatView:
    """What one seat may see, read on demand from the game.

    The same facts as ``engine.game.PlayerView`` (``full()`` builds that), plus
    index forms for bots: ``spaces`` (space index per car in COLOURS order, -1
    when finished) and ``owner_codes`` (seat per car, -1 when unowned). Other
    players' hands and bets are never exposed.
    """

    __slots__ = ("_game", "_state", "seat")

    def __init__(self, game: Game, seat: int):
        self._game = game
        self._state = game.state
        self.seat = seat

    @property
    def phase(self) -> Phase:
        return self._game.phase

    @property
    def pending(self) -> Pending:
        return self._game.pending

    @property
    def hand(self) -> list[int]:
        """Card ids in this seat's hand (a copy)."""
        return list(self._state.hands[self.seat])

    @property
    def face_up(self) -> list[int]:
        """This seat's unused face-up Speed-8 cards (two players)."""
        return list(self._state.face_up[self.seat])

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        return tuple(len(h) for h in self._state.hands)

    @property
    def spaces(self) -> tuple[int, ...]:
        """Space index of each car (COLOURS order), -1 once finished."""
        return tuple(self._state.car_spaces)

    @property
    def positions(self) -> dict[str, str | None]:
        ids, pos = self._state.board.ids, self._state.car_spaces
        return {c: (None if pos[i] == OFF else ids[pos[i]]) for i, c in enumerate(COLOURS)}

    @property
    def owner_codes(self) -> tuple[int, ...]:
        """Seat owning each car (COLOURS order), -1 when unowned."""
        return tuple(self._state.owner)

    @property
    def owners(self) -> dict[str, int | None]:
        return {c: self._game.owner_of(c) for c in COLOURS}

    @property
    def finished(self) -> tuple[str, ...]:
        return tuple(COLOURS[c] for c in self._state.finished)

    @property
    def finished_codes(self) -> tuple[int, ...]:
        """Finished cars as codes (COLOURS order numbers), first finisher first."""
        return tuple(self._state.finished)

    @property
    def powers(self) -> tuple[str | None, ...]:
        return tuple(self._state.power)

    @property
    def held_powers(self) -> tuple[tuple[str, ...], ...]:
        return tuple(tuple(h) for h in self._state.held_powers)

    @property
    def my_bets(self) -> tuple[str | None, ...]:
        return tuple(None if car is None else COLOURS[car] for car in self.bet_codes)

    @property
    def bet_codes(self) -> tuple[int | None, ...]:
        """This seat's bets as car codes (COLOURS order), None where not made."""
        bets, seat = self._state.bets, self.seat
        return (bets[0][seat], bets[1][seat], bets[2][seat])

    @property
    def discard(self) -> list[int]:
        """Cards played so far (face up, public)."""
        return list(self._state.discard)

    @property
    def turn(self) -> int | None:
        return self._state.turn

    @property
    def log(self) -> list[Event]:
        """The public log so far (a copy)."""
        return list(self._state.log)

    def log_since(self, start: int) -> list[Event]:
        """The public log events from index ``start`` on."""
        return self._state.log[start:]

    def determinized(self, rng: random.Random, bet_guess: Mapping[int, int] | None = None) -> Game:
        """The world as this seat may believe it, for searching: a copy of the game
        with everything this seat cannot see (other hands, piles, decks to come,
        others' bets) drawn from ``rng`` (``Game.determinized``)."""
        return self._game.determinized(self.seat, rng, bet_guess)

    def full(self) -> PlayerView:
        """The engine's complete ``PlayerView`` of this seat."""
        return self._game.view(self.seat)


class Seat(Protocol):
    """A player at the table: a bot, or a person asked on a terminal or in the app."""

    kind: str

    def choose(self, view: SeatView, request: Request) -> Decision:
        """One of ``request.options`` (or another legal decision of that step)."""
        ...


def race_of(game: Game | Series) -> Game:
    """The race being played: the game itself, or a series' current race."""
    return game.game if isinstance(game, Series) else game


def ask(game: Game | Series, seat: int) -> tuple[SeatView, Request]:
    """The view and the request for ``seat``, whose decision is due."""
    race = race_of(game)
    return SeatView(race, seat), Request(race, seat, race.options(seat))


def drive(
    game: Game | Series,
    seats: Sequence[Seat],
    apply: Callable[[Decision], None] | None = None,
    until: Callable[[], bool] | None = None,
) -> None:
    """Ask the due seats and apply their answers until the game is over (or
    ``until()`` is true). ``apply`` replaces ``game.apply`` (e.g. to record)."""
    do = apply or game.apply
    while not game.over and not (until and until()):
        for seat in game.due():
            # ``ask`` inlined: this loop runs at every decision of every bot game.
            race = game.game if isinstance(game, Series) else game
            options = race.options(seat)
            do(seats[seat].choose(SeatView(race, seat), Request(race, seat, options)))
