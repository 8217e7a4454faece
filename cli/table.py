"""The table of a game on the command line, shared by ``play`` and ``simulate``: the
options ``--track``, ``--variant`` and ``--players``, the check of the tracks before
any game, and the files a game reads (which no output may replace)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from trackside.cli.validate import issue_line
from trackside.engine.errors import InvalidInput, Place, TracksideError
from trackside.engine.records import Ref, open_track, open_variant
from trackside.engine.resources import resolve_track
from trackside.engine.text import plural
from trackside.engine.track.validate import Issue
from trackside.engine.writer import refuse_replacing_inputs, write_text

SHOWN_ERRORS = 5


SERIES_TRACKS = (
    "track file or bundled track name; repeat for a series "
    "(a series variant plays its own list if none is given)"
)


def add_table_options(parser: argparse.ArgumentParser, track_help: str = SERIES_TRACKS) -> None:
    """--track, --variant and --players."""
    parser.add_argument("--track", action="append", default=[], metavar="TRACK", help=track_help)
    # A circuit given without its option is told to take it (cli.main).
    parser.set_defaults(circuit_option="--track")
    parser.add_argument(
        "--variant",
        default="standard",
        metavar="VARIANT",
        help="bundled variant name (standard, two-player, beginner, "
        "long-distance, world-tour) or a variant file (default standard)",
    )
    parser.add_argument(
        "--players",
        type=int,
        metavar="N",
        help="number of players (default: the number of seats, or 4 within the variant's range)",
    )


def check_tracks(refs: list[str]) -> None:
    """Refuse track files with validation errors before playing on them, listing
    the first errors (a track checked here is not checked again by the game)."""
    for ref in refs:
        path = resolve_track(ref)
        try:
            open_track(path)
        except InvalidInput as exc:
            errors = [p for p in exc.problems if isinstance(p, Issue)]
            if not errors:
                raise
            for issue in errors[:SHOWN_ERRORS]:
                print(f"trackside: {issue_line(issue)}", file=sys.stderr)
            raise InvalidInput(
                f"the track has {plural(len(errors), 'error')}; fix it first",
                Place(path),
                f"run 'trackside validate {path}'",
            ) from None


def player_count(args: argparse.Namespace, seats: int | None) -> int:
    """--players, or the number of seats, or 4 within the variant's range."""
    variant = open_variant(args.variant)
    n = (
        args.players
        if args.players is not None
        else (seats or min(max(4, variant.min_players), variant.max_players))
    )
    if not variant.min_players <= n <= variant.max_players:
        raise TracksideError(
            f"variant {variant.name!r} is for {variant.min_players} to "
            f"{variant.max_players} players, not {n}",
            Place("--players"),
        )
    return n


def refuse_outputs_onto_inputs(
    outputs: Sequence[tuple[str, str | None]],
    tracks: Sequence[Ref],
    variant: Ref,
    base: str | None = None,
    read: Sequence[tuple[str, str]] = (),
) -> None:
    """Refuse (exit code 2, before any game) an output option that names a file the
    game reads: a track, the variant or a file it extends, its deck, or ``read``."""
    from trackside.engine.records import game_inputs

    if not any(path for _option, path in outputs):
        return
    refuse_replacing_inputs(outputs, [*game_inputs(tracks, variant, base), *read])


def write_report(path: str | None, data: dict[str, Any]) -> None:
    """``--report FILE.json``: ``data`` written as JSON (nothing when no file is given)."""
    if path:
        write_text(path, json.dumps(data, indent=1) + "\n", "--report")


def print_result(args: argparse.Namespace, data: dict[str, Any], text: str) -> None:
    """``data`` as JSON on stdout with ``--json``, else ``text``."""
    if args.json:
        json.dump(data, sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        print(text)
