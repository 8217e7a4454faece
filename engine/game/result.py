"""A finished race's outcome (R-SCORE): ranking, earnings, bets, prices, winners."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from trackside.engine.game.pickled import by_constructor


@dataclass(frozen=True)
class Result:
    """A finished game's outcome. Seats are 0-based; cars are colour names.

    ``ranking`` lists the cars in race position: the finishers in finishing
    order (R-FIN-1) then, in a finish-line race, nothing more; ``stalled``
    the cars that did not finish (R-RACE-6). In long distance ``ranking``
    holds all six cars by distance. ``winners`` has several seats on a
    shared win (R-SCORE-2 ruling).
    """

    ranking: tuple[str, ...]
    stalled: tuple[str, ...]
    earnings: tuple[int, ...]
    bet_payouts: tuple[int, ...]
    prices: tuple[int, ...]
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    bets: tuple[tuple[str | None, ...], ...] = ()
    sheet: tuple[str, ...] = field(default=(), compare=False)

    def __reduce__(self) -> tuple[type, tuple[Any, ...]]:
        """Pickled through its constructor (the engine may run compiled)."""
        return by_constructor(self)

    @property
    def winner(self) -> int | None:
        """The single winning seat, or None on a shared win."""
        return self.winners[0] if len(self.winners) == 1 else None

    def to_dict(self) -> dict[str, Any]:
        """Plain data (for records and ``--json``)."""
        return {
            "ranking": list(self.ranking),
            "stalled": list(self.stalled),
            "earnings": list(self.earnings),
            "bet_payouts": list(self.bet_payouts),
            "prices": list(self.prices),
            "scores": list(self.scores),
            "winners": list(self.winners),
            "bets": [list(b) for b in self.bets],
        }
