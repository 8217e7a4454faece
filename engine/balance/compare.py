"""Two balance reports side by side: each figure's change and whether it is beyond noise.

Every figure the Balance panel shows has a change here, under the name the panel
looks it up by (``MEANS`` and the per-slot, per-line, per-seat and per-power
names). A rule figure changes only where both reports have it: a variant
without an auction has no auction figures to compare.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from trackside.engine.balance.report import SLOTS, BalanceReport
from trackside.engine.balance.rules import LINES, CarTotals, PowerTotals, RuleTotals
from trackside.engine.balance.wording import shown_change
from trackside.engine.intervals import (
    holm,
    leaves_out_zero,
    means_difference,
    proportions_difference,
    proportions_p_value,
    ratios_difference,
)
from trackside.engine.tallies import SHARE_UNIT, Ratio, Tally
from trackside.engine.text import MONEY_DIGITS, listed, money

SHARE = "share"  # a Change's unit: a share of games, 0 to 1
MONEY = "$M"
NOISE_MARK = "≈"  # beside a change within noise, wherever changes are shown
NOISE_LEGEND = (
    f"{NOISE_MARK} marks a change within noise: a two-sided test at 95% cannot tell it from chance."
)

# The means of a report (its tallies), by the name of their change, with their unit.
MEANS = {
    "cards played per race": ("turns", ""),
    "stalled cars per race": ("stalled", ""),
    "spaces short, for a stalled car": ("stall_steps", ""),
    "cards left in hands": ("cards_left", ""),
    "lead changes per race": ("lead_changes", ""),
    "money spread": ("money_spread", MONEY),
}
BALANCE_JUDGED = (
    "The balance has no interval of its own: it moved beyond noise only where some grid "
    "slot's win share did, the six slots judged together (Holm at 5%)."
)
WINNER_BET_SHARE = "winner's money from bets"
WINNER_BETS_PAID = "winner's bets that paid"
LAST_LINE_DECIDES = "winner decided by the last betting line"


@dataclass(frozen=True)
class Change:
    """One figure before and after, whether the difference is more than chance, and its
    unit (``SHARE``, ``MONEY`` or "" for a plain number)."""

    figure: str
    before: float
    after: float
    significant: bool
    unit: str = ""
    # The 95% interval of the change (after less before), which leaves out 0 exactly
    # when the change is significant; None where no one test judges it (the balance).
    interval: tuple[float, float] | None = None
    # How a change without an interval of its own is judged, in words ("" for others).
    judged: str = ""

    @property
    def delta(self) -> float:
        return self.after - self.before


def has_range(change: Change) -> bool:
    """Whether the change has an interval to show: one that is not of no width, which
    comes of no spread at all (every game alike)."""
    return change.interval is not None and change.interval[0] != change.interval[1]


def _shown(change: Change) -> tuple[float, str, int]:
    """How a change's figures are shown: the scale from its unit, the unit's word after
    a change, and the decimals."""
    if change.unit == MONEY:
        return 1.0, "", MONEY_DIGITS
    return (100.0, " points", 1) if change.unit == SHARE else (1.0, "", 2)


def change_figure(change: Change, short: bool = False) -> str:
    """The change alone, the difference of the figures as shown, in the one sign style
    of every change shown (an ASCII "-", as ``money`` and Suggest fixes write it):
    "+10.0 points" ("+10.0 pt" ``short``, for the panel's narrow Change cell),
    "-$0.6M", "+0.12". The Balance panel's cells and their tooltips, and ``simulate
    --against``, all take it from here, so that they never disagree."""
    scale, unit, digits = _shown(change)
    delta = shown_change(scale * change.before, scale * change.after, digits)
    if change.unit == MONEY:
        return money(delta, signed=True)
    return f"{delta:+.{digits}f}{' pt' if short and unit else unit}"


def change_words(change: Change) -> str:
    """A change as ``simulate --against`` prints it: "+10.0 points (+0.8 to +19.2)",
    "+$10.1M (+$9.2M to +$11.0M)", its 95% interval in brackets (its ends signed as
    the change is, money with its unit; none where it has none, or one of no width),
    after the noise mark when it is within noise."""
    text = change_figure(change)
    if change.interval is not None and has_range(change):
        low, high = (_interval_end(change, end) for end in change.interval)
        text += f" ({low} to {high})"
    return text if change.significant else f"{NOISE_MARK} {text}"


def _interval_end(change: Change, end: float) -> str:
    """One end of a change's interval, signed: "+$9.2M", "-0.8", "+19.2". An end just
    under none keeps its sign ("-$0.0M", where a change reads "+$0.0M"), so that an
    interval that holds no change always shows it by its ends' signs."""
    scale, _unit, digits = _shown(change)
    figure = f"{scale * end:+.{digits}f}"
    return f"{figure[0]}${figure[1:]}M" if change.unit == MONEY else figure


def figure_value(value: float, unit: str) -> str:
    """One value of a compared figure as it is shown: "27.0%", "$1.2M", "3.10"."""
    if unit == MONEY:
        return money(value)
    if unit == SHARE:
        return f"{100 * value:.1f}%"
    return f"{value:.2f}"


def change_figures(change: Change) -> str:
    """The figure before and after, as its values are shown: "27.0% → 20.4%",
    "$1.2M → $1.8M", "3.10 → 3.25"."""
    return f"{figure_value(change.before, change.unit)} → {figure_value(change.after, change.unit)}"


def slot_share(k: int) -> str:
    return f"grid slot {k + 1} win share"


def slot_place(k: int) -> str:
    return f"grid slot {k + 1} mean place"


def line_reached(line: int) -> str:
    return f"betting line {line + 1} reached"


def seat_share(seat: int) -> str:
    return f"player {seat + 1} wins"


def holder_share(power: str) -> str:
    return f"{power} holder wins"


def holder_money(power: str) -> str:
    return f"{power} holder's winnings"


def power_taken(power: str) -> str:
    return f"{power} taken in the auction"


def car_price(car: str) -> str:
    """``car``: "grid slot 2" or a power's name (the car that came with it)."""
    return f"{car} car price"


def car_return(car: str) -> str:
    return f"{car} car return"


def line_payout(line: int) -> str:
    return f"bet {line + 1} payout"


def slot_car(k: int) -> str:
    return f"grid slot {k + 1}"


def compare(before: BalanceReport, after: BalanceReport) -> list[Change]:
    """Each figure of ``after`` against ``before`` (95% two-sided tests)."""
    n1, n2 = before.games, after.games
    changes = [
        _share(slot_share(k), before.slot_wins[k], n1, after.slot_wins[k], n2) for k in range(SLOTS)
    ]
    changes += [
        _mean(slot_place(k), before.slot_places[k], after.slot_places[k]) for k in range(SLOTS)
    ]
    changes.append(
        _share("races with a stalled car", before.races_with_stall, n1, after.races_with_stall, n2)
    )
    for line in range(3):
        changes.append(
            _share(line_reached(line), before.line_reached[line], n1, after.line_reached[line], n2)
        )
    for label, (name, unit) in MEANS.items():
        changes.append(_mean(label, getattr(before, name), getattr(after, name), unit))
    if before.players == after.players:
        changes.append(_rounds(before, after))
        for seat in range(min(len(before.seat_wins), len(after.seat_wins))):
            w1, w2 = before.seat_wins[seat] / SHARE_UNIT, after.seat_wins[seat] / SHARE_UNIT
            changes.append(_share(seat_share(seat), w1, n1, w2, n2))
    first1, first2 = before.first_wins / SHARE_UNIT, after.first_wins / SHARE_UNIT
    changes.append(_share("player who plays first wins", first1, n1, first2, n2))
    changes.append(_balance(before, after))
    return changes + compare_rules(before.rules, after.rules)


def compare_rules(before: RuleTotals, after: RuleTotals) -> list[Change]:
    """The change of each rule figure that both runs have (none against a report of
    version 1, which has no rule figures)."""
    if not before.games or not after.games:
        return []
    changes: list[Change | None] = []
    powers = [name for name in before.powers if name in after.powers]
    for name in powers:
        changes += _power_changes(name, before, after)
    if before.auction and after.auction:
        for k in range(SLOTS):
            changes += _car_changes(slot_car(k), before.slots[k], after.slots[k])
    if before.betting and after.betting:
        changes.append(_ratio(WINNER_BET_SHARE, before.winner_bets, after.winner_bets, SHARE))
        changes.append(
            _ratio(WINNER_BETS_PAID, before.winner_bets_paid, after.winner_bets_paid, SHARE)
        )
        for line in range(LINES):
            changes.append(
                _ratio(line_payout(line), before.line_payout[line], after.line_payout[line], MONEY)
            )
    if before.last_line_applies and after.last_line_applies:
        changes.append(
            _share(
                LAST_LINE_DECIDES,
                before.last_line_decides,
                before.games,
                after.last_line_decides,
                after.games,
            )
        )
    return [c for c in changes if c is not None]


def _power_changes(name: str, before: RuleTotals, after: RuleTotals) -> list[Change]:
    a, b = before.power.get(name) or PowerTotals(), after.power.get(name) or PowerTotals()
    changes = []
    if a.held and b.held:
        wins1, wins2 = a.holder_wins / SHARE_UNIT, b.holder_wins / SHARE_UNIT
        changes.append(_share(holder_share(name), wins1, a.held, wins2, b.held))
        changes.append(_mean(holder_money(name), a.holder_money, b.holder_money, MONEY))
    if before.auction and after.auction and a.offered and b.offered:
        changes.append(_share(power_taken(name), a.taken, a.offered, b.taken, b.offered))
        changes += _car_changes(name, a.car, b.car)
    return changes


def _car_changes(car: str, before: CarTotals, after: CarTotals) -> list[Change]:
    if not before.price.count or not after.price.count:
        return []
    return [
        _mean(car_price(car), before.price, after.price, MONEY),
        _mean(car_return(car), before.returned, after.returned, MONEY),
    ]


def _share(figure: str, k1: float, n1: int, k2: float, n2: int) -> Change:
    before = k1 / n1 if n1 else 0.0
    interval = proportions_difference(k1, n1, k2, n2)
    return _judged(figure, before, k2 / n2 if n2 else 0.0, SHARE, interval)


def _mean(figure: str, a: Tally, b: Tally, unit: str = "") -> Change:
    interval = means_difference(a.total, a.squares, a.count, b.total, b.squares, b.count)
    return _judged(figure, a.mean, b.mean, unit, interval)


def _ratio(figure: str, a: Ratio, b: Ratio, unit: str) -> Change | None:
    if not a.den or not b.den:
        return None
    return _judged(figure, a.value, b.value, unit, ratios_difference(a.sums, b.sums))


def _judged(
    figure: str, before: float, after: float, unit: str, interval: tuple[float, float]
) -> Change:
    """A figure's change, beyond noise exactly when its 95% ``interval`` leaves out no
    change; no interval where the runs were too short to give one (NaN ends). A
    share's interval keeps to what a share can do, from ``before`` down to none or up
    to all (a normal interval of few games reaches past them): no change lies in it
    still, so it leaves out none exactly when it did."""
    ends: tuple[float, float] | None = None
    if not math.isnan(interval[0]):
        low, high = interval
        ends = (max(-before, low), min(1.0 - before, high)) if unit == SHARE else (low, high)
    return Change(figure, before, after, leaves_out_zero(interval), unit, ends)


def _rounds(before: BalanceReport, after: BalanceReport) -> Change:
    """Rounds per race: cards played over the players at the table (the same in both)."""
    cards = _mean("", before.turns, after.turns)
    players = before.players
    ends = (
        None
        if cards.interval is None
        else (cards.interval[0] / players, cards.interval[1] / players)
    )
    return Change(
        "rounds per race",
        cards.before / players,
        cards.after / players,
        cards.significant,
        interval=ends,
    )


def _balance(before: BalanceReport, after: BalanceReport) -> Change:
    """The balance's change, moved beyond noise only where some grid slot's share did,
    the six judged together (Holm at 5%): each at 95% on its own, identical circuits
    would show the balance moved in about one comparison in four. It has no interval
    of its own; ``judged`` says how it is judged, naming the slots that moved."""
    flagged = holm(
        [
            proportions_p_value(before.slot_wins[k], before.games, after.slot_wins[k], after.games)
            for k in range(SLOTS)
        ]
    )
    slots = [str(k + 1) for k in range(SLOTS) if flagged[k]]
    same = round(after.balance - before.balance, 2) == 0
    if not slots:
        verdict = "No slot's share moved: within noise."
    else:
        moved = (
            f"Grid slot {slots[0]}'s share moved"
            if len(slots) == 1
            else f"The shares of grid slots {listed(slots)} moved"
        )
        verdict = moved + (
            ", but the balance is the same to two decimals." if same else ": beyond noise."
        )
    judged = f"{BALANCE_JUDGED} {verdict}"
    return Change("balance", before.balance, after.balance, bool(slots) and not same, judged=judged)
