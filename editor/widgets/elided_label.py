"""A one-line label that shortens its text with an ellipsis instead of being cut off."""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import QLabel, QWidget


class ElidedLabel(QLabel):
    """Shows as much of its text as fits, ending in '…'; the whole text is its tooltip."""

    def __init__(self, text: str = "", parent: QWidget | None = None):
        super().__init__(text, parent)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setToolTip(text)

    def setText(self, text: str) -> None:
        super().setText(text)
        self.setToolTip(text)

    def minimumSizeHint(self) -> QSize:
        # Never ask for the whole text's width: the status bar gives what it can spare.
        return QSize(self.minimumWidth(), super().minimumSizeHint().height())

    def shown_text(self) -> str:
        """The text as drawn at the current width."""
        return self.fontMetrics().elidedText(
            self.text(), Qt.TextElideMode.ElideRight, self.contentsRect().width()
        )

    def paintEvent(self, event) -> None:
        painter = QPainter(self)
        painter.setPen(self.palette().color(self.foregroundRole()))
        painter.drawText(
            self.contentsRect(),
            int(self.alignment() | Qt.AlignmentFlag.AlignVCenter),
            self.shown_text(),
        )
