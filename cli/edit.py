"""``trackside edit [TRACK]``: open the editor (on its start page when no file is given)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from trackside.engine.errors import Place, TracksideError, UnreadableInput
from trackside.engine.resources import missing_track_hint, resolve_track

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
    parser.add_argument(
        "--in-window",
        action="store_true",
        help="for a start without a terminal: show a file that cannot be opened in a "
        "dialog, then the start page, instead of refusing it on stderr (the desktop "
        "launcher trackside-editor does this)",
    )
    return parser


def run(args: argparse.Namespace) -> int:
    """Start the editor and return its exit status."""
    try:
        track = editable(args.track) if args.track is not None else None
    except TracksideError as refusal:
        if not args.in_window:
            raise
        # No terminal may be watching: the window says it, stderr too for the logs.
        print(f"trackside: {refusal}", file=sys.stderr)
        from trackside.editor import app

        return int(app.main(None, None, refused=refusal) or 0)
    # Qt is loaded only here, so the rest of the engine stays importable without it.
    from trackside.editor import app

    return int(app.main(None, track) or 0)


def editable(name: str) -> Path:
    """The track file ``name`` stands for, once read as the editor reads it: a file it
    would refuse raises here, before any window opens (a track with errors, or one
    half drawn, opens)."""
    track = Path(resolve_track(name))
    if not track.exists():
        raise UnreadableInput(
            "no such file",
            Place(str(track)),
            missing_track_hint(str(track))
            or "check the path, or run 'trackside edit' to start from the start page",
        )
    from trackside.editor.document import files

    refusal: TracksideError | None = files.load_for_editing(track).refusal()
    if refusal is not None:
        raise refusal
    return track
