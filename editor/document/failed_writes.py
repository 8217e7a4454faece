"""What the editor says when a file could not be written: the file (a long name cut
in the middle, so a dialog stays a dialog), the cause, what is left on disk, and what
to do about that cause, from the writer's error (``WriteFailed`` knows the cause)."""

from __future__ import annotations

import os
from pathlib import Path

from trackside.engine.errors import TracksideError, WriteFailed
from trackside.engine.text import elided

SHOWN_NAME = 80  # characters of a file's name in a message
SHOWN_FOLDER = 120  # characters of its folder


def shown_name(path: str | os.PathLike[str]) -> str:
    """A file's name as a message shows it: a long one cut in the middle."""
    return elided(Path(path).name or str(path), SHOWN_NAME)


def shown_path(path: str | os.PathLike[str]) -> str:
    """A path as a message shows it: a long name or folder cut in the middle."""
    folder = str(Path(path).parent)
    if not Path(path).name or folder == ".":
        return elided(str(path), SHOWN_NAME)
    return os.path.join(elided(folder, SHOWN_FOLDER), shown_name(path))


def failure_line(
    exc: BaseException, path: str | os.PathLike[str] | None = None, hint: bool = True
) -> str:
    """The file (the error's, else ``path``) and why it was not written, in one line,
    with the writer's hint on what to do and what was left, unless ``hint`` is False
    because the caller says both."""
    if isinstance(exc, TracksideError):
        if exc.place.file is None or exc.place.line is not None:
            return str(exc)  # no file's name, or a place in a file: said as it is
        text = f"{shown_path(exc.place.file)}: {exc.message}"
        return f"{text} ({exc.hint})" if hint and exc.hint else text
    where = exc.filename if isinstance(exc, OSError) and exc.filename else path
    said = (exc.strerror if isinstance(exc, OSError) else None) or str(exc)
    return f"{shown_path(where)}: {said}" if where else said


def left_on_disk(path: str | os.PathLike[str]) -> str:
    """What a failed write left at ``path``: the old file untouched, or nothing."""
    if os.path.isfile(path):
        return f"{shown_name(path)} on disk is untouched"
    return "Nothing was written"


# The menu item that writes to another place than the one that failed.
SAVE_AS = "File ▸ Save As…"


def what_to_do(exc: BaseException, again: str = "save again") -> str:
    """What to do about the cause of a failed write, as a sentence: a fix done in
    place ends in ``again``, one that needs another folder, disk, file name or file
    ends in using Save As (Save would write to the same place again); '' when the
    cause is not one the writer knows."""
    fix = exc.remedy if isinstance(exc, WriteFailed) else None
    if fix is None or not fix.ways:
        return ""
    ways = [(way.words, f"use {SAVE_AS}" if way.elsewhere else again) for way in fix.ways]
    if len({then for _, then in ways}) == 1:
        said = f"{fix}, then {ways[0][1]}"
    else:
        why = f"{fix.why}: " if fix.why else ""
        said = why + ", or ".join(f"{words} and {then}" for words, then in ways)
    return f"{said[:1].upper()}{said[1:]}" + ("" if said.endswith("…") else ".")
