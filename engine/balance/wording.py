"""A hint of the balance lab, and the words every hint shares."""

from __future__ import annotations

from dataclasses import dataclass

from trackside.engine.balance.edits import Proposal


@dataclass(frozen=True)
class Hint:
    """One finding: its text, how serious (``warning`` or ``info``), the spaces it is
    about, and the change it proposes in numbers, if any."""

    text: str
    severity: str
    spaces: tuple[str, ...] = ()
    proposal: Proposal | None = None


def shown_change(before: float, after: float, digits: int) -> float:
    """The change between two figures shown to ``digits`` decimals: the difference of
    the figures as shown, so that a reader who subtracts them finds the change shown
    (the exact difference may round a step the other way: 0.875 -> 0.784 is shown
    0.88 -> 0.78, -0.10, not -0.09)."""
    return round(after, digits) - round(before, digits)


def percent(value: float) -> str:
    """A share as a whole percentage: "31%"."""
    return f"{100 * value:.0f}%"


def percent_within(share: float, low: float, high: float) -> str:
    """A share and the half-width of its interval, in whole percentages, or to a
    tenth where the half-width is under one point: "31% ± 4%", "71.3% ± 0.4%"."""
    half = 100 * (high - low) / 2
    digits = 0 if round(half) >= 1 else 1
    return f"{100 * share:.{digits}f}% ± {half:.{digits}f}%"


def digits_for(half: float) -> int:
    """Decimals for an amount with an interval of half-width ``half``: to the first
    figure of the half-width, one decimal at least ("29.9 ± 0.8", "3.21 ± 0.09")."""
    return 1 if half >= 0.1 else 2
