"""The strong bot: determinized Monte Carlo search with greedy rollouts.

For a decision that matters (a bid, a kept or swapped power, the card to
play, a bet) it draws ``samples`` deals of what it cannot see
(``SeatView.determinized``: other hands, piles, decks to come, others' bets),
and in each deal plays every candidate answer followed by greedy bots in
every seat to the end of the race. A rollout is worth 1 when the seat wins
(shared wins split) plus a little for its money ahead of the best rival; the
candidate with the best sum over the same deals is chosen. Candidates are the
greedy bot's own answer and a few others (each distinct bid value and a pass;
the best few cards by the greedy evaluation, duplicates merged; every power).
A bet is judged on shared rollouts: the payout of each car's bet is read off
the same finished races. Other decisions (paths, WILD colours, row order and
skips) are the greedy bot's.

The budget is ``samples`` deals per decision (four times as many for a bet),
with a cap of ``seconds`` of CPU time per decision (1 s by default, counted
on the searching thread, so a busy machine does not trip it) that only a slow
machine reaches; the bot draws from its own seeded random source, so it
plays the same game again for the same seed while the cap is not reached.
"""

from __future__ import annotations

import random
import time

from trackside.engine.bots.base import Request, SeatView, drive
from trackside.engine.bots.greedy import GreedyBot
from trackside.engine.bots.tables import deck_tables
from trackside.engine.game import COLOURS, Bet, Bid, Decision, Game, PlayCard
from trackside.engine.game.cards import bid_value
from trackside.engine.game.result import Result
from trackside.engine.game.scoring import bet_payout

DEFAULT_SAMPLES = 2  # deals drawn per decision (four times as many for a bet)
DEFAULT_SECONDS = 1.0  # time cap per decision
CARD_WIDTH = 3  # cards tried per card play (best by the greedy evaluation)
MARGIN = 0.02  # value of each $1M ahead of the best rival (a win is worth 1)
SEARCHED = frozenset({"bid", "keep_power", "swap_power", "play_card"})


def outcome_value(scores: tuple[int, ...], winners: tuple[int, ...], seat: int) -> float:
    """What a finished race is worth to ``seat``: its share of the win plus a
    little per $1M ahead of (or behind) the best other player."""
    win = 1.0 / len(winners) if seat in winners else 0.0
    best_other = max((s for k, s in enumerate(scores) if k != seat), default=0)
    return win + MARGIN * (scores[seat] - best_other)


class StrongBot:
    """Searches: tries its candidate answers over sampled deals with greedy rollouts."""

    kind = "strong"

    def __init__(
        self,
        seed: int | str = 0,
        samples: int = DEFAULT_SAMPLES,
        seconds: float = DEFAULT_SECONDS,
        searched: frozenset[str] = SEARCHED,
        bet_samples: int | None = None,
    ):
        if samples < 1:
            raise ValueError("a strong bot needs at least one sample per decision")
        self.rng = random.Random(f"strong:{seed}")
        self.samples = samples
        self.seconds = seconds
        self.searched = searched
        self.bet_samples = 4 * samples if bet_samples is None else bet_samples
        self.greedy = GreedyBot(seed)
        self.rollout_bots = [GreedyBot(f"{seed}:rollout:{k}") for k in range(6)]
        self.bet_guess: dict[int, int] = {}  # line -> car others are taken to bet on
        self.rollouts = 0  # rollouts played so far (for budget checks)

    def choose(self, view: SeatView, request: Request) -> Decision:
        """The candidate with the best value over sampled deals (greedy's answer
        where there is nothing to search)."""
        options = request.options
        if len(options) == 1:
            return options[0]
        default = self.greedy.choose(view, request)
        kind = request.kind
        if kind == "bet":
            return self._bet(view, request, default) if self.bet_samples else default
        if kind not in self.searched:
            return default
        candidates = self._candidates(view, request, default)
        if len(candidates) == 1:
            return candidates[0]
        return self._search(view, request, candidates)

    # -- candidates ---------------------------------------------------------------
    def _candidates(self, view: SeatView, request: Request, default: Decision) -> list[Decision]:
        """Greedy's answer first (it wins ties), then the other answers worth trying."""
        kind = request.kind
        if kind == "bid":
            others: list[Decision] = list(self._bid_candidates(view, request, default))
        elif kind == "play_card":
            others = list(self._card_candidates(view, request))
        else:
            others = list(request.options)
        out = [default]
        for o in others:
            if o not in out:
                out.append(o)
        return out

    def _bid_candidates(self, view: SeatView, request: Request, default: Decision) -> list[Bid]:
        """The bids next to greedy's: one step lower (or a pass) and one step higher.
        A step is a distinct bid value (its card the one R-AUC-3 favours); in the
        second chance (R-AUC-8) each car's lowest bid and a pass."""
        cards = request.cards
        hand = [cards[c] for c in view.hand]
        colour = request.pending.car
        best: dict[tuple[str | None, int], tuple[tuple[int, int], Bid]] = {}
        passes: list[Bid] = []
        for o in request.options_of(Bid):
            car = o.car or colour
            value = None if o.card is None or car is None else bid_value(cards[o.card], car, hand)
            if value is None or o.card is None:
                passes.append(o)
                continue
            card = cards[o.card]
            key = (len(card.rows), -card.wild_rows)
            if (car, value) not in best or key > best[car, value][0]:
                best[car, value] = (key, o)
        steps = [o for _, (_, o) in sorted(best.items(), key=lambda kv: (str(kv[0][0]), kv[0][1]))]
        if colour is None:  # second chance: the cheapest bid on each car
            lowest: dict[str | None, Bid] = {}
            for bid in steps:
                lowest.setdefault(bid.car, bid)
            return passes[:1] + list(lowest.values())
        ladder = passes[:1] + steps
        values = [
            None if o.card is None else bid_value(cards[o.card], colour, hand) for o in ladder
        ]
        mine = (
            bid_value(cards[default.card], colour, hand)
            if isinstance(default, Bid) and default.card is not None
            else None
        )
        at = values.index(mine) if mine in values else 0
        if mine in values and isinstance(default, Bid):
            ladder[at] = default  # the same bid as greedy's, maybe with another card
        return ladder[max(0, at - 1) : at + 2]

    def _card_candidates(self, view: SeatView, request: Request) -> list[PlayCard]:
        """The best few cards by the greedy evaluation, one of each kind of card."""
        deck = deck_tables(request.cards)
        kinds = []
        seen: set[tuple[tuple[int, int], ...]] = set()
        for o in request.options_of(PlayCard):
            rows = deck.rows[o.card]
            if rows not in seen:
                seen.add(rows)
                kinds.append(o)
        values = self.greedy.card_values(view, request, [o.card for o in kinds])
        scored = sorted(zip(values, kinds, strict=True), key=lambda vo: -vo[0])
        return [o for _, o in scored[:CARD_WIDTH]]

    # -- search -------------------------------------------------------------------
    def _rollout(self, world: Game) -> Result:
        """Greedy bots in every seat play ``world`` to its end."""
        drive(world, self.rollout_bots[: world.players])
        self.rollouts += 1
        assert world.result is not None
        return world.result

    def _search(self, view: SeatView, request: Request, candidates: list[Decision]) -> Decision:
        seat = request.seat
        totals = [0.0] * len(candidates)
        began = time.thread_time()
        for _ in range(self.samples):
            world = view.determinized(self.rng, self.bet_guess)
            for k, candidate in enumerate(candidates):
                trial = world.copy()
                trial.apply(candidate)
                result = self._rollout(trial)
                totals[k] += outcome_value(result.scores, result.winners, seat)
            if time.thread_time() - began >= self.seconds:
                break
        best = max(range(len(candidates)), key=lambda k: (totals[k], -k))
        return candidates[best]

    def _bet(self, view: SeatView, request: Request, default: Decision) -> Decision:
        """R-BET: each car's bet judged on the same rollouts (the greedy bet is
        played, and each other bet's payout swapped in on the finished race)."""
        seat = request.seat
        line = request.pending.line
        options = request.options_of(Bet)
        if line is None or not isinstance(default, Bet) or not options:
            return default
        self.bet_guess[line] = COLOURS.index(default.car)  # what greedy rivals bet (public facts)
        table = request.variant.bet_payouts[line]
        totals = [0.0] * len(options)
        began = time.thread_time()
        for _ in range(self.bet_samples):
            world = view.determinized(self.rng, self.bet_guess)
            world.apply(default)
            result = self._rollout(world)
            place = {car: i for i, car in enumerate(result.ranking)}
            base = result.scores[seat] - bet_payout(table, place.get(default.car))
            best_other = max((s for k, s in enumerate(result.scores) if k != seat), default=0)
            for k, o in enumerate(options):
                mine = base + bet_payout(table, place.get(o.car))
                win = 1.0 if mine > best_other else 0.5 if mine == best_other else 0.0
                totals[k] += win + MARGIN * (mine - best_other)
            if time.thread_time() - began >= self.seconds:
                break
        best = max(range(len(options)), key=lambda k: (totals[k], options[k] == default))
        return options[best]
