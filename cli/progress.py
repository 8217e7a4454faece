"""The progress bar of the commands that play many games (``simulate``, ``sweep``): on
stderr when it is a terminal, with the games played, what the run waits for and the
time left; nothing while it runs otherwise (the command says what it did at the end)."""

from __future__ import annotations

import sys
import time

from trackside.cli.terminal import unescaped
from trackside.engine.text import time_left


class ProgressBar:
    """``[#####.....] 1200/4000 games, 3 of 8 settings, 2 min 10 s left``."""

    WIDTH = 30

    def __init__(self, total: int):
        self.total = max(1, total)
        self.out = unescaped(sys.stderr)  # the bar's own carriage returns move the cursor
        self.tty = self.out.isatty()
        self.shown = (-1, "")
        self.began = time.monotonic()
        self.shown_at = 0.0

    def update(self, k: int, waiting: str = "", note: str = "") -> None:
        """Show ``k`` of the total played; ``waiting``: what a run until clear waits
        for (the time left is then at most what is shown); ``note``: more words."""
        if not self.tty:
            return
        filled = self.WIDTH * min(k, self.total) // self.total
        now = time.monotonic()
        unchanged = (filled, note) == self.shown and k < self.total and not waiting
        if unchanged and now - self.shown_at < 1.0:  # the time left still moves now and then
            return
        self.shown, self.shown_at = (filled, note), now
        line = f"[{'#' * filled}{'.' * (self.WIDTH - filled)}] {k}/{self.total} games"
        if note:
            line += f", {note}"
        if waiting:
            line += f", waiting for {waiting}"
        left = self.time_left(k, now)
        if left:
            line += f", {'at most ' if waiting else ''}{left} left"
        self.out.write(f"\r{line}\033[K")
        self.out.flush()

    def time_left(self, k: int, now: float) -> str:
        """The time the rest takes at the pace so far, in words ("" too early to say)."""
        return time_left(k, self.total, now - self.began)

    def end(self) -> None:
        """Leave the bar's line (before the command's own lines)."""
        if self.tty:
            self.out.write("\n")
            self.out.flush()
