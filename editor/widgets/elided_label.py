"""A label of one (or a few) lines that shortens its text with an ellipsis instead of
being cut off, and whose size never follows its text."""

from __future__ import annotations

from PySide6.QtCore import QRect, QSize, Qt
from PySide6.QtGui import QPainter, QTextLayout
from PySide6.QtWidgets import QLabel, QWidget


class ElidedLabel(QLabel):
    """Shows as much of its text as fits in ``lines`` lines, ending in '…'; the whole
    text is its tooltip.

    The text is kept and painted here, not handed to ``QLabel``: a new text then
    repaints the label alone instead of laying out the whole window again, so a
    label that changes on every pointer move (the tool hint, the moves summary)
    stays cheap.
    """

    def __init__(self, text: str = "", parent: QWidget | None = None, lines: int = 1):
        super().__init__("", parent)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self._text = ""
        self._lines = max(1, lines)
        self.setText(text)

    def text(self) -> str:
        return self._text

    def setText(self, text: str) -> None:
        if text != self._text:
            self._text = text
            self.setToolTip(text)
            self.update()

    def sizeHint(self) -> QSize:
        return QSize(self.minimumWidth(), self.minimumSizeHint().height())

    def minimumSizeHint(self) -> QSize:
        # Never ask for the whole text's width: the layout gives what it can spare.
        margins = self.contentsMargins()
        height = self.fontMetrics().lineSpacing() * self._lines + margins.top() + margins.bottom()
        return QSize(self.minimumWidth(), height)

    def shown_lines(self) -> list[str]:
        """The lines as drawn at the current width, the last one elided if need be."""
        width = self.contentsRect().width()
        metrics = self.fontMetrics()
        if self._lines == 1:
            return [metrics.elidedText(self._text, Qt.TextElideMode.ElideRight, width)]
        if "\n" not in self._text and metrics.horizontalAdvance(self._text) + 2 <= width:
            return [self._text.strip()]  # fits on the first line: no layout to make
        layout = QTextLayout(self._text, self.font())
        layout.beginLayout()
        out: list[str] = []
        while len(out) < self._lines:
            line = layout.createLine()
            if not line.isValid():
                break
            line.setLineWidth(width)
            start = line.textStart()
            rest = self._text[start:] if len(out) == self._lines - 1 else ""
            out.append(rest or self._text[start : start + line.textLength()])
        layout.endLayout()
        if out:
            out[-1] = metrics.elidedText(out[-1].strip(), Qt.TextElideMode.ElideRight, width)
        return [part.rstrip() for part in out]

    def shown_text(self) -> str:
        """The text as drawn at the current width (lines joined by newlines)."""
        return "\n".join(self.shown_lines())

    def paintEvent(self, event) -> None:
        painter = QPainter(self)
        painter.setPen(self.palette().color(self.foregroundRole()))
        area = self.contentsRect()
        step = self.fontMetrics().lineSpacing()
        lines = self.shown_lines()
        top = area.top()
        if self._lines == 1:  # one line sits in the middle; more start at the top
            top += max(0, (area.height() - step) // 2)
        for k, line in enumerate(lines):
            painter.drawText(
                QRect(area.left(), top + k * step, area.width(), step),
                int(self.alignment() | Qt.AlignmentFlag.AlignVCenter),
                line,
            )
