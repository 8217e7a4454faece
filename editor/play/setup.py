"""What a new game is made of: the variant, the seats, the seed and the circuits.

Pure data plus the function that builds the engine game from it; the new
game dialog fills a ``GameSetup`` and the controller plays it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from trackside.engine.errors import InvalidInput
from trackside.engine.game import Board, Game, Series, Variant
from trackside.engine.track.model import Track

PERSON = "person"


@dataclass(frozen=True)
class Seat:
    """One place at the table: a person with a name, or a bot of some kind."""

    name: str
    kind: str = PERSON

    @property
    def is_person(self) -> bool:
        return self.kind == PERSON


@dataclass
class GameSetup:
    """Everything needed to start a game: rules, table, deal and circuits.

    ``tracks`` holds one circuit for a single race, several for a world tour
    (a variant with ``series``); ``track_names`` labels them for people.
    """

    variant: Variant
    variant_source: str
    seats: list[Seat]
    seed: int
    tracks: list[Track] = field(default_factory=list)
    track_files: list[str | None] = field(default_factory=list)

    @property
    def players(self) -> int:
        return len(self.seats)

    @property
    def is_tour(self) -> bool:
        return bool(self.variant.series)

    def names(self) -> list[str]:
        return [s.name for s in self.seats]


def build_game(setup: GameSetup) -> Game | Series:
    """The engine game (or world tour series) this set-up describes."""
    v = setup.variant
    if not v.min_players <= setup.players <= v.max_players:
        raise InvalidInput(
            f"{v.name} is for {v.min_players} to {v.max_players} players, not {setup.players}",
            hint="add or remove seats",
        )
    if not setup.tracks:
        raise InvalidInput("no circuit to race on", hint="choose at least one circuit")
    if v.finish == "distance" and not all(t.centerline.closed for t in setup.tracks):
        raise InvalidInput(
            f"{v.name} needs a closed circuit (laps); "
            + ", ".join(t.name for t in setup.tracks if not t.centerline.closed)
            + " is point to point",
            hint="choose a loop circuit",
        )
    boards = [Board(t, v.use_finish) for t in setup.tracks]
    if setup.is_tour:
        return Series(boards, v, setup.players, setup.seed)
    return Game.new(boards[0], v, setup.players, setup.seed)


def current_game(game: Game | Series) -> Game:
    """The race being played: the game itself, or a tour's current race."""
    return game.game if isinstance(game, Series) else game


def bot_kinds() -> list[str]:
    """The bot kinds a seat may take (from ``engine.bots``), weakest first."""
    from trackside.engine.bots import BOT_KINDS

    order = ["random", "greedy", "strong"]
    return sorted(BOT_KINDS, key=lambda k: (order.index(k) if k in order else len(order), k))


def make_bots(setup: GameSetup) -> dict:
    """One decision function per bot seat: ``fn(game, seat) -> Decision``.

    Bots are seeded from the game's seed (``engine.bots.bot_seed``) so the
    same set-up plays the same game again.
    """
    from trackside.engine.bots import ask, bot_seed, make_bot

    bots = {}
    for k, seat in enumerate(setup.seats):
        if seat.is_person:
            continue
        bot = make_bot(seat.kind, bot_seed(setup.seed, k, seat.kind))
        bots[k] = (lambda b: lambda game, s: b.choose(*ask(game, s)))(bot)
    return bots
