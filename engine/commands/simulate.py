"""``trackside simulate --track T --variant V --players N --games G [--seed S] [--bots ...]
[--json]``.

Plays many bot games and reports, as text or JSON (``games``, ``seconds``,
``seats``, ``grid_slots``, ``mean_cards_played``, ``stalled_per_race``,
``betting_lines``, ``blocked_spaces``; see ``engine.simulate``): wins and mean
winnings by seat, wins by start-grid slot, mean cards played, stalled cars,
when each betting line is first crossed and where cars end blocked. A
progress bar goes to stderr when it is a terminal, else one final line.
"""

from __future__ import annotations

import argparse
import json
import sys

from trackside.engine.bots import BOT_KINDS
from trackside.engine.commands.play import add_table_options, check_tracks, player_count
from trackside.engine.errors import Place, TracksideError
from trackside.engine.records import open_track, open_variant
from trackside.engine.simulate import simulate

MAX_GAMES = 1_000_000


def add_parser(
    subparsers: argparse._SubParsersAction[argparse.ArgumentParser],
) -> argparse.ArgumentParser:
    """The ``simulate`` subcommand and its options."""
    parser = subparsers.add_parser(
        "simulate",
        help="play many bot games and report statistics",
        description="Play many games between bots and report wins by seat and grid slot, "
        "cards played, stalled cars, betting-line timing and blocked spaces.",
    )
    add_table_options(parser)
    parser.add_argument(
        "--games", type=int, required=True, metavar="G", help="how many games to play"
    )
    parser.add_argument(
        "--seed",
        type=int,
        default=0,
        help="seed of the first game; game i uses seed + i (default 0)",
    )
    parser.add_argument(
        "--bots",
        default="greedy",
        metavar="KIND,...",
        help=f"bot kind per seat ({', '.join(BOT_KINDS)}), cycled over the seats (default greedy)",
    )
    parser.add_argument("--json", action="store_true", help="print the statistics as JSON")
    return parser


def run(args: argparse.Namespace) -> int:
    """Simulate and print the report."""
    if not 1 <= args.games <= MAX_GAMES:
        raise TracksideError(
            f"cannot play {args.games} games; give 1 to {MAX_GAMES:,}", Place("--games")
        )
    bots = [b.strip().lower() for b in args.bots.split(",")]
    for b in bots:
        if b not in BOT_KINDS:
            raise TracksideError(
                f"unknown bot kind {b!r}", Place("--bots"), f"use {', '.join(BOT_KINDS)}"
            )
    players = player_count(args, None)
    if len(bots) > players:
        raise TracksideError(f"{len(bots)} bots for {players} players", Place("--bots"))
    variant = open_variant(args.variant)
    refs = list(args.track) or list(variant.series)
    if not refs:
        raise TracksideError(
            f"variant {variant.name!r} has no track list",
            Place("--track"),
            "give a track with --track",
        )
    check_tracks(args.track)
    tracks = [open_track(r) for r in refs]
    bar = _Progress(args.games)
    stats = simulate(tracks, variant, players, args.games, args.seed, bots, progress=bar.update)
    bar.done(stats.seconds)
    if args.json:
        json.dump(stats.to_dict(), sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        print(stats.report())
    return 0


class _Progress:
    """A progress bar on stderr when it is a terminal; otherwise one line at the end."""

    WIDTH = 30

    def __init__(self, total: int):
        self.total = total
        self.tty = sys.stderr.isatty()
        self.shown = -1

    def update(self, k: int) -> None:
        if not self.tty:
            return
        filled = self.WIDTH * k // self.total
        if filled == self.shown and k != self.total:
            return
        self.shown = filled
        sys.stderr.write(f"\r[{'#' * filled}{'.' * (self.WIDTH - filled)}] {k}/{self.total} games")
        sys.stderr.flush()

    def done(self, seconds: float) -> None:
        if self.tty:
            sys.stderr.write("\n")
        rate = f" ({self.total / seconds:.1f} games/s)" if seconds > 0 else ""
        sys.stderr.write(f"simulated {self.total} games in {seconds:.2f} s{rate}\n")
