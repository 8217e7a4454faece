"""What is read from files, kept while those files stay as they were.

A track, a variant or a deck read by path is kept for the next game of the same
process (replays and simulations read the same files again and again), keyed by the
stamp of every file it was read from: a variant's own file, each file it ``extends``
and its deck. A file's stamp is its modification and change times in nanoseconds, its
size and its identity on disk (a save that replaces the file, as every Trackside save
does, makes a new one), so an edit within one tick of a coarse clock is still seen
when it changes the size or replaces the file. A value read from a file changed
within the last ``RACY_SECONDS`` is not kept at all (git's "racily clean" rule): on a
clock that coarse, an edit of the same size in place could still come within the
same tick, and nothing in the stamp would tell it apart.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Generic, TypeVar

# (modification time, change time in ns, size, inode); None: the file cannot be read
Stamp = tuple[int, int, int, int] | None
Value = TypeVar("Value")
# Ticks of the coarsest clocks files are stamped by (FAT: 2 s); a file changed more
# recently than this may change again unseen within the same tick.
RACY_SECONDS = 2.0


def stamp(path: str | os.PathLike[str]) -> Stamp:
    """The file's modification and change times (ns), size and inode; None when it
    cannot be read."""
    try:
        status = os.stat(path)
    except OSError:
        return None
    return (status.st_mtime_ns, status.st_ctime_ns, status.st_size, status.st_ino)


def stamps(paths: Iterable[str]) -> tuple[tuple[str, Stamp], ...]:
    """Each file with its stamp."""
    return tuple((path, stamp(path)) for path in paths)


class ReadCache(Generic[Value]):
    """Values read from files by path, each kept with the stamps of the files it was
    read from, and read again when any of them has changed or gone."""

    def __init__(self, sources: Callable[[Value], Iterable[str]]):
        self._sources = sources  # the files a value was read from
        self._kept: dict[str, tuple[tuple[tuple[str, Stamp], ...], Value]] = {}

    def get(self, path: str | os.PathLike[str], read: Callable[[], Value]) -> Value:
        """The value read from ``path``: the one kept if every file it came from is
        as it was then, else ``read()``, kept for next time."""
        key = str(Path(path).resolve())
        kept = self._kept.get(key)
        if kept is not None and kept[0] == stamps(file for file, _stamp in kept[0]):
            return kept[1]
        own = stamp(key)
        value = read()
        sources = stamps(dict.fromkeys([key, *self._sources(value)]))
        if sources[0][1] == own and not _racy(sources):  # not changed while it was read
            self._kept[key] = (sources, value)
        return value


def _racy(sources: tuple[tuple[str, Stamp], ...]) -> bool:
    """Whether any file was changed too recently for its stamp to catch the next edit."""
    now = time.time_ns()
    window = int(RACY_SECONDS * 1e9)
    # A file stamped in the future (a clock ahead of ours) is racy too, as in git.
    return any(s is not None and now - s[0] < window for _path, s in sources)
