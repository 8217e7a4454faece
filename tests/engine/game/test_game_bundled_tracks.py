"""Every bundled variant plays full games on every bundled circuit (R-VAR)."""

import random

import pytest

from trackside.engine.game import Board, Game, Series, load_variant
from trackside.engine.resources import bundled_tracks
from trackside.engine.track.model import load_track

TRACKS = {p.stem: p for p in bundled_tracks()}
PLAYERS = {"standard": 4, "two-player": 2, "beginner": 3, "long-distance": 5}


@pytest.fixture
def tracks(bundled):
    assert TRACKS, "the bundled circuits are missing from tracks/"
    return bundled


@pytest.mark.parametrize("name", sorted(PLAYERS))
def test_variant_plays_on_every_bundled_circuit(tracks, name):
    """R-VAR: full games of each variant on each bundled circuit; long distance
    laps the closed circuits (R-VAR long distance)."""
    v = load_variant(name)
    for track_name, track in tracks.items():
        b = Board.of(track, v.use_finish)
        for seed in range(8):
            g = Game.new(b, v, PLAYERS[name], seed)
            rng = random.Random(seed)
            while not g.over:
                for seat in g.due():
                    g.apply(rng.choice(g.options(seat)))
            assert g.result.winners, track_name
            if v.finish == "distance":
                assert track.centerline.closed and len(g.result.ranking) == 6


def test_world_tour_plays_its_own_track_list():
    """R-VAR world tour: the bundled world tour races the variant's bundled tracks."""
    v = load_variant("world-tour")
    s = Series.new(None, v, 3, seed=1)
    assert [b.track.name for b in s.boards] == [load_track(p).name for p in v.series]
    while not s.over:
        for seat in s.due():
            s.apply(s.options(seat)[0])
    assert len(s.result.races) == len(v.series) >= 2
