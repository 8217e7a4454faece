"""Closing a lane layout into a loop (engine/track/loop_fit.py): the straights chosen
to close it, or else any not kept as typed, are fitted; the others never change."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from trackside.engine.track.lanes import build_lanes, closure_gap
from trackside.engine.track.layout import Arc, KeptLayout, LaneLayout, Straight
from trackside.engine.track.loop_fit import build_kept, fit_loop


def rectangle(bottom: float, side: float, top: float, other_side: float) -> LaneLayout:
    """A rectangle with rounded corners, driven anticlockwise from (0, 0) along +x."""
    return LaneLayout(
        pieces=(
            Straight(bottom),
            Arc(200, 90),
            Straight(side),
            Arc(200, 90),
            Straight(top),
            Arc(200, 90),
            Straight(other_side),
            Arc(200, 90),
        ),
        lanes=2,
        lane_width=30,
    )


def lengths(layout: LaneLayout) -> list[float]:
    return [round(p.length, 6) for p in layout.pieces if isinstance(p, Straight)]


def test_a_gap_along_a_straight_up_the_board_is_closed_by_a_parallel_straight():
    fit = fit_loop(rectangle(400, 400, 400, 420))
    assert fit.layout is not None and fit.fitted in ((2,), (6,))
    assert lengths(fit.layout) in ([400, 420, 400, 420], [400, 400, 400, 400])
    build_lanes(fit.layout)  # closes within the builder's tolerance


def test_a_straight_kept_as_typed_is_never_fitted():
    layout = rectangle(400, 400, 400, 420)
    pieces = list(layout.pieces)
    pieces[6] = Straight(420, closes=False)
    fit = fit_loop(LaneLayout(pieces=tuple(pieces), lanes=2, lane_width=30))
    assert fit.fitted == (2,) and lengths(fit.layout) == [400, 420, 400, 420]


def test_the_chosen_straights_close_the_loop_whatever_the_gap():
    layout = rectangle(400, 400, 380, 420)  # misses along x and along y
    pieces = list(layout.pieces)
    pieces[0] = Straight(400, closes=True)
    pieces[2] = Straight(400, closes=True)
    fit = fit_loop(LaneLayout(pieces=tuple(pieces), lanes=2, lane_width=30))
    assert fit.fitted == (0, 2)
    assert lengths(fit.layout) == [380, 420, 380, 420]
    assert closure_gap(fit.layout)[0] < 1e-6


def test_a_loop_that_cannot_close_says_by_how_much():
    layout = rectangle(400, 400, 380, 420)
    pieces = list(layout.pieces)
    pieces[0] = Straight(400, closes=True)  # alone it can only take up the x part
    fit = fit_loop(LaneLayout(pieces=tuple(pieces), lanes=2, lane_width=30))
    assert fit.layout is None and fit.miss == pytest.approx(math.hypot(20, 20))
    assert "misses its start by 28.3 mm (20.0 mm to the right and 20.0 mm below)" in fit.note
    assert "piece 1 chosen to close it cannot take that up" in fit.note
    kept_all = tuple(
        replace_closes(p, False) if isinstance(p, Straight) else p for p in layout.pieces
    )
    fit = fit_loop(LaneLayout(pieces=kept_all, lanes=2, lane_width=30))
    assert fit.layout is None and "every straight is kept as typed" in fit.note


def test_turns_that_are_not_a_whole_turn_are_no_loop_to_close():
    fit = fit_loop(LaneLayout(pieces=(Straight(400), Arc(200, 270)), lanes=2))
    assert fit.layout is None and fit.miss == 0 and "turns add up to 270°" in fit.note


def replace_closes(piece: Straight, closes: bool) -> Straight:
    return Straight(piece.length, closes=closes)


@given(
    st.lists(st.integers(min_value=8, max_value=20), min_size=4, max_size=4),
    st.sampled_from([(0,), (2,), (4,), (6,), (0, 2), (4, 6), (0, 6)]),
)
def test_straights_not_chosen_keep_their_length(sides, chosen):
    """Whatever the typed lengths, the straights the designer did not choose are
    built exactly as typed, and the loop closes when it can."""
    base = rectangle(*(40.0 * n for n in sides))
    pieces = [
        Straight(p.length, closes=True) if k in chosen else p for k, p in enumerate(base.pieces)
    ]
    layout = LaneLayout(pieces=tuple(pieces), lanes=2, lane_width=30)
    fit = fit_loop(layout)
    if fit.layout is None:
        assert fit.miss > 0
        return
    assert set(fit.fitted) <= set(chosen)
    for k, (typed, built) in enumerate(zip(layout.pieces, fit.layout.pieces, strict=True)):
        if k not in chosen:
            assert typed == built
    assert closure_gap(fit.layout)[0] < 1e-6


def test_a_kept_layout_builds_with_its_closing_choice():
    kept = KeptLayout.from_data(
        {
            "start": [0, 0],
            "heading": 0,
            "pieces": [
                {"straight": 1040, "closes": False},
                {"arc": 200, "turn": 180},
                {"straight": 940},
                {"arc": 200, "turn": 180},
            ],
        }
    )
    result = build_kept(kept)
    assert result.closed
    assert [round(span.end - span.start, 3) for span in result.pieces][::2] == [1040, 1040]
