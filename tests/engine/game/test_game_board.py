"""The one walk of R-MOVE-4 (``MoveGraph``) answers the game's questions and the
preview's alike: every path, one move per distinct outcome, a given path."""

import random

from depth import examples
from game_tracks import board
from hypothesis import given, settings
from hypothesis import strategies as st


def traffic(b, seed: int, cars: int) -> tuple[int, set[int]]:
    """A start space and other cars, some clustered just ahead so that blocking happens."""
    rng = random.Random(seed)
    start = rng.randrange(len(b.ids))
    occ = set(rng.sample([i for i in range(len(b.ids)) if i != start], cars))
    near = [j for a in b.graph.forward[start] for j in (a,) + b.graph.forward[a]]
    occ |= set(rng.sample(near, min(len(near), rng.randrange(4)))) - {start}
    return start, occ


@settings(max_examples=examples(300))
@given(
    kind=st.sampled_from(["straight", "ring"]),
    seed=st.integers(0, 10**6),
    n=st.integers(1, 9),
    cars=st.integers(0, 5),
)
def test_outcomes_and_paths_come_from_one_walk(kind, seed, n, cars):
    """R-MOVE-4, R-FIN-1: the distinct outcomes the game offers are those of every
    path the preview lists, each stands for a listed path, the board's cached
    choices are the same moves, every path is followed to its own move, and a path
    cut short of a free space is no move."""
    b = board(kind)
    start, occ = traffic(b, seed, cars)
    every = b.graph.moves(start, n, occ)
    distinct = b.graph.outcomes(start, n, occ)
    assert {m.outcome() for m in distinct} == {m.outcome() for m in every}
    assert len({m.outcome() for m in distinct}) == len(distinct)
    assert {m.path for m in distinct} <= {m.path for m in every}
    ids = b.ids
    choices, _memo = b.memo_choices(start, n, occ)
    assert choices == {tuple(ids[i] for i in m.path): m for m in distinct}
    for move in every:
        assert b.graph.follow(start, move.path, n, occ) == move
        if len(move.path) > 1 and not move.finished:
            assert b.graph.follow(start, move.path[:-1], n, occ) is None  # not blocked there
    assert b.graph.count_moves(start, n, occ) == len(every)


def test_a_path_through_a_car_or_off_the_forward_graph_is_no_move():
    """R-MOVE-3/4: a path entering an occupied space, or a space not forward of
    the last, is not a move."""
    b = board()
    start = b.index["b5"]
    moves = b.graph.moves(start, 3, set())
    path = moves[0].path
    assert b.graph.follow(start, path, 3, {path[1]}) is None
    assert b.graph.follow(start, (path[1], path[0], path[2]), 3, set()) is None
    assert b.graph.follow(start, path, 4, set()) is None  # one space short, not blocked


def test_outcomes_ignore_lines_already_crossed():
    """R-BET-1: once a line has been crossed, crossing it again does not make a new outcome."""
    b = board()
    start = b.index["b17"]
    every = b.graph.outcomes(start, 6, set())
    fewer = b.graph.outcomes(start, 6, set(), keep_lines=0b1000, keep_rect=False)
    assert len(fewer) <= len(every)
    assert {m.end for m in fewer} == {m.end for m in every}
