"""``trackside diff OLD NEW [--json]``: what changed between two versions of a circuit.

Text output: one line per difference (``+ a7  added``, ``- b3  removed``,
``~ c2  moved``, ...), then a summary line. ``--json`` prints one object with
``same``, ``added``, ``removed``, ``moved``, ``renamed``, ``changed``,
``lines``, ``grid``, ``racing_line`` and ``details``.

Exit code: 0 when the two tracks are the same, 1 when they differ (as ``diff``
does), 2 when either cannot be read or is not a track the schema accepts.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict
from typing import TYPE_CHECKING

from trackside.cli.terminal import say
from trackside.engine.errors import TracksideError
from trackside.engine.resources import resolve_track

if TYPE_CHECKING:
    from trackside.cli import Subparsers


def add_parser(subparsers: Subparsers) -> argparse.ArgumentParser:
    """The ``diff`` subcommand and its options."""
    parser = subparsers.add_parser(
        "diff",
        help="list the spaces added, removed and moved between two tracks",
        description="Compare two versions of a circuit by space id and geometry: spaces "
        "added, removed, moved, renamed or changed, and the lines, grid and racing line. "
        "Exit 0 when they are the same, 1 when they differ, 2 when one cannot be read.",
    )
    parser.add_argument("old", metavar="OLD", help="the earlier track file or bundled name")
    parser.add_argument("new", metavar="NEW", help="the later track file or bundled name")
    parser.add_argument("--json", action="store_true", help="print the differences as JSON")
    return parser


def run(args: argparse.Namespace) -> int:
    """Print what changed from OLD to NEW."""
    from trackside.engine.track.diff import diff_tracks
    from trackside.engine.track.model import load_track

    try:
        old = load_track(resolve_track(args.old))
        new = load_track(resolve_track(args.new))
    except TracksideError as exc:
        if args.json:
            json.dump({**exc.to_dict(), "exit_code": 2}, sys.stdout)
            sys.stdout.write("\n")
        say(exc)
        return 2
    found = diff_tracks(old, new)
    if args.json:
        json.dump({"same": found.same, **asdict(found)}, sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        for line in found.lines_of_text():
            print(line)
        print(f"{args.old} -> {args.new}: {found.summary()}")
    return 0 if found.same else 1
