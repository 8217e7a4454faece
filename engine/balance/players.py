"""The bots the balance lab plays with unless told otherwise: one place to change them.

Every entry point of the lab (``trackside simulate`` on one circuit, ``trackside
suggest``, the editor's Balance panel) starts from ``LAB_BOTS``, cycled over the
seats and rotated from game to game. ``stronger_bots`` names the players a
verdict is checked against: the same table with twice the search.
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


def stronger_bot(kind: str) -> str:
    """The bot that searches twice as much as ``kind``: a greedy bot becomes the
    default strong bot (``strong``), ``strong:N`` (``strong`` is
    ``strong:DEFAULT_SAMPLES``) becomes ``strong:2N``, capped at MAX_SAMPLES;
    a random bot becomes greedy."""
    name, _, budget = kind.partition(":")
    if name == "greedy":
        return "strong"
    if name == "random":
        return "greedy"
    if name == "strong":
        samples = int(budget) if budget else DEFAULT_SAMPLES
        return f"strong:{min(MAX_SAMPLES, 2 * samples)}"
    raise ValueError(f"unknown bot kind {kind!r}")


def stronger_bots(bots: tuple[str, ...]) -> tuple[str, ...]:
    """The same table with twice the search per seat (``stronger_bot``): what a
    verdict is checked against."""
    return tuple(stronger_bot(kind) for kind in bots)
