"""The strong bot: determinized Monte Carlo search with a short look-ahead and a
value estimate of the race.

For a decision that matters (a kept or swapped power, the card to play, a
bet) it draws ``samples`` deals of what it cannot see
(``SeatView.determinized``: other hands, piles, decks to come, others' bets),
one by default, and in each deal plays every candidate answer followed by
greedy bots in every seat for ``depth`` more cards (one by default); what the
race is then worth to the seat comes from the value estimate of ``value.py``
(finishing orders drawn from the cars' positions and the cards left, scored
as the race would be: a win is worth 1, shared wins split, plus a little for
its money ahead of the best rival). The ``LOOK_AGAIN`` (three) best
candidates are then judged on ``again`` more deals (one by default), the
``LOOK_LAST`` (two) best of those on ``last`` more (two by default), and the
best sum over the deals is chosen: the choice between the leaders is where
the luck of one deal decides most, so the deals are spent there, fewer
candidates at each look. The last look is skipped where the second left
nothing to choose (``settled``: every candidate's race looks lost, or won).
Candidates are the greedy bot's own answer and a few others (the best
``CARD_WIDTH`` cards by the greedy evaluation, duplicates merged; every
power). Trying five cards in one deal made one strong seat win more against
three greedy ones than trying three in two deals, for less time: which cards
are tried mattered more than how many deals judge them. A bet is judged over
``bet_samples`` deals (four times ``samples``): in each, greedy's bet is
played and greedy bots play ``bet_depth`` more cards (two by default; the
rivals still to bet on the line bet as they would), and each car's bet is
scored on the same drawn orders of the value estimate, its payout swapped in
for greedy's. Bids, paths, WILD colours, row order and skips are the greedy
bot's (searching bids measured no stronger, at twice the cost).

Where the estimate does not apply (no finish line, or a winner not by money)
rollouts go on to the end of the race, as they do with ``depth=None``.

The budget is at most ``samples + again + last`` deals per decision
(``bet_samples`` for a bet), with a cap of ``seconds`` of CPU time per decision (1 s by default,
counted on the searching thread, so a busy machine does not trip it, and
looked at every ``CLOCK_EVERY`` deals) that only a slow machine reaches; the
bot draws from its own seeded random source, so it plays the same game again
for the same seed while the cap is not reached.
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
from trackside.engine.game.state import GameState
from trackside.engine.game.steps import STEP_CARD

DEFAULT_SAMPLES = 1  # deals drawn per decision
# One more deal for the three best candidates, with a bet judged two cards on (below):
# a strong seat against three greedy won 1.3 points more of its games on Harbour Loop
# (95% interval +0.4 to +2.3, 12,000 paired games), four strong bots took 14% more CPU
# (the same 60 games in one process, 70.5 -> 80 ms a game); two more deals for the best
# two, +1.5 for 34% more; a second deal for every candidate, +1.8 for about 75% more.
AGAIN_DEALS = 1  # more deals for the leading candidates, per deal of a decision
LOOK_AGAIN = 3  # how many of the leading candidates get them
# Then two more deals for the best two of those: a strong seat against three greedy won
# 1.5 points more of its games on Harbour Loop (95% interval +0.7 to +2.4, 12,000 games
# paired with the bot without it; +0.7 +- 1.2 of it on 6,000 games measured after the
# choice), for about a third more CPU with four strong bots.
LAST_DEALS = 2  # more deals for the last two candidates, per deal of a decision
LOOK_LAST = 2  # how many candidates get the last look
# The last look only where the choice is open: not where every candidate of the second
# look is worth less than this a deal (the race looks lost whichever is played) or
# more than 1 minus this (won). Four strong bots took 18% less CPU (in most of a race
# three seats of four are behind: 138 -> 113 ms a game), and one strong seat against
# three greedy won as often (+0.1 points, 95% interval -0.4 to +0.6, 12,000 paired
# games). The same test before the second look cost 0.7 points (-1.2 to -0.2, 12,000
# games): one deal is too few to call a race lost.
SETTLED = 0.02
BET_DEALS = 4  # deals drawn for a bet, per deal of a decision
DEFAULT_SECONDS = 1.0  # time cap per decision
CARD_WIDTH = 5  # cards tried per card play (best by the greedy evaluation)
MARGIN = 0.02  # value of each $1M ahead of the best rival (a win is worth 1)
SEARCHED = frozenset({"keep_power", "swap_power", "play_card"})
DEFAULT_DEPTH = 1  # cards played after the one tried before the value estimate
# Cards played after a bet before the value estimate: two won as often as four
# (+0.1 points, 95% interval -0.7 to +0.8, 6,000 paired games) in 10% less time.
DEFAULT_BET_DEPTH = 2
# Finishing orders drawn for each value estimate. The candidates share them, but a
# win is all or nothing, so too few draws let the best of five candidates be a lucky
# one: 128 won one strong seat 1.0 points more against three greedy than 64 did, 32
# lost 1.4, and 256 gained nothing more (16,000 and 8,000 paired games).
DRAWS = 128
CLOCK_EVERY = 4  # deals searched between readings of the CPU clock


def outcome_value(scores: tuple[int, ...], winners: tuple[int, ...], seat: int) -> float:
    """What a finished race is worth to ``seat``: its share of the win plus a
    little per $1M ahead of (or behind) the best other player."""
    win = 1.0 / len(winners) if seat in winners else 0.0
    best_other = max((s for k, s in enumerate(scores) if k != seat), default=0)
    return win + MARGIN * (scores[seat] - best_other)


def _best(judged: list[int], totals: list[float]) -> int:
    """The judged candidate with the best total, the first listed on a tie."""
    return max(judged, key=lambda k: (totals[k], -k))


class Deadline:
    """A decision's cap of CPU seconds, looked at every ``CLOCK_EVERY`` deals (so a
    decision of that many deals or fewer never reads the clock)."""

    def __init__(self, seconds: float, deals: int):
        # Reading a thread's CPU clock is a system call: read after every deal it
        # took 5% of a game of four strong bots.
        self.seconds = seconds
        self.began = time.thread_time() if deals > CLOCK_EVERY else None
        self.deals = 0

    def passed(self) -> bool:
        """Count one deal searched; whether the cap is reached."""
        self.deals += 1
        if self.began is None or self.deals % CLOCK_EVERY:
            return False
        return time.thread_time() - self.began >= self.seconds


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
        bet_depth: int = DEFAULT_BET_DEPTH,
        again: int | None = None,
        last: int | None = None,
        settled: float = SETTLED,
    ):
        if samples < 1:
            raise ValueError("a strong bot needs at least one sample per decision")
        if (again is not None and again < 0) or (last is not None and last < 0):
            raise ValueError("a strong bot's later looks need zero or more deals")
        self.rng = random.Random(f"strong:{seed}")
        self.orders = np.random.default_rng(self.rng.getrandbits(64))  # finishing orders drawn
        self.samples = samples
        self.seconds = seconds
        self.searched = searched
        self.bet_samples = BET_DEALS * samples if bet_samples is None else bet_samples
        self.again = AGAIN_DEALS * samples if again is None else again
        self.last = LAST_DEALS * samples if last is None else last
        self.settled = settled
        self.greedy = GreedyBot(seed)
        self.rollout_bots = [GreedyBot(f"{seed}:rollout:{k}") for k in range(6)]
        self.depth = depth
        self.bet_depth = bet_depth
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

    def _play_on(self, world: Game, cards: int) -> None:
        """Greedy bots in every seat play ``world`` on: ``cards`` more cards (the
        race's first ones, before it starts), or to its end where the value
        estimate cannot stand in for the rest."""
        if not self._cut(world):
            self._rollout(world)
            return
        state = world.state
        stop = cards if state.turn is None else state.cards_played + cards
        drive(
            world,
            self.rollout_bots[: world.players],
            until=lambda: state.step is STEP_CARD and state.cards_played >= stop,
        )
        self.rollouts += 1

    def _outcomes(
        self, world: Game, decisions: list[Decision], seat: int, draws: np.ndarray
    ) -> list[float]:
        """Each decision played in a copy of ``world``, played on by greedy bots to
        its end or ``depth`` cards on, and what it is then worth to ``seat`` (the
        races not over estimated together, on the same draws)."""
        worth = [0.0] * len(decisions)
        waiting: list[int] = []
        states: list[GameState] = []
        for j, decision in enumerate(decisions):
            trial = world.copy()
            trial.apply(decision)
            self._play_on(trial, self.depth or 0)
            if trial.over:
                assert trial.result is not None
                worth[j] = outcome_value(trial.result.scores, trial.result.winners, seat)
            else:
                waiting.append(j)
                states.append(trial.state)
        for j, v in zip(waiting, self.value.values(states, seat, draws), strict=True):
            worth[j] = v
        return worth

    def _search(self, view: SeatView, request: Request, candidates: list[Decision]) -> Decision:
        """Every candidate judged on ``samples`` deals, the ``LOOK_AGAIN`` best on
        ``again`` more, the ``LOOK_LAST`` best of those on ``last`` more unless the
        choice is ``settled``; the best total of those judged on every deal."""
        seat = request.seat
        totals = [0.0] * len(candidates)
        judged = list(range(len(candidates)))
        looks = ((len(judged), self.samples), (LOOK_AGAIN, self.again), (LOOK_LAST, self.last))
        deadline = Deadline(self.seconds, sum(deals for _, deals in looks))
        draws = gumbel_draws(self.orders, DRAWS)
        seen = 0  # deals each candidate still judged was judged on
        for look, (keep, deals) in enumerate(looks):
            if look == len(looks) - 1 and self._settled([totals[k] / seen for k in judged]):
                break
            judged = sorted(judged, key=lambda k: (-totals[k], k))[:keep]
            seen += deals
            for _ in range(deals):
                world = view.determinized(self.rng, self.bet_guess)
                tried = [candidates[k] for k in judged]
                for k, v in zip(judged, self._outcomes(world, tried, seat, draws), strict=True):
                    totals[k] += v
                if deadline.passed():
                    return candidates[_best(judged, totals)]
        return candidates[_best(judged, totals)]

    def _settled(self, worth: list[float]) -> bool:
        """Whether candidates worth ``worth`` a deal leave nothing to choose: all
        below ``settled`` (the race looks lost whichever is played) or all above
        1 - ``settled`` (won whichever)."""
        limit = self.settled
        return limit > 0.0 and (max(worth) < limit or min(worth) > 1.0 - limit)

    def _bet(self, view: SeatView, request: Request, default: Decision) -> Decision:
        """R-BET: each car's bet judged on the same sampled deals, each played on
        ``bet_depth`` cards after greedy's bet (to the end where the value estimate
        cannot be used), the other bets' payouts swapped in for greedy's."""
        seat = request.seat
        line = request.pending.line
        options = request.options_of(Bet)
        if line is None or not isinstance(default, Bet) or not options:
            return default
        self.bet_guess[line] = COLOURS.index(default.car)  # what greedy rivals bet (public facts)
        totals = [0.0] * len(options)
        # The line's payout by place, [6] for a car not placed.
        table = np.append(bet_table(request.variant.bet_payouts[line]), 0.0)
        deadline = Deadline(self.seconds, self.bet_samples)
        draws = gumbel_draws(self.orders, DRAWS)
        worlds = []
        for _ in range(self.bet_samples):
            world = view.determinized(self.rng, self.bet_guess)
            world.apply(default)
            self._play_on(world, self.bet_depth)
            worlds.append(world)
            if deadline.passed():
                break
        for scores in self._bet_scores(worlds, seat, table, default, options, draws):
            for k, v in enumerate(scores):
                totals[k] += v
        best = max(range(len(options)), key=lambda k: (totals[k], options[k] == default))
        return options[best]

    def _bet_scores(
        self,
        worlds: list[Game],
        seat: int,
        table: np.ndarray,
        default: Bet,
        options: list[Bet],
        draws: np.ndarray,
    ) -> list[list[float]]:
        """In each world played on after greedy's bet ``default`` (``table``: the
        line's payout by place), each bet's worth to ``seat``: by its result if it
        is over, else over finishing orders drawn by the value estimate (the worlds
        not over estimated together); each other bet's payout swapped in for
        greedy's."""
        cars = [COLOURS.index(o.car) for o in options]
        greedy_car = [COLOURS.index(default.car)]
        going = [world.state for world in worlds if not world.over]
        if going:
            going_places = self.value.places_of(going, draws)
            going_money = self.value.money_of(going, going_places)
        out, j = [], 0
        for world in worlds:
            if world.over:
                result = world.result
                assert result is not None
                place = {COLOURS.index(car): k for k, car in enumerate(result.ranking)}
                places = np.array([[place.get(c, 6) for c in range(6)]])
                money = np.array([result.scores], dtype=np.float64)
            else:
                places, money = going_places[j], going_money[j]
                j += 1
            swapped = table[places[:, cars]] - table[places[:, greedy_car]]
            worth = self.value.worth(money, seat, money[:, seat : seat + 1] + swapped)
            out.append([float(v) for v in worth])
        return out
