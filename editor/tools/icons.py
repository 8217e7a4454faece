"""Tool icons drawn with QPainter, so the app needs no image files."""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QIcon, QPainter, QPen, QPixmap, QPolygonF

SIZE = 64
INK = QColor("#d8dde5")
ACCENT = QColor("#2f8cff")
GOLD = QColor("#f2c230")


def _pen(colour: QColor, width: float) -> QPen:
    pen = QPen(colour, width)
    pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
    pen.setCapStyle(Qt.PenCapStyle.RoundCap)
    return pen


def _select(p: QPainter) -> None:
    p.setPen(_pen(QColor("#101418"), 3))
    p.setBrush(INK)
    p.drawPolygon(
        QPolygonF(
            [
                QPointF(18, 8),
                QPointF(18, 52),
                QPointF(29, 41),
                QPointF(37, 58),
                QPointF(44, 55),
                QPointF(36, 38),
                QPointF(51, 38),
            ]
        )
    )


def _draw(p: QPainter) -> None:
    points = [QPointF(10, 48), QPointF(22, 12), QPointF(54, 18), QPointF(46, 54)]
    p.setPen(_pen(INK, 4))
    p.setBrush(QColor(47, 140, 255, 90))
    p.drawPolygon(QPolygonF(points))
    p.setPen(_pen(ACCENT, 2))
    p.setBrush(QColor("#ffffff"))
    for pt in points:
        p.drawEllipse(pt, 5, 5)


def _corners(p: QPainter) -> None:
    points = [QPointF(12, 50), QPointF(14, 14), QPointF(50, 12), QPointF(52, 50)]
    p.setPen(_pen(INK, 3))
    p.setBrush(Qt.BrushStyle.NoBrush)
    p.drawPolygon(QPolygonF(points))
    p.setPen(_pen(QColor("#101418"), 2))
    for k, pt in enumerate(points):
        p.setBrush(QColor("#ff3df2") if k == 2 else QColor("#ffffff"))
        p.drawRect(QRectF(pt.x() - 6, pt.y() - 6, 12, 12))


def _grid(p: QPainter) -> None:
    p.setPen(_pen(INK, 2))
    for k, (x, y) in enumerate(((8, 8), (34, 18), (8, 34), (34, 44))):
        p.setBrush(QColor("#4b4f55"))
        p.drawRect(QRectF(x, y, 22, 14))
        font = QFont("DejaVu Sans", 10, QFont.Weight.Bold)
        p.setFont(font)
        p.setPen(GOLD if k == 0 else INK)
        p.drawText(QRectF(x, y, 22, 14), Qt.AlignmentFlag.AlignCenter, str(k + 1))
        p.setPen(_pen(INK, 2))


def _betting(p: QPainter) -> None:
    p.setPen(_pen(QColor("#101418"), 7))
    p.drawLine(QPointF(12, 52), QPointF(52, 12))
    p.setPen(_pen(GOLD, 4))
    p.drawLine(QPointF(12, 52), QPointF(52, 12))
    p.setPen(_pen(QColor("#101418"), 2))
    p.setBrush(GOLD)
    p.drawEllipse(QPointF(20, 20), 12, 12)
    p.setFont(QFont("DejaVu Sans", 13, QFont.Weight.Bold))
    p.setPen(QColor("#1a1a1a"))
    p.drawText(QRectF(8, 8, 24, 24), Qt.AlignmentFlag.AlignCenter, "1")


def _finish(p: QPainter) -> None:
    p.setPen(Qt.PenStyle.NoPen)
    q = 9
    for i in range(5):
        for j in range(4):
            p.setBrush(QColor("#f4f4f0") if (i + j) % 2 else QColor("#1b1b1b"))
            p.drawRect(QRectF(10 + i * q, 10 + j * q, q, q))
    p.setPen(_pen(INK, 2))
    p.setBrush(Qt.BrushStyle.NoBrush)
    p.drawRect(QRectF(10, 10, 5 * q, 4 * q))
    p.drawLine(QPointF(10, 10), QPointF(10, 58))


PAINTERS = {
    "select": _select,
    "draw": _draw,
    "corners": _corners,
    "grid": _grid,
    "betting": _betting,
    "finish": _finish,
}


def tool_icon(name: str, glyph: str = "") -> QIcon:
    """The icon of a tool; tools without a drawing get their glyph as text."""
    pix = QPixmap(SIZE, SIZE)
    pix.fill(Qt.GlobalColor.transparent)
    p = QPainter(pix)
    p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    paint = PAINTERS.get(name)
    if paint is not None:
        paint(p)
    else:
        p.setPen(INK)
        p.setFont(QFont("DejaVu Sans", 28, QFont.Weight.Bold))
        p.drawText(
            QRectF(0, 0, SIZE, SIZE), Qt.AlignmentFlag.AlignCenter, glyph or name[:1].upper()
        )
    p.end()
    return QIcon(pix)


def _moves(p: QPainter) -> None:
    for k, (x, y) in enumerate(((8, 24), (30, 10), (30, 38))):
        p.setPen(_pen(INK, 2))
        p.setBrush(QColor(63, 185, 80, 200) if k else QColor("#4b4f55"))
        p.drawRect(QRectF(x, y, 20, 16))
    p.setPen(_pen(ACCENT, 3))
    p.drawLine(QPointF(18, 32), QPointF(38, 18))
    p.drawLine(QPointF(18, 32), QPointF(38, 46))
    p.setBrush(QColor("#e5484d"))
    p.setPen(_pen(QColor("#101418"), 1.5))
    p.drawRoundedRect(QRectF(10, 27, 16, 10), 3, 3)


PAINTERS["moves"] = _moves


def _lanes(p: QPainter) -> None:
    from PySide6.QtGui import QPainterPath

    for k, colour in enumerate(("#4b4f55", "#5b6068", "#4b4f55")):
        path = QPainterPath()
        r = 40 - k * 9
        path.arcMoveTo(QRectF(8 - r + 40, 56 - r, 2 * r, 2 * r), 90)
        path.arcTo(QRectF(8 - r + 40, 56 - r, 2 * r, 2 * r), 90, 90)
        pen = _pen(QColor(colour), 8)
        pen.setCapStyle(Qt.PenCapStyle.FlatCap)
        p.setPen(pen)
        p.drawPath(path)
    p.setPen(_pen(QColor("#ff9a3c"), 2.5))
    p.drawLine(QPointF(48, 6), QPointF(58, 6))


PAINTERS["lanes"] = _lanes


def _racing(p: QPainter) -> None:
    from PySide6.QtGui import QPainterPath

    path = QPainterPath(QPointF(6, 46))
    path.cubicTo(QPointF(20, 6), QPointF(38, 62), QPointF(56, 18))
    p.setPen(_pen(QColor("#ff9a3c"), 4))
    p.setBrush(Qt.BrushStyle.NoBrush)
    p.drawPath(path)
    p.setPen(_pen(QColor("#101418"), 2))
    for k, pt in enumerate((QPointF(6, 46), QPointF(31, 34), QPointF(56, 18))):
        p.setBrush(QColor("#3ddc84") if k == 0 else QColor("#ffffff"))
        p.drawEllipse(pt, 5, 5)


PAINTERS["racing"] = _racing
