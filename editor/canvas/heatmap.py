"""The balance heat map on the canvas: each space tinted by how often something happens there.

Values are per race (from a balance report), keyed by space id, so the map
stays right while spaces are added or removed. The texts of the spaces are printed
again over the tint: a tinted space's id dark on a light tile and white on a dark
or deeply tinted one, so the hottest spaces read as well as the rest; the grid
numbers and labels white and bold as on the board (large text, which reads on
every tint). Tiles, texts and lines are those of the board's style (``BoardStyle``),
the one ``render(..., style=)`` draws the board in (the canvas draws in the default
style). On paper and in exported files the legend sits above the board; on the
canvas it is a ``HeatLegend`` pinned to the view's top-left corner, readable at any
zoom and scroll.
"""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QFontMetrics,
    QLinearGradient,
    QPainter,
    QPaintEvent,
    QPen,
    QPolygonF,
)
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from trackside.editor.canvas.items import Z_SPACE
from trackside.editor.canvas.painting import (
    DEFAULT_STYLE,
    BoardStyle,
    badge_places,
    paint_label,
    paint_line,
    paint_space_texts,
)
from trackside.engine.track.model import Space, Track

COOL = QColor(255, 230, 80, 70)
HOT = QColor(220, 30, 30, 210)
# An id over a tinted space: black or white, whichever contrasts more. With these two
# (and no greyer), one reads at 4.58:1 or better on any tile, above the 4.5:1 that
# WCAG 2 asks of small text.
DARK_TEXT, LIGHT_TEXT = QColor("#000000"), QColor("#ffffff")
LEGEND_W, LEGEND_H = 150.0, 8.0  # mm
LEGEND_MARGIN = 8  # px between the canvas corner and the on-screen legend


def _gradient_bar(painter: QPainter, bar: QRectF) -> None:
    gradient = QLinearGradient(bar.topLeft(), bar.topRight())
    gradient.setColorAt(0, heat_colour(0))
    gradient.setColorAt(1, heat_colour(1))
    painter.setBrush(QBrush(gradient))
    painter.drawRect(bar)


def heat_colour(fraction: float) -> QColor:
    """The tint for a value at ``fraction`` of the largest (0 to 1)."""
    f = max(0.0, min(1.0, fraction))
    return QColor(
        round(COOL.red() + (HOT.red() - COOL.red()) * f),
        round(COOL.green() + (HOT.green() - COOL.green()) * f),
        round(COOL.blue() + (HOT.blue() - COOL.blue()) * f),
        round(COOL.alpha() + (HOT.alpha() - COOL.alpha()) * f),
    )


def tile_colour(under: QColor, tint: QColor) -> QColor:
    """The opaque colour of ``tint`` (with its alpha) laid over ``under``."""
    a = tint.alphaF()
    return QColor.fromRgbF(
        tint.redF() * a + under.redF() * (1 - a),
        tint.greenF() * a + under.greenF() * (1 - a),
        tint.blueF() * a + under.blueF() * (1 - a),
    )


def luminance(colour: QColor) -> float:
    """The relative luminance of ``colour`` (0 black to 1 white), as WCAG 2 defines it."""

    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    return (
        0.2126 * linear(colour.redF())
        + 0.7152 * linear(colour.greenF())
        + 0.0722 * linear(colour.blueF())
    )


def contrast(a: QColor, b: QColor) -> float:
    """The WCAG 2 contrast ratio of two colours: 1 (none) to 21 (black on white)."""
    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def text_colour(tile: QColor) -> QColor:
    """Black or white, whichever reads better on ``tile``."""
    return max((LIGHT_TEXT, DARK_TEXT), key=lambda text: contrast(text, tile))


class HeatMap:
    """Space outlines with their values, ready to paint (on the canvas or into a file)
    over a board painted in ``style``: the lane shades under the tints, the texts and
    the lines printed again over them are that style's."""

    def __init__(
        self,
        track: Track,
        values: dict[str, float],
        title: str,
        style: BoardStyle = DEFAULT_STYLE,
    ):
        self.values, self.title, self.style = dict(values), title, style
        self.peak = max(values.values(), default=0.0)
        self.polygons = [
            (QPolygonF([QPointF(x, y) for x, y in space.corners]), values.get(space.id, 0.0))
            for space in track.spaces
            if space.corners
        ]
        # The texts of the spaces, drawn again over the tint (and, in files, the lines
        # and labels of the board), so that the map hides none of them: each with the
        # style it is printed in, worked out once here rather than at every repaint.
        slots = {sid: n for n, sid in enumerate(track.start_grid, 1)}
        self.texts: list[tuple[Space, int | None, BoardStyle]] = []
        for space in (space for space in track.spaces if space.corners):
            slot, tile = slots.pop(space.id, None), self.tile(space)
            if tile is None and slot is None and not space.label:
                continue  # untinted: its id reads as the board printed it
            shown = style
            if tile is not None:
                shown = replace(style, id_text=text_colour(tile).name())
            self.texts.append((space, slot, shown))
        self.lines = [*track.betting_lines, track.finish_line]
        self.labels = list(track.labels)
        rect = QRectF()
        for polygon, _v in self.polygons:
            rect = rect.united(polygon.boundingRect())
        self.rect = rect

    def tile(self, space: Space) -> QColor | None:
        """The colour ``space`` shows under the map (its lane's shade under its tint);
        None when it is not tinted."""
        value = self.values.get(space.id, 0.0)
        if value <= 0:
            return None
        tint = heat_colour(value / (self.peak or 1.0))
        return tile_colour(self.style.lane_colour(space.lane), tint)

    def legend_rect(self) -> QRectF:
        """Where the legend is drawn: above the board's top-left corner."""
        return QRectF(self.rect.left(), self.rect.top() - 36, LEGEND_W, 32)

    def bounds(self) -> QRectF:
        """Everything painted: the tinted spaces and the legend."""
        return self.rect.united(self.legend_rect()).adjusted(-2, -2, 2, 2)

    def paint(
        self,
        painter: QPainter,
        legend: bool = True,
        show_ids: bool = False,
        pixels_per_mm: float | None = None,
    ) -> None:
        """Tint each space by its value, print the grid numbers and space labels again
        over the tint (where the board under it prints them: with ``show_ids`` and
        ``pixels_per_mm`` as it was painted), then (unless ``legend`` is False: the
        canvas shows the legend in its corner and draws the lines above the map) the
        lines, labels and legend."""
        painter.save()
        painter.setPen(Qt.PenStyle.NoPen)
        peak = self.peak or 1.0
        for polygon, value in self.polygons:
            if value > 0:
                painter.setBrush(QBrush(heat_colour(value / peak)))
                painter.drawPolygon(polygon)
        for space, slot, style in self.texts:
            paint_space_texts(
                painter,
                space,
                style,
                grid_slot=slot,
                show_id=show_ids,
                pixels_per_mm=pixels_per_mm,
            )
        if legend:
            places = badge_places(self.lines, self.style)
            for k, segment in enumerate(self.lines):
                paint_line(painter, segment, k, self.style, places[k] if k < len(places) else None)
            for label in self.labels:
                paint_label(painter, label, self.style)
            self._paint_legend(painter)
        painter.restore()

    def _paint_legend(self, painter: QPainter) -> None:
        box = self.legend_rect()
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QColor(255, 255, 255, 220))
        painter.drawRoundedRect(box, 2, 2)
        bar = QRectF(box.left() + 4, box.top() + 13, LEGEND_W - 8, LEGEND_H)
        _gradient_bar(painter, bar)
        painter.setPen(QPen(QColor(30, 30, 30)))
        font = QFont(painter.font())
        font.setPointSizeF(4.0)
        painter.setFont(font)
        left = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter
        painter.drawText(QRectF(box.left() + 4, box.top() + 2, LEGEND_W - 8, 10), left, self.title)
        below = bar.bottom() + 1
        painter.drawText(QRectF(bar.left(), below, 30, 9), Qt.AlignmentFlag.AlignLeft, "0")
        painter.drawText(
            QRectF(bar.right() - 40, below, 40, 9),
            Qt.AlignmentFlag.AlignRight,
            f"{self.peak:.2f}",
        )


class HeatMapItem(QGraphicsItem):
    """The heat map on the canvas; hidden until a report is shown."""

    def __init__(self) -> None:
        super().__init__()
        self.setZValue(Z_SPACE + 1)  # over the spaces, under the lines and overlays
        self.setVisible(False)
        self.map: HeatMap | None = None

    @property
    def values(self) -> dict[str, float]:
        return self.map.values if self.map else {}

    @property
    def title(self) -> str:
        return self.map.title if self.map else ""

    def show_values(self, track: Track, values: dict[str, float], title: str) -> None:
        """Tint ``track``'s spaces by ``values`` (per space id); ``title`` heads the legend."""
        self.prepareGeometryChange()
        self.map = HeatMap(track, values, title)
        self.update()

    def follow(self, track: Track) -> None:
        """Redraw over the track's current spaces (after an edit), same values; a hidden
        map waits until it is shown again (``show_values``)."""
        if self.map is not None and self.isVisible():
            self.show_values(track, self.map.values, self.map.title)

    def boundingRect(self) -> QRectF:
        return self.map.rect.adjusted(-2, -2, 2, 2) if self.map else QRectF()

    def paint(
        self,
        painter: QPainter,
        option: QStyleOptionGraphicsItem,
        widget: QWidget | None = None,
    ) -> None:
        if self.map is not None:
            # As the spaces under it paint their texts (ids shown, none too small to read).
            detail = QStyleOptionGraphicsItem.levelOfDetailFromTransform(painter.worldTransform())
            self.map.paint(painter, legend=False, show_ids=True, pixels_per_mm=detail)


class HeatLegend(QWidget):
    """The heat map's legend on screen: a small panel in the canvas's top-left corner.

    A child of the view (not of its viewport), so scrolling never moves it and
    zooming never changes its size; it lets the pointer through to the canvas.
    """

    def __init__(self, view: QWidget) -> None:
        super().__init__(view)
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.title = ""
        self.peak = 0.0
        self.hide()

    def show_legend(self, title: str, peak: float, corner: QPointF) -> None:
        """Show ``title`` over the colour bar from 0 to ``peak``, its top-left at ``corner``
        (view pixels) plus a margin."""
        self.title, self.peak = title, peak
        metrics = QFontMetrics(self.font())
        line = metrics.height()
        width = max(220, metrics.horizontalAdvance(title) + 16)
        self.resize(width, 3 * line + 14)
        self.move(round(corner.x()) + LEGEND_MARGIN, round(corner.y()) + LEGEND_MARGIN)
        self.show()
        self.raise_()
        self.update()

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        box = QRectF(self.rect()).adjusted(0.5, 0.5, -0.5, -0.5)
        painter.setPen(QPen(QColor(0, 0, 0, 90)))
        painter.setBrush(QColor(255, 255, 255, 230))
        painter.drawRoundedRect(box, 4, 4)
        line = QFontMetrics(self.font()).height()
        inner = box.adjusted(8, 4, -8, -4)
        painter.setPen(QPen(QColor(30, 30, 30)))
        left = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter
        painter.drawText(QRectF(inner.left(), inner.top(), inner.width(), line), left, self.title)
        bar = QRectF(inner.left(), inner.top() + line + 3, inner.width(), line * 0.7)
        painter.setPen(Qt.PenStyle.NoPen)
        _gradient_bar(painter, bar)
        painter.setPen(QPen(QColor(30, 30, 30)))
        below = QRectF(inner.left(), bar.bottom() + 2, inner.width(), line)
        painter.drawText(below, left, "0")
        right = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
        painter.drawText(below, right, f"{self.peak:.2f}")
        painter.end()
