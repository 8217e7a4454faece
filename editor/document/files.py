"""Reading track files for editing: never a traceback, always a list of problems.

A file the schema refuses only because parts are still missing (fewer spaces,
grid entries or lines than a finished circuit needs) opens as a *draft*, so a
circuit saved half-drawn can be finished later; anything else that is wrong
is refused and reported.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PySide6.QtCore import QStandardPaths

from trackside.editor.document.fits import breaks_schema, only_missing
from trackside.editor.document.track_document import UNSET_SEGMENT
from trackside.engine.errors import (
    InvalidInput,
    Place,
    TracksideError,
    UnreadableInput,
    more_problems,
    place_text,
)
from trackside.engine.resources import tracks_dir, variants_dir
from trackside.engine.track.model import Track, read_track_document
from trackside.engine.writer import remove_leftovers
from trackside.engine.yamlio import NotPlainData, check_plain

TRACK_SHAPE = "a track file is a mapping that starts with 'format: trackside-track/1'"
READ_FIX = f"open a track file: {TRACK_SHAPE}"


@dataclass
class LoadProblem:
    """One reason a file could not be used, with its place in the file."""

    message: str
    file: str
    line: int | None = None
    column: int | None = None
    hint: str | None = None

    def __str__(self) -> str:
        where = place_text(self.file, self.line, self.column, unnamed="")
        return f"{where}: {self.message}" + (f" ({self.hint})" if self.hint else "")


@dataclass
class LoadResult:
    """What opening a file gave: a track (or None) and the problems found."""

    track: Track | None
    problems: list[LoadProblem] = field(default_factory=list)
    draft: bool = False
    error: TracksideError | None = None  # why the file could not be read at all

    def refusal(self) -> TracksideError | None:
        """Why the editor cannot open the file, as one error (None when it can): the
        reading error, or the first thing that makes it no track, with the fix."""
        if self.track is not None:
            return None
        if self.error is not None:
            if self.error.hint is None:
                self.error.hint = READ_FIX
            return self.error
        first = self.problems[0] if self.problems else LoadProblem("not a track file", "")
        return InvalidInput(
            f"not a track file: {first.message}" + more_problems(len(self.problems) - 1),
            Place(first.file, first.line, first.column),
            f"'trackside validate {first.file}' lists every problem; {TRACK_SHAPE}",
        )

    @property
    def ok(self) -> bool:
        return self.track is not None


def load_for_editing(path: str | os.PathLike) -> LoadResult:
    """Read a track file; unusable files give problems instead of raising. What a
    save killed half way left beside it is removed first."""
    name = str(path)
    remove_leftovers(name)
    try:
        track, doc, problems = read_track_document(path)
    except TracksideError as exc:
        problem = LoadProblem(
            exc.message, exc.place.file or name, exc.place.line, exc.place.column, exc.hint
        )
        return LoadResult(None, [problem], error=exc)
    except (RecursionError, MemoryError, ValueError, TypeError, OSError) as exc:
        message = f"cannot read this file ({type(exc).__name__})"
        return LoadResult(
            None, [LoadProblem(message, name)], error=UnreadableInput(message, Place(name))
        )
    if track is not None:
        return LoadResult(track)
    found = [
        LoadProblem(p.message, p.place.file or name, p.place.line, p.place.column) for p in problems
    ]
    if all(only_missing(p) for p in problems):
        draft = _draft(doc.data, name)
        if draft is not None:
            return LoadResult(draft, found, draft=True)
    return LoadResult(None, found)


def _draft(mapping: Mapping[str, Any], name: str) -> Track | None:
    """A track from data that only lacks items, with unset lines filling the gaps."""
    try:
        data = dict(mapping)
        lines = list(data.get("betting_lines", []))
        data["betting_lines"] = [s for s in lines if len(s) == 2] + (
            [[list(p) for p in UNSET_SEGMENT]] * max(0, 3 - len(lines))
        )
        finish = data.get("finish_line")
        if not finish or len(finish) != 2:
            data["finish_line"] = [list(p) for p in UNSET_SEGMENT]
        cl = dict(data.get("centerline") or {"closed": True, "points": []})
        data["centerline"] = cl
        track = Track.from_dict(data, source=name)
    except (KeyError, TypeError, ValueError, IndexError):
        return None
    if any(len(sp.corners) < 1 for sp in track.spaces):
        return None
    return track


def unsaveable(track: Track) -> str:
    """Why a file of ``track`` would not open again in the editor ('' when it would): a
    value past the track schema's limits (not only parts still missing: a draft opens),
    or one no file can hold. A bug let it in if it is ever not ''."""
    data = track.to_dict()
    try:
        check_plain(data)
    except NotPlainData as exc:
        return str(exc)
    problems = breaks_schema("", data)
    return problems[0] + more_problems(len(problems) - 1) if problems else ""


def file_slug(name: str | None) -> str:
    """A file name for a track name: 'Harbour Loop!' gives 'harbour-loop' (else 'track')."""
    text = "".join(ch.lower() if ch.isalnum() else "-" for ch in (name or "track"))
    return "-".join(part for part in text.split("-") if part) or "track"


def suggested_stem(path: str | None, name: str | None, folder: Path | None = None) -> Path:
    """Where to offer to write a track's output, without a suffix: beside its file
    (unless it is a bundled circuit), else its name as a file name in ``folder``
    (by default the user's circuits folder)."""
    if path and not is_bundled(path):
        return Path(path).with_suffix("")
    return (folder or circuits_folder()) / file_slug(name)


def copy_path(path: Path) -> Path:
    """A free name for a copy of ``path`` in its folder: ``name copy.yaml``, else
    ``name copy 2.yaml``, ``name copy 3.yaml``... (for a file another window holds)."""
    candidate, number = path.with_name(f"{path.stem} copy{path.suffix}"), 1
    while candidate.exists():
        number += 1
        candidate = path.with_name(f"{path.stem} copy {number}{path.suffix}")
    return candidate


def unused_path(path: Path) -> Path:
    """``path``, or when a file is there already ``name-2.pdf``, ``name-3.pdf``...: the
    first name not taken, so an output never lands on an earlier one unasked."""
    candidate, number = path, 1
    while candidate.exists():
        number += 1
        candidate = path.with_name(f"{path.stem}-{number}{path.suffix}")
    return candidate


def is_bundled(path: str | os.PathLike[str]) -> bool:
    """True for the circuits and variants installed with Trackside (never written to)."""
    try:
        where = Path(path).resolve()
    except OSError:
        return False
    return any(where.is_relative_to(folder.resolve()) for folder in (tracks_dir(), variants_dir()))


def circuits_folder() -> Path:
    """The user's circuits folder: ``Trackside`` in their documents folder."""
    documents = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)
    return Path(documents or Path.home()) / "Trackside"


def start_folder(path: str | None, last: str | None) -> Path:
    """Where a file dialog opens: beside the open file, else the last folder used, else
    the user's circuits folder (made on first use); never inside the installed package."""
    for candidate in (Path(path).parent if path else None, Path(last) if last else None):
        if candidate is not None and candidate.is_dir() and not is_bundled(candidate):
            return candidate
    folder = circuits_folder()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return Path.home()
    return folder
