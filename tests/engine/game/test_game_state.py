"""The typed game state: every field set by set-up and by copy, copies independent."""

import dataclasses

from game_helpers import STANDARD, finish
from game_tracks import board

from trackside.engine.game import Game
from trackside.engine.game.events import Pending
from trackside.engine.game.state import GameState
from trackside.engine.game.steps import Step

FIELDS = [f.name for f in dataclasses.fields(GameState)]
# Fields a copy may share: immutable, or replaced whole and never changed in place.
SHARED = {
    "board",
    "variant",
    "deck",
    "cards",
    "deal",
    "rng",
    "options",
    "pending",
    "result",
    "move_choices",
}


def _mid_race() -> Game:
    game = Game.new(board(), STANDARD, 4, 3)
    while game.state.step is not Step.PATH:
        for seat in game.due():
            game.apply(game.options(seat)[0])
    return game


def test_copy_sets_every_field_and_shares_only_immutable_parts():
    game = _mid_race()
    twin = game.copy()
    for name in FIELDS:
        mine, theirs = getattr(game.state, name), getattr(twin.state, name)  # unset slots raise
        assert mine == theirs or name == "rng", name
        if isinstance(mine, (list, dict, set)) and name not in SHARED:
            assert mine is not theirs, name


def test_a_copy_plays_on_alone():
    game = _mid_race()
    twin = game.copy(log=False)
    log, hands = list(game.log), [list(h) for h in game.state.hands]
    finish(twin)
    assert twin.over and not game.over
    assert game.log == log and game.state.hands == hands
    finish(game)
    assert game.over


def test_pending_sets_every_field():
    """``pending`` is filled in without its dataclass __init__: every field must be set."""
    game = _mid_race()
    pending = game.pending
    names = {f.name for f in dataclasses.fields(Pending)}
    assert set(vars(pending)) == names
    assert pending == Pending(**{name: getattr(pending, name) for name in names})
    assert pending.kind == "path" and pending.car is not None
