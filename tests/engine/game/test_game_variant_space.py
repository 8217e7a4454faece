"""Any combination of variant switches plays to the end (R-VAR: variants are data)."""

import random

from depth import examples
from game_helpers import variant
from game_tracks import board
from hypothesis import given, settings
from hypothesis import strategies as st

from trackside.engine.game import POWERS, Game


@settings(max_examples=examples(60))
@given(data=st.data())
def test_any_switch_combination_plays_to_the_end(data):
    """R-VAR: auction, powers, hand mode and size, Speed-8 place, betting, finish mode,
    winner rule and bonuses combine freely."""
    finish_mode = data.draw(st.sampled_from(["line", "distance"]))
    mode = data.draw(st.sampled_from(["dealt", "common", "private"]))
    players = data.draw(st.integers(2, 6))
    v = variant(
        min_players=2,
        auction=data.draw(st.booleans()),
        powers=tuple(data.draw(st.lists(st.sampled_from(POWERS), unique=True, max_size=6))),
        hand_mode=mode,
        hand_size=data.draw(st.integers(1, 42 // 6)),
        speed8=data.draw(st.sampled_from(["hand", "face_up"])),
        betting=data.draw(st.booleans()),
        finish=finish_mode,
        winner=data.draw(
            st.sampled_from(
                ["money", "furthest_car"]
                if finish_mode == "distance"
                else ["money", "first_car", "furthest_car"]
            )
        ),
        aggressive_bonus=data.draw(st.integers(0, 3)),
        determined_bonus=data.draw(st.integers(0, 3)),
        cunning_swap=data.draw(st.booleans()),
    )
    seed = data.draw(st.integers(0, 10**6))
    b = board("ring" if finish_mode == "distance" else "straight", v.use_finish)
    g = Game.new(b, v, players, seed)
    rng = random.Random(seed)
    steps = 0
    while not g.over:
        for seat in g.due():
            g.apply(rng.choice(g.options(seat)))
        steps += 1
        assert steps < 5000
    r = g.result
    assert r.winners and len(r.scores) == players
    assert sum(1 for c in g.state.owner if c != -1) >= min(players, 6) or v.auction
