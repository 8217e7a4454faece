"""The board's distinct move outcomes agree with the track model's MoveGraph (R-MOVE-4, R-FIN-1)."""

import random

from depth import examples
from game_tracks import board
from hypothesis import given, settings
from hypothesis import strategies as st


def reference(b, start, n, occ):
    return {m.outcome() for m in b.graph.outcomes(start, n, occ)}


def fast(b, start, n, occ):
    out = set()
    for path, finished, blocked, crossed, rect in b.outcomes(start, n, occ):
        assert b.outcome_of(start, path, n) == (path, finished, blocked, crossed, rect)
        out.add((path[-1], finished, blocked, crossed, rect))
    return out


@settings(max_examples=examples(300))
@given(
    kind=st.sampled_from(["straight", "ring"]),
    seed=st.integers(0, 10**6),
    n=st.integers(1, 9),
    cars=st.integers(0, 5),
)
def test_outcomes_match_the_move_graph(kind, seed, n, cars):
    """R-MOVE-4: the same distinct outcomes as MoveGraph.outcomes, whatever the traffic."""
    b = board(kind)
    rng = random.Random(seed)
    start = rng.randrange(len(b.ids))
    occ = set(rng.sample([i for i in range(len(b.ids)) if i != start], cars))
    # cluster other cars just ahead so that blocking really happens
    near = [j for a in b.graph.forward[start] for j in (a,) + b.graph.forward[a]]
    occ |= set(rng.sample(near, min(len(near), rng.randrange(4)))) - {start}
    assert fast(b, start, n, occ) == reference(b, start, n, occ)


def test_outcomes_ignore_lines_already_crossed():
    """R-BET-1: once a line has been crossed, crossing it again does not make a new outcome."""
    b = board()
    start = b.index["b17"]
    every = b.outcomes(start, 6, set())
    fewer = b.outcomes(start, 6, set(), keep_lines=0b1000, keep_rect=False)
    assert len(fewer) <= len(every)
    assert {p[-1] for p, *_ in fewer} == {p[-1] for p, *_ in every}
