"""The random bot: a uniform choice among the legal options, from its own seeded source."""

from __future__ import annotations

import random

from trackside.engine.bots.base import Request, SeatView
from trackside.engine.game import Decision


class RandomBot:
    """Picks uniformly among ``request.options`` with its own ``random.Random(seed)``."""

    kind = "random"

    def __init__(self, seed: int | str = 0):
        self.rng = random.Random(seed)

    def choose(self, view: SeatView, request: Request) -> Decision:
        """A uniformly random legal option."""
        options = request.options
        return options[self.rng.randrange(len(options))]
