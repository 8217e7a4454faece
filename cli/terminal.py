"""What the command line prints is safe on a terminal: a circuit, player or variant
name, a space id, a file name or a message quoting one may hold ESC sequences or
bidirectional overrides that a terminal would act on (recolour, clear, reorder the
line). While a command runs with text output, ``safe_output`` puts a stream in front
of stdout and stderr that shows every such character escaped (``\\x1b``, ``\\u202e``;
``engine.text.terminal_safe``), whatever printed it; JSON output is left as it is
(its strings keep the characters as data)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TextIO

from trackside.engine.errors import TracksideError
from trackside.engine.text import terminal_safe


def say(error: TracksideError) -> None:
    """Write ``error`` to stderr as the CLI contract has it: one line per problem,
    each beginning ``trackside:``, its messages after the error's code."""
    for line in error.lines(coded=True):
        print(f"trackside: {line}", file=sys.stderr)


class SafeStream:
    """A text stream that writes to ``unescaped`` with every character a terminal
    would act on escaped, line breaks kept."""

    def __init__(self, unescaped: TextIO):
        self.unescaped = unescaped

    def write(self, text: str) -> int:
        self.unescaped.write(terminal_safe(text, keep="\n"))
        return len(text)

    def flush(self) -> None:
        self.unescaped.flush()

    def isatty(self) -> bool:
        return self.unescaped.isatty()

    def __getattr__(self, name: str) -> object:
        return getattr(self.unescaped, name)


@contextmanager
def safe_output(enabled: bool = True) -> Iterator[None]:
    """stdout and stderr escaped for the terminal while the block runs (if ``enabled``)."""
    if not enabled:
        yield
        return
    saved = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = _safe(saved[0]), _safe(saved[1])
    try:
        yield
    finally:
        sys.stdout, sys.stderr = saved


def unescaped(stream: TextIO) -> TextIO:
    """The stream behind a safe one, for text of our own that moves the cursor (a
    progress bar's carriage return) and holds nothing from a file."""
    return stream.unescaped if isinstance(stream, SafeStream) else stream


def _safe(stream: TextIO) -> TextIO:
    # A SafeStream is a TextIO in every way print() and our commands use it.
    return SafeStream(stream)  # type: ignore[return-value]
