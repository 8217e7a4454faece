"""Small helpers for the words of messages and labels, shared by the engine and the editor."""

from __future__ import annotations


def plural(n: float, word: str, plural: str | None = None, spec: str = "") -> str:
    """``n`` and the word in the right number: '1 card', '3 cards', '0 cards'.

    ``plural`` is for words that do not just add an s; ``spec`` formats the
    number (``","`` for thousands, ``"g"`` for a float).
    """
    return f"{n:{spec}} {word if n == 1 else (plural or word + 's')}"
