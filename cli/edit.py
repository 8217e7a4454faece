"""``trackside edit [TRACK]``: open the editor (on its start page when no file is given)."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from trackside.engine.errors import Place, TracksideError, UnreadableInput
from trackside.engine.resources import YAML_SUFFIXES, missing_track_hint, resolve_track

if TYPE_CHECKING:
    from trackside.cli import Subparsers


def add_parser(subparsers: Subparsers) -> argparse.ArgumentParser:
    """The ``edit`` subcommand."""
    parser = subparsers.add_parser(
        "edit",
        help="open the track editor",
        description="Open the track editor on TRACK. Without TRACK it opens on the start "
        "page: a new circuit from a template, a copy of a bundled circuit, or a blank page. "
        "A TRACK ending in .yaml that does not exist yet is a new circuit, which Save "
        "writes there. A file that is not a track is refused before any window opens.",
    )
    parser.add_argument(
        "track",
        nargs="?",
        metavar="TRACK",
        help="a track file (YAML; a new one is started), or a bundled circuit's name",
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
        new_file = new_track_file(args.track) if args.track is not None else None
        track = editable(args.track) if args.track is not None and new_file is None else None
    except TracksideError as refusal:
        if not args.in_window:
            raise
        # No terminal may be watching: the window says it, stderr too for the logs.
        print(f"trackside: {refusal}", file=sys.stderr)
        from trackside.editor import app

        return int(app.main(None, None, refused=refusal) or 0)
    # Qt is loaded only here, so the rest of the engine stays importable without it.
    from trackside.editor import app

    if new_file is not None:
        near = missing_track_hint(str(new_file))
        if near and near.startswith("did you mean"):  # a typo, perhaps: said, not refused
            print(f"trackside: {new_file} is a new file; {near}", file=sys.stderr)
    return int(app.main(None, track, new_file=new_file) or 0)


def new_track_file(name: str) -> Path | None:
    """``name`` when it is a track file to start (ends in .yaml or .yml, and is not on
    disk) in a folder that exists, else None (a file to open, or a bundled name); a
    folder that does not exist is refused."""
    path = Path(name)
    if not name.endswith(YAML_SUFFIXES) or os.path.lexists(path):
        return None
    folder = path.parent
    if not folder.is_dir():
        raise UnreadableInput(
            "no such folder for a new track file",
            Place(str(folder)),
            f"create {folder} first, or give a path in a folder that exists",
        )
    return path


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
            or "check the path, or give a name ending in .yaml to start a new circuit there",
        )
    from trackside.editor.document import files

    refusal: TracksideError | None = files.load_for_editing(track).refusal()
    if refusal is not None:
        raise refusal
    return track
