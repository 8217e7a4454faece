"""``trackside edit [TRACK]``: open the editor (on its start page when no file is given)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from trackside.engine.errors import Place, TracksideError, UnreadableInput
from trackside.engine.resources import resolve_track

if TYPE_CHECKING:
    from trackside.cli import Subparsers


def add_parser(subparsers: Subparsers) -> argparse.ArgumentParser:
    """The ``edit`` subcommand."""
    parser = subparsers.add_parser(
        "edit",
        help="open the track editor",
        description="Open the track editor on TRACK. Without TRACK it opens on the start "
        "page: a new circuit from a template, a copy of a bundled circuit, or a blank page. "
        "A file that is not a track is refused before any window opens.",
    )
    parser.add_argument(
        "track", nargs="?", metavar="TRACK", help="a track file (YAML) or a bundled circuit's name"
    )
    return parser


def run(args: argparse.Namespace) -> int:
    """Start the editor and return its exit status."""
    track: Path | None = None
    if args.track is not None:
        track = Path(resolve_track(args.track))
        if not track.exists():
            raise UnreadableInput(
                "no such file",
                Place(str(track)),
                "check the path, or run 'trackside edit' to start from the start page",
            )
        # Read as the editor reads it: a file it would refuse is said here, on one
        # line, before any window opens (a track with errors, or half drawn, opens).
        from trackside.editor.document import files

        refusal: TracksideError | None = files.load_for_editing(track).refusal()
        if refusal is not None:
            raise refusal
    # Qt is loaded only here, so the rest of the engine stays importable without it.
    from trackside.editor import app

    return int(app.main(None, track) or 0)
