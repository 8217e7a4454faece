"""Disk faults for the tests of writing: a full disk, a folder without permission, a
read-only disk, made to happen under one folder at the operating system's calls
(``os.open``, ``os.write``, ``os.replace``), or for real on a small tmpfs when the
tests run as root where mounting is allowed.

Each fault fails the calls as the system does: a full disk takes no more bytes
(``write`` fails with ENOSPC); a folder without permission and a read-only disk let
no file be made or renamed in them (EACCES, EROFS)."""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

FAULTS = {"ENOSPC": errno.ENOSPC, "EACCES": errno.EACCES, "EROFS": errno.EROFS}
# What a person reads for each fault (the system's words), and for a folder in the way.
CAUSES = {
    "ENOSPC": "No space left on device",
    "EACCES": "Permission denied",
    "EROFS": "Read-only file system",
    "folder": "folder",
}
OLD = b"the earlier file\n"


def inject(monkeypatch: pytest.MonkeyPatch, fault: str, folder: Path) -> None:
    """Make the disk under ``folder`` fail as ``fault`` does, for this test."""
    if not Path("/proc/self/fd").is_dir():
        pytest.skip("the file behind a descriptor is found through /proc")
    code = FAULTS[fault]
    inside_of = os.path.realpath(folder) + os.sep

    def inside(path: str | bytes | os.PathLike) -> bool:
        return os.path.realpath(os.fsdecode(path)).startswith(inside_of)

    def fail(path: object = None) -> OSError:
        return OSError(code, os.strerror(code), None if path is None else os.fsdecode(path))

    real_open, real_write, real_replace, real_rename = os.open, os.write, os.replace, os.rename
    if code == errno.ENOSPC:

        def write(fd: int, data: bytes) -> int:
            try:
                behind = os.readlink(f"/proc/self/fd/{fd}")
            except OSError:
                behind = ""
            if behind and inside(behind) and len(data):
                raise fail()
            return real_write(fd, data)

        monkeypatch.setattr(os, "write", write)
        return

    def open_(path, flags, mode=0o777, *, dir_fd=None):
        if flags & os.O_CREAT and inside(path):
            raise fail(path)
        return real_open(path, flags, mode, dir_fd=dir_fd)

    def replace(src, dst, **kwargs):
        if inside(dst):
            raise fail(dst)
        return real_replace(src, dst, **kwargs)

    def rename(src, dst, **kwargs):
        if inside(dst):
            raise fail(dst)
        return real_rename(src, dst, **kwargs)

    monkeypatch.setattr(os, "open", open_)
    monkeypatch.setattr(os, "replace", replace)
    monkeypatch.setattr(os, "rename", rename)


def prepare(target: Path, fault: str) -> None:
    """An earlier file at ``target`` (or, for ``folder``, a folder of that name in the way)."""
    if fault == "folder":
        target.mkdir()
        (target / "inside.txt").write_bytes(OLD)
    else:
        target.write_bytes(OLD)


def failing_target(monkeypatch: pytest.MonkeyPatch, folder: Path, name: str, fault: str) -> Path:
    """A new ``folder`` holding an earlier file ``name`` (``prepare``), the disk under it
    failing as ``fault`` does (a folder in the way needs no failing disk); gives the file."""
    folder.mkdir()
    target = folder / name
    prepare(target, fault)
    if fault != "folder":
        inject(monkeypatch, fault, folder)
    return target


def untouched(target: Path, fault: str) -> bool:
    """The earlier file (or folder) is as it was."""
    if fault == "folder":
        return target.is_dir() and (target / "inside.txt").read_bytes() == OLD
    return target.read_bytes() == OLD


def leftovers(folder: Path) -> list[str]:
    """Temporary files a write left in ``folder``."""
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


# -- a real small disk -----------------------------------------------------------------
def can_mount() -> bool:
    """Whether a tmpfs can be mounted here (root, and a system that allows it)."""
    if os.name != "posix" or os.geteuid() != 0 or not shutil.which("mount"):
        return False
    with tempfile.TemporaryDirectory() as folder:
        mounted = _run("mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", folder)
        if mounted:
            _run("umount", folder)
        return mounted


@contextlib.contextmanager
def small_disk(folder: Path, kib: int = 256) -> Iterator[Path]:
    """A tmpfs of ``kib`` KiB mounted on ``folder`` for the block."""
    folder.mkdir(parents=True, exist_ok=True)
    if not _run("mount", "-t", "tmpfs", "-o", f"size={kib}k", "tmpfs", str(folder)):
        pytest.skip("cannot mount a tmpfs here")
    try:
        yield folder
    finally:
        _run("umount", "-l", str(folder))


def fill(folder: Path) -> None:
    """Fill the disk of ``folder`` to the last byte."""
    fd = os.open(folder / "filler", os.O_WRONLY | os.O_CREAT, 0o644)
    try:
        for size in (65536, 4096, 512, 1):
            with contextlib.suppress(OSError):
                while os.write(fd, b"\0" * size):
                    pass
    finally:
        os.close(fd)


def read_only(folder: Path) -> None:
    """Remount the disk of ``folder`` read-only."""
    if not _run("mount", "-o", "remount,ro", str(folder)):
        pytest.skip("cannot remount the tmpfs read-only")


def _run(*argv: str) -> bool:
    done = subprocess.run(argv, capture_output=True, check=False)
    return done.returncode == 0
