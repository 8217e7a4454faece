"""Scoring (R-SCORE): race earnings, bet payouts, prices, the winner."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cmp_to_key

from trackside.engine.game.cards import COLOURS
from trackside.engine.game.game_state import Steps
from trackside.engine.game.result import Result
from trackside.engine.game.steps import NOBODY, Next, Step
from trackside.engine.text import ordinal

WINNER_REASONS = {
    "money": "highest winnings",
    "first_car": "owner of the first car to finish",
    "furthest_car": "owner of the car furthest ahead",
    "total": "highest total",  # a world tour: winnings added up over its races
}


def winner_sentence(
    names: Sequence[str],
    winners: Sequence[int],
    rule: str = "money",
    scores: Sequence[int] | None = None,
) -> str:
    """Who won and why: the one sentence the game's log, the terminal and the editor's
    score sheet say, 'Winner: Player 2 (highest winnings)', ', shared' on a shared
    win. ``rule`` is the variant's ``winner`` (or ``total`` for a tour). Given the
    ``scores`` of a race won on money (or a tour's totals), it also gives the amount
    and how a tie on winnings was broken (R-SCORE-2): 'Winner: Ben (highest winnings,
    $10M, tied with Ana; the best-placed car breaks the tie)'."""
    why = WINNER_REASONS[rule]
    if scores is not None and rule in ("money", "total"):
        top = max(scores)
        why += f", {'-' if top < 0 else ''}${abs(top)}M" + (" each" if len(winners) > 1 else "")
        tied = [names[seat] for seat, s in enumerate(scores) if s == top and seat not in winners]
        if tied:
            why += f", tied with {' and '.join(tied)}; the best-placed car breaks the tie"
    if len(winners) > 1:
        why += ", shared"
    return f"Winner: {' and '.join(names[seat] for seat in winners)} ({why})"


def money_winners(scores: list[int], best_place: list[float]) -> list[int]:
    """R-SCORE-2: highest winnings; tie to the best-placed car; still tied, shared."""
    top = max(scores)
    tied = [seat for seat, s in enumerate(scores) if s == top]
    best = min(best_place[seat] for seat in tied)
    return [seat for seat in tied if best_place[seat] == best]


def bet_payout(table: tuple[int, ...], place: int | None) -> int:
    """What one bet pays for a car in ``place`` (0 = 1st), R-BET-5."""
    if place is None or place >= len(table):
        return 0
    return table[place]


class ScoringSteps(Steps):
    """The end of the race and the score sheet (the last steps of ``Game``)."""

    __slots__ = ()

    # -- end (R-RACE-6, R-SCORE) ----------------------------------------------
    def _end_race(self) -> Next:
        self.turn = None
        self.step = Step.OVER
        self._due_seats, self._options, self.collected = [], {}, {}
        self.result = self._score()
        for line in self.result.sheet:
            self._say("score", line)
        return None

    def _ranking(self) -> list[int]:
        if self.variant.use_finish:
            return list(self.finished)
        board = self.board
        front, tol = board.geometry.front, board.geometry.tol
        # Distance travelled by the front of each car's space (R-MOVE-2 measures
        # "ahead" by the front end, within the track's tolerance).
        dist = [self.laps[c] * board.length + front[self.car_spaces[c]] for c in range(6)]

        def ahead(a: int, b: int) -> int:
            if abs(dist[a] - dist[b]) > tol:
                return -1 if dist[a] > dist[b] else 1
            # side by side: the more inside lane ranks first (R-VAR long distance)
            return (board.lanes[self.car_spaces[a]] - board.lanes[self.car_spaces[b]]) or (a - b)

        return sorted(range(6), key=cmp_to_key(ahead))

    def _score(self) -> Result:
        variant, n = self.variant, self.players
        ranking = self._ranking()
        place = {c: i for i, c in enumerate(ranking)}
        stalled = [c for c in range(6) if c not in place]
        earnings = [0] * n
        best = [float("inf")] * n
        for c, i in place.items():
            owner = self.owner[c]
            if owner != NOBODY:
                earnings[owner] += variant.race_payout[i] if i < len(variant.race_payout) else 0
                best[owner] = min(best[owner], i)
        payouts = [0] * n
        for k in range(3):
            for seat, bet in enumerate(self.bets[k]):
                if bet is not None:
                    payouts[seat] += bet_payout(variant.bet_payouts[k], place.get(bet))
        prices = [sum(x for _, x in pr) for pr in self.prices]
        scores = [earnings[seat] + payouts[seat] - prices[seat] for seat in range(n)]  # R-SCORE-1
        if variant.winner == "money":
            winners = money_winners(scores, best)
        else:  # first_car / furthest_car: the owner of the best-placed owned car
            owned = [c for c in ranking if self.owner[c] != NOBODY]
            winners = [self.owner[owned[0]]] if owned else money_winners(scores, best)
        sheet = self._sheet(ranking, stalled, earnings, payouts, prices, scores, winners)
        return Result(
            tuple(COLOURS[c] for c in ranking),
            tuple(COLOURS[c] for c in stalled),
            tuple(earnings),
            tuple(payouts),
            tuple(prices),
            tuple(scores),
            tuple(winners),
            tuple(tuple(self._bet_name(b) for b in self.bets[k]) for k in range(3)),
            tuple(sheet),
        )

    def _sheet(
        self,
        ranking: list[int],
        stalled: list[int],
        earnings: list[int],
        payouts: list[int],
        prices: list[int],
        scores: list[int],
        winners: list[int],
    ) -> list[str]:
        lines = [
            "Race result: "
            + ", ".join(f"{ordinal(i + 1)} {COLOURS[c]}" for i, c in enumerate(ranking))
        ]
        if stalled:
            lines.append("Stalled: " + ", ".join(COLOURS[c] for c in stalled))
        for k in range(3):
            if all(b is None for b in self.bets[k]):
                continue
            lines.append(
                f"Bet {k + 1}: "
                + "; ".join(
                    f"{self._seat(seat)} on {self._bet_name(b)}"
                    for seat, b in enumerate(self.bets[k])
                )
            )
        for seat in range(self.players):
            cars = ", ".join(COLOURS[c] for c in range(6) if self.owner[c] == seat) or "no car"
            lines.append(
                f"{self._seat(seat)} ({cars}): cars {earnings[seat]} + bets {payouts[seat]} "
                f"- prices {prices[seat]} = {scores[seat]}"
            )
        seats = [self._seat(seat) for seat in range(self.players)]
        lines.append(winner_sentence(seats, winners, self.variant.winner))
        return lines
