"""Guarding the open file: a lock so other editors know, a watch for changes on disk.

Each editor holds a ``QLockFile`` beside the file it edits (``.name.yaml.lock``);
a second editor opening the same file learns who has it. A
``QFileSystemWatcher`` notices when another program changes the file; the
editor's own saves are told apart by the file's content, not its time stamp,
so a save never looks like someone else's change.
"""

from __future__ import annotations

import difflib
import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QFileSystemWatcher, QLockFile, QObject, QTimer, Signal

# An atomic save by another program removes the file for an instant; look again after this.
SETTLE_MS = 150


@dataclass(frozen=True)
class LockOwner:
    """Who holds the lock on a file (as far as the lock file tells)."""

    pid: int
    host: str
    app: str

    def describe(self) -> str:
        """One line for a prompt. Only Trackside makes these lock files, so the holder
        is another Trackside window (the lock names the program as Python runs it)."""
        where = f"process {self.pid} on {self.host}" if self.host else f"process {self.pid}"
        return f"another Trackside window ({where})"


def lock_path(path: str | os.PathLike[str]) -> Path:
    """The hidden lock file beside ``path`` (for the file a link points to)."""
    target = Path(os.path.realpath(path))
    return target.with_name(f".{target.name}.lock")


def content_stamp(path: str | os.PathLike[str]) -> str | None:
    """A digest of the file's bytes, or None when it cannot be read."""
    try:
        with open(path, "rb") as handle:
            return hashlib.sha256(handle.read()).hexdigest()
    except OSError:
        return None


def difference(path: str, ours: str, limit: int = 200) -> str:
    """What differs between the file on disk and ``ours``, as a unified diff (first lines)."""
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            theirs = handle.read()
    except OSError as exc:
        return f"cannot read {path}: {exc.strerror or exc}"
    lines = list(
        difflib.unified_diff(
            theirs.splitlines(), ours.splitlines(), "on disk", "in this editor", lineterm=""
        )
    )
    more = f"\n… and {len(lines) - limit} more lines" if len(lines) > limit else ""
    return "\n".join(lines[:limit]) + more or "no difference in the text"


class FileGuard(QObject):
    """Locks and watches one file at a time: the document's."""

    changedOnDisk = Signal(str)  # the path, when its content differs from what we know
    removedFromDisk = Signal(str)

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self.path: str | None = None
        self._lock: QLockFile | None = None
        self._stamp: str | None = None
        self.watcher = QFileSystemWatcher(self)
        self.watcher.fileChanged.connect(self._on_file_changed)

    # -- the lock ------------------------------------------------------------
    def try_lock(self, path: str) -> LockOwner | None:
        """Take the lock on ``path`` (giving back the one held): None when taken or
        when no lock can be made there, else who holds it (the held lock is kept)."""
        if self.locked and self.path == os.path.realpath(path):
            return None  # ours already
        lock = QLockFile(str(lock_path(path)))
        lock.setStaleLockTime(0)  # a long session is not stale; a dead process is
        if lock.tryLock(0):
            self.unlock()
            self._lock = lock
            return None
        if lock.error() != QLockFile.LockError.LockFailedError:
            return None  # a folder we cannot write to: nobody can hold a lock there
        info = lock.getLockInfo()
        if isinstance(info, tuple) and len(info) >= 3:
            pid, host, app = info[-3:]
            return LockOwner(int(pid or 0), str(host or ""), str(app or ""))
        return LockOwner(0, "", "")

    @property
    def locked(self) -> bool:
        """True while this editor holds the lock on its file."""
        return self._lock is not None and self._lock.isLocked()

    def unlock(self) -> None:
        """Give the lock back."""
        if self._lock is not None:
            self._lock.unlock()
            self._lock = None

    # -- the watch -----------------------------------------------------------
    def watch(self, path: str | None) -> None:
        """Watch ``path`` (None: nothing) and remember its content as ours."""
        if self.watcher.files():
            self.watcher.removePaths(self.watcher.files())
        self.path = os.path.realpath(path) if path else None
        self._stamp = content_stamp(self.path) if self.path else None
        self._rewatch()

    def note_saved(self) -> None:
        """The editor has just written the file: its content is ours."""
        if self.path:
            self._stamp = content_stamp(self.path)
            self._rewatch()

    def changed_since_known(self) -> bool:
        """True when the file on disk differs from what this editor last read or wrote."""
        if not self.path or self._stamp is None:
            return False
        now = content_stamp(self.path)
        return now is not None and now != self._stamp

    def accept_disk(self) -> None:
        """Take the disk's content as known (the user chose to keep their own)."""
        self.note_saved()

    def release(self) -> None:
        """Stop watching and give the lock back (the document closes)."""
        self.watch(None)
        self.unlock()

    def _rewatch(self) -> None:
        # An atomic replace (ours or another program's) drops the watch: add it again.
        if self.path and os.path.exists(self.path) and self.path not in self.watcher.files():
            self.watcher.addPath(self.path)

    def _on_file_changed(self, _path: str) -> None:
        QTimer.singleShot(SETTLE_MS, self._check)

    def _check(self) -> None:
        if not self.path:
            return
        if not os.path.exists(self.path):
            self.removedFromDisk.emit(self.path)
            return
        self._rewatch()
        if self.changed_since_known():
            self.changedOnDisk.emit(self.path)
