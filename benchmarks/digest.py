#!/usr/bin/env python3
"""Check that engine changes keep games identical: one digest per circuit and variant.

Plays seeded games on every bundled circuit (standard, four players) and on
the bundled variants, with greedy bots, random bots and the engine alone
(first legal option), and hashes everything a game produces: each decision
with what was pending when it was asked, each seat's legal options, every
log event (kind, text, data), the result and the seats' final views. A copy
taken halfway through an engine-alone game must finish exactly as the
original does.

Run it before and after a change meant to keep behaviour (a speed-up) and
compare the printed digests; a change of the rules changes them on purpose.
Run from the repository root: ``python benchmarks/digest.py [--games N]``.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from trackside.engine.bots import ask, seat_bots
from trackside.engine.game import Board, Game, Series, load_variant
from trackside.engine.resources import tracks_dir
from trackside.engine.track.model import load_track

CIRCUITS = ("harbour-loop", "estuary-sweep", "quarry-hairpin")
# (variant, players, circuit or None for the variant's own series)
CASES = [("standard", 4, c) for c in CIRCUITS] + [
    ("world-tour", 4, None),
    ("long-distance", 4, "harbour-loop"),
    ("beginner", 3, "estuary-sweep"),
    ("two-player", 2, "quarry-hairpin"),
    ("standard", 6, "quarry-hairpin"),
]


def events_text(game: Game | Series) -> str:
    return "\n".join(f"{e.kind}|{e.text}|{sorted(e.data.items())!r}" for e in game.log)


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


def digest(variant_name: str, players: int, circuit: str | None, kind: str, games: int) -> str:
    variant = load_variant(variant_name)
    boards = (
        None
        if circuit is None
        else [Board(load_track(tracks_dir() / f"{circuit}.yaml"), variant.use_finish)]
    )
    h = hashlib.sha256()
    for seed in range(games):
        game: Game | Series = (
            Series.new(None, variant, players, seed)
            if boards is None
            else Game.new(boards[0], variant, players, seed)
        )
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per case and bot")
    args = parser.parse_args()
    for variant, players, circuit in CASES:
        for kind in ("greedy", "random", "engine"):
            games = args.games if variant == "standard" and players == 4 else args.games // 4
            value = digest(variant, players, circuit, kind, max(1, games))
            print(f"{variant:<14} {players}p {circuit or 'series':<15} {kind:<7} {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
