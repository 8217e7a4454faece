"""Pictures the renderer wrote, read back as pixels: a QImage or each page of a PDF as an
array of (red, green, blue) rows, and which of them are a given colour or the grass."""

from __future__ import annotations

from pathlib import Path

import numpy as np


def rgb(image) -> np.ndarray:
    """The pixels of a QImage as an array of rows of (red, green, blue)."""
    from PySide6.QtGui import QImage

    image = image.convertToFormat(QImage.Format.Format_RGB888)
    rows = np.frombuffer(image.constBits(), np.uint8).reshape(image.height(), -1)
    return rows[:, : image.width() * 3].reshape(image.height(), image.width(), 3).astype(int)


def grass(pixels: np.ndarray) -> int:
    """How many pixels are the grass's green (no other colour of the board is so green)."""
    red, green, blue = pixels[..., 0], pixels[..., 1], pixels[..., 2]
    return int(np.count_nonzero((green > red + 25) & (green > blue + 25)))


def near(pixels: np.ndarray, colour: str) -> np.ndarray:
    """Where the pixels are ``colour`` ('#rrggbb'), give or take antialiasing."""
    from PySide6.QtGui import QColor

    c = QColor(colour)
    return np.abs(pixels - np.array([c.red(), c.green(), c.blue()])).max(axis=-1) < 12


def pdf_pixels(path: Path) -> list[np.ndarray]:
    """Every page of a PDF at half a pixel per point (36 per inch)."""
    from trackside.editor.canvas.pdf_page import page_sizes, render_page

    return [rgb(render_page(path, n, 0.5)) for n in range(1, len(page_sizes(path)) + 1)]
