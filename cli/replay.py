"""``trackside replay RECORD [--json]``: re-run a game record, print the result and scores.

The replay fails (exit 1) when a decision is illegal or the result differs
from the one recorded; a record cut short is replayed as far as it goes.
JSON output: ``winner`` (seat, 0-based, or null on a shared win), ``winners``,
``scores``, ``ranking``, ``over``, ``decisions`` (and ``races`` for a series).
"""

from __future__ import annotations

import argparse
import json
import sys

from trackside.cli.score_text import print_score_sheet, seat_names
from trackside.engine.game import Series
from trackside.engine.records import (
    changed_since,
    fingerprints_now,
    load_record,
    replay,
    summary,
)


def add_parser(
    subparsers: argparse._SubParsersAction[argparse.ArgumentParser],
) -> argparse.ArgumentParser:
    """The ``replay`` subcommand and its options."""
    parser = subparsers.add_parser(
        "replay",
        help="re-run a game record and print the result",
        description="Re-run a game record decision by decision, check its result and print "
        "the finish order and scores.",
    )
    parser.add_argument("record", metavar="RECORD", help="game record file (YAML)")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    return parser


def run(args: argparse.Namespace) -> int:
    """Replay the record; 1 if it does not replay, 2 if it cannot be read."""
    record = load_record(args.record)
    game = replay(record)
    changed = changed_since(record, fingerprints_now(record, game))
    if changed:
        print(
            f"trackside: note: {args.record}: {changed}; its decisions still replay"
            + (" to the result recorded" if record.result else ""),
            file=sys.stderr,
        )
    result = summary(game)
    if args.json:
        out = {
            "file": args.record,
            "over": game.over,
            "decisions": len(record.decisions),
            "winner": None,
            "winners": [],
            "scores": None,
            "ranking": None,
        }
        if result is not None:
            out.update(result)
        json.dump(out, sys.stdout, indent=2)
        sys.stdout.write("\n")
        return 0
    kinds = [s.kind for s in record.seats]
    names = seat_names(record.players, [s.name for s in record.seats])
    print(f"{args.record}: {len(record.decisions)} decisions replayed")
    if not game.over:
        race = game.game if isinstance(game, Series) else game
        print(
            f"The game is not over: {race.pending.kind} is due from "
            + ", ".join(names[p] for p in game.due())
        )
        return 0
    print_score_sheet(game, kinds, sys.stdout, names)
    return 0
