"""Autosave a few seconds after the edits stop, to the user's data folder; find what a
crashed session left.

Each running editor writes ``autosave-<pid>.yaml`` (the track) and
``autosave-<pid>.json`` (which file it was, when) while its document has
unsaved changes, and removes both once the document is saved or closed
cleanly. Files whose process is gone are what a crash left behind.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QObject, QStandardPaths, QTimer, Signal

from trackside.editor.document.files import unsaveable
from trackside.editor.document.track_document import TrackDocument
from trackside.engine.writer import write_text

IDLE_MS = 3_000  # an autosave this long after the last edit
LONGEST_MS = 30_000  # and one at least this often while edits go on without a pause
SLOW_FACTOR = 10  # never spend more than a tenth of the time writing autosaves
RETRY_MS = 15_000  # after a failed autosave, try again after this long


def default_directory() -> Path:
    """``<AppDataLocation>/autosave`` (e.g. ~/.local/share/trackside/autosave)."""
    base = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation)
    return Path(base or Path.home() / ".trackside") / "autosave"


@dataclass
class AutosaveEntry:
    """An autosave left by a session that is no longer running."""

    track_file: Path
    meta_file: Path
    original: str | None  # the file the session was editing, if it had one
    name: str
    saved_at: float

    def describe(self) -> str:
        """One line for the recovery prompt."""
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(self.saved_at))
        return f"{self.name} ({self.original or 'never saved'}), autosaved {when}"

    def discard(self) -> None:
        """Delete the autosave files."""
        for f in (self.track_file, self.meta_file):
            with contextlib.suppress(FileNotFoundError):
                f.unlink()


class Autosaver(QObject):
    """Writes the document to the autosave folder a few seconds after the edits stop
    (``idle_ms``; at least every ``LONGEST_MS`` while they go on), while it is modified.

    A large track that takes long to write waits longer (ten times the last write),
    so that writing never takes more than a tenth of the time. A failed write emits
    ``failed`` with the reason and is retried every ``RETRY_MS``; it stays failed
    (and shown) until a write succeeds, which emits ``recovered``. A track that no
    file could hold is not written (the reason is the failure).
    """

    failed = Signal(str)
    recovered = Signal()

    def __init__(
        self,
        doc: TrackDocument,
        directory: Path | None = None,
        idle_ms: int = IDLE_MS,
        parent: QObject | None = None,
    ):
        super().__init__(parent)
        self.doc = doc
        self.directory = Path(directory) if directory else default_directory()
        self.track_file = self.directory / f"autosave-{os.getpid()}.yaml"
        self.meta_file = self.directory / f"autosave-{os.getpid()}.json"
        self.last_error: str | None = None
        self.idle_ms = idle_ms
        self.idle = self._timer(idle_ms)
        self.longest = self._timer(max(idle_ms, LONGEST_MS))
        self.retry = self._timer(RETRY_MS)
        self._dirty = doc.is_modified()  # changed since the last autosave
        doc.modifiedChanged.connect(self._on_modified)
        doc.changed.connect(self._on_changed)
        if self._dirty:
            self._on_changed()

    def _timer(self, ms: int) -> QTimer:
        timer = QTimer(self)
        timer.setSingleShot(True)
        timer.setInterval(ms)
        timer.timeout.connect(self.save_now)
        return timer

    def _on_changed(self) -> None:
        self._dirty = True
        self.idle.start()  # again: the edits have not stopped yet
        if not self.longest.isActive():
            self.longest.start()

    def _on_modified(self, modified: bool) -> None:
        if not modified:
            self.discard()
        else:
            self._on_changed()  # a recovered or reverted track is unsaved work too

    def save_now(self) -> bool:
        """Write the autosave if the document has unsaved changes; True when written."""
        self.idle.stop()
        self.longest.stop()
        if not self.doc.is_modified():
            return False
        if not self._dirty and self.track_file.exists():
            return False  # nothing new since the last autosave
        started = time.monotonic()
        try:
            self._write()
        except Exception as exc:  # autosave must never interrupt editing
            self.last_error = _reason(exc)
            self.retry.start()
            self.failed.emit(self.last_error)
            return False
        took_ms = (time.monotonic() - started) * 1000
        self.idle.setInterval(max(self.idle_ms, round(SLOW_FACTOR * took_ms)))
        self.retry.stop()
        had_failed = self.last_error is not None
        self.last_error = None
        self._dirty = False
        if had_failed:
            self.recovered.emit()
        return True

    def _write(self) -> None:
        why = unsaveable(self.doc.track)
        if why:
            raise ValueError(f"the track holds what a track file cannot ({why})")
        self.directory.mkdir(parents=True, exist_ok=True)
        write_text(self.track_file, self.doc.track.to_yaml(), "the autosave")
        meta = {
            "original": self.doc.path,
            "name": self.doc.track.name or "Untitled",
            "pid": os.getpid(),
            "saved_at": time.time(),
        }
        write_text(self.meta_file, json.dumps(meta, indent=1), "the autosave")

    def discard(self) -> None:
        """Remove this session's autosave (after a save or a clean close). A failure
        stays shown until an autosave is written."""
        for timer in (self.idle, self.longest, self.retry):
            timer.stop()
        for f in (self.track_file, self.meta_file):
            with contextlib.suppress(FileNotFoundError, OSError):
                f.unlink()


def _reason(exc: Exception) -> str:
    """Why a write failed, in a few words."""
    if isinstance(exc, OSError):
        where = f" ({exc.filename})" if exc.filename else ""
        return f"{exc.strerror or exc}{where}"
    return str(exc) or type(exc).__name__


def leftover_autosaves(directory: Path | None = None) -> list[AutosaveEntry]:
    """Autosaves of sessions that ended without cleaning up (crashed), newest first."""
    folder = Path(directory) if directory else default_directory()
    if not folder.is_dir():
        return []
    entries = []
    for meta_file in folder.glob("autosave-*.json"):
        track_file = meta_file.with_suffix(".yaml")
        try:
            meta = json.loads(meta_file.read_text(encoding="utf-8"))
            pid = int(meta.get("pid", 0))
        except (OSError, ValueError, TypeError, AttributeError):
            continue
        if not track_file.exists():
            continue
        saved_at = float(meta.get("saved_at") or track_file.stat().st_mtime)
        if _alive(pid, saved_at):
            continue
        entries.append(
            AutosaveEntry(
                track_file,
                meta_file,
                meta.get("original"),
                str(meta.get("name") or "Untitled"),
                saved_at,
            )
        )
    entries.sort(key=lambda e: e.saved_at, reverse=True)
    return entries


def _alive(pid: int, saved_at: float | None = None) -> bool:
    """True while the session that wrote an autosave at ``saved_at`` still runs."""
    if pid <= 0 or pid == os.getpid():
        return pid == os.getpid()
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass
    except OSError:
        return False
    return _same_process(pid, saved_at)


def _same_process(pid: int, saved_at: float | None) -> bool:
    """Where /proc tells: the pid is no zombie and was not reused by a later process."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        if stat[0] in ("Z", "X"):
            return False  # crashed, not yet reaped by its parent
        if saved_at is None:
            return True
        boot = next(
            float(line.split()[1])
            for line in Path("/proc/stat").read_text().splitlines()
            if line.startswith("btime ")
        )
        started = boot + int(stat[19]) / os.sysconf("SC_CLK_TCK")
        return started <= saved_at + 1.0
    except (OSError, IndexError, ValueError, StopIteration):
        return True  # no /proc (macOS, Windows): the pid is all we know
