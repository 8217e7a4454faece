"""The strong bot's value estimate: finishing orders drawn from a race state,
scored as the race is (R-SCORE-1)."""

import numpy as np

from trackside.engine.bots import GreedyBot, drive
from trackside.engine.bots.tables import track_tables
from trackside.engine.bots.value import RaceValue, gumbel_draws
from trackside.engine.game import Game, load_variant
from trackside.engine.game.steps import STEP_CARD
from trackside.engine.records import new_game, open_track


def new(seed: int) -> Game:
    track = open_track("harbour-loop")
    game = new_game([track], load_variant("standard"), 4, seed, series=False)
    assert isinstance(game, Game)
    return game


def finished_race() -> Game:
    """A greedy race in which every car finished."""
    for seed in range(50):
        game = new(seed)
        drive(game, [GreedyBot(seat) for seat in range(4)])
        if len(game.state.finished) == 6:
            return game
    raise AssertionError("no race without a stalled car")


def test_a_finished_race_is_worth_its_scores():
    """R-SCORE-1: with every car home, each drawn order is the race's own, and
    each seat's money is its score (race payouts, bets, less prices)."""
    game = finished_race()
    value = RaceValue()
    draws = gumbel_draws(np.random.default_rng(1), 16)
    places = value.places(game.state, draws)
    assert (places == places[0]).all()
    money = value.money(game.state, places)
    assert game.result is not None
    assert money[0].tolist() == list(game.result.scores)
    winners = game.result.winners
    worth = [value.value(game.state, seat, draws) for seat in range(4)]
    assert max(range(4), key=worth.__getitem__) in winners


def test_a_car_moved_ahead_is_likelier_to_finish_first():
    """The car put nearer the finish (the other cars where they were) is drawn
    first more often, and its owner is worth more."""
    game = new(3)
    bots = [GreedyBot(seat) for seat in range(4)]
    drive(game, bots, until=lambda: game.state.step is STEP_CARD and game.state.cards_played >= 4)
    state = game.state
    car = next(c for c in range(6) if state.owner[c] == 0)
    value = RaceValue()
    draws = gumbel_draws(np.random.default_rng(2), 256)
    before = (value.places(state, draws)[:, car] == 0).mean()
    worth_before = value.value(state, 0, draws)
    ahead = state.copy()
    tables = track_tables(state.board)
    free = [s for s in range(len(tables.togo)) if s not in state.occupied]
    ahead.car_spaces[car] = min(free, key=lambda s: tables.togo[s] if tables.togo[s] > 0 else 999)
    ahead.occupied = set(ahead.car_spaces)
    after = (value.places(ahead, draws)[:, car] == 0).mean()
    assert after > before
    assert value.value(ahead, 0, draws) > worth_before


def test_states_estimated_together_are_worth_what_each_is_alone():
    """``values`` of a race at several moments, one finished among them, on the same
    draws, is ``value`` of each: the strong bot estimates a deal's candidates
    together."""
    game = new(5)
    bots = [GreedyBot(seat) for seat in range(4)]
    states = []
    state = game.state
    for cards in (4, 12, 20):
        drive(game, bots, until=lambda c=cards: state.step is STEP_CARD and state.cards_played >= c)
        states.append(state.copy())
    states.append(finished_race().state)
    value = RaceValue()
    draws = gumbel_draws(np.random.default_rng(4), 64)
    for seat in range(4):
        alone = [value.value(state, seat, draws) for state in states]
        assert value.values(states, seat, draws) == alone
        assert len(set(alone)) > 1
    assert value.values([], 0, draws) == []
