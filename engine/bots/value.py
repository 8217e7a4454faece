"""How a race is likely to end, seen from any moment of it: the strong bot's
estimate where its look-ahead stops.

Each running car gets a score, a weighted sum of facts about it
(``CAR_FEATURES``: how far it has to go against the spaces its colour still
has in the players' cards, what its owner holds of them, whether it is boxed
in, its owner's power ...), and the cars finish in a Plackett-Luce order of
those scores: the next place goes to car c with chance exp(score_c) over the
sum for the cars not yet placed. Orders are drawn from it (the Gumbel trick:
each car's score plus a Gumbel draw, sorted), and each drawn order is scored
as a race is (R-SCORE: the cars' payouts, the bets, less the prices), so that
who owns what and who bet on what keep their joint chances. A caller passes
the same draws for every candidate it compares (common random numbers).

The weights are fitted to games of the strong bot itself by
``tools/fit_value.py`` and kept in ``value_weights.json`` beside this module.
The estimate reads the whole state: use it on a world drawn for one seat
(``Game.determinized``), never on the real game of a seat that may not see it.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from functools import cache
from importlib import resources

import numpy as np
import numpy.typing as npt

from trackside.engine.bots.tables import DeckTables, TrackTables, deck_tables, track_tables
from trackside.engine.game.state import GameState
from trackside.engine.game.steps import NOBODY, OFF
from trackside.engine.game.variants import POWERS

CAR_FEATURES: tuple[str, ...] = (
    "pace",  # steps to the finish over the spaces its colour has left (and a share of WILD)
    "pace_late",  # the same, weighed by the share of the race's cards played
    "log_togo",  # log(1 + steps to the finish)
    "log_supply",  # log(1 + spaces its colour has left)
    "own_share",  # share of those spaces in its owner's cards
    "own_wild",  # share of the WILD spaces left in its owner's cards
    "blocked",  # every space ahead of it is taken
    "unowned",  # nobody owns it
    "behind",  # steps behind the leading car, over the mean spaces a colour has left
    "next_turn",  # how many turns until its owner plays (as a share of a round)
    *(f"power_{p}" for p in POWERS),  # its owner's power
)
FAR_STEPS = 200  # steps to the finish counted for a car that cannot reach it
MARGIN = 0.02  # value of each $1M ahead of the best rival (a win is worth 1)
FINISHED = 1e9  # a finished car's key in a drawn order, above any running car's
Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]


@cache
def bundled_weights() -> tuple[float, ...]:
    """The weights of ``CAR_FEATURES`` kept beside this module."""
    text = resources.files("trackside.engine.bots").joinpath("value_weights.json").read_text()
    weights = json.loads(text)["car"]
    return tuple(float(weights[name]) for name in CAR_FEATURES)


def seat_cards(state: GameState, deck: DeckTables) -> tuple[list[list[int]], list[int]]:
    """Per seat: the spaces per colour then WILD in every card it still holds
    (hand, own pile, face-up Speed-8 cards), and how many cards that is."""
    spaces7 = deck.spaces7
    sums, counts = [], []
    for seat in range(state.players):
        cards = state.hands[seat]
        if state.piles[seat] or state.face_up[seat]:
            cards = cards + state.piles[seat] + state.face_up[seat]
        counts.append(len(cards))
        sums.append([sum(col) for col in zip(*map(spaces7.__getitem__, cards), strict=True)])
    return [s if s else [0] * 7 for s in sums], counts


def car_features(
    state: GameState, tables: TrackTables, deck: DeckTables
) -> tuple[list[int], list[list[float]]]:
    """The running cars (COLOURS order) and each one's ``CAR_FEATURES``."""
    held, counts = seat_cards(state, deck)
    supply = [0] * 7
    for spaces in held:
        for k in range(7):
            supply[k] += spaces[k]
    left = sum(counts)
    over = 1.0 - left / max(1, left + len(state.discard))  # share of the race's cards played
    togo_table, forward, occupied = tables.togo, tables.forward, state.occupied
    wild_share = supply[6] / 6
    mean_supply = sum(supply[:6]) / 6 + 1.0
    players, turn = state.players, state.turn if state.turn is not None else 0
    running = [c for c in range(6) if state.car_spaces[c] != OFF]
    togo = {c: min(FAR_STEPS, togo_table[state.car_spaces[c]]) for c in running}
    lead = min(togo.values(), default=0)
    rows = []
    for c in running:
        space, owner = state.car_spaces[c], state.owner[c]
        steps = togo[c]
        have = supply[c] + wild_share + 1.0
        pace = steps / have
        row = [
            pace,
            pace * over,
            math.log(steps + 1.0),
            math.log(have),
            0.0,
            0.0,
            1.0 if occupied.issuperset(forward[space]) else 0.0,
            1.0 if owner == NOBODY else 0.0,
            (steps - lead) / mean_supply,
            0.5,
        ] + [0.0] * len(POWERS)
        if owner != NOBODY:
            row[4] = held[owner][c] / (supply[c] + 1.0)
            row[5] = held[owner][6] / (supply[6] + 1.0)
            row[9] = ((owner - turn) % players) / players
            power = state.power[owner]
            if power is not None:
                row[10 + POWERS.index(power)] = 1.0
        rows.append(row)
    return running, rows


def gumbel_draws(rng: np.random.Generator, draws: int) -> Floats:
    """``draws`` rows of one Gumbel draw per car, for ``RaceValue.outcomes``."""
    uniform = rng.random((draws, 6))
    return np.asarray(-np.log(-np.log(uniform + 1e-300)), dtype=np.float64)


class RaceValue:
    """What a race state is worth to each seat, by drawn finishing orders."""

    def __init__(self, weights: Sequence[float] | None = None):
        self.weights = np.array(weights if weights is not None else bundled_weights())

    def places(self, state: GameState, draws: Floats) -> Ints:
        """Each car's place (0 = 1st) in each drawn finishing order (one row a draw):
        the finished cars where they finished, the running ones after them by score
        plus the row's Gumbel draw."""
        return np.asarray(self.places_of([state], draws)[0], dtype=np.int64)

    def places_of(self, states: Sequence[GameState], draws: Floats) -> Ints:
        """``places`` of each state, over the same draws (one block a state)."""
        # A car's key orders it in a drawn order: a finished car's is above every
        # running one's, highest for the first; a running car's is its score plus
        # the draw; a car neither (none in a race under way) comes last.
        bases: list[list[float]] = []
        rows: list[list[float]] = []  # the running cars' features, all states'
        blocks: list[int] = []  # the state and the car of each row
        cars: list[int] = []
        for w, state in enumerate(states):
            key = [-math.inf] * 6
            for place, c in enumerate(state.finished):
                key[c] = FINISHED - place
            bases.append(key)
            tables, deck = track_tables(state.board), deck_tables(state.cards)
            running_cars, features = car_features(state, tables, deck)
            rows.extend(features)
            blocks.extend([w] * len(running_cars))
            cars.extend(running_cars)
        base = np.array(bases)
        running = np.zeros((len(states), 6), dtype=bool)
        if rows:  # one product for every state's cars
            base[blocks, cars] = np.array(rows) @ self.weights
            running[blocks, cars] = True
        keys = np.where(running[:, None, :], base[:, None, :] + draws[None, :, :], base[:, None, :])
        # A car's place is the number of cars ahead of it in the row's order, counted
        # one car at a time in small integers (a count over a 6 x 6 comparison, or
        # sorting twice, took twice as long for a deal's five candidates).
        ahead = np.zeros(keys.shape, dtype=np.int8)
        for c in range(6):
            np.add(ahead, keys[..., c : c + 1] > keys, out=ahead, casting="unsafe")
        return np.asarray(ahead, dtype=np.int64)

    def money(self, state: GameState, places: Ints) -> Floats:
        """Each seat's winnings (R-SCORE-1) in each drawn order: its cars' race
        payouts, its bets' payouts, less its prices (one row a draw)."""
        return np.asarray(self.money_of([state], places[None])[0], dtype=np.float64)

    def money_of(self, states: Sequence[GameState], places: Ints) -> Floats:
        """``money`` of each state (of one variant and player count) for its block
        of ``places``."""
        first = states[0]
        variant, players = first.variant, first.players
        # stakes[state, car, table, seat]: what the seat holds of the car under each
        # payout table (the race's: 1 when it owns the car; each line's: its bets on it).
        stakes = np.zeros((len(states), 6, 4, players))
        prices = np.zeros((len(states), 1, players))
        for w, state in enumerate(states):
            for c, owner in enumerate(state.owner):
                if owner != NOBODY:
                    stakes[w, c, 0, owner] = 1.0
            for line, row in enumerate(state.bets):
                for seat, car in enumerate(row):
                    if car is not None:
                        stakes[w, car, line + 1, seat] += 1.0
            prices[w, 0] = [sum(p for _, p in paid) for paid in state.prices]
        # paid[state, draw, car, table]: the car's payout under each table at its place.
        paid = payout_tables(variant.race_payout, variant.bet_payouts).T[places]
        blocks, draws = places.shape[:2]
        money = paid.reshape(blocks, draws, 24) @ stakes.reshape(blocks, 24, players)
        return np.asarray(money - prices, dtype=np.float64)

    def worth(self, money: Floats, seat: int, mine: Floats | None = None) -> Floats:
        """``seat``'s mean over the draws of its share of the win (ties shared)
        plus a little per $1M ahead of the best other player; with ``mine`` (one
        column per alternative of the seat's winnings) one figure per column."""
        own = money[:, seat : seat + 1] if mine is None else mine
        return np.asarray(self._worth(money, seat, own).mean(axis=0), dtype=np.float64)

    def _worth(self, money: Floats, seat: int, own: Floats) -> Floats:
        """Per draw (the second to last axis of ``money``, seats the last), what
        ``own`` winnings are worth to ``seat``: the win share plus the margin."""
        others = [money[..., k : k + 1] for k in range(money.shape[-1]) if k != seat]
        best_other = others[0] if others else np.zeros((*money.shape[:-1], 1))
        for column in others[1:]:
            best_other = np.maximum(best_other, column)
        ahead = own - best_other
        # The win share: 1 ahead, 0.5 level (a shared win), 0 behind.
        return np.asarray(0.5 * np.sign(ahead) + 0.5 + MARGIN * ahead, dtype=np.float64)

    def value(self, state: GameState, seat: int, draws: Floats) -> float:
        """What the state is worth to ``seat``, over the drawn finishing orders."""
        return self.values([state], seat, draws)[0]

    def values(self, states: Sequence[GameState], seat: int, draws: Floats) -> list[float]:
        """What each state is worth to ``seat``, over the same drawn finishing
        orders: ``value`` of each, the array work done once for all."""
        if not states:
            return []
        money = self.money_of(states, self.places_of(states, draws))
        own = money[..., seat : seat + 1]
        return [float(v) for v in self._worth(money, seat, own).mean(axis=1)[:, 0]]


@cache
def payout_tables(race: tuple[int, ...], bets: tuple[tuple[int, ...], ...]) -> Floats:
    """The race payouts, then each betting line's, by place (0 = 1st), for six places."""
    rows = [race, *bets, *[()] * (3 - len(bets))][:4]
    return np.array([[*row, *[0] * 6][:6] for row in rows], dtype=np.float64)


@cache
def bet_table(payouts: tuple[int, ...]) -> Floats:
    """A bet's payout by the car's place (0 = 1st), for six places."""
    return np.array([*payouts, *[0] * 6][:6], dtype=np.float64)
