"""Helpers for scripted rules tests: variants changed in code, explicit deals,
and drivers that answer the steps a script leaves open."""

from __future__ import annotations

import dataclasses
import random

from game_tracks import straight

from trackside.engine.game import COLOURS, Board, Deal, Decision, Game, Path, load_variant

STANDARD = load_variant("standard")
# The cars in the order scripted games list them. As the Speed-8 order of a game without
# auction it seats P0 red, black, green and P1 yellow, blue, orange; as the order of
# positions, red stands on pole.
ORDER = ("red", "yellow", "black", "blue", "green", "orange")


def spread(apart: int = 10, **moved: str) -> dict[str, str]:
    """Positions for ``scenario``: the cars along lane b, ``apart`` spaces apart in
    ``ORDER`` (so that nothing blocks unless a test wants it), except the cars in
    ``moved``, on the spaces given."""
    positions = {car: f"b{apart * (k + 1)}" for k, car in enumerate(ORDER)}
    positions.update(moved)
    return positions


SPREAD = spread()


def at(game: Game, colour: str) -> str | None:
    """The space of the car of ``colour`` (None once it has finished)."""
    return game.position(colour)


def variant(**changes):
    """The standard variant with some switches changed (as a variant file would)."""
    return dataclasses.replace(STANDARD, **changes)


def dealt(**changes):
    """A variant without auction: Speed-8 cards (cars) dealt in Deal.speed8 order,
    seat by seat, each with the power at the same place in Deal.powers."""
    return variant(auction=False, min_players=2, **changes)


_BOARDS: dict = {}


def scenario(
    positions: dict[str, str],
    hands,
    speed8=COLOURS,
    powers=(),
    seed=0,
    rows=90,
    lanes=3,
    lines=(20, 40, 60, 80),
    **changes,
) -> Game:
    """A game without auction on a straight track whose start grid puts each car
    (colour -> space id; the first listed is on pole) where the test needs it.
    Cars go to seats in ``speed8`` order, seat by seat, with ``powers`` alongside."""
    v = dealt(**changes)
    grid = list(positions)
    key = (rows, lanes, lines, tuple(positions[c] for c in grid), v.use_finish)
    if key not in _BOARDS:
        _BOARDS[key] = Board(straight(rows, lanes, lines, grid=list(key[3])), v.use_finish)
    return Game.new(_BOARDS[key], v, len(hands), seed, deal(hands, grid, speed8, powers))


def deal(hands, grid=COLOURS, speed8=COLOURS, powers=(), pile=()) -> Deal:
    return Deal(
        tuple(tuple(h) for h in hands), tuple(grid), tuple(speed8), tuple(powers), tuple(pile)
    )


def lane(space_id: str) -> str:
    return space_id[0]


def straight_path(game: Game, seat: int) -> Decision:
    """The path option that keeps the car in its lane as far as possible."""
    opts = game.options(seat)
    car = game.pending.car
    here = game.position(car)

    def score(o: Path):
        return (sum(lane(s) != lane(here) for s in o.path), -len(o.path))

    return min(opts, key=score)


def first(game: Game, seat: int) -> Decision:
    return game.options(seat)[0]


def settle(game: Game, policy=straight_path) -> None:
    """Answer pending path steps (not a new card) with ``policy``."""
    while not game.over and game.pending.kind in ("path", "bonus"):
        (seat,) = game.due()
        game.apply(policy(game, seat))


def play(game: Game, *decisions: Decision, policy=straight_path) -> None:
    """Apply scripted decisions; path steps the script does not give are
    answered by ``policy`` (straight ahead by default)."""
    for d in decisions:
        if not isinstance(d, Path):
            settle(game, policy)
        game.apply(d)
    settle(game, policy)


def finish(game, rng: random.Random | None = None, policy=None) -> None:
    """Play to the end: random options from ``rng``, or ``policy``, or the first option."""
    while not game.over:
        for seat in game.due():
            if policy:
                game.apply(policy(game, seat))
            elif rng:
                game.apply(rng.choice(game.options(seat)))
            else:
                game.apply(game.options(seat)[0])


def events(game: Game, kind: str) -> list:
    return [e for e in game.log if e.kind == kind]
