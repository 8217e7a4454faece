"""Determinism digests: one hash per kind of game, to prove a change kept every game.

Seeded games are played on every bundled circuit (standard, four players) and
on the bundled variants, and everything they produce is hashed:

- ``greedy``, ``random``, ``engine``: bot games, and the engine alone taking
  the first legal option: each decision with what was pending when it was
  asked and each seat's legal options, every log event (kind, text, data), the
  result, the score sheet and the seats' final views. A copy taken part-way
  through an engine-alone game must finish exactly as the original does.
- ``views``: the deciding seat's view at every decision (its log left out).
- ``determinized``: worlds as one seat may believe them (unseen cards drawn
  again), at intervals through engine-alone games, each played to its end.
- ``strong``: one strong bot against greedy ones (no time cap, so the search
  is the same on a slow machine).
- ``record``: the text of game records of mixed bots, checked by replaying it.

``tests/digests.json`` stores them for two sizes: ``fast`` (a few games per
case, checked by ``make test``) and ``full`` (checked by ``make test-deep``).
A change meant to keep behaviour keeps every digest; a change of the rules
changes them on purpose, and ``python benchmarks/digest.py --write`` stores
the new ones (say why in the commit).
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path

from trackside.engine.bots import ask, drive, make_bot, seat_bots
from trackside.engine.bots.strong import StrongBot
from trackside.engine.game import Board, Game, Series, load_variant
from trackside.engine.records import Recorder, SeatInfo, parse_record, record_text, replay, summary
from trackside.engine.resources import tracks_dir
from trackside.engine.track.model import load_track

STORED = Path(__file__).resolve().parent / "digests.json"
SIZES = ("fast", "full")
CIRCUITS = ("harbour-loop", "estuary-sweep", "quarry-hairpin")
# (variant, players, circuit or None for the variant's own series)
CASES: list[tuple[str, int, str | None]] = [("standard", 4, c) for c in CIRCUITS] + [
    ("world-tour", 4, None),
    ("long-distance", 4, "harbour-loop"),
    ("beginner", 3, "estuary-sweep"),
    ("two-player", 2, "quarry-hairpin"),
    ("standard", 6, "quarry-hairpin"),
]
PLAYED = ("greedy", "random", "engine")
# Games per case: the standard four-player cases, then the others.
GAMES = {"fast": (6, 2), "full": (200, 50)}
EXTRA_GAMES = {"fast": 1, "full": 6}  # views, determinized, record
STRONG_GAMES = {"fast": 1, "full": 4}
STRONG_CASES = [("standard", 4, "harbour-loop"), ("two-player", 2, "quarry-hairpin")]


def events_text(game: Game | Series) -> str:
    return "\n".join(f"{e.kind}|{e.text}|{sorted(e.data.items())!r}" for e in game.log)


def new_game(variant_name: str, players: int, circuit: str | None, seed: int) -> Game | Series:
    variant = load_variant(variant_name)
    if circuit is None:
        return Series.new(None, variant, players, seed)
    board = Board.of(load_track(tracks_dir() / f"{circuit}.yaml"), variant.use_finish)
    return Game.new(board, variant, players, seed)


def race_of(game: Game | Series) -> Game:
    return game.game if isinstance(game, Series) else game


def play(game: Game | Series, kind: str, seed: int, players: int, h: hashlib._Hash) -> None:
    """Drive ``game`` with ``kind`` bots (or the first option), hashing as it goes."""
    seats = seat_bots(seed, [kind] * players) if kind != "engine" else None
    while not game.over:
        for seat in game.due():
            options = game.options(seat)
            h.update(repr((seat, game.pending, options)).encode())
            if seats is None:
                decision = options[0]
            else:
                view, request = ask(game, seat)
                decision = seats[seat].choose(view, request)
            h.update(repr(decision).encode())
            game.apply(decision)


def first_options(game: Game | Series) -> Iterator[int]:
    """Take the first legal option until the end, yielding the number of steps taken."""
    steps = 0
    while not game.over:
        for seat in game.due():
            game.apply(game.options(seat)[0])
            steps += 1
            yield steps


def played_digest(variant: str, players: int, circuit: str | None, kind: str, games: int) -> str:
    h = hashlib.sha256()
    for seed in range(games):
        game = new_game(variant, players, circuit, seed)
        twin = None
        if kind == "engine" and isinstance(game, Game):
            for _ in range(40 + seed % 50):  # a copy taken part-way must play on identically
                if game.over:
                    break
                for seat in game.due():
                    game.apply(game.options(seat)[0])
            twin = game.copy()
        play(game, kind, seed, players, h)
        if twin is not None:
            play(twin, kind, seed, players, hashlib.sha256())
            assert events_text(twin) == events_text(game), f"copy differs, seed {seed}"
            assert twin.result == game.result
        h.update(events_text(game).encode())
        assert game.result is not None
        h.update(repr(game.result.to_dict()).encode())
        if isinstance(game, Game):
            h.update(repr(game.result.sheet).encode())
            for seat in range(players):
                h.update(repr(game.view(seat)).encode())
    return h.hexdigest()[:16]


def views_digest(variant: str, players: int, circuit: str | None, games: int) -> str:
    """The deciding seat's view at every decision of greedy games."""
    h = hashlib.sha256()
    for seed in range(games):
        game = new_game(variant, players, circuit, seed)
        bots = seat_bots(seed, ["greedy"] * players)
        while not game.over:
            for seat in game.due():
                h.update(repr(replace(game.view(seat), log=())).encode())
                game.apply(bots[seat].choose(*ask(game, seat)))
    return h.hexdigest()[:16]


def determinized(game: Game, seat: int, rng: random.Random) -> Game:
    """The world as ``seat`` may believe it."""
    return game.determinized(seat, rng)


def world_text(world: Game) -> str:
    """What a determinization drew, and the options it asks."""
    due = world.due()
    state = world.state
    return repr(
        (
            state.hands,
            state.piles,
            state.pile,
            state.out_of_game,
            state.speed8_queue,
            state.power_queue,
            state.bets,
            due,
            [world.options(seat) for seat in due],
            world.pending,
        )
    )


def determinized_digest(variant: str, players: int, circuit: str | None, games: int) -> str:
    """Worlds drawn for each seat due every 23 steps of engine-alone games, each played out."""
    h = hashlib.sha256()
    for seed in range(games):
        game = new_game(variant, players, circuit, seed)
        rng = random.Random(f"determinized:{seed}")
        for steps in first_options(game):
            if steps % 23 or game.over:
                continue
            race = race_of(game)
            for seat in race.due():
                world = determinized(race, seat, rng)
                h.update(world_text(world).encode())
                for _ in first_options(world):
                    pass
                assert world.result is not None
                h.update(repr(world.result.to_dict()).encode())
    return h.hexdigest()[:16]


def strong_digest(variant: str, players: int, circuit: str | None, games: int) -> str:
    """One strong seat (rotating) against greedy ones; no time cap on its search."""
    h = hashlib.sha256()
    for seed in range(games):
        game = new_game(variant, players, circuit, seed)
        strong_seat = seed % players
        seats = seat_bots(seed, ["greedy"] * players)
        seats[strong_seat] = StrongBot(f"{seed}:{strong_seat}:strong", seconds=float("inf"))
        play_with(game, seats, h)
        h.update(events_text(game).encode())
        assert game.result is not None
        h.update(repr(game.result.to_dict()).encode())
    return h.hexdigest()[:16]


def play_with(game: Game | Series, seats: list, h: hashlib._Hash) -> None:
    while not game.over:
        for seat in game.due():
            decision = seats[seat].choose(*ask(game, seat))
            h.update(repr(decision).encode())
            game.apply(decision)


def record_digest(variant: str, players: int, circuit: str | None, games: int) -> str:
    """Records of greedy and random bots taking turns at the seats, replayed to check."""
    h = hashlib.sha256()
    for seed in range(games):
        kinds = [("greedy", "random")[(seat + seed) % 2] for seat in range(players)]
        recorder = Recorder.start(
            [circuit] if circuit else [],
            variant,
            players,
            seed,
            [SeatInfo(f"Player {seat + 1}", kind) for seat, kind in enumerate(kinds)],
        )
        drive(
            recorder.game,
            [make_bot(kind, f"{seed}:{seat}") for seat, kind in enumerate(kinds)],
            apply=recorder.apply,
        )
        text = record_text(recorder.record())
        h.update(text.encode())
        again = replay(parse_record(text))
        assert summary(again) == summary(recorder.game)
    return h.hexdigest()[:16]


def games_for(size: str, variant: str, players: int) -> int:
    main, other = GAMES[size]
    return main if variant == "standard" and players == 4 else other


def digests(size: str, progress: Callable[[str, str], None] | None = None) -> dict[str, str]:
    """Every digest of ``size`` (``fast`` or ``full``), by name."""
    out: dict[str, str] = {}

    def note(name: str, value: str) -> None:
        out[name] = value
        if progress:
            progress(name, value)

    for variant, players, circuit in CASES:
        case = f"{variant}/{players}p/{circuit or 'series'}"
        for kind in PLAYED:
            games = games_for(size, variant, players)
            note(f"{case}/{kind}", played_digest(variant, players, circuit, kind, games))
        extra = EXTRA_GAMES[size]
        note(f"{case}/views", views_digest(variant, players, circuit, extra))
        note(f"{case}/determinized", determinized_digest(variant, players, circuit, extra))
        note(f"{case}/record", record_digest(variant, players, circuit, extra))
    for variant, players, circuit in STRONG_CASES:
        case = f"{variant}/{players}p/{circuit or 'series'}"
        note(f"{case}/strong", strong_digest(variant, players, circuit, STRONG_GAMES[size]))
    return out


def stored() -> dict[str, dict[str, str]]:
    """The digests kept in ``tests/digests.json``, by size."""
    data: dict[str, dict[str, str]] = json.loads(STORED.read_text(encoding="utf-8"))
    return data
