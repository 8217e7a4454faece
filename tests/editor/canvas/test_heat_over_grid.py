"""The heat map tints the spaces but hides none of what is printed on them: the grid
numbers stay white over the hottest tint, and the lines stay above it."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QRectF
from PySide6.QtGui import QColor, QImage, QPainter

from trackside.editor.canvas.items import Z_LINE
from trackside.engine.resources import resolve_track

pytestmark = pytest.mark.gui


def white_pixels(window, space_id: str) -> int:
    """The near-white pixels of the canvas over the middle of one space, as the scene
    paints it."""
    space = window.doc.track.space(space_id)
    xs = [x for x, _y in space.corners]
    ys = [y for _x, y in space.corners]
    w, h = max(xs) - min(xs), max(ys) - min(ys)
    rect = QRectF(min(xs) + w / 4, min(ys) + h / 4, w / 2, h / 2)  # where the number is
    image = QImage(200, 200, QImage.Format.Format_ARGB32)
    image.fill(QColor("black"))
    painter = QPainter(image)
    window.scene.render(painter, QRectF(0, 0, 200, 200), rect)
    painter.end()
    return sum(
        1
        for x in range(200)
        for y in range(200)
        if min(QColor(image.pixel(x, y)).getRgb()[:3]) > 235
    )


def test_grid_numbers_and_lines_stay_above_the_heat_map(qtbot, window):
    assert window.open_file(resolve_track("quarry-hairpin"))
    pole = window.doc.track.start_grid[0]
    before = white_pixels(window, pole)
    assert before > 50  # the "1" of the pole, white
    # Every space as hot as the hottest: the strongest tint over the number.
    window.balance_menu.heatmap.show_values(
        window.doc.track, {s.id: 1.0 for s in window.doc.track.spaces}, "Moves ending here"
    )
    window.balance_menu.heatmap.setVisible(True)
    assert window.balance_menu.heatmap.zValue() < Z_LINE
    assert white_pixels(window, pole) >= 0.9 * before
