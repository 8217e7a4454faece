"""``trackside edit [TRACK]``: open the editor (a bundled circuit when no file is given)."""

from __future__ import annotations

import argparse
import importlib
from pathlib import Path
from typing import TYPE_CHECKING

from trackside.engine.errors import Place, UnreadableInput
from trackside.engine.resources import bundled_tracks, resolve_track, tracks_dir

if TYPE_CHECKING:
    from trackside.engine.commands import Subparsers

DEFAULT_TRACK = "harbour-loop.yaml"


def add_parser(subparsers: Subparsers) -> argparse.ArgumentParser:
    """The ``edit`` subcommand."""
    parser = subparsers.add_parser(
        "edit",
        help="open the track editor",
        description="Open the track editor. Without TRACK it opens the bundled Harbour Loop "
        "(or the first bundled circuit, or a blank page).",
    )
    parser.add_argument(
        "track", nargs="?", metavar="TRACK", help="a track file (YAML) or a bundled circuit's name"
    )
    return parser


def default_track() -> Path | None:
    """The circuit opened when no file is named."""
    preferred = tracks_dir() / DEFAULT_TRACK
    if preferred.exists():
        return preferred
    bundled = bundled_tracks()
    return bundled[0] if bundled else None


def run(args: argparse.Namespace) -> int:
    """Start the editor and return its exit status."""
    track: Path | None
    if args.track is not None:
        track = Path(resolve_track(args.track))
        if not track.exists():
            raise UnreadableInput(
                "no such file",
                Place(str(track)),
                "check the path, or run 'trackside edit' for a bundled circuit",
            )
    else:
        track = default_track()
    # Qt is loaded only here, so the rest of the engine stays importable without it.
    app = importlib.import_module("trackside.editor.app")
    return int(app.main(None, track) or 0)
