"""The heat map is painted in the board's style: the lane shades under its tints, the
texts and the lines it prints again over them are those of the style the board is
drawn in, not always the default one (``render(..., style=)``, as ``render
--heatmap`` draws)."""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtGui import QColor, QImage

from trackside.editor.canvas.heatmap import DARK_TEXT, LIGHT_TEXT, HeatMap
from trackside.editor.canvas.painting import DEFAULT_STYLE
from trackside.editor.canvas.render import board_painter, page_rect, render
from trackside.engine.resources import resolve_track
from trackside.engine.track.model import load_track

# A pale board with blue betting lines: nothing of it is in the default style.
PALE = replace(
    DEFAULT_STYLE,
    lane_fills=("#f4f4f4", "#e8e8e8"),
    betting="#1f3fff",
    grid_number="#102030",
    font_family="DejaVu Serif",
)


def test_the_map_takes_its_tiles_and_texts_from_the_style_it_is_made_for():
    """A strong tint over a pale lane needs a dark id, over the default dark lane a white
    one; every text keeps the style's other choices (grid numbers, font)."""
    track = load_track(resolve_track("quarry-hairpin"))
    warm = {track.spaces[0].id: 0.8, track.spaces[1].id: 1.0}
    on_pale = HeatMap(track, warm, "Moves ending here", PALE)
    on_default = HeatMap(track, warm, "Moves ending here")
    first = {space.id: style for space, _slot, style in on_pale.texts}[track.spaces[0].id]
    assert QColor(first.id_text) == DARK_TEXT
    was = {space.id: style for space, _slot, style in on_default.texts}[track.spaces[0].id]
    assert QColor(was.id_text) == LIGHT_TEXT
    assert {(s.grid_number, s.font_family) for _sp, _sl, s in on_pale.texts} == {
        (PALE.grid_number, PALE.font_family)
    }


def test_a_rendered_heat_map_prints_the_betting_lines_in_the_board_s_colour(tmp_path):
    """The map prints the lines again over its tints: in the style's blue, not in the
    default yellow over the blue board line."""
    track = load_track(resolve_track("quarry-hairpin"))
    heat = ({space.id: 1.0 for space in track.spaces}, "Moves ending here")
    path = tmp_path / "heat.png"
    dpi = 100
    render(track, path, dpi=dpi, title=False, style=PALE, heat=heat)
    bounds, _paint = board_painter(track, title=False, style=PALE, heat=heat)
    rect, px = page_rect(bounds, 25.4 / dpi), dpi / 25.4
    image = QImage(str(path))
    (ax, ay), (bx, by) = track.betting_lines[0]
    at = (float(ax) + 0.3 * (float(bx) - float(ax)), float(ay) + 0.3 * (float(by) - float(ay)))
    pixel = image.pixelColor(round((at[0] - rect.left()) * px), round((at[1] - rect.top()) * px))
    blue = QColor(PALE.betting)
    assert abs(pixel.blue() - blue.blue()) < 40 and pixel.red() < 90, pixel.name()
