"""Two balance reports side by side: each figure's change and whether it is beyond noise."""

from __future__ import annotations

from dataclasses import dataclass

from trackside.engine.balance.intervals import means_differ, proportions_differ
from trackside.engine.balance.report import SLOTS, BalanceReport, Tally


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


def compare(before: BalanceReport, after: BalanceReport) -> list[Change]:
    """Each headline figure of ``after`` against ``before`` (95% two-sided tests)."""
    n1, n2 = before.games, after.games
    changes = [
        _share(f"grid slot {k + 1} win share", before.slot_wins[k], n1, after.slot_wins[k], n2)
        for k in range(SLOTS)
    ]
    changes.append(
        _share("races with a stalled car", before.races_with_stall, n1, after.races_with_stall, n2)
    )
    for line in range(3):
        changes.append(
            _share(
                f"betting line {line + 1} reached",
                before.line_reached[line],
                n1,
                after.line_reached[line],
                n2,
            )
        )
    for name, label in (
        ("turns", "cards played per race"),
        ("stalled", "stalled cars per race"),
        ("lead_changes", "lead changes per race"),
        ("money_spread", "money spread"),
    ):
        changes.append(_mean(label, getattr(before, name), getattr(after, name)))
    changes.append(Change("balance", before.balance, after.balance, _balance_moved(changes)))
    return changes


def _share(figure: str, k1: int, n1: int, k2: int, n2: int) -> Change:
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


def _balance_moved(changes: list[Change]) -> bool:
    # The balance figure moves beyond noise only when some slot's share did.
    return any(c.significant for c in changes[:SLOTS])
