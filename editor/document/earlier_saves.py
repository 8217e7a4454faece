"""Earlier saves: each save first keeps the version it replaces, in the user's data folder.

``<AppDataLocation>/earlier-saves/<name>-<hash>/`` holds the last ``KEEP`` versions of
one track file (the hash is of the file's full path, so two ``oval.yaml`` in two
folders never mix), each named for the time that version was saved, in UTC
(``20261125-192005-123456.yaml``), beside ``file.txt`` naming the track file, all
written by ``engine.writer``. Nothing is ever written beside the user's file. File >
Compare With Earlier Save… lists them, with any autosave of the file newer than the
save (``versions_of``).
"""

from __future__ import annotations

import calendar
import hashlib
import json
import os
import time
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QStandardPaths

from trackside.engine.writer import write_bytes, write_text

KEEP = 10
STAMP = "%Y%m%d-%H%M%S"


def default_directory() -> Path:
    """``<AppDataLocation>/earlier-saves`` (e.g. ~/.local/share/trackside/earlier-saves)."""
    base = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation)
    return Path(base or Path.home() / ".trackside") / "earlier-saves"


@dataclass(frozen=True)
class Version:
    """An earlier version of a track file: a kept save, or an autosave."""

    path: Path
    saved_at: float  # seconds since the epoch
    autosave: bool = False

    def when(self) -> str:
        """The local date and time it was saved."""
        return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(self.saved_at))

    def describe(self) -> str:
        """One line for the list to choose from."""
        if self.autosave:
            return f"{self.when()}  autosave (unsaved work, newer than the file)"
        return f"{self.when()}  saved"


class EarlierSaves:
    """The earlier saves kept in ``directory``, ``keep`` per track file."""

    def __init__(self, directory: Path | None = None, keep: int = KEEP):
        self.directory = Path(directory) if directory else default_directory()
        self.keep = keep

    def folder_for(self, track_file: str | os.PathLike[str]) -> Path:
        """The folder keeping ``track_file``'s earlier saves."""
        full = os.path.realpath(track_file)
        digest = hashlib.sha256(full.encode("utf-8", "surrogateescape")).hexdigest()[:12]
        return self.directory / f"{Path(full).stem[:60]}-{digest}"

    def keep_previous(self, track_file: str | os.PathLike[str], new_text: str) -> Version | None:
        """Keep ``track_file`` as it is on disk, before ``new_text`` replaces it; None when
        there is nothing to keep (no file yet, the same text, or already kept).
        OSError when it cannot be kept."""
        source = Path(track_file)
        if not source.is_file():
            return None
        old = source.read_bytes()
        if old == new_text.encode("utf-8"):
            return None
        kept = self.versions(track_file)
        if kept and kept[0].path.read_bytes() == old:
            return None
        saved_at = source.stat().st_mtime
        folder = self.folder_for(track_file)
        folder.mkdir(parents=True, exist_ok=True)
        write_text(folder / "file.txt", os.path.realpath(track_file) + "\n", "an earlier save")
        target = folder / _name(saved_at)
        while target.exists():  # two versions in the same microsecond: keep both
            saved_at += 1e-6
            target = folder / _name(saved_at)
        write_bytes(target, old, "an earlier save")
        version = Version(target, saved_at)
        for stale in [version, *kept][self.keep :]:
            stale.path.unlink(missing_ok=True)
        return version

    def versions(self, track_file: str | os.PathLike[str]) -> list[Version]:
        """The kept saves of ``track_file``, newest first."""
        folder = self.folder_for(track_file)
        if not folder.is_dir():
            return []
        found = [Version(p, at) for p in folder.glob("*.yaml") if (at := _time_of(p)) is not None]
        return sorted(found, key=lambda v: v.saved_at, reverse=True)


def versions_of(
    track_file: str | os.PathLike[str], saves: EarlierSaves, autosave_dir: Path
) -> list[Version]:
    """What File > Compare With Earlier Save offers: autosaves of the file newer than it
    (unsaved work, of this session or one that crashed), then its kept saves, newest first."""
    try:
        since = Path(track_file).stat().st_mtime
    except OSError:
        since = 0.0
    full = os.path.realpath(track_file)
    newer = [v for v in _autosaves(autosave_dir) if v[1] == full and v[0].saved_at > since]
    autosaves = sorted((v for v, _original in newer), key=lambda v: v.saved_at, reverse=True)
    return autosaves + saves.versions(track_file)


def _autosaves(directory: Path) -> list[tuple[Version, str]]:
    """Every autosave in ``directory`` with the full path of the file it was editing."""
    found = []
    for meta_file in Path(directory).glob("autosave-*.json"):
        track_file = meta_file.with_suffix(".yaml")
        try:
            meta = json.loads(meta_file.read_text(encoding="utf-8"))
            original, saved_at = meta.get("original"), float(meta.get("saved_at"))
        except (OSError, ValueError, TypeError, AttributeError):
            continue
        if original and track_file.is_file():
            found.append((Version(track_file, saved_at, autosave=True), os.path.realpath(original)))
    return found


def _name(saved_at: float) -> str:
    micro = round((saved_at % 1) * 1_000_000) % 1_000_000
    return f"{time.strftime(STAMP, time.gmtime(saved_at))}-{micro:06d}.yaml"


def _time_of(path: Path) -> float | None:
    """The save time a kept file is named for, or None for a file not named so."""
    stamp, _, micro = path.stem.rpartition("-")
    try:
        return calendar.timegm(time.strptime(stamp, STAMP)) + int(micro) / 1_000_000
    except ValueError:
        return None
