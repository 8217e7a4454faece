"""How cars, card rows and colour chips look in play mode: one palette, one painter."""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPainterPath, QPen, QPolygonF, QTransform

CAR_COLOURS: dict[str, str] = {
    "black": "#202124",
    "blue": "#2f6fdf",
    "green": "#2e9d4a",
    "yellow": "#f2cc2e",
    "orange": "#f08a24",
    "red": "#d93a32",
    "wild": "#f4f4f0",
}
# Text on a colour: dark on the light ones so numbers stay readable.
INK: dict[str, str] = {"yellow": "#1b1b1b", "orange": "#1b1b1b", "wild": "#1b1b1b"}


def car_colour(colour: str) -> QColor:
    """The fill of a car (or a card row) of this colour; WILD is white."""
    return QColor(CAR_COLOURS.get(colour, "#888888"))


def ink(colour: str) -> QColor:
    """A readable text colour on ``car_colour(colour)``."""
    return QColor(INK.get(colour, "#ffffff"))


CAR_WIDTH = 0.52  # a car's body is this share of its length wide
WHEEL_OUT = 0.14  # its wheels stand out of the body by this share of its width, each side


def car_footprint(centre: QPointF, heading_deg: float, length: float) -> QPolygonF:
    """The ground a car ``length`` long covers (body and wheels), nose along ``heading_deg``."""
    half_l = length / 2
    half_w = length * CAR_WIDTH * (0.5 + WHEEL_OUT)
    turn = QTransform().translate(centre.x(), centre.y()).rotate(heading_deg)
    return turn.map(
        QPolygonF(
            [
                QPointF(-half_l, -half_w),
                QPointF(half_l, -half_w),
                QPointF(half_l, half_w),
                QPointF(-half_l, half_w),
            ]
        )
    )


def paint_car(
    painter: QPainter,
    centre: QPointF,
    heading_deg: float,
    length: float,
    colour: str,
    label: str = "",
    highlight: bool = False,
) -> None:
    """A race car seen from above, nose along ``heading_deg``, ``length`` long.

    ``label`` (an owner's initial) is written on the body; ``highlight`` rings
    the car that is about to move.
    """
    w = length * CAR_WIDTH
    painter.save()
    painter.translate(centre)
    if highlight:
        painter.setPen(QPen(QColor("#ffe14d"), length * 0.08))
        painter.setBrush(QColor(255, 225, 77, 70))
        painter.drawEllipse(QPointF(0, 0), length * 0.72, length * 0.72)
    painter.rotate(heading_deg)
    body = QPainterPath()
    body.addRoundedRect(QRectF(-length / 2, -w / 2, length, w), w * 0.35, w * 0.35)
    painter.setPen(QPen(QColor("#f4f4f0"), length * 0.05))
    painter.setBrush(car_colour(colour))
    # Wheels first, so the body covers their inner halves.
    wheel = QRectF(-length * 0.12, -w * WHEEL_OUT, length * 0.24, w * 2 * WHEEL_OUT)
    painter.save()
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(QColor("#111111"))
    for dx in (-length * 0.3, length * 0.3):
        for dy in (-w / 2, w / 2):
            painter.drawRoundedRect(wheel.translated(dx, dy), 1e-3 + w * 0.05, w * 0.05)
    painter.restore()
    painter.drawPath(body)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(QColor(255, 255, 255, 110))
    painter.drawRoundedRect(
        QRectF(length * 0.30, -w * 0.30, length * 0.14, w * 0.60), w * 0.08, w * 0.08
    )  # the front wing marks the nose
    painter.restore()
    if label:
        from trackside.editor.canvas.painting import draw_text

        text = ink(colour)
        halo = QColor("#111111") if text.lightness() > 128 else QColor("#f4f4f0")
        draw_text(
            painter,
            label,
            centre,
            w * (0.5 if len(label) == 1 else 0.4),
            text,
            bold=True,
            halo=halo,
        )
