"""The heat map prints each tinted space's id in a colour that reads on its tile: dark
on a light tile, white on a dark or deeply tinted one."""

from __future__ import annotations

from PySide6.QtGui import QColor

from trackside.editor.canvas.heatmap import (
    DARK_TEXT,
    LIGHT_TEXT,
    HeatMap,
    contrast,
    heat_colour,
    text_colour,
    tile_colour,
)
from trackside.editor.canvas.painting import DEFAULT_STYLE
from trackside.engine.resources import resolve_track
from trackside.engine.track.model import load_track

READABLE = 4.5  # WCAG 2's least contrast for small text


def test_the_id_colour_is_white_on_red_and_dark_on_yellow_or_pale_tiles():
    assert text_colour(QColor("#c0282b")) == LIGHT_TEXT  # the hottest red
    assert text_colour(QColor("#4b4f55")) == LIGHT_TEXT  # a lane's dark grey
    assert text_colour(QColor("#f2d24b")) == DARK_TEXT  # yellow
    assert text_colour(QColor("#f4f0e0")) == DARK_TEXT  # pale
    for tile in ("#c0282b", "#4b4f55", "#f2d24b", "#f4f0e0"):
        assert contrast(text_colour(QColor(tile)), QColor(tile)) >= READABLE, tile


def test_a_tint_is_laid_over_the_lane_by_its_alpha():
    grey, red = QColor("#404040"), QColor(200, 0, 0, 128)
    tile = tile_colour(grey, red)
    assert tile.alpha() == 255
    assert abs(tile.red() - (200 * 128 + 0x40 * 127) / 255) <= 1
    assert abs(tile.green() - 0x40 * 127 / 255) <= 1


def test_every_tint_on_every_lane_shade_gets_a_readable_id():
    """The map's own tints, from the faintest to the hottest, over both lane shades: the
    colour chosen reads on each (the ids were drawn under the tint, red on red)."""
    for lane in range(len(DEFAULT_STYLE.lane_fills)):
        for step in range(1, 101):
            tile = tile_colour(DEFAULT_STYLE.lane_colour(lane), heat_colour(step / 100))
            assert contrast(text_colour(tile), tile) >= READABLE, (lane, step)


def test_the_map_tiles_only_the_spaces_it_tints_with_the_hottest_red():
    track = load_track(resolve_track("quarry-hairpin"))
    hot, cold = track.spaces[0], track.spaces[1]
    heat = HeatMap(track, {hot.id: 2.0, track.spaces[2].id: 0.5}, "Moves ending here")
    assert heat.tile(cold) is None
    tile = heat.tile(hot)
    assert tile is not None and tile.red() > 2 * tile.green()  # red
    assert text_colour(tile) == LIGHT_TEXT
