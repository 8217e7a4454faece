"""The figures a sweep shows for each setting, read from its balance report as
data (``BalanceReport.to_dict``): one registry of name, place in the report and
form, for the table and the plot alike.

A place is a path of keys; a step ``("power", "tricky")`` picks the item of a
list whose ``power`` is ``tricky``. A figure a report does not hold (a report
from before the figures for the rules, a power the variant leaves out) has no
value: the table shows a dash and the plot leaves the point out.

Values come in three forms, all read here: ``[value, low, high]`` (shares),
``{"mean", "low", "high"}`` (means) and ``{"value", "low", "high"}`` (the
figures for the rules), or a plain number with its interval under a key of its
own (the balance and ``balance_interval``; a report from before that key gives
the balance alone).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeGuard

from trackside.engine.balance.wording import DASH, amount_range, percent_range
from trackside.engine.game.variants import POWERS

Step = str | tuple[str, str]  # a key, or (key, value): the list item whose key has that value
MISSING = DASH


@dataclass(frozen=True)
class Estimate:
    """A figure with its 95% interval (None when it has none)."""

    value: float
    low: float | None = None
    high: float | None = None


@dataclass(frozen=True)
class Figure:
    """One figure of a setting: its name, where it is in a balance report, and
    its form: ``share`` (0 to 1, shown in per cent), ``count`` (a mean of a count,
    its interval never below none, as ``trackside simulate`` gives it) or ``number``."""

    name: str
    path: tuple[Step, ...]
    form: str = "number"
    digits: int = 2
    interval: tuple[Step, ...] = ()  # where a plain number's [low, high] is, if apart

    def estimate(self, report: Mapping[str, Any] | None) -> Estimate | None:
        """The figure in ``report``, None when the report does not hold it; without
        its interval when the report does not hold that (a report from before it)."""
        found = estimate(lookup(report, self.path))
        ends = lookup(report, self.interval) if self.interval else None
        if found is not None and found.low is None and _ends(ends):
            found = Estimate(found.value, float(ends[0]), float(ends[1]))
        if found is not None and found.low is not None and self.form == "count":
            found = Estimate(found.value, max(0.0, found.low), found.high)
        return found

    def cell(self, report: Mapping[str, Any] | None) -> str:
        """The figure as the table shows it: ``24.1% (22.3-26.0)`` (an en dash between
        the ends), ``0.91``, or a dash when the report does not hold it."""
        found = self.estimate(report)
        if found is None:
            return MISSING
        if self.form == "share" and found.low is not None and found.high is not None:
            return percent_range(found.value, found.low, found.high, 1)
        if self.form == "share":
            return f"{100 * found.value:.1f}%"
        if found.low is not None and found.high is not None:
            return amount_range(found.value, found.low, found.high, self.digits)
        return f"{found.value:.{self.digits}f}"


# The sweep's figures, in the order of the table's columns; the power figures go
# where POWER_FIGURES stands.
FIGURES: tuple[Figure, ...] = (
    Figure("balance", ("balance",), interval=("balance_interval",)),
    Figure("first player wins", ("first_player", "win_share"), "share"),
    Figure("winner's money from bets", ("rules", "betting", "winner_bet_share"), "share"),
    Figure("race length (cards)", ("turns",), digits=1),
    Figure("stalled cars a race", ("stalled_per_race",), "count"),
)
POWER_FIGURES_AFTER = "first player wins"


def power_figure(power: str) -> Figure:
    """The share of games won by the holder of ``power``."""
    path: tuple[Step, ...] = ("rules", "powers", ("power", power), "win_share")
    return Figure(f"{power} holder wins", path, "share")


def sweep_figures(reports: Iterable[Mapping[str, Any] | None]) -> list[Figure]:
    """The figures of a sweep's settings: the registry, with a figure for each power
    any report has figures for (in the rules' order), or one column for the powers
    saying they are missing."""
    found = {
        item.get("power")
        for report in reports
        for item in _list(lookup(report, ("rules", "powers")))
        if isinstance(item, Mapping)
    }
    powers = [power_figure(p) for p in POWERS if p in found]
    powers += [power_figure(str(p)) for p in sorted(found - set(POWERS), key=str)]
    if not powers:
        powers = [Figure("power holders win", ("rules", "powers", ("power", ""), "win_share"))]
    out: list[Figure] = []
    for figure in FIGURES:
        out.append(figure)
        if figure.name == POWER_FIGURES_AFTER:
            out += powers
    return out


def lookup(data: Any, path: Sequence[Step]) -> Any:
    """The value at ``path`` in ``data``, None where a step finds nothing."""
    for step in path:
        if isinstance(step, tuple):
            key, wanted = step
            data = next(
                (
                    item
                    for item in _list(data)
                    if isinstance(item, Mapping) and item.get(key) == wanted
                ),
                None,
            )
        elif isinstance(data, Mapping):
            data = data.get(step)
        else:
            return None
        if data is None:
            return None
    return data


def estimate(value: Any) -> Estimate | None:
    """A figure in any of the report's forms, None when it is none of them."""
    if _number(value):
        return Estimate(float(value))
    if isinstance(value, list | tuple) and len(value) == 3 and all(map(_number, value)):
        return Estimate(*(float(v) for v in value))
    if isinstance(value, Mapping):
        middle = value.get("value", value.get("mean"))
        low, high = value.get("low"), value.get("high")
        if _number(middle) and _number(low) and _number(high):
            return Estimate(float(middle), float(low), float(high))
        if _number(middle):
            return Estimate(float(middle))
    return None


def _ends(value: object) -> TypeGuard[list[int | float]]:
    """Whether ``value`` is an interval as a report writes one apart: ``[low, high]``."""
    return isinstance(value, list) and len(value) == 2 and all(map(_number, value))


def _number(value: object) -> TypeGuard[int | float]:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _list(value: object) -> list[Any]:
    return list(value) if isinstance(value, list | tuple) else []
