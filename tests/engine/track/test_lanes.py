"""The lane builder (engine.track.lanes): spaces, centerline, lines and grid."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest
from depth import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from trackside.engine.track.geometry import TrackGeometry
from trackside.engine.track.lanes import (
    Arc,
    LaneLayout,
    LayoutError,
    Straight,
    build_lanes,
    close_loop,
    closure_gap,
    line_across,
    make_track,
    pick_grid,
    trace,
)
from trackside.engine.track.movement import MoveGraph
from trackside.engine.track.validate import validate_track


def geometry_of(result, **lines) -> TrackGeometry:
    """TrackGeometry of built lanes, lines placed across the track."""
    length = result.length
    bets = lines.get("betting", [length * 0.3, length * 0.5, length * 0.7])
    finish = lines.get("finish", length * 0.9)
    grid = lines["grid"] if "grid" in lines else pick_grid(result)
    return TrackGeometry(make_track(result, "Test", bets, finish, grid=grid))


def stadium(lanes: int = 3, **options) -> LaneLayout:
    """A closed anticlockwise stadium, 400 mm straights, 200 mm bends."""
    pieces = (Straight(400), Arc(200, 180), Straight(400), Arc(200, 180))
    return LaneLayout(pieces=pieces, closed=True, lanes=lanes, **options)


def angle_at(a, b, c) -> float:
    """Interior angle at b in degrees."""
    u = (a[0] - b[0], a[1] - b[1])
    v = (c[0] - b[0], c[1] - b[1])
    cos = (u[0] * v[0] + u[1] * v[1]) / (math.hypot(*u) * math.hypot(*v))
    return math.degrees(math.acos(max(-1.0, min(1.0, cos))))


def cross(o, a, b) -> float:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


# -- straights --------------------------------------------------------------


def test_straight_strip_gives_rectangles_with_lane_and_row_ids():
    layout = LaneLayout(pieces=(Straight(400),), lanes=3, space_length=40, lane_width=35)
    result = build_lanes(layout)
    assert len(result.spaces) == 30
    assert result.rows == 10
    ids = {sp.id for sp in result.spaces}
    assert ids == {f"{lane}{row}" for lane in "abc" for row in range(1, 11)}
    for sp in result.spaces:
        assert len(sp.corners) == 4
        assert not sp.curved
        for k in range(4):
            assert angle_at(
                sp.corners[k - 1], sp.corners[k], sp.corners[(k + 1) % 4]
            ) == pytest.approx(90, abs=1e-9)
        assert sp.front - sp.rear == pytest.approx(40)
        rear_inner, front_inner, front_outer, _rear_outer = sp.corners
        assert math.dist(rear_inner, front_inner) == pytest.approx(40)
        assert math.dist(front_inner, front_outer) == pytest.approx(35)
    # The line does not turn, so lane 0 is on the driver's left: up the board
    # (y down); centred lanes span +-52.5 mm.
    a1, c1 = result.space("a1"), result.space("c1")
    assert sorted({round(y, 9) for _x, y in a1.corners}) == [-52.5, -17.5]
    assert sorted({round(y, 9) for _x, y in c1.corners}) == [17.5, 52.5]
    assert result.centerline == [(0.0, 0.0), (400.0, 0.0)]


def test_a_straight_strip_is_determined_friendly_and_moves_straight_or_diagonally():
    """R-MOVE-1: forward is straight ahead or diagonally ahead, never sideways;
    R-POW-DET: straights give rectangular spaces."""
    result = build_lanes(LaneLayout(pieces=(Straight(400),), lanes=3))
    g = geometry_of(result, betting=[100, 200, 300], finish=360)
    assert all(g.rectangular)
    b3 = g.index["b3"]
    assert {g.ids[j] for j in g.forward[b3]} == {"a4", "b4", "c4"}
    assert {g.ids[j] for j in g.adjacent[b3]} >= {"a3", "c3"}


def test_rows_per_piece_round_the_length_and_can_be_forced():
    result = build_lanes(
        LaneLayout(pieces=(Straight(130), Straight(100, rows=4)), space_length=40, lanes=1)
    )
    first, second = result.pieces
    assert (first.rows, second.rows) == (3, 4)
    assert first.row_length == pytest.approx(130 / 3)
    assert second.row_length == pytest.approx(25)
    assert [sp.id for sp in result.spaces] == [f"a{i}" for i in range(1, 8)]


# -- arcs -------------------------------------------------------------------


def test_arcs_give_wedges_with_edges_radial_to_the_centre():
    layout = LaneLayout(pieces=(Arc(300, 90),), lanes=3, space_length=40, lane_width=40)
    result = build_lanes(layout)
    centre = (0.0, -300.0)  # left turn (as seen, y down) from (0, 0) heading east
    assert result.rows == round(300 * math.pi / 2 / 40)
    for sp in result.spaces:
        assert sp.curved
        pts = sp.corners
        lane_in = 300 - 60 + 40 * sp.lane
        # corners run along the inner circle rear to front, then back along the outer one
        n_inner = sum(1 for p in pts if abs(math.dist(p, centre) - lane_in) < 1e-6)
        assert all(abs(math.dist(p, centre) - lane_in - 40) < 1e-6 for p in pts[n_inner:])
        rear_inner, front_inner = pts[0], pts[n_inner - 1]
        front_outer, rear_outer = pts[n_inner], pts[-1]
        # the rear and front edges lie on lines through the arc centre
        assert abs(cross(centre, rear_inner, rear_outer)) < 1e-6 * math.dist(centre, rear_outer)
        assert abs(cross(centre, front_inner, front_outer)) < 1e-6 * math.dist(centre, front_outer)
        assert math.dist(rear_inner, front_inner) < math.dist(rear_outer, front_outer)
    # lane 0 is inside the left turn
    assert math.dist(result.space("a1").corners[0], centre) == pytest.approx(240)


def test_the_centerline_is_dense_in_curves():
    layout = LaneLayout(
        pieces=(Straight(100), Arc(150, 120), Arc(200, -75), Straight(100)), lanes=2, max_turn=1.0
    )
    pts = build_lanes(layout).centerline
    turns = []
    for a, b, c in zip(pts, pts[1:], pts[2:], strict=False):
        h1 = math.atan2(b[1] - a[1], b[0] - a[0])
        h2 = math.atan2(c[1] - b[1], c[0] - b[0])
        turns.append(abs(math.degrees((h2 - h1 + math.pi) % (2 * math.pi) - math.pi)))
    assert max(turns) <= 1.0 + 1e-9
    assert len(pts) >= 195
    # the polyline stays within a hair of the racing line
    centre = (100.0, -150.0)
    first_arc = pts[2:122]  # 8 rows of 15°, 1° steps, after (0, 0) and (100, 0)
    assert all(0 < math.dist(p, centre) - 150 < 0.01 for p in first_arc)


def test_side_by_side_wedges_are_level_and_geometry_agrees_with_the_builder():
    """R-MOVE-2: fronts of spaces in one row coincide (within tolerance), so a
    step across a row is sideways, not forward."""
    result = build_lanes(
        LaneLayout(pieces=(Straight(80), Arc(90, 180), Straight(80)), lanes=4, lane_width=38)
    )
    g = geometry_of(result, betting=[60, 120, 200], finish=300)
    for i, sp in enumerate(result.spaces):
        # exact up to the 3-decimal rounding of the file (corners near the
        # centre of a tight arc are sensitive to it)
        assert g.front[i] == pytest.approx(sp.front, abs=0.1)
        for j in g.forward[i]:
            assert result.spaces[j].row == sp.row + 1
    assert not g.overlaps and not g.bad_polygons


def test_an_arc_too_tight_for_its_lanes_is_refused():
    with pytest.raises(LayoutError, match=r"piece 2 .*inner edge.*radius of at least 70"):
        build_lanes(LaneLayout(pieces=(Straight(100), Arc(60, 90)), lanes=3, lane_width=40))


# -- lane counts ------------------------------------------------------------


@pytest.mark.parametrize("counts", [(1, 2, 3, 4, 3, 2, 1), (1, 3, 1), (4, 2, 4), (2, 4, 2, 3)])
def test_lane_count_changes_keep_forward_neighbours(counts):
    """R-MOVE-1/R-MOVE-4: across a widening or narrowing every space still has a
    forward neighbour, so no car is stuck."""
    pieces = []
    for k, n in enumerate(counts):
        pieces.append(Straight(120, lanes=n) if k % 2 == 0 else Arc(260, 30, lanes=n))
    result = build_lanes(LaneLayout(pieces=tuple(pieces), lane_width=40))
    total = result.length
    g = geometry_of(
        result,
        betting=[total * 0.3, total * 0.5, total * 0.7],
        finish=total - 40,
        grid=[sp.id for sp in result.spaces][:6],
    )
    last = result.rows
    stuck = [sp.id for i, sp in enumerate(result.spaces) if sp.row < last and not g.forward[i]]
    assert stuck == []
    assert not g.overlaps
    # every lane of one piece reaches the next piece
    for i, sp in enumerate(result.spaces):
        if sp.row < last:
            assert any(result.spaces[j].row == sp.row + 1 for j in g.forward[i])


def test_narrowing_is_centred_on_the_racing_line():
    result = build_lanes(
        LaneLayout(pieces=(Straight(80, lanes=3), Straight(80, lanes=1)), lane_width=40)
    )
    single = result.space("a3")
    assert sorted({round(y, 9) for _x, y in single.corners}) == [-20, 20]
    assert [sp.id for sp in result.spaces if sp.row == 3] == ["a3"]


def test_a_six_lane_start_box_narrows_to_four_centred():
    """A whole grid abreast: six lanes a to f centred on the racing line, then
    the four middle ones carry on."""
    result = build_lanes(
        LaneLayout(pieces=(Straight(80, lanes=6), Straight(80, lanes=4)), lane_width=40)
    )
    assert [sp.id for sp in result.spaces if sp.row == 1] == ["a1", "b1", "c1", "d1", "e1", "f1"]
    assert [sp.id for sp in result.spaces if sp.row == 3] == ["a3", "b3", "c3", "d3"]
    ys = sorted({round(y, 9) for sp in result.spaces if sp.row == 1 for _x, y in sp.corners})
    assert (ys[0], ys[-1]) == (-120, 120)


def test_a_jump_from_one_to_four_lanes_is_refused():
    with pytest.raises(LayoutError, match="from 1 to 4"):
        build_lanes(LaneLayout(pieces=(Straight(80, lanes=1), Straight(80, lanes=4))))
    with pytest.raises(LayoutError, match="lanes must be 1 to 6"):
        build_lanes(LaneLayout(pieces=(Straight(80, lanes=7),)))


# -- closed loops -----------------------------------------------------------


def test_a_closed_loop_wraps_over_the_seam():
    """R-MOVE-2 on a closed track: the last row's forward neighbours are the
    first row's, and no space straddles the seam."""
    result = build_lanes(stadium())
    g = geometry_of(result)
    assert result.closed and g.closed and g.wraps
    assert result.centerline[0] == (0.0, 0.0) and result.centerline[-1] != (0.0, 0.0)
    last = [g.index[f"{c}{result.rows}"] for c in "abc"]
    for i in last:
        assert {g.ids[j] for j in g.forward[i]} <= {"a1", "b1", "c1"}
        assert g.forward[i]
        assert any(g.wraps_seam(i, j) for j in g.forward[i])
    assert not any(g.straddles_seam)
    assert all(g.forward) and not g.overlaps
    # the seam corners are shared exactly
    assert set(result.space("a1").corners[:1]) <= set(result.space(f"a{result.rows}").corners)


def test_a_loop_whose_end_misses_its_start_is_reported_with_the_gap():
    layout = LaneLayout(
        pieces=(Straight(400), Arc(200, 180), Straight(380), Arc(200, 180)), closed=True
    )
    assert closure_gap(layout)[0] == pytest.approx(20)
    with pytest.raises(LayoutError, match=r"does not close: its end is 20.00 mm from its start"):
        build_lanes(layout)
    with pytest.raises(LayoutError, match="heading"):
        build_lanes(LaneLayout(pieces=(Straight(400), Arc(200, 170)), closed=True))


def test_close_loop_fits_two_straights_so_the_loop_closes_exactly():
    layout = LaneLayout(
        pieces=(
            Straight(300),
            Arc(200, 90),
            Straight(100),
            Arc(200, 90),
            Straight(250),
            Arc(200, 90),
            Straight(60),
            Arc(200, 90),
        ),
        closed=True,
    )
    fixed = close_loop(layout, (0, 2))
    dist, dh = closure_gap(fixed)
    assert dist < 1e-9 and abs(dh) < 1e-9
    assert fixed.pieces[0].length == pytest.approx(250)
    assert fixed.pieces[2].length == pytest.approx(60)
    assert build_lanes(fixed).closed
    short = replace(layout, pieces=(*layout.pieces[:6], Straight(10), Arc(200, 90)))
    with pytest.raises(LayoutError, match=r"piece 3 10\.0 mm long"):
        close_loop(short, (0, 2))
    poses = trace(fixed)
    assert len(poses) == len(fixed.pieces) + 1
    assert (poses[-1].x, poses[-1].y) == (pytest.approx(0, abs=1e-9), pytest.approx(0, abs=1e-9))
    with pytest.raises(LayoutError, match="parallel"):
        close_loop(layout, (0, 4))
    with pytest.raises(LayoutError, match="not a straight"):
        close_loop(layout, (0, 1))


def test_a_clockwise_loop_puts_lane_zero_on_the_right():
    pieces = (Straight(400), Arc(200, -180), Straight(400), Arc(200, -180))
    result = build_lanes(LaneLayout(pieces=pieces, closed=True, lanes=2))
    assert result.inner == "right"
    # heading east on a y-down board, the driver's right is +y
    assert all(y > 0 for _x, y in result.space("a1").corners[:2])
    assert all(y < 0 for _x, y in result.space("b1").corners[2:])


# -- stagger ----------------------------------------------------------------


def test_stagger_offsets_neighbouring_lanes_and_keeps_piece_ends_shared():
    layout = LaneLayout(pieces=(Straight(400),), lanes=2, space_length=40, stagger=0.5)
    result = build_lanes(layout)
    a, b = (
        [sp for sp in result.spaces if sp.lane == 0],
        [sp for sp in result.spaces if sp.lane == 1],
    )
    assert [sp.front for sp in a][:3] == [pytest.approx(30), pytest.approx(70), pytest.approx(110)]
    assert [sp.front for sp in b][:3] == [pytest.approx(50), pytest.approx(90), pytest.approx(130)]
    assert a[0].rear == b[0].rear == 0 and a[-1].front == pytest.approx(b[-1].front)
    g = geometry_of(result, betting=[100, 200, 300], finish=360)
    # R-MOVE-1: a staggered neighbour ahead is a diagonal step forward
    a2 = g.index["a2"]
    assert {g.ids[j] for j in g.forward[a2]} == {"a3", "b2"}
    assert not g.overlaps and all(g.cuts[k] == [] for k in range(4))
    # with stagger only piece ends are shared by every lane
    assert [round(b.progress) for b in result.boundaries] == [0, 400]


def test_staggered_wedges_share_their_curved_edges():
    """Neighbouring staggered wedges get each other's corners on their common
    arc, so they touch without overlapping."""
    layout = LaneLayout(pieces=(Arc(250, 120),), lanes=3, stagger=0.3, wedge_step=20)
    result = build_lanes(layout)
    g = geometry_of(
        result, betting=[100, 200, 300], finish=400, grid=[sp.id for sp in result.spaces][:6]
    )
    assert not g.overlaps and not g.bad_polygons
    stuck = [
        sp.id for i, sp in enumerate(result.spaces) if sp.row < result.rows and not g.forward[i]
    ]
    assert stuck == []


def test_stagger_too_large_or_too_small_is_refused():
    with pytest.raises(LayoutError, match=r"at most 0\.333"):
        build_lanes(LaneLayout(pieces=(Straight(400),), lanes=4, stagger=0.5))
    with pytest.raises(LayoutError, match="too little"):
        build_lanes(LaneLayout(pieces=(Straight(400),), lanes=2, stagger=0.01))


# -- lines and grid ---------------------------------------------------------


@pytest.mark.parametrize("progress", [0.0, 55.0, 399.0, 610.0, 777.7, 1234.5, 2000.0, 2500.0])
def test_line_across_snaps_to_a_shared_edge_and_cuts_no_space(progress):
    layout = LaneLayout(
        pieces=(
            Straight(400, lanes=3),
            Arc(200, 180, lanes=2),
            Straight(400, lanes=1),
            Arc(200, 180, lanes=3, stagger=0.25),
        ),
        closed=True,
        lane_width=40,
    )
    result = build_lanes(layout)
    line = line_across(result, progress)
    assert any(b.progress == line.progress for b in result.boundaries)
    track = make_track(result, "T", [100, 700, 1300], 2000)
    track.finish_line = line.segment
    g = TrackGeometry(track)
    assert g.cuts[3] == []
    assert len(g.line_crossings[3]) == 1
    assert g.line_crossings[3][0] == pytest.approx(line.progress, abs=0.5)
    # it spans the track: every space touched by it lies on one side or the other
    touching = [i for i in range(g.n) if g.touches(i, line.segment)]
    assert {g.beyond[3][i] for i in touching} == {True, False} or line.progress == 0


def test_pick_grid_takes_six_spaces_after_the_seam_pole_first():
    result = build_lanes(stadium(lanes=3))
    assert pick_grid(result) == ["a2", "b2", "c2", "a1", "b1", "c1"]
    two = build_lanes(stadium(lanes=2))
    assert pick_grid(two) == ["a3", "b3", "a2", "b2", "a1", "b1"]
    assert pick_grid(result, lanes=[0]) == ["a6", "a5", "a4", "a3", "a2", "a1"]


def test_a_built_track_validates_and_its_grid_can_move():
    """The builder's output passes the validator, and a car on the pole can
    move 3 spaces straight or diagonally (R-MOVE-4)."""
    result = build_lanes(stadium(lanes=3))
    track = make_track(result, "Stadium", [400, 900, 1400], result.length - 80)
    report = validate_track(track)
    assert report.errors == 0, [i.message for i in report.issues]
    g = TrackGeometry(track)
    moves = MoveGraph(g).moves(g.index["a2"], 3, set())
    ends = {g.ids[m.end] for m in moves}
    assert ends == {"a5", "b5", "c5"}


# -- random layouts ---------------------------------------------------------

pieces_strategy = st.lists(
    st.tuples(
        st.sampled_from(["straight", "arc"]),
        st.floats(40, 300),
        st.floats(-60, 60).filter(lambda a: abs(a) > 5),
        st.integers(1, 4),
    ),
    min_size=1,
    max_size=5,
)


@settings(max_examples=examples(40))
@given(pieces_strategy, st.sampled_from([0.0, 0.2, -0.3]))
def test_random_layouts_never_overlap_and_never_strand_a_car(spec, stagger):
    """Any buildable layout gives simple, non-overlapping spaces, each (but the
    last row) with a forward neighbour (R-MOVE-1)."""
    pieces = []
    heading = 0.0
    lanes = spec[0][3]
    for kind, size, angle, n in spec:
        n = max(lanes - 2, min(lanes + 2, n))
        lanes = n
        if kind == "arc" and abs(heading + angle) <= 60:
            heading += angle
            pieces.append(Arc(max(size, n * 20 + 10) + 40, angle, lanes=n))
        else:
            pieces.append(Straight(size, lanes=n))
    try:
        result = build_lanes(LaneLayout(pieces=tuple(pieces), lane_width=40, stagger=stagger))
    except LayoutError as exc:
        assert "stagger" in str(exc)
        return
    total = result.length
    g = geometry_of(
        result,
        betting=[total * 0.2, total * 0.4, total * 0.6],
        finish=total,
        grid=[sp.id for sp in result.spaces[:6]]
        if len(result.spaces) >= 6
        else [result.spaces[0].id] * 6,
    )
    assert not g.bad_polygons
    assert not g.overlaps
    stuck = [
        sp.id for i, sp in enumerate(result.spaces) if sp.row < result.rows and not g.forward[i]
    ]
    assert stuck == []
    assert len({sp.id for sp in result.spaces}) == len(result.spaces)


def test_a_layout_with_more_spaces_than_a_track_holds_is_refused_before_building():
    """A mistyped length (999999 mm) is refused with the count and the cap, at once."""
    layout = LaneLayout(pieces=(Straight(999_999),), lanes=3, space_length=40.0)
    with pytest.raises(LayoutError, match=r"75,000 spaces, more than a track holds \(20,000\)"):
        build_lanes(layout)
