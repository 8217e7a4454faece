"""Legal moves (R-MOVE, R-FIN) on small tracks built in code.

Tracks from ``tracks_for_tests``: lane letters a (lane 0), b, c; rows from 1.
On ``straight_track(rows=12)`` the finish line is after row 10, so rows 11 and
12 are beyond it.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from tracks_for_tests import stadium_track, straight_track

from trackside.engine.track.geometry import TrackGeometry
from trackside.engine.track.movement import MoveGraph


def setup(track):
    g = TrackGeometry(track)
    return g, MoveGraph(g)


def paths(g, moves):
    return sorted(tuple(g.ids[i] for i in m.path) for m in moves)


def at(g, *ids):
    return {g.index[s] for s in ids}


def test_r_move_1_one_step_goes_straight_or_diagonally_ahead():
    g, mg = setup(straight_track(lanes=2))
    assert paths(g, mg.moves(g.index["a1"], 1, set())) == [("a2",), ("b2",)]
    assert paths(g, mg.moves(g.index["b4"], 1, set())) == [("a5",), ("b5",)]


def test_r_move_1_2_never_sideways_or_back():
    g, mg = setup(straight_track(lanes=3))
    entered = {s for p in paths(g, mg.moves(g.index["b5"], 2, set())) for s in p}
    assert entered == {"a6", "b6", "c6", "a7", "b7", "c7"}
    assert not entered & {"a5", "c5", "a4", "b4", "c4"}


def test_r_move_1_diagonal_reaches_only_the_neighbouring_lane():
    g, mg = setup(straight_track(lanes=3))
    assert paths(g, mg.moves(g.index["a1"], 1, set())) == [("a2",), ("b2",)]
    assert ("c2",) not in paths(g, mg.moves(g.index["a1"], 1, set()))


def test_r_move_5_every_path_is_a_separate_move():
    g, mg = setup(straight_track(lanes=2))
    assert paths(g, mg.moves(g.index["a1"], 2, set())) == [
        ("a2", "a3"),
        ("a2", "b3"),
        ("b2", "a3"),
        ("b2", "b3"),
    ]


def test_r_move_3_cannot_enter_or_pass_through_an_occupied_space():
    g, mg = setup(straight_track(lanes=1))
    moves = mg.moves(g.index["a1"], 4, at(g, "a3"))
    assert paths(g, moves) == [("a2",)]
    assert moves[0].blocked and not moves[0].finished


def test_r_move_3_goes_around_a_car_in_another_lane():
    g, mg = setup(straight_track(lanes=2))
    assert paths(g, mg.moves(g.index["a1"], 2, at(g, "a2"))) == [("b2", "a3"), ("b2", "b3")]


def test_r_move_3_passes_diagonally_between_two_diagonally_adjacent_cars():
    g, mg = setup(straight_track(lanes=2))
    # a2 and b1 touch only at a corner; a1 -> b2 squeezes between them.
    assert g.index["b1"] in g.adjacent[g.index["a2"]]
    moves = mg.moves(g.index["a1"], 1, at(g, "a2", "b1"))
    assert paths(g, moves) == [("b2",)]
    assert not moves[0].blocked


def test_r_move_4_stops_short_only_when_no_forward_space_is_free():
    g, mg = setup(straight_track(lanes=2))
    moves = mg.moves(g.index["a1"], 4, at(g, "a3", "b3"))
    assert paths(g, moves) == [("a2",), ("b2",)]
    assert all(m.blocked for m in moves)


def test_r_move_4_a_car_with_no_free_space_ahead_stays():
    g, mg = setup(straight_track(lanes=2))
    assert mg.moves(g.index["a1"], 3, at(g, "a2", "b2")) == []


def test_r_move_4_choosing_to_jam_is_legal_beside_full_length_moves():
    g, mg = setup(straight_track(lanes=3))
    moves = mg.moves(g.index["a1"], 3, at(g, "a3", "b3"))
    assert paths(g, moves) == [("a2",), ("b2", "c3", "b4"), ("b2", "c3", "c4")]
    jam = [m for m in moves if len(m.path) == 1]
    assert jam[0].blocked
    assert not any(m.blocked for m in moves if len(m.path) == 3)


def test_r_move_4_a_blocked_move_never_stops_where_a_step_was_free():
    g, mg = setup(straight_track(lanes=3))
    occupied = at(g, "a3", "b3")
    for move in mg.moves(g.index["a1"], 3, occupied):
        if move.blocked:
            assert mg.free_forward(move.end, occupied) == []


def test_r_fin_1_finishes_on_entering_a_space_beyond_the_finish_line():
    g, mg = setup(straight_track(lanes=2))
    moves = mg.moves(g.index["a9"], 5, set())
    assert paths(g, moves) == sorted((x, y) for x in ("a10", "b10") for y in ("a11", "b11"))
    assert all(m.finished and not m.blocked for m in moves)
    assert all(m.crossed & (1 << 3) for m in moves)


def test_r_fin_1_a_car_one_step_short_does_not_finish():
    g, mg = setup(straight_track(lanes=2))
    moves = mg.moves(g.index["a8"], 2, set())
    assert not any(m.finished for m in moves)


def test_r_bet_1_a_move_records_the_betting_lines_it_crosses():
    g, mg = setup(straight_track(lanes=2))  # betting line 1 after row 3
    crossing = mg.moves(g.index["a2"], 2, set())
    assert all(m.crossed == 1 for m in crossing)
    assert all(m.crossed == 0 for m in mg.moves(g.index["a1"], 2, set()))


def test_wrapping_the_seam_on_a_closed_track():
    track = stadium_track(rows=40, lanes=2)
    g = TrackGeometry(track)
    mg = MoveGraph(g, use_finish=False)  # long distance: laps go on
    moves = mg.moves(g.index["a40"], 2, set())
    assert paths(g, moves) == [("a1", "a2"), ("a1", "b2"), ("b1", "a2"), ("b1", "b2")]
    assert g.wraps_seam(g.index["a40"], g.index["a1"])
    assert not any(m.finished for m in moves)


def test_r_pow_det_rectangular_flag_follows_the_spaces_entered():
    g = TrackGeometry(stadium_track(rows=40, lanes=2))
    mg = MoveGraph(g)
    straight = mg.moves(g.index["a2"], 2, set())
    assert all(m.rectangular for m in straight)
    curve_start = next(i for i, r in enumerate(g.rectangular) if not r)
    into_curve = mg.moves(curve_start, 1, set())
    assert into_curve and not any(m.rectangular for m in into_curve)


def _distinct(moves):
    return {m.outcome() for m in moves}


@given(
    st.sets(st.sampled_from([f"{lane}{r}" for lane in "abc" for r in range(2, 13)]), max_size=6),
    st.integers(1, 9),
    st.sampled_from(["a1", "b1", "c1", "b3"]),
)
def test_outcomes_are_exactly_the_distinct_outcomes_of_moves(cars, n, start):
    g, mg = setup(straight_track(lanes=3))
    occupied = at(g, *cars) - at(g, start)
    moves = mg.moves(g.index[start], n, occupied)
    outcomes = mg.outcomes(g.index[start], n, occupied)
    assert _distinct(outcomes) == _distinct(moves)
    assert len(outcomes) == len(_distinct(outcomes))
    assert {m.path for m in outcomes} <= {m.path for m in moves}


@given(
    st.sets(st.sampled_from([f"{lane}{r}" for lane in "abc" for r in range(2, 13)]), max_size=6),
    st.integers(0, 12),
    st.sampled_from(["a1", "b1", "c1", "b3", "a12"]),
)
def test_count_moves_counts_the_moves_without_listing_them(cars, n, start):
    g, mg = setup(straight_track(lanes=3))
    occupied = at(g, *cars) - at(g, start)
    assert mg.count_moves(g.index[start], n, occupied) == len(mg.moves(g.index[start], n, occupied))


def test_count_moves_is_quick_where_listing_is_not():
    g, mg = setup(stadium_track(rows=60, lanes=3))
    assert mg.count_moves(g.index["b1"], 40, set()) > 10**15
