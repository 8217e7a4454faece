"""The progress bar of the commands that play many games (``simulate``, ``sweep``): on
stderr when it is a terminal, with the games played, what the run waits for and the
time left at the pace the games come in (``engine.text.Pace``); nothing while it runs
otherwise (the command says what it did at the end)."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

from trackside.cli.terminal import unescaped
from trackside.engine.text import ESTIMATING, Pace


class ProgressBar:
    """``[#####.....] 1200/4000 games, 3 of 8 settings, 2 min 10 s left``; ``clock`` gives
    the time in seconds (``time.monotonic``; a test gives its own)."""

    WIDTH = 30

    def __init__(self, total: int, clock: Callable[[], float] = time.monotonic):
        self.total = max(1, total)
        self.out = unescaped(sys.stderr)  # the bar's own carriage returns move the cursor
        self.tty = self.out.isatty()
        self.shown = (-1, "")
        self.clock = clock
        self.pace = Pace(self.total, clock)
        self.shown_at = 0.0

    def update(self, k: int, waiting: str = "", note: str = "") -> None:
        """Show ``k`` of the total played; ``waiting``: what a run until clear waits
        for (the time left is then at most what is shown); ``note``: more words."""
        if not self.tty:
            return
        filled = self.WIDTH * min(k, self.total) // self.total
        now = self.clock()
        left = self.pace.left(k, now)  # every report counts towards the rate
        unchanged = (filled, note) == self.shown and k < self.total and not waiting
        if unchanged and now - self.shown_at < 1.0:  # the time left still moves now and then
            return
        self.shown, self.shown_at = (filled, note), now
        line = f"[{'#' * filled}{'.' * (self.WIDTH - filled)}] {k}/{self.total} games"
        if note:
            line += f", {note}"
        if waiting:
            line += f", waiting for {waiting}"
        if left == ESTIMATING:
            line += "" if waiting else f", {left}"  # waiting says what the run is at
        elif left:
            line += f", {'at most ' if waiting else ''}{left} left"
        self.out.write(f"\r{line}\033[K")
        self.out.flush()

    def end(self) -> None:
        """Leave the bar's line (before the command's own lines)."""
        if self.tty:
            self.out.write("\n")
            self.out.flush()
