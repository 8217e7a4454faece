"""Lists and tables that are as tall as their rows, for panels that scroll as a whole.

A list with its own scroll bar inside a dock that scrolls too shows a few lines
of each and hides the rest at an edge; these grow to their content instead, so
the dock's one scroll bar moves everything together.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QAbstractItemView, QListWidget, QSizePolicy, QTableWidget


class WholeList(QListWidget):
    """A list with wrapped rows that is as tall as all of them, at any width."""

    def __init__(self) -> None:
        super().__init__()
        self.setWordWrap(True)
        self.setResizeMode(QListWidget.ResizeMode.Adjust)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        model = self.model()
        model.rowsInserted.connect(self.fit)
        model.rowsRemoved.connect(self.fit)
        model.modelReset.connect(self.fit)
        self.fit()

    def content_height(self) -> int:
        """The height of every row as laid out at the present width."""
        self.doItemsLayout()
        rows = sum(self.visualItemRect(self.item(r)).height() for r in range(self.count()))
        return rows + 2 * self.spacing() * self.count()

    def fit(self, *_args: object) -> None:
        """Take the height of the rows (one empty line's worth when there are none)."""
        height = self.content_height() if self.count() else self.fontMetrics().height()
        self.setFixedHeight(height + 2 * self.frameWidth() + 2)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if event.size().width() != event.oldSize().width():
            self.fit()  # wrapped rows are taller when narrower


class WholeTable(QTableWidget):
    """A table as tall as its header and rows; call ``fit`` after filling it."""

    def __init__(self, headers: list[str]) -> None:
        super().__init__(0, len(headers))
        self.setHorizontalHeaderLabels(headers)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        self.fit()

    def fit(self) -> None:
        """Take the height of the header, the rows and, when the columns are wider than
        the table, the horizontal scroll bar."""
        height = self.verticalHeader().length() + 2 * self.frameWidth()
        if self.horizontalHeader().isVisible():
            height += self.horizontalHeader().sizeHint().height()
        if self.horizontalHeader().length() > self.viewport().width():
            height += self.horizontalScrollBar().sizeHint().height()
        self.setFixedHeight(height)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if event.size().width() != event.oldSize().width():
            self.fit()
