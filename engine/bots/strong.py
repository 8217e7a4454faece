"""The strong bot: determinized Monte Carlo search with a short look-ahead and a
value estimate of the race.

For a decision that matters (a kept or swapped power, the card to play, a
bet) it draws ``samples`` deals of what it cannot see
(``SeatView.determinized``: other hands, piles, decks to come, others' bets),
and in each deal plays every candidate answer followed by greedy bots in
every seat for ``depth`` more cards (one by default); what the race is then worth to the seat
comes from the value estimate of ``value.py`` (finishing orders drawn from
the cars' positions and the cards left, scored as the race would be: a win
is worth 1, shared wins split, plus a little for its money ahead of the best
rival). The candidate with the best sum over the same deals is chosen.
Candidates are the greedy bot's own answer and a few others (the best few
cards by the greedy evaluation, duplicates merged; every power). A bet is
judged on the value estimate alone: each car's bet scored on the same drawn
orders. Bids, paths, WILD colours, row order and skips are the greedy bot's
(searching bids measured no stronger, at twice the cost).

Where the estimate does not apply (no finish line, or a winner not by money)
rollouts go on to the end of the race, as they do with ``depth=None``.

The budget is ``samples`` deals per decision (``bet_samples`` for a bet),
with a cap of ``seconds`` of CPU time per decision (1 s by default, counted
on the searching thread, so a busy machine does not trip it) that only a slow
machine reaches; the bot draws from its own seeded random source, so it
plays the same game again for the same seed while the cap is not reached.
"""

from __future__ import annotations

import random
import time

import numpy as np

from trackside.engine.bots.base import Request, SeatView, drive
from trackside.engine.bots.greedy import GreedyBot
from trackside.engine.bots.tables import deck_tables
from trackside.engine.bots.value import RaceValue, bet_table, gumbel_draws
from trackside.engine.game import COLOURS, Bet, Bid, Decision, Game, PlayCard
from trackside.engine.game.cards import bid_value
from trackside.engine.game.result import Result
from trackside.engine.game.scoring import bet_payout
from trackside.engine.game.steps import STEP_CARD

DEFAULT_SAMPLES = 2  # deals drawn per decision (four times as many for a bet)
DEFAULT_SECONDS = 1.0  # time cap per decision
CARD_WIDTH = 3  # cards tried per card play (best by the greedy evaluation)
MARGIN = 0.02  # value of each $1M ahead of the best rival (a win is worth 1)
SEARCHED = frozenset({"keep_power", "swap_power", "play_card"})
DEFAULT_DEPTH = 1  # cards played after the one tried before the value estimate
DRAWS = 64  # finishing orders drawn for each value estimate


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
        depth: int | None = DEFAULT_DEPTH,
        value: RaceValue | None = None,
    ):
        if samples < 1:
            raise ValueError("a strong bot needs at least one sample per decision")
        self.rng = random.Random(f"strong:{seed}")
        self.orders = np.random.default_rng(self.rng.getrandbits(64))  # finishing orders drawn
        self.samples = samples
        self.seconds = seconds
        self.searched = searched
        self.bet_samples = 4 * samples if bet_samples is None else bet_samples
        self.greedy = GreedyBot(seed)
        self.rollout_bots = [GreedyBot(f"{seed}:rollout:{k}") for k in range(6)]
        self.depth = depth
        self.value = value or RaceValue()
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

    def _cut(self, world: Game) -> bool:
        """Whether the value estimate can stand in for the rest of ``world``."""
        state = world.state
        return (
            self.depth is not None and state.variant.use_finish and state.variant.winner == "money"
        )

    def _played_out(self, world: Game, seat: int, draws: np.ndarray) -> float:
        """``world`` played on by greedy bots, to its end or ``depth`` cards on, and
        what it is then worth to ``seat``."""
        if not self._cut(world):
            result = self._rollout(world)
            return outcome_value(result.scores, result.winners, seat)
        state = world.state
        stop = state.cards_played + (self.depth or 0)
        if state.turn is None:  # before the race: its first cards
            stop = self.depth or 0
        drive(
            world,
            self.rollout_bots[: world.players],
            until=lambda: state.step is STEP_CARD and state.cards_played >= stop,
        )
        self.rollouts += 1
        if world.over:
            assert world.result is not None
            return outcome_value(world.result.scores, world.result.winners, seat)
        return self.value.value(state, seat, draws)

    def _search(self, view: SeatView, request: Request, candidates: list[Decision]) -> Decision:
        seat = request.seat
        totals = [0.0] * len(candidates)
        began = time.thread_time()
        draws = gumbel_draws(self.orders, DRAWS)
        for _ in range(self.samples):
            world = view.determinized(self.rng, self.bet_guess)
            for k, candidate in enumerate(candidates):
                trial = world.copy()
                trial.apply(candidate)
                totals[k] += self._played_out(trial, seat, draws)
            if time.thread_time() - began >= self.seconds:
                break
        best = max(range(len(candidates)), key=lambda k: (totals[k], -k))
        return candidates[best]

    def _bet(self, view: SeatView, request: Request, default: Decision) -> Decision:
        """R-BET: each car's bet judged on the same sampled deals, by the value
        estimate of the race (or on the same rollouts, where it cannot be used:
        the greedy bet is played, and each other bet's payout swapped in on the
        finished race)."""
        seat = request.seat
        line = request.pending.line
        options = request.options_of(Bet)
        if line is None or not isinstance(default, Bet) or not options:
            return default
        self.bet_guess[line] = COLOURS.index(default.car)  # what greedy rivals bet (public facts)
        table = request.variant.bet_payouts[line]
        totals = [0.0] * len(options)
        began = time.thread_time()
        draws = gumbel_draws(self.orders, DRAWS)
        for _ in range(self.bet_samples):
            world = view.determinized(self.rng, self.bet_guess)
            if self._cut(world):
                values = self._bet_values(world, seat, line, options, draws)
            else:
                values = self._bet_outcomes(world, seat, default, options, table)
            for k, v in enumerate(values):
                totals[k] += v
            if time.thread_time() - began >= self.seconds:
                break
        best = max(range(len(options)), key=lambda k: (totals[k], options[k] == default))
        return options[best]

    def _bet_values(
        self, world: Game, seat: int, line: int, options: list[Bet], draws: np.ndarray
    ) -> list[float]:
        """Each bet's worth to ``seat`` over finishing orders drawn by the value
        estimate of ``world``, the other seats betting the car greedy rivals bet."""
        state = world.state
        table = bet_table(state.variant.bet_payouts[line])
        places = self.value.places(state, draws)
        money = self.value.money(state, places)
        guess = table[places[:, self.bet_guess[line]]]
        for other in range(state.players):
            if other != seat:
                money[:, other] += guess
        cars = [COLOURS.index(o.car) for o in options]
        mine = money[:, seat : seat + 1] + table[places[:, cars]]
        return [float(v) for v in self.value.worth(money, seat, mine)]

    def _bet_outcomes(
        self,
        world: Game,
        seat: int,
        default: Bet,
        options: list[Bet],
        table: tuple[int, ...],
    ) -> list[float]:
        """Each bet's worth to ``seat`` on one rollout of ``world`` to its end."""
        world.apply(default)
        result = self._rollout(world)
        place = {car: i for i, car in enumerate(result.ranking)}
        base = result.scores[seat] - bet_payout(table, place.get(default.car))
        best_other = max((s for k, s in enumerate(result.scores) if k != seat), default=0)
        out = []
        for o in options:
            mine = base + bet_payout(table, place.get(o.car))
            win = 1.0 if mine > best_other else 0.5 if mine == best_other else 0.0
            out.append(win + MARGIN * (mine - best_other))
        return out
