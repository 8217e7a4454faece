"""Bots: players that answer the same decision requests as people.

``make_bot(kind, seed)`` builds one by name (``greedy`` or ``random``);
``drive(game, seats)`` plays a game to the end; ``ask(game, seat)`` gives the
view and request a seat answers with ``seat.choose(view, request)``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from trackside.engine.bots.base import Request, Seat, SeatView, ask, drive, race_of
from trackside.engine.bots.greedy import GreedyBot
from trackside.engine.bots.random_bot import RandomBot

# Each kind builds a bot from its seed.
BOT_KINDS: dict[str, Callable[[int | str], Seat]] = {"greedy": GreedyBot, "random": RandomBot}


def bot_seed(game_seed: int, seat: int, kind: str) -> str:
    """The seed of the bot in ``seat`` of a game: fixed by the game's seed."""
    return f"{game_seed}:{seat}:{kind}"


def make_bot(kind: str, seed: int | str = 0) -> Seat:
    """A bot of a known kind (``greedy``, ``random``) with its own seed."""
    return BOT_KINDS[kind](seed)


def seat_bots(game_seed: int, kinds: Sequence[str]) -> list[Seat]:
    """One bot per seat, of ``kinds[seat]``, each seeded from the game's seed and its seat."""
    return [make_bot(kind, bot_seed(game_seed, seat, kind)) for seat, kind in enumerate(kinds)]


__all__ = [
    "BOT_KINDS",
    "GreedyBot",
    "RandomBot",
    "Request",
    "Seat",
    "SeatView",
    "ask",
    "bot_seed",
    "drive",
    "make_bot",
    "race_of",
    "seat_bots",
]
