"""User-facing errors: each names the file, the place in it and the problem."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from trackside.engine.text import plural

SHOWN_CHARS = 60


def shown(value: object, limit: int = SHOWN_CHARS, quote: bool = True) -> str:
    """A value as echoed in a message: its repr (or, unquoted, its text), cut to
    ``limit`` characters with "…" so that a huge value cannot flood the output."""
    text = repr(value) if quote else str(value)
    return text if len(text) <= limit else text[:limit] + "…"


def place_text(
    file: str | None, line: int | None = None, column: int | None = None, unnamed: str = "<input>"
) -> str:
    """``file:line:column`` as far as known; ``unnamed`` stands for a missing file."""
    parts = [file or unnamed]
    if line is not None:
        parts.append(str(line))
        if column is not None:
            parts.append(str(column))
    return ":".join(parts)


@dataclass
class Place:
    """Where a problem is: a file and, when known, a line and column (1-based)."""

    file: str | None = None
    line: int | None = None
    column: int | None = None

    def __str__(self) -> str:
        return place_text(self.file, self.line, self.column)


class TracksideError(Exception):
    """A problem with the user's input, shown as one line without a traceback.

    ``exit_code`` follows the CLI contract: 1 for input that is understood but
    invalid, 2 for input that cannot be read or arguments that are wrong.
    """

    exit_code = 2

    def __init__(self, message: str, place: Place | None = None, hint: str | None = None):
        super().__init__(message)
        self.message = message
        self.place = place or Place()
        self.hint = hint
        # The problems found after the one this error names, each with its place.
        self.more: list[tuple[str, Place]] = []
        # Severity and code ("error schema") that the command line puts after each
        # place, as `trackside validate` prints its issues; a window leaves them out.
        self.code = ""

    def lines(self, coded: bool = False) -> list[str]:
        """One line per problem (the CLI contract): this error, then each further one
        at its place; ``coded``, each message after the error's code, if it has one."""
        head = f"{self.code}: " if coded and self.code else ""
        first = _placed(self.place, head + self.message)
        if self.hint:
            first += f" ({self.hint})"
        return [first, *(f"{place}: {head}{message}" for message, place in self.more)]

    def to_dict(self) -> dict[str, object]:
        """The error as JSON data, for ``--json`` output."""
        return {
            "ok": False,
            "exit_code": self.exit_code,
            "error": {
                "message": self.message,
                "file": self.place.file,
                "line": self.place.line,
                "column": self.place.column,
                "hint": self.hint,
                "more": [
                    {"message": message, "file": at.file, "line": at.line, "column": at.column}
                    for message, at in self.more
                ],
            },
        }

    def __str__(self) -> str:
        return self.lines()[0]


def _placed(place: Place, message: str) -> str:
    """``message`` after its place; a problem that belongs to no file (the whole game,
    say) names its subject itself."""
    unplaced = place.file is None and place.line is None
    return message if unplaced else f"{place}: {message}"


class UnreadableInput(TracksideError):
    """The file cannot be read or parsed at all (exit code 2)."""

    exit_code = 2


class InvalidInput(TracksideError):
    """The file was read but its content is not valid (exit code 1)."""

    exit_code = 1

    def __init__(
        self,
        message: str,
        place: Place | None = None,
        hint: str | None = None,
        problems: Sequence[object] = (),
    ):
        super().__init__(message, place, hint)
        # Every problem found (the message names the first); their form is the caller's.
        self.problems = list(problems)


class UnwritableOutput(TracksideError):
    """An output file cannot be written (exit code 2)."""

    exit_code = 2


def more_problems(count: int) -> str:
    """What follows the first of several problems: ' (and 2 more problems)', or ''."""
    return f" (and {plural(count, 'more problem')})" if count > 0 else ""


@dataclass(frozen=True)
class Way:
    """One way to fix what made a write fail, in the words a message gives it ("free
    some space"), and whether it needs another place than the one the write went to
    (another disk, folder, file name or file) or is done in place, after which the
    same write can simply be tried again."""

    words: str
    elsewhere: bool = False


@dataclass(frozen=True)
class Fix:
    """What to do about what made a write fail: why, where the ways need it said ("the
    disk is full"), and the ways, any one of which will do, in the order they are
    offered; ``joint`` stands between two ways in the words of the fix."""

    ways: tuple[Way, ...]
    why: str = ""
    joint: str = " or "

    def __str__(self) -> str:
        """The fix in words: "the disk is full: free some space or choose another disk"."""
        ways = self.joint.join(way.words for way in self.ways)
        return f"{self.why}: {ways}" if self.why else ways


def in_place(words: str) -> Way:
    """A way done where the write went: "free some space"."""
    return Way(words)


def elsewhere(words: str) -> Way:
    """A way that needs another place (disk, folder, file name or file): "choose another
    disk"."""
    return Way(words, elsewhere=True)


class WriteFailed(UnwritableOutput, OSError):
    """Writing a file failed (a full disk, no permission, a read-only disk...): the
    error of the command line (exit code 2, one line) that is also the ``OSError``
    that caused it, with its ``errno``, ``strerror`` and ``filename``, so code that
    handles an ``OSError`` around a write handles this one too. ``remedy`` is what to
    do about the cause alone, as data (each way, and whether it needs another place),
    and ``fix`` its words (the ``hint`` also says what was left on disk, and is the
    ``fix`` where not given), for a program that says what is left in its own words."""

    def __new__(cls, *_args: object, **_kwargs: object) -> WriteFailed:
        return OSError.__new__(cls)  # OSError's own arguments are set in __init__

    def __init__(
        self,
        message: str,
        place: Place | None = None,
        hint: str | None = None,
        *,
        errno: int | None = None,
        cause: str | None = None,
        fix: Fix | None = None,
    ):
        words = str(fix) if fix is not None else None
        UnwritableOutput.__init__(self, message, place, words if hint is None else hint)
        self.remedy = fix
        self.fix = words
        self.args = (message,)
        self.errno = errno
        self.strerror = cause or message
        self.filename = self.place.file

    def __str__(self) -> str:
        return UnwritableOutput.__str__(self)
