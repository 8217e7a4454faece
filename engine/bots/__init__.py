"""Bots: players that answer the same decision requests as people.

``make_bot(kind, seed)`` builds one by name (``greedy``, ``random`` or
``strong``; ``strong:N`` searches N sampled deals per decision, and N more for
the leading answers);
``drive(game, seats)`` plays a game to the end; ``ask(game, seat)`` gives the
view and request a seat answers with ``seat.choose(view, request)``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from trackside.engine.bots.base import Request, Seat, SeatView, ask, drive, race_of
from trackside.engine.bots.greedy import GreedyBot
from trackside.engine.bots.random_bot import RandomBot
from trackside.engine.bots.strong import StrongBot

# Each kind builds a bot from its seed.
BOT_KINDS: dict[str, Callable[[int | str], Seat]] = {
    "greedy": GreedyBot,
    "random": RandomBot,
    "strong": StrongBot,
}
MAX_SAMPLES = 10_000  # the most deals a strong bot may search per decision


def bot_seed(game_seed: int, seat: int, kind: str) -> str:
    """The seed of the bot in ``seat`` of a game: fixed by the game's seed."""
    return f"{game_seed}:{seat}:{kind}"


def bot_kind_problem(kind: str) -> str | None:
    """Why ``kind`` names no bot (None when it does): a kind of ``BOT_KINDS``,
    or ``strong:N`` with N deals searched per decision (1 to MAX_SAMPLES)."""
    name, colon, budget = kind.partition(":")
    if name not in BOT_KINDS:
        return f"unknown bot kind {kind!r}"
    if colon and (name != "strong" or not budget.isdigit() or not 1 <= int(budget) <= MAX_SAMPLES):
        return (
            f"bad bot budget {kind!r}: only strong takes one, "
            f"strong:N with N from 1 to {MAX_SAMPLES}"
        )
    return None


def make_bot(kind: str, seed: int | str = 0) -> Seat:
    """A bot of a known kind (``greedy``, ``random``, ``strong`` or ``strong:N``)
    with its own seed."""
    problem = bot_kind_problem(kind)
    if problem:
        raise ValueError(problem)
    name, _, budget = kind.partition(":")
    if budget:
        return StrongBot(seed, samples=int(budget))
    return BOT_KINDS[name](seed)


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
    "StrongBot",
    "ask",
    "bot_kind_problem",
    "bot_seed",
    "drive",
    "make_bot",
    "race_of",
    "seat_bots",
]
