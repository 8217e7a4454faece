"""The bots the balance lab plays with unless told otherwise, and what "stronger" means:
one place to change either.

Every entry point of the lab (``trackside simulate`` on one circuit, ``trackside
suggest``, the editor's Balance panel) starts from ``LAB_BOTS``, cycled over the
seats and rotated from game to game. The check of a verdict with stronger bots
(``engine/balance/deeper.py``) plays the same seats with ``stronger_bots``.
"""

from __future__ import annotations

from trackside.engine.bots import MAX_SAMPLES
from trackside.engine.bots.strong import DEFAULT_SAMPLES

# Strong bots: the greedy bots' verdict moved with twice their search (the
# pole's share by 5 to 8 points on every bundled circuit), the default strong
# bot's did not (docs/balance.md, "The lab's bots").
LAB_BOTS: tuple[str, ...] = ("strong",)


def bots_named(bots: tuple[str, ...] | list[str]) -> str:
    """The bots of a run in words: "greedy bots", "strong, greedy bots"."""
    return f"{', '.join(dict.fromkeys(bots))} bots"


def stronger_bots(bots: tuple[str, ...]) -> tuple[str, ...]:
    """The same seats played by a search twice as deep: a greedy bot (no search) by the
    strong bot at its default budget, ``strong`` by ``strong:2N`` for its default N,
    ``strong:N`` by ``strong:2N`` (at most ``MAX_SAMPLES``). Random bots stay random:
    they stand for players who do not look ahead, and making them search would change
    who sits at the table, not how deep the players think."""
    return tuple(_stronger(kind) for kind in bots)


def _stronger(kind: str) -> str:
    name, _, budget = kind.partition(":")
    if name == "greedy":
        return "strong"
    if name == "strong":
        samples = int(budget) if budget else DEFAULT_SAMPLES
        return f"strong:{min(2 * samples, MAX_SAMPLES)}"
    return kind


NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")


def deals_words(samples: int) -> str:
    """A strong bot's search in plain words: "two deals a decision"."""
    count = NUMBER_WORDS[samples] if samples < len(NUMBER_WORDS) else f"{samples:,}"
    return f"{count} {'deal' if samples == 1 else 'deals'} a decision"


def kind_words(kind: str, joined: str = " (") -> str:
    """One bot setting in plain words for the editor, where ``strong:2`` is jargon:
    "greedy", "strong", "strong (two deals a decision)" (``joined`` " at ": "strong at
    two deals a decision"); the lab's strong bot is plain "strong"."""
    name, _, budget = kind.partition(":")
    if name != "strong" or not budget:
        return name
    return f"strong{joined}{deals_words(int(budget))}{')' if joined == ' (' else ''}"


def _deeper_alike(kinds: list[str]) -> str:
    """The search of ``kinds`` when they are one strong setting deeper than the lab's
    ("two deals a decision"), else ""."""
    if len(kinds) == 1 and kinds[0].startswith("strong:"):
        return deals_words(int(kinds[0].partition(":")[2]))
    return ""


def bots_in_words(bots: tuple[str, ...] | list[str]) -> str:
    """The bots of a run in plain words (``bots_named`` without the settings' jargon):
    "strong bots", "greedy, random bots", "strong bots (two deals a decision)",
    "strong (two deals a decision), greedy bots"."""
    kinds = list(dict.fromkeys(bots))
    alike = _deeper_alike(kinds)
    if alike:
        return f"strong bots ({alike})"
    return f"{', '.join(kind_words(kind) for kind in kinds)} bots"


def stronger_in_words(bots: tuple[str, ...] | list[str]) -> str:
    """The stronger bots of a check in plain words: "stronger bots (two deals a
    decision)", "stronger bots (strong, random)", "stronger bots (strong at two deals
    a decision, strong)"."""
    kinds = list(dict.fromkeys(bots))
    alike = _deeper_alike(kinds)
    said = alike or ", ".join(kind_words(kind, " at ") for kind in kinds)
    return f"stronger bots ({said})"
