"""Scoring (R-SCORE): race earnings, bet payouts, prices, the winner.

``end_race`` is the last step of every game: it ranks the cars, scores the
seats (a ``Result``) and writes the score sheet into the log.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cmp_to_key

from trackside.engine.game.cards import COLOURS
from trackside.engine.game.result import Result
from trackside.engine.game.state import GameState, Next
from trackside.engine.game.steps import NOBODY, Step
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


def best_places(owner: Sequence[int], ranking: Sequence[int], players: int) -> list[float]:
    """Per seat, the best race place (0 = 1st) of its cars in ``ranking`` (car indices
    in race order; ``owner`` the seat per car), inf for a seat with no car placed: what
    breaks a tie on winnings (R-SCORE-2)."""
    best = [float("inf")] * players
    for i, car in enumerate(ranking):
        seat = owner[car]
        if seat != NOBODY and i < best[seat]:
            best[seat] = i
    return best


def bet_payout(table: tuple[int, ...], place: int | None) -> int:
    """What a payout table pays for a car in ``place`` (0 = 1st; None: not placed): one
    bet's (R-BET-5), or the race's to the car's owner (R-SCORE-1); a place past the end
    of the table pays 0."""
    if place is None or place >= len(table):
        return 0
    return table[place]


def end_race(state: GameState) -> Next:
    """The race is over (R-RACE-6): the result and the score sheet (R-SCORE)."""
    state.turn = None
    state.step = Step.OVER
    state.due_seats, state.options, state.collected = [], {}, {}
    state.result = _score(state)
    for line in state.result.sheet:
        state.say("score", line)
    return None


def _ranking(state: GameState) -> list[int]:
    if state.variant.use_finish:
        return list(state.finished)
    board = state.board
    front, tol = board.geometry.front, board.geometry.tol
    # Distance travelled by the front of each car's space (R-MOVE-2 measures
    # "ahead" by the front end, within the track's tolerance).
    dist = [state.laps[c] * board.length + front[state.car_spaces[c]] for c in range(6)]

    def ahead(a: int, b: int) -> int:
        if abs(dist[a] - dist[b]) > tol:
            return -1 if dist[a] > dist[b] else 1
        # side by side: the more inside lane ranks first (R-VAR long distance)
        return (board.lanes[state.car_spaces[a]] - board.lanes[state.car_spaces[b]]) or (a - b)

    return sorted(range(6), key=cmp_to_key(ahead))


def _score(state: GameState) -> Result:
    variant, n = state.variant, state.players
    ranking = _ranking(state)
    place = {c: i for i, c in enumerate(ranking)}
    stalled = [c for c in range(6) if c not in place]
    earnings = [0] * n
    for c, i in place.items():
        owner = state.owner[c]
        if owner != NOBODY:
            earnings[owner] += bet_payout(variant.race_payout, i)
    best = best_places(state.owner, ranking, n)
    payouts = [0] * n
    for k in range(3):
        for seat, bet in enumerate(state.bets[k]):
            if bet is not None:
                payouts[seat] += bet_payout(variant.bet_payouts[k], place.get(bet))
    prices = [sum(x for _, x in pr) for pr in state.prices]
    scores = [earnings[seat] + payouts[seat] - prices[seat] for seat in range(n)]  # R-SCORE-1
    if variant.winner == "money":
        winners = money_winners(scores, best)
    else:  # first_car / furthest_car: the owner of the best-placed owned car
        owned = [c for c in ranking if state.owner[c] != NOBODY]
        winners = [state.owner[owned[0]]] if owned else money_winners(scores, best)
    sheet = _sheet(state, ranking, stalled, earnings, payouts, prices, scores, winners)
    return Result(
        tuple(COLOURS[c] for c in ranking),
        tuple(COLOURS[c] for c in stalled),
        tuple(earnings),
        tuple(payouts),
        tuple(prices),
        tuple(scores),
        tuple(winners),
        tuple(tuple(state.bet_name(b) for b in state.bets[k]) for k in range(3)),
        tuple(sheet),
    )


def _sheet(
    state: GameState,
    ranking: list[int],
    stalled: list[int],
    earnings: list[int],
    payouts: list[int],
    prices: list[int],
    scores: list[int],
    winners: list[int],
) -> list[str]:
    lines = [
        "Race result: " + ", ".join(f"{ordinal(i + 1)} {COLOURS[c]}" for i, c in enumerate(ranking))
    ]
    if stalled:
        lines.append("Stalled: " + ", ".join(COLOURS[c] for c in stalled))
    for k in range(3):
        if all(b is None for b in state.bets[k]):
            continue
        lines.append(
            f"Bet {k + 1}: "
            + "; ".join(
                f"{state.seat_name(seat)} on {state.bet_name(b)}"
                for seat, b in enumerate(state.bets[k])
            )
        )
    for seat in range(state.players):
        cars = ", ".join(COLOURS[c] for c in range(6) if state.owner[c] == seat) or "no car"
        lines.append(
            f"{state.seat_name(seat)} ({cars}): cars {earnings[seat]} + bets {payouts[seat]} "
            f"- prices {prices[seat]} = {scores[seat]}"
        )
    seats = [state.seat_name(seat) for seat in range(state.players)]
    lines.append(winner_sentence(seats, winners, state.variant.winner))
    return lines
