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
        # A height that did not change brings no resize, so the rows' new extent would
        # not reach the scroll range: a stale range scrolls the rows it has room for.
        self.updateGeometries()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if event.size().width() != event.oldSize().width():
            self.fit()  # wrapped rows are taller when narrower


class WholeTable(QTableWidget):
    """A table as tall as its header and rows; call ``fit`` after filling it.

    With ``most`` it shows at most that many rows and scrolls the rest; with
    ``fewest`` it keeps room for that many even when it has fewer.
    """

    def __init__(self, headers: list[str], fewest: int = 0, most: int | None = None) -> None:
        super().__init__(0, len(headers))
        self.fewest = fewest
        self.most = most
        self.setHorizontalHeaderLabels(headers)
        if most is None:
            self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        model = self.model()
        model.rowsInserted.connect(self.fit)
        model.rowsRemoved.connect(self.fit)
        # A column that wraps its words makes rows taller when it narrows: measure again.
        self.horizontalHeader().sectionResized.connect(self._columns_resized)
        self.fit()

    def _columns_resized(self, *_args: object) -> None:
        if self.wordWrap() and self.rowCount():
            self.resizeRowsToContents()
            self.fit()

    def rows_height(self) -> int:
        """The height of the rows shown: all of them, within ``fewest`` and ``most``."""
        header = self.verticalHeader()
        rows = self.rowCount()
        shown = max(self.fewest, rows if self.most is None else min(rows, self.most))
        if shown <= rows:
            return sum(header.sectionSize(r) for r in range(shown))
        return header.length() + (shown - rows) * header.defaultSectionSize()

    def fit(self, *_args: object) -> None:
        """Take the height of the header, the rows and, when the columns are wider than
        the table, the horizontal scroll bar."""
        height = self.rows_height() + 2 * self.frameWidth()
        if self.horizontalHeader().isVisible():
            height += self.horizontalHeader().sizeHint().height()
        if self.horizontalHeader().length() > self.viewport().width():
            height += self.horizontalScrollBar().sizeHint().height()
        self.setFixedHeight(height)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if event.size().width() != event.oldSize().width():
            self.fit()
