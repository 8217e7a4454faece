"""Two balance reports side by side: each figure's change and whether it is beyond noise.

Every figure the Balance panel shows has a change here, under the name the panel
looks it up by (``FIGURES`` and the per-slot, per-line and per-seat names).
"""

from __future__ import annotations

from dataclasses import dataclass

from trackside.engine.balance.intervals import means_differ, proportions_differ
from trackside.engine.balance.report import SHARE_UNIT, SLOTS, BalanceReport, Tally

# The means of a report (its tallies), by the name of their change.
MEANS = {
    "cards played per race": "turns",
    "stalled cars per race": "stalled",
    "spaces short, for a stalled car": "stall_steps",
    "cards left in hands": "cards_left",
    "lead changes per race": "lead_changes",
    "money spread": "money_spread",
}


@dataclass(frozen=True)
class Change:
    """One figure before and after, and whether the difference is more than chance."""

    figure: str
    before: float
    after: float
    significant: bool

    @property
    def delta(self) -> float:
        return self.after - self.before


def slot_share(k: int) -> str:
    return f"grid slot {k + 1} win share"


def slot_place(k: int) -> str:
    return f"grid slot {k + 1} mean place"


def line_reached(line: int) -> str:
    return f"betting line {line + 1} reached"


def seat_share(seat: int) -> str:
    return f"player {seat + 1} wins"


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
    for label, name in MEANS.items():
        changes.append(_mean(label, getattr(before, name), getattr(after, name)))
    if before.players == after.players:
        changes.append(_rounds(before, after))
        for seat in range(min(len(before.seat_wins), len(after.seat_wins))):
            w1, w2 = before.seat_wins[seat] / SHARE_UNIT, after.seat_wins[seat] / SHARE_UNIT
            changes.append(_share(seat_share(seat), w1, n1, w2, n2))
    first1, first2 = before.first_wins / SHARE_UNIT, after.first_wins / SHARE_UNIT
    changes.append(_share("player who plays first wins", first1, n1, first2, n2))
    changes.append(Change("balance", before.balance, after.balance, _balance_moved(changes)))
    return changes


def _share(figure: str, k1: float, n1: int, k2: float, n2: int) -> Change:
    return Change(
        figure,
        k1 / n1 if n1 else 0.0,
        k2 / n2 if n2 else 0.0,
        proportions_differ(k1, n1, k2, n2),
    )


def _mean(figure: str, a: Tally, b: Tally) -> Change:
    return Change(
        figure,
        a.mean,
        b.mean,
        means_differ(a.total, a.squares, a.count, b.total, b.squares, b.count),
    )


def _rounds(before: BalanceReport, after: BalanceReport) -> Change:
    """Rounds per race: cards played over the players at the table (the same in both)."""
    cards = _mean("", before.turns, after.turns)
    players = before.players
    return Change(
        "rounds per race", cards.before / players, cards.after / players, cards.significant
    )


def _balance_moved(changes: list[Change]) -> bool:
    # The balance figure moves beyond noise only when some slot's share did.
    return any(c.significant for c in changes[:SLOTS])
