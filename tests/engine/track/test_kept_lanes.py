"""Kept lanes in the lane builder: where a piece has more or fewer lanes than
the layout, ``keep`` chooses which lanes carry on (left, centre or right, as seen
driving along) and on which side lanes are added (docs/glossary.md)."""

from __future__ import annotations

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
    make_track,
)
from trackside.engine.track.movement import MoveGraph
from trackside.engine.track.validate import validate_track

WIDTH = 40.0


def strip(*pieces, lanes: int = 3) -> LaneLayout:
    """An open line running along +x on the board (left as seen is -y)."""
    return LaneLayout(pieces=tuple(pieces), lanes=lanes, lane_width=WIDTH)


def across(result, space_id: str) -> tuple[float, float]:
    """The board-y range a space covers on a straight along +x."""
    ys = [round(y, 6) for _x, y in result.space(space_id).corners]
    return min(ys), max(ys)


def track_of(result):
    length = result.length
    return make_track(result, "Merge", [length * 0.3, length * 0.5, length * 0.7], length - 40)


@pytest.mark.parametrize(("keep", "carry_on"), [("left", "ab"), ("right", "bc")])
def test_a_drop_from_three_to_two_keeps_the_chosen_lanes_and_their_letters(keep, carry_on):
    result = build_lanes(strip(Straight(120), Straight(120, lanes=2, keep=keep)))
    row4 = [sp for sp in result.spaces if sp.row == 4]
    assert [sp.id for sp in row4] == [f"{lane}4" for lane in carry_on]
    assert [sp.lane for sp in row4] == ["abc".index(lane) for lane in carry_on]
    for lane in carry_on:  # the lane carries on edge to edge
        assert across(result, f"{lane}4") == across(result, f"{lane}3")


def test_centre_is_the_default_and_a_piece_of_the_layout_width_ignores_keep():
    plain = build_lanes(strip(Straight(120), Straight(120, lanes=2), Straight(120)))
    centre = build_lanes(
        strip(Straight(120, keep="left"), Straight(120, lanes=2, keep="centre"), Straight(120))
    )
    assert centre.spaces == plain.spaces
    assert centre.boundaries == plain.boundaries
    assert across(plain, "a4") == (-40, 0)  # centred: half a lane off each side


@pytest.mark.parametrize("keep", ["left", "right"])
def test_a_car_in_the_dropped_lane_moves_on_diagonally(keep):
    """R-MOVE-1, R-MOVE-2: the last space of the lane that ends touches the first
    space of the nearest lane that carries on at a corner, a forward step; the
    built track passes the validator."""
    result = build_lanes(strip(Straight(120), Straight(160, lanes=2, keep=keep)))
    track = track_of(result)
    report = validate_track(track)
    assert report.errors == 0, [i.message for i in report.issues]
    g = TrackGeometry(track)
    dropped, nearest, beyond = (
        ("c3", "b4", {"a5", "b5"}) if keep == "left" else ("a3", "b4", {"b5", "c5"})
    )
    moves = MoveGraph(g).moves(g.index[dropped], 1, set())
    assert {g.ids[m.end] for m in moves} == {nearest}
    two = {g.ids[m.end] for m in MoveGraph(g).moves(g.index[dropped], 2, set())}
    assert two == beyond


def test_a_lane_added_appears_on_the_other_side_of_the_kept_ones():
    """A piece kept left followed by a wider one: the new lane is on the right."""
    result = build_lanes(
        strip(Straight(120, lanes=2, keep="left"), Straight(120), Straight(120, lanes=2))
    )
    assert across(result, "a3") == across(result, "a4")
    assert across(result, "b3") == across(result, "b4")
    assert across(result, "c4")[0] == across(result, "b3")[1]  # the new lane, on the right
    # back to two lanes, centred: half a lane off the three
    assert across(result, "a7") == (-40, 0)


def test_kept_lanes_follow_the_driving_direction_on_a_clockwise_loop():
    """On a loop driven clockwise lane 0 is on the right; left is still left."""
    pieces = (Straight(400, lanes=2, keep="left"), Arc(200, -180), Straight(400), Arc(200, -180))
    result = build_lanes(LaneLayout(pieces=pieces, closed=True, lanes=3, lane_width=WIDTH))
    assert result.inner == "right"  # lane 0 is on the right: board y 20 to 60 here
    assert [sp.id for sp in result.spaces if sp.row == 1] == ["b1", "c1"]  # a1 ends
    assert across(result, "b1") == (-20.0, 20.0)
    assert across(result, "c1") == (-60.0, -20.0)
    report = validate_track(track_of(result))
    assert report.errors == 0, [i.message for i in report.issues]


def test_a_drop_by_two_lanes_kept_to_one_side_is_refused_and_centred_is_not():
    with pytest.raises(LayoutError, match="kept to one side") as caught:
        build_lanes(strip(Straight(120), Straight(120, lanes=2, keep="left"), lanes=4))
    assert "centre" in (caught.value.hint or "")
    result = build_lanes(strip(Straight(120), Straight(120, lanes=2, keep="centre"), lanes=4))
    assert across(result, "a4") == across(result, "b3")  # the middle two carry on


def test_an_arc_checks_the_lanes_kept_towards_its_centre():
    """Lanes kept to the inside of a bend come nearer its centre than centred ones."""
    centred = strip(Straight(100), Arc(65, 90, lanes=2), lanes=3)
    build_lanes(centred)  # 65 - 40 = 25 mm from the centre: fine
    with pytest.raises(LayoutError, match=r"piece 2 .*radius of at least 70"):
        build_lanes(strip(Straight(100), Arc(65, 90, lanes=2, keep="left"), lanes=3))
    build_lanes(strip(Straight(100), Arc(65, 90, lanes=2, keep="right"), lanes=3))


def test_an_unknown_keep_is_refused_with_the_choices():
    with pytest.raises(LayoutError, match="left, centre, right"):
        build_lanes(strip(Straight(120, lanes=2, keep="inner")))


@settings(max_examples=examples(30))
@given(
    st.lists(
        st.tuples(st.integers(1, 4), st.sampled_from([None, "left", "centre", "right"])),
        min_size=2,
        max_size=5,
    ),
    st.integers(1, 4),
    st.booleans(),
)
def test_any_kept_lanes_either_build_without_stranding_a_car_or_are_refused(spec, lanes, bend):
    """R-MOVE-1: whatever lanes are kept, every space but the last row has a
    forward neighbour and none overlap; or the builder says why not."""
    pieces = []
    for k, (n, keep) in enumerate(spec):
        if bend and k % 2:
            pieces.append(Arc(260, 30, lanes=n, keep=keep))
        else:
            pieces.append(Straight(120, lanes=n, keep=keep))
    try:
        result = build_lanes(strip(*pieces, lanes=lanes))
    except LayoutError as exc:
        assert "at once" in str(exc) or "kept to one side" in str(exc)
        return
    g = TrackGeometry(track_of(result))
    assert not g.overlaps and not g.bad_polygons
    stuck = [
        sp.id for i, sp in enumerate(result.spaces) if sp.row < result.rows and not g.forward[i]
    ]
    assert stuck == []
    assert len({sp.id for sp in result.spaces}) == len(result.spaces)


@pytest.mark.parametrize("keep", ["left", "right"])
def test_bends_of_kept_lanes_on_a_loop_validate(keep):
    """Wedges of lanes kept to one side in a bend: no overlaps, every step
    forward (R-MOVE-1), lines on shared edges; the validator finds nothing."""
    other = "right" if keep == "left" else "left"
    pieces = (
        Straight(400),
        Arc(200, 180, lanes=2, keep=keep),
        Straight(400),
        Arc(200, 180, lanes=2, keep=other),
    )
    result = build_lanes(LaneLayout(pieces=pieces, closed=True, lanes=3, lane_width=WIDTH))
    report = validate_track(track_of(result))
    assert report.errors == 0, [i.message for i in report.issues]
    bend = {sp.lane for sp in result.spaces if sp.piece == 1}
    assert bend == ({0, 1} if keep == "left" else {1, 2})  # the loop turns left: left is inner
