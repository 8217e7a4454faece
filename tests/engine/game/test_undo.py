"""``Game.undo`` (python-chess's ``pop``): applying a decision and taking it back
leaves the game exactly as it was, random source included, in every variant."""

import copy
import dataclasses
import random

import pytest
from depth import examples
from game_helpers import STANDARD, deal
from game_tracks import board
from hypothesis import given, settings
from hypothesis import strategies as st

from trackside.engine.game import COLOURS, Bid, Game, IllegalDecision, Series, load_variant
from trackside.engine.game.state import GameState
from trackside.engine.records import new_game, open_track

VARIANTS = ["standard", "two-player", "beginner", "long-distance", "world-tour"]
TRACKS = ["harbour-loop", "quarry-hairpin"]
# Not part of what a game is: the cache of ``pending`` (compared as ``game.pending``)
# and whether the random source is still shared with a copy (its state is compared).
CACHES = {"pending", "rng_shared"}


def race_state(state: GameState) -> dict:
    """Every field of a race's state as comparable values."""
    out = {}
    for f in dataclasses.fields(GameState):
        if f.name in CACHES:
            continue
        value = getattr(state, f.name)
        if f.name == "rng":
            value = value.getstate()
        elif f.name == "log":
            value = [(e.kind, e.text, e.data) for e in value]
        elif f.name == "options":
            value = {seat: list(options) for seat, options in value.items()}
        elif f.name == "result" and value is not None:
            value = (value, value.sheet)
        elif isinstance(value, (list, dict, set)):
            value = copy.deepcopy(value)  # the game changes its own in place
        out[f.name] = value
    return out


def snapshot(game: Game | Series) -> list:
    """What the game is: each race's state and what is asked, and a tour's seeds."""
    races = game.games if isinstance(game, Series) else [game]
    tour = (list(game.seeds), list(game.deals)) if isinstance(game, Series) else None
    return [tour, game.history, *[(race_state(r.state), r.pending) for r in races]]


def start(variant: str, track: str, players: int, seed: int) -> Game | Series:
    v = load_variant(variant)
    tracks = [open_track(t) for t in v.series] if v.series else [open_track(track)]
    return new_game(tracks, v, players, seed)


def a_decision(game: Game | Series, rng: random.Random):
    """A legal decision: usually an option, sometimes a concrete path not listed."""
    seat = rng.choice(game.due())
    paths = game.all_paths(seat) if rng.random() < 0.3 else []
    return rng.choice(paths or game.options(seat))


def advance(game: Game | Series, steps: int, rng: random.Random) -> None:
    for _ in range(steps):
        if game.over:
            return
        game.apply(a_decision(game, rng))


@st.composite
def positions(draw):
    variant = draw(st.sampled_from(VARIANTS))
    v = load_variant(variant)
    return (
        variant,
        draw(st.sampled_from(TRACKS)),
        draw(st.integers(v.min_players, v.max_players)),
        draw(st.integers(0, 2**31 - 1)),
        draw(st.integers(0, 400)),
    )


@pytest.mark.slow
@settings(max_examples=examples(40))
@given(positions())
def test_apply_then_undo_returns_an_equal_state(position):
    """At any point of any game, in every variant (world tour included, across
    its races): apply a legal decision, undo it, and the state is equal, random
    source and log included; applying it again gives the same state as before."""
    variant, track, players, seed, steps = position
    game = start(variant, track, players, seed)
    rng = random.Random(seed)
    advance(game, steps, rng)
    if game.over:
        game.undo()  # the end is taken back too
    before = snapshot(game)
    decision = a_decision(game, rng)
    game.apply(decision)
    after = snapshot(game)
    assert game.undo() == decision
    assert snapshot(game) == before
    game.apply(decision)
    assert snapshot(game) == after


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS)
def test_every_decision_of_a_game_is_taken_back_exactly(variant):
    """Every decision of a whole game (every tie at random, every private pile
    shuffled, every race of a tour set up), taken back one after the other to
    the set-up."""
    v = load_variant(variant)
    game = start(variant, "quarry-hairpin", v.max_players, 11)
    rng = random.Random(11)
    snapshots = [snapshot(game)]
    while not game.over:
        game.apply(a_decision(game, rng))
        snapshots.append(snapshot(game))
    while snapshots[:-1]:
        snapshots.pop()
        game.undo()
        assert snapshot(game) == snapshots[-1]
    with pytest.raises(IllegalDecision, match="no decision to take back"):
        game.undo()


def test_undo_restores_the_random_source_of_a_tie_decided_at_random():
    """R-AUC-3, R-SET-5: the bid that ends in a full tie, decided by the random
    source, is taken back with its draw: given again, it is decided the same way,
    whichever way each seed decides it."""
    hands = [[24, 18, 20], [27, 19, 21], [22, 23, 30]]  # seats 0 and 1 hold no black card
    speed8 = ("black", *(c for c in COLOURS if c != "black"))
    winners = set()
    for seed in range(12):
        game = Game.new(board(), STANDARD, 3, seed, deal(hands, COLOURS, speed8))
        game.apply(Bid(0, 24))
        game.apply(Bid(1, 27))
        before = snapshot(game)
        game.apply(Bid(2, None))
        assert any("decided at random" in e.text for e in game.log)
        winner = game.owner_of("black")
        game.undo()
        assert snapshot(game) == before
        game.apply(Bid(2, None))
        assert game.owner_of("black") == winner
        winners.add(winner)
    assert winners == {0, 1}


def test_a_copy_undoes_alone():
    """A copy keeps the history it was copied with; undoing in it leaves the original."""
    game = start("standard", "harbour-loop", 4, 3)
    advance(game, 30, random.Random(3))
    before = snapshot(game)
    twin = game.copy()
    assert twin.history == game.history
    twin.undo()
    twin.undo()
    assert snapshot(game) == before
    assert twin.history == game.history[:-2]


def test_a_drawn_world_undoes_back_to_its_draw():
    """A determinized world's history begins when it is drawn."""
    game = start("standard", "harbour-loop", 4, 3)
    advance(game, 30, random.Random(3))
    world = game.determinized(game.due()[0], random.Random(1))
    assert world.history == ()
    drawn = snapshot(world)
    advance(world, 5, random.Random(2))
    for _ in range(len(world.history)):
        world.undo()
    assert snapshot(world) == drawn
