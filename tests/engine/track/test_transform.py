"""Mirror, rotate and move a track or a part of it (engine/track/transform.py)."""

from __future__ import annotations

import math

import pytest
from tracks_for_tests import stadium_track

from trackside.engine.resources import bundled_tracks
from trackside.engine.track.layout import Arc, KeptLayout, Straight
from trackside.engine.track.loop_fit import build_kept
from trackside.engine.track.model import Background, Label, Space, load_track
from trackside.engine.track.transform import (
    fresh_ids,
    map_corners,
    map_label,
    map_track,
    mirror_left_right,
    mirror_top_bottom,
    rotation,
    track_centre,
    translation,
    upright,
)
from trackside.engine.track.validate import validate_track


def findings(track) -> list[tuple[str, str]]:
    return sorted((issue.code, issue.severity) for issue in validate_track(track).issues)


@pytest.mark.parametrize("path", bundled_tracks(), ids=lambda p: p.stem)
def test_a_mirrored_bundled_circuit_validates_as_the_original(path):
    track = load_track(path)
    # Left-right for the clockwise copy; top-bottom is the same map turned half a turn.
    mirror = mirror_left_right if path.stem != "quarry-hairpin" else mirror_top_bottom
    mirrored = map_track(track, mirror(track_centre(track)))
    assert findings(mirrored) == findings(track)
    assert mirrored.spaces[0].corners != track.spaces[0].corners
    # Mirrored twice is the original again.
    assert map_track(mirrored, mirror(track_centre(mirrored))) == track


def test_four_quarter_turns_give_back_the_same_track():
    track = load_track(bundled_tracks()[0])
    turned = track
    for _ in range(4):
        turned = map_track(turned, rotation(90, track_centre(turned)))
        assert turned != track or _ == 3
    assert turned == track


def test_a_turned_circuit_validates_as_the_original():
    track = stadium_track()
    turned = map_track(track, rotation(33, (10, 20)))
    assert findings(turned) == findings(track)


def test_a_visible_counter_clockwise_quarter_turn_takes_right_to_up():
    # y is down on the board, so "up" is -y.
    assert rotation(90, (0, 0)).point((10, 0)) == (0, -10)
    assert rotation(-90, (5, 5)).point((15, 5)) == (5, 15)


def test_translation_moves_every_point():
    moved = map_track(stadium_track(), translation(12.5, -3))
    original = stadium_track()
    for a, b in zip(original.spaces, moved.spaces, strict=True):
        for (x, y), (mx, my) in zip(a.corners, b.corners, strict=True):
            assert (mx, my) == pytest.approx((x + 12.5, y - 3), abs=0.001)
    (fx, fy), _end = original.finish_line
    assert moved.finish_line[0] == pytest.approx((fx + 12.5, fy - 3), abs=0.001)


def test_a_mirror_keeps_the_corners_turning_the_same_way():
    square = [(0, 0), (10, 0), (10, 10), (0, 10)]  # clockwise as seen (y down)
    mirrored = map_corners(square, mirror_left_right((5, 5)))
    assert mirrored == [(10, 0), (10, 10), (0, 10), (0, 0)]
    assert _signed_area(mirrored) == _signed_area(square)


def _signed_area(corners) -> float:
    return sum(
        x0 * y1 - x1 * y0
        for (x0, y0), (x1, y1) in zip(corners, corners[1:] + corners[:1], strict=True)
    )


def test_labels_turn_with_the_board_and_still_read_left_to_right_when_mirrored():
    label = Label("Pits", (10, 0), angle=30)
    assert map_label(label, rotation(90, (0, 0))).angle == 120
    assert map_label(label, mirror_left_right((0, 0))).angle == -30
    assert map_label(label, mirror_top_bottom((0, 0))).angle == -30
    assert map_label(Label("Flat", (0, 0)), translation(1, 1)).angle is None


def test_fresh_ids_keep_free_ids_and_renumber_taken_ones():
    assert fresh_ids(["a1", "b"], taken=["x"]) == {"a1": "a1", "b": "b"}
    assert fresh_ids(["s1", "s2", "p"], taken=["s1", "s2", "s3", "p"]) == {
        "s1": "s4",
        "s2": "s5",
        "p": "p1",
    }
    # A number freed by a deletion is not given again: the next after the highest is.
    assert fresh_ids(["a2"], taken=["a1", "a2", "a9"]) == {"a2": "a10"}


def test_the_space_keeps_its_id_lane_and_kind():
    space = Space("a", 2, [(0, 0), (4, 0), (4, 3)], kind="pit", label="P")
    track = stadium_track()
    track.spaces = [space]
    moved = map_track(track, translation(1, 1)).spaces[0]
    assert (moved.id, moved.lane, moved.kind, moved.label) == ("a", 2, "pit", "P")


def test_upright_turns_a_tilted_rectangle_level_with_its_long_side_across():
    """A 40 x 30 mm space drawn at 30 degrees comes out with sides along x and y, its
    box 40 x 30 (the tilted one's box is about 49.6 x 46)."""
    tilted = map_corners([(0, 0), (30, 0), (30, 40), (0, 40)], rotation(30, (15, 20)))
    level = upright(tilted)
    xs = sorted({round(x, 6) for x, _ in level})
    ys = sorted({round(y, 6) for _, y in level})
    assert len(xs) == 2 and len(ys) == 2  # every side horizontal or vertical
    assert xs[1] - xs[0] == pytest.approx(40) and ys[1] - ys[0] == pytest.approx(30)


def test_upright_keeps_a_quadrilateral_whole_and_its_turning_sense():
    wedge = [(0, 0), (50, 10), (45, 40), (5, 35)]
    level = upright(wedge)

    def area(points):
        return (
            sum(
                a[0] * b[1] - b[0] * a[1]
                for a, b in zip(points, points[1:] + points[:1], strict=True)
            )
            / 2
        )

    assert area(level) == pytest.approx(area(wedge), abs=1e-4)


def picture_point(background, u: float, v: float) -> tuple[float, float]:
    """Where pixel (u, v) of the tracing picture lies on the board, in mm."""
    s = float(background.mm_per_pixel)
    rad = math.radians(float(background.turn))
    x = -u if background.mirrored else u
    return (
        float(background.at[0]) + s * (x * math.cos(rad) + v * math.sin(rad)),
        float(background.at[1]) + s * (-x * math.sin(rad) + v * math.cos(rad)),
    )


@pytest.mark.parametrize(
    "tf",
    [
        mirror_left_right((40, 10)),
        mirror_top_bottom((40, 10)),
        rotation(90, (40, 10)),
        rotation(-30, (0, 0)),
        translation(12, -7),
    ],
    ids=["mirror-lr", "mirror-tb", "turn-90", "turn-30", "move"],
)
def test_the_background_picture_goes_with_the_whole_track(tf):
    track = stadium_track()
    track.background = Background("scan.png", (-20, -30), 0.5, turn=15, mirrored=False)
    moved = map_track(track, tf).background
    for u, v in ((0, 0), (200, 0), (0, 100), (130, 70)):
        x, y = tf.point(picture_point(track.background, u, v))
        mx, my = picture_point(moved, u, v)
        assert (mx, my) == pytest.approx((x, y), abs=0.01)
    assert moved.mirrored == tf.flips
    again = map_track(map_track(track, tf), tf).background
    if tf.flips:  # a mirror twice is the picture as it was, in the file too
        assert again == track.background
        assert again.to_dict() == track.background.to_dict()


def test_a_background_never_turned_is_saved_as_before():
    data = Background("scan.png", (1, 2), 0.5).to_dict()
    assert "turn" not in data and "mirrored" not in data
    turned = Background.from_dict({**data, "turn": 90, "mirrored": True})
    assert turned.turn == 90 and turned.mirrored
    assert Background.from_dict(turned.to_dict()) == turned


@pytest.mark.parametrize(
    "tf",
    [rotation(90, (100, 50)), mirror_left_right((120, 0)), translation(12.5, -3)],
    ids=["turned", "mirrored", "moved"],
)
def test_a_mapped_circuit_takes_its_lane_layouts_along(tf):
    """Re-applying a kept layout after the whole circuit moved builds the spaces
    where they are now, not where they were."""
    kept = KeptLayout(
        start=(0, 0),
        heading=0,
        pieces=(Straight(200), Arc(200, 90), Straight(120, lanes=1, keep="left")),
        lanes=2,
        lane_width=30,
    )
    track = stadium_track()
    track.lane_layouts = [kept]
    moved = map_track(track, tf).lane_layouts[0]
    before = {sp.id: sp.corners for sp in build_kept(kept).track_spaces()}
    after = {sp.id: sp.corners for sp in build_kept(moved).track_spaces()}
    assert after.keys() == before.keys()
    for sid, corners in before.items():
        expected = sorted(tf.point(p) for p in corners)
        assert all(
            math.dist(a, b) < 0.01 for a, b in zip(sorted(after[sid]), expected, strict=True)
        )
