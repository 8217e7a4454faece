"""The words of messages and labels, shared by the engine, the command line and the
editor: counted words ("1 card", "3 cards"), places ("2nd"), and text made safe to
print on a terminal."""

from __future__ import annotations

import difflib
import re
import time
import unicodedata
from collections.abc import Callable, Iterable
from pathlib import PurePath


def noun(n: float, word: str, plural: str | None = None) -> str:
    """The word in the number ``n`` asks for: 'card' for 1, 'cards' otherwise.

    ``plural`` is for words that do not just add an s."""
    return word if n == 1 else (plural or word + "s")


def plural(n: float, word: str, plural: str | None = None, spec: str = "") -> str:
    """``n`` and the word in the right number: '1 card', '3 cards', '0 cards'.

    ``plural`` is for words that do not just add an s; ``spec`` formats the
    number (``","`` for thousands, ``"g"`` for a float).
    """
    return f"{n:{spec}} {noun(n, word, plural)}"


def listed(words: Iterable[str]) -> str:
    """Words as a sentence lists them: 'a28', 'a28 and b28', 'a28, b28 and c28'."""
    items = list(words)
    return " and ".join(filter(None, [", ".join(items[:-1]), *items[-1:]]))


def ordinal(k: int) -> str:
    """1st, 2nd, 3rd, 4th, ... 11th, 12th, 13th, 21st, ..."""
    if k % 100 in (11, 12, 13):
        return f"{k}th"
    return f"{k}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(k % 10, 'th') }"


def closest(word: str, names: Iterable[str]) -> str | None:
    """The one of ``names`` that ``word`` most likely misspells ("standrad" for
    "standard"), or None when none is close."""
    found = difflib.get_close_matches(word, list(names), n=1)
    return found[0] if found else None


def terminal_safe(text: str, keep: str = "") -> str:
    """``text`` with every character a terminal would act on written as an escape
    (``\\x1b``, ``\\r``, ``\\u202e``): control characters and ESC, bidirectional
    overrides and isolates, line separators, unassigned and lone surrogate code
    points. Printable text and spaces stay as they are, and so do the characters of
    ``keep`` (``"\\n"`` for text that is several lines on purpose)."""
    if text.isprintable():
        return text
    if keep and _without(text, keep).isprintable():
        return text
    return "".join(
        ch
        if ch.isprintable() or ch in keep or unicodedata.category(ch) == "Zs"
        else ch.encode("unicode_escape", "backslashreplace").decode("ascii")
        for ch in text
    )


def title_from_file(path: str | PurePath) -> str:
    """A name from a file's ('Harbour Loop' for harbour-loop.yaml): a run of ``-``,
    ``_`` and spaces becomes one space; a name typed with any capital stays as typed
    ('GP of USA'), an all lower-case one gets a capital at the start of each word and
    nowhere else ('spa 2nd edition' is 'Spa 2nd Edition', "harry's loop" is "Harry's
    Loop"); '' for a name that is only a suffix or has no letter or digit ('.yaml',
    '---.yaml')."""
    name = PurePath(path).name
    stem, dot, _suffix = name.rpartition(".")  # ".yaml" is a suffix, no name
    words = re.sub(r"[-_\s]+", " ", stem if dot else name).strip()
    if not any(ch.isalnum() for ch in words):
        return ""
    if any(ch.isupper() for ch in words):
        return words
    return " ".join(word[:1].upper() + word[1:] for word in words.split(" "))


def elided(text: str, limit: int = 80) -> str:
    """``text`` cut in the middle to ``limit`` characters with "…", its start and its
    end kept (a long file name keeps its folder and its suffix in view)."""
    if len(text) <= limit:
        return text
    tail = (limit - 1) // 2
    return f"{text[: limit - 1 - tail]}…{text[len(text) - tail :]}"


def _without(text: str, chars: str) -> str:
    for ch in chars:
        text = text.replace(ch, "")
    return text


MONEY_DIGITS = 1  # decimals of a money figure of the balance lab: a tenth of a million


def money(amount: float, digits: int = MONEY_DIGITS, signed: bool = False) -> str:
    """An amount in millions of dollars, the sign before the dollar: "$3.4M", "-$2.3M";
    ``signed``, a change: "+$0.6M", "-$0.6M", "+$0.0M"."""
    shown = round(amount, digits)
    sign = "-" if shown < 0 else "+" if signed else ""  # never "-$0.0M"
    return f"{sign}${abs(amount):.{digits}f}M"


def duration(seconds: float) -> str:
    """``42 s``, ``3 min 10 s``, ``1 h 05 min``."""
    whole = round(seconds)
    if whole < 60:
        return f"{whole} s"
    if whole < 3600:
        return f"{whole // 60} min {whole % 60:02d} s"
    return f"{whole // 3600} h {whole % 3600 // 60:02d} min"


ESTIMATING = "estimating the time left\u2026"


class Pace:
    """The time left of ``total`` games, at the rate they came in once a few had.

    The rate is counted from the first games reported, not from the start: worker
    processes starting up, and every worker's first task coming in at about the same
    time while the first report counts only one of them, made the rate from the start
    far too slow (on two busy cores the first estimate was three to four times the
    time the run took). It is said once ``FEWEST_GAMES`` more games and
    ``FEWEST_SECONDS`` have gone by since. ``clock`` gives the time in seconds
    (``time.monotonic``; a test gives its own)."""

    FEWEST_GAMES = 3
    FEWEST_SECONDS = 2.0

    def __init__(self, total: int, clock: Callable[[], float] = time.monotonic):
        self.total = total
        self.clock = clock
        self.began = clock()
        self._first: tuple[float, int] | None = None  # (when, games) the rate counts from

    def left(self, done: int, now: float | None = None) -> str:
        """The time left in words once ``done`` games are played (at ``now``, by
        default the clock's time): "1 min 20 s", ``ESTIMATING`` while too few have come
        in to tell, "" once all are done."""
        now = self.clock() if now is None else now
        if done >= self.total:
            return ""
        if done <= 0:
            return ESTIMATING
        if self._first is None:
            self._first = (now, done)
        when, games = self._first
        if done - games < self.FEWEST_GAMES or now - when < self.FEWEST_SECONDS:
            return ESTIMATING
        return duration((self.total - done) * (now - when) / (done - games))
