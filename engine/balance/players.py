"""The bots the balance lab plays with unless told otherwise: one place to change them.

Every entry point of the lab (``trackside simulate`` on one circuit, ``trackside
suggest``, the editor's Balance panel) starts from ``LAB_BOTS``, cycled over the
seats and rotated from game to game.
"""

from __future__ import annotations

LAB_BOTS: tuple[str, ...] = ("greedy",)


def bots_named(bots: tuple[str, ...] | list[str]) -> str:
    """The bots of a run in words: "greedy bots", "strong, greedy bots"."""
    return f"{', '.join(dict.fromkeys(bots))} bots"
