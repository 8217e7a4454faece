"""Guarding the open file: a lock so other editors know, a watch on what happens to it.

Each editor holds a ``QLockFile`` beside the file it edits (``.name.yaml.lock``);
a second editor opening the same file learns who has it. A
``QFileSystemWatcher`` on the file, its folder and the folder above notices when
the file is changed by another program (the editor's own saves are told apart by
the file's content, not its time stamp, so a save never looks like someone
else's change), deleted, reached through a symbolic link that now points
elsewhere, or moved with its folder (found again, on Linux, through a descriptor
kept open on the folder).

Several windows may run in one process: the locks this process holds are known
by the lock file's identity on disk, so a lock left with this process's id that
no window holds (its folder was renamed under it) is taken back, and a window of
this process is never called "another Trackside window".
"""

from __future__ import annotations

import contextlib
import difflib
import hashlib
import os
import weakref
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QFileSystemWatcher, QLockFile, QObject, QTimer, Signal

# An atomic save by another program removes the file for an instant; look again after this.
SETTLE_MS = 150

FileId = tuple[int, int]  # (device, inode)

# The lock files held by the guards of this process, by their identity on disk.
_HELD: weakref.WeakValueDictionary[FileId, FileGuard] = weakref.WeakValueDictionary()


@dataclass(frozen=True)
class LockOwner:
    """Who holds the lock on a file (as far as the lock file tells)."""

    pid: int
    host: str
    app: str
    here: bool = False  # a window of this very process

    def describe(self) -> str:
        """One line for a prompt. Only Trackside makes these lock files, so the holder
        is a Trackside window: another window of this program, or of another process."""
        if self.here:
            return f"another window of this Trackside (process {self.pid})"
        where = f"process {self.pid} on {self.host}" if self.host else f"process {self.pid}"
        return f"another Trackside window ({where})"


@dataclass
class Claim:
    """A lock taken on a file for this editor (``lock`` None: no lock can be made there,
    as in a folder this user cannot write in)."""

    file: str  # the real path of the file locked
    lock: QLockFile | None
    lock_id: FileId | None = None  # the lock file's identity on disk

    def release(self) -> None:
        """Give the lock back."""
        self.disown()
        if self.lock is not None:
            self.lock.unlock()
            self.lock = None

    def disown(self) -> None:
        """Stop counting the lock as this process's (its file is about to go)."""
        if self.lock_id is not None:
            _HELD.pop(self.lock_id, None)
            self.lock_id = None


def lock_path(path: str | os.PathLike[str]) -> Path:
    """The hidden lock file beside ``path`` (for the file a link points to)."""
    target = Path(os.path.realpath(path))
    return target.with_name(f".{target.name}.lock")


def content_stamp(path: str | os.PathLike[str]) -> str | None:
    """A digest of the file's bytes, or None when it cannot be read (or is no file)."""
    try:
        if not os.path.isfile(path):
            return None  # a named pipe would block the reading
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


def _file_id(path: str | os.PathLike[str]) -> FileId | None:
    try:
        info = os.stat(path)
    except OSError:
        return None
    return (info.st_dev, info.st_ino)


class FileGuard(QObject):
    """Locks and watches one file at a time: the document's."""

    changedOnDisk = Signal(str)  # the path, when its content differs from what we know
    removedFromDisk = Signal(str)
    movedOnDisk = Signal(str, str)  # the path, and where the file is now (its folder moved)
    retargeted = Signal(str, str, str)  # a link, the file it led to, the file it leads to now

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self.name: str | None = None  # the document's path, as given (a link stays a link)
        self.path: str | None = None  # the file it leads to
        self._claim: Claim | None = None
        self._stamp: str | None = None
        self._file_id: FileId | None = None
        self._folder_fd: int | None = None
        self._reported: tuple[str, ...] | None = None  # the last thing said, said once
        self.watcher = QFileSystemWatcher(self)
        self.watcher.fileChanged.connect(self._on_event)
        self.watcher.directoryChanged.connect(self._on_event)
        self._settle = QTimer(self)
        self._settle.setSingleShot(True)
        self._settle.setInterval(SETTLE_MS)
        self._settle.timeout.connect(self._check)

    # -- the lock ------------------------------------------------------------
    def claim(self, path: str) -> Claim | LockOwner:
        """A lock on ``path`` for this editor (the one held is kept, and given when it is
        already that file's), or who holds it."""
        target = os.path.realpath(path)
        if self._claim is not None and self._claim.file == target and self.locked:
            return self._claim
        where = lock_path(target)
        lock = QLockFile(str(where))
        lock.setStaleLockTime(0)  # a long session is not stale; a dead process is
        if lock.tryLock(0):
            return self._held(target, lock)
        if lock.error() != QLockFile.LockError.LockFailedError:
            return Claim(target, None)  # a folder we cannot write to: nobody can lock there
        info = lock.getLockInfo()
        pid, host, app = info[-3:] if isinstance(info, tuple) and len(info) >= 3 else (0, "", "")
        owner = LockOwner(int(pid or 0), str(host or ""), str(app or ""))
        if owner.pid != os.getpid():
            return owner
        holder = _HELD.get(_file_id(where) or (-1, -1))
        if holder is not None and holder is not self:
            return LockOwner(owner.pid, owner.host, owner.app, here=True)
        # Ours, left behind where its folder went (a renamed folder): take it back.
        if holder is self and self._claim is not None:
            self._claim.disown()
            self._claim.lock = None  # its file is the one found here
        with contextlib.suppress(OSError):
            where.unlink()
        if lock.tryLock(0):
            return self._held(target, lock)
        return Claim(target, None)

    def _held(self, target: str, lock: QLockFile) -> Claim:
        found = _file_id(lock_path(target))
        if found is not None:
            _HELD[found] = self
        return Claim(target, lock, found)

    def keep(self, claim: Claim) -> None:
        """Hold ``claim`` as the document's lock, giving back the one held before."""
        if claim is not self._claim:
            self.unlock()
            self._claim = claim

    def drop(self, claim: Claim) -> None:
        """Give back ``claim`` unless it is the document's own (a save that failed)."""
        if claim is not self._claim:
            claim.release()

    def try_lock(self, path: str) -> LockOwner | None:
        """Take the lock on ``path`` (giving back the one held): None when taken or
        when no lock can be made there, else who holds it (the held lock is kept)."""
        got = self.claim(path)
        if isinstance(got, LockOwner):
            return got
        if got.lock is not None:
            self.keep(got)
        return None

    def owner(self, path: str) -> LockOwner | None:
        """Who else holds the lock on ``path`` now (None: nobody, or this editor)."""
        got = self.claim(path)
        if isinstance(got, LockOwner):
            return got
        if got is not self._claim:
            got.release()
        return None

    @property
    def locked(self) -> bool:
        """True while this editor holds the lock on its file."""
        claim = self._claim
        return claim is not None and claim.lock is not None and claim.lock.isLocked()

    def unlock(self) -> None:
        """Give the lock back."""
        if self._claim is not None:
            self._claim.release()
            self._claim = None

    # -- the watch -----------------------------------------------------------
    def watch(self, path: str | None) -> None:
        """Watch ``path`` (None: nothing) and remember its content as ours."""
        if self.watcher.files():
            self.watcher.removePaths(self.watcher.files())
        if self.watcher.directories():
            self.watcher.removePaths(self.watcher.directories())
        self._close_folder()
        self.name = str(path) if path else None
        self.path = os.path.realpath(path) if path else None
        self._stamp = content_stamp(self.path) if self.path else None
        self._file_id = _file_id(self.path) if self.path else None
        self._reported = None
        if self.path:
            with contextlib.suppress(OSError, AttributeError):
                self._folder_fd = os.open(
                    os.path.dirname(self.path), os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC
                )
        self._rewatch()

    def note_saved(self) -> None:
        """The editor has just written the file: its content is ours."""
        if self.path:
            self._stamp = content_stamp(self.path)
            self._file_id = _file_id(self.path)
            self._reported = None
            self._rewatch()

    def stamp(self) -> str | None:
        """A digest of what the file holds now (to accept later what was shown)."""
        return content_stamp(self.path) if self.path else None

    def changed_since_known(self) -> bool:
        """True when the file on disk differs from what this editor last read or wrote."""
        if not self.path or self._stamp is None:
            return False
        now = content_stamp(self.path)
        return now is not None and now != self._stamp

    def accept_disk(self, stamp: str | None = None) -> None:
        """Take the disk's content as known (the user chose to keep their own): the
        content of ``stamp`` when given (what the user was shown), else what is there."""
        if stamp is None:
            self.note_saved()
            return
        self._stamp = stamp
        self._rewatch()

    def release(self) -> None:
        """Stop watching and give the lock back (the document closes)."""
        self.watch(None)
        self.unlock()

    def check_now(self) -> None:
        """Look at the file at once (as when the watch reports something)."""
        self._settle.stop()
        self._check()

    def check_place(self) -> bool:
        """Look at once whether the file is still where the document says (not moved, not
        reached through a link that now leads elsewhere): True when it is (its content
        is left for the watch, or for the question before overwriting it)."""
        if not self.path or not self.name:
            return True
        now = os.path.realpath(self.name)
        if os.path.exists(self.name) and now != self.path:
            self._report("retargeted", self.name, self.path, now)
            return False
        if not os.path.exists(self.path):
            moved = self._moved_to()
            if moved is not None:
                self._report("moved", self.name, moved)
            else:
                self._report("removed", self.name)
            return False
        self._reported = None
        return True

    def _close_folder(self) -> None:
        if self._folder_fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._folder_fd)
            self._folder_fd = None

    def _rewatch(self) -> None:
        # An atomic replace (ours or another program's) drops the watch on the file: add it
        # again. The folders show a link re-pointed, the file deleted, its folder renamed.
        if not self.path or not self.name:
            return
        wanted = {
            self.path,
            os.path.dirname(os.path.abspath(self.name)),
            os.path.dirname(self.path),
            os.path.dirname(os.path.dirname(self.path)),
        }
        watched = set(self.watcher.files()) | set(self.watcher.directories())
        new = [p for p in wanted - watched if os.path.exists(p)]
        if new:
            self.watcher.addPaths(new)

    def _on_event(self, _path: str) -> None:
        self._settle.start()  # many events at once (a save, a folder renamed): one look

    def _check(self) -> None:
        if not self.path or not self.name or not self.check_place():
            return
        self._rewatch()
        if self.changed_since_known():
            self.changedOnDisk.emit(self.name)

    def _report(self, kind: str, *paths: str) -> None:
        """Say what happened to the file, once for as long as it stays so."""
        if self._reported == (kind, *paths):
            return
        self._reported = (kind, *paths)
        if kind == "retargeted":
            self.retargeted.emit(*paths)
        elif kind == "moved":
            self.movedOnDisk.emit(*paths)
        else:
            self.removedFromDisk.emit(*paths)

    def _moved_to(self) -> str | None:
        """Where the file is now, when its folder was renamed or moved (Linux), else None."""
        if self._folder_fd is None or not self.path:
            return None
        try:
            folder = os.readlink(f"/proc/self/fd/{self._folder_fd}")
        except OSError:
            return None
        candidate = os.path.join(folder, os.path.basename(self.path))
        if candidate != self.path and _file_id(candidate) == self._file_id:
            return candidate
        return None
