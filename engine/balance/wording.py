"""A hint of the balance lab, and the words every hint shares."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from trackside.engine.balance.edits import Proposal
from trackside.engine.text import MONEY_DIGITS, money

if TYPE_CHECKING:
    from trackside.engine.balance.report import BalanceReport

DASH = "\u2013"  # an en dash: between an interval's ends, and for a figure missing
# What the brackets after a figure mean, said once above the hints.
BRACKETS = "In brackets after a figure: its 95% interval, the range chance leaves for it."


@dataclass(frozen=True)
class Hint:
    """One finding: its text, how serious (``warning`` or ``info``), the spaces it is
    about, and the change it proposes in numbers, if any."""

    text: str
    severity: str
    spaces: tuple[str, ...] = ()
    proposal: Proposal | None = None
    about: str = "circuit"  # or RULES: the variant's, no edit of the circuit changes it
    # The finding alone, where the text goes on with advice that may differ from run to
    # run of the same circuit (the betting lines a finish move takes along, a jam): two
    # runs' warnings are told apart by it (``engine.balance.deeper``).
    finding: str = ""


RULES = "rules"  # a hint about the variant's rules (``rule_hints``), not the circuit
# The heading the rules' hints are listed under, after the circuit's: a designer cannot
# act on them by editing the circuit.
RULES_HEADING = "About the rules, not the circuit"


def hints_text(found: list[Hint], indent: str = "  ") -> list[str]:
    """Hints as text lines ("! " a warning, "- " the rest), the circuit's first, then
    the rules' under ``RULES_HEADING``, indented one step further."""

    def line(hint: Hint, pad: str) -> str:
        return f"{pad}{'!' if hint.severity == 'warning' else '-'} {hint.text}"

    out = [line(h, indent) for h in found if h.about != RULES]
    rules = [line(h, indent * 2) for h in found if h.about == RULES]
    return out + ([f"{indent}{RULES_HEADING}:", *rules] if rules else [])


# Where a figure stands against a goal, by its whole 95% interval (``against_goal``).
UNDER, ABOUT, OVER = "under", "about", "over"


def against_goal(low: float, high: float, goal: float) -> str:
    """Where a figure whose 95% interval is ``low`` to ``high`` stands against a goal it
    should stay under: ``UNDER`` only when the whole interval is under it, ``OVER`` when
    the whole interval is over it, else ``ABOUT`` (chance cannot tell), so that no text
    claims a goal met while its interval crosses it. A goal a figure should reach (a
    share of races at least) is the same question asked of what falls short of it."""
    return UNDER if high < goal else OVER if low > goal else ABOUT


def goal_words(low: float, high: float, goal: float, name: str) -> str:
    """Where a figure stands against ``goal`` (``against_goal``), in words naming the
    goal as ``name``: "under the goal of 0.5 a race", "about at the goal of 0.5 a
    race, and more games would tell", "over the goal of 0.5 a race"."""
    standing = against_goal(low, high, goal)
    if standing == ABOUT:
        return f"about at {name}, and more games would tell"
    return f"{standing} {name}"


def shown_change(before: float, after: float, digits: int) -> float:
    """The change between two figures shown to ``digits`` decimals: the difference of
    the figures as shown, so that a reader who subtracts them finds the change shown
    (the exact difference may round a step the other way: 0.875 -> 0.784 is shown
    0.88 -> 0.78, -0.10, not -0.09)."""
    return round(after, digits) - round(before, digits)


def percent(value: float) -> str:
    """A share as a whole percentage: "31%"."""
    return f"{100 * value:.0f}%"


def tenths(share: float) -> str:
    """A share to a tenth of a point: "17.3%", so that bounds near a fair share differ
    visibly from it."""
    return f"{100 * share:.1f}%"


def percent_range(share: float, low: float, high: float, digits: int = 0) -> str:
    """A share with its 95% interval as it lies, for a table: "15% (8-24)" (an en dash
    between the ends), to ``digits`` decimals; never "15% ± 9", for the interval is not
    symmetric about the share. An end that differs from the share but would be shown
    as the same figure is shown to a tenth ("100.0% (99.6-100.0)", not "100% (100-100)")."""
    digits = percent_digits(share, low, high, digits)
    return f"{100 * share:.{digits}f}% ({100 * low:.{digits}f}{DASH}{100 * high:.{digits}f})"


def percent_digits(share: float, low: float, high: float, digits: int = 0) -> int:
    """The decimals ``percent_range`` shows a share and its interval to: ``digits``, or
    a tenth where an end that differs from the share would read as the same figure
    (what the share's tooltip takes too, so that both round alike)."""
    if digits == 0 and any(
        end != share and round(100 * end) == round(100 * share) for end in (low, high)
    ):
        return 1
    return digits


def range_digits(low: float, high: float, fair: float) -> int:
    """Decimals for a share's interval shown beside its ``fair`` share: a tenth when an
    end would round onto the fair share at whole percentages (so that "(25-33)"
    never stands for an interval that leaves 25%, or for one that holds it), else none."""
    whole = round(100 * fair)
    return 1 if whole in (round(100 * low), round(100 * high)) else 0


def range_ends(low: float, high: float, digits: int) -> str:
    """An interval's ends to ``digits`` decimals: "3.3-3.5" (an en dash between
    them), or "-2.0 to -0.4" when an end is below zero, where a dash beside a minus
    sign misreads."""
    if low < 0 or high < 0:
        return f"{low:.{digits}f} to {high:.{digits}f}"
    return f"{low:.{digits}f}{DASH}{high:.{digits}f}"


def _digits(value: float, low: float, high: float, digits: int) -> int:
    """``digits``, or one more where the interval would vanish: every end that differs
    from the value shown as the value itself ("3.5 (3.5-3.5)")."""
    differ = [end for end in (low, high) if end != value]
    shown = round(value, digits)
    vanishes = bool(differ) and all(round(end, digits) == shown for end in differ)
    return digits + 1 if vanishes else digits


def amount_range(value: float, low: float, high: float, digits: int = 2) -> str:
    """An amount (a mean per race, a place) with its 95% interval, in the form a share
    has: "0.37 (0.34-0.40)", to ``digits`` decimals (one more where the interval
    would read as no interval at all)."""
    digits = _digits(value, low, high, digits)
    return f"{value:.{digits}f} ({range_ends(low, high, digits)})"


def money_range(value: float, low: float, high: float) -> str:
    """An amount of money with its 95% interval, in the form a share has: "$3.4M
    (3.3-3.5)", to a tenth of a million (a hundredth where the interval would
    read as no interval at all); every money figure of the lab is shown so."""
    digits = _digits(value, low, high, MONEY_DIGITS)
    return f"{money(value, digits)} ({range_ends(low, high, digits)})"


def balance_range(report: BalanceReport) -> str:
    """The balance with its 95% interval (``BalanceReport.balance_interval``), in the
    form of an amount: "0.83 (0.71-0.97)"."""
    return amount_range(report.balance, *report.balance_interval())
