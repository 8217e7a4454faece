"""The Balance panel's tables: columns that fit the dock (a name is never cut short),
and the change cells that mark a change within noise."""

from __future__ import annotations

import textwrap

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QFontMetrics, QResizeEvent
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableWidgetItem

from trackside.editor.panels.fixes import NOISE_COLOUR
from trackside.editor.widgets.whole_views import WholeTable
from trackside.engine.balance import Change
from trackside.engine.balance.compare import (
    NOISE_MARK,
    change_figure,
    change_figures,
    change_words,
    has_range,
)

UNFAIR = QColor("#ff6b5e")  # readable on light and dark themes
# What a change's interval says of noise, under the change in its cell's tooltip.
TIP_WIDTH = 80  # characters of a tooltip line of words
BEYOND_NOISE = "The 95% interval (in brackets) does not include 0: a real change, beyond noise."
WITHIN_NOISE = (
    "The 95% interval (in brackets) includes 0: this change could be chance (within noise)."
)


class FigureTable(WholeTable):
    """A table as tall as its rows whose columns share the panel's width: each as wide as
    its cells on one line, the ``stretch`` column (of words) taking what is left. When
    that is less than its longest word, the columns of figures wrap at their spaces
    ("31.6%" over its interval) to give it room, so no name is cut short."""

    def __init__(self, headers: list[str], stretch: int) -> None:
        super().__init__(headers)
        self.stretch = stretch
        self.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)

    def fit_columns(self) -> None:
        """Share the viewport's width among the columns, as the class says."""
        header = self.horizontalHeader()
        columns = range(self.columnCount())
        one_line = [self._widest(c, whole=True) for c in columns]
        least = [self._widest(c, whole=False) for c in columns]
        widths = list(one_line)
        widths[self.stretch] = least[self.stretch]
        short = sum(widths) - self.viewport().width()
        for c in sorted(columns, key=lambda c: least[c] - one_line[c]):  # most slack first
            if short <= 0:
                break
            if c != self.stretch:
                give = min(short, one_line[c] - least[c])
                widths[c] -= give
                short -= give
        widths[self.stretch] += max(0, -short)
        for c in columns:
            header.resizeSection(c, widths[c])
        self.resizeRowsToContents()
        self.fit()

    def _widest(self, column: int, whole: bool) -> int:
        """The width ``column`` needs: for its heading and each cell on one line
        (``whole``), else for its heading and each cell's longest word."""
        heading = self.horizontalHeader().sectionSizeFromContents(column).width()
        texts = [
            (QFontMetrics(item.font()), item.text())
            for r in range(self.rowCount())
            if (item := self.item(r, column)) is not None and item.text()
        ]
        if not texts:
            return heading
        one_line = self.sizeHintForColumn(column)
        if whole:
            return max(heading, one_line)
        # Qt's own margins and grid line: what its one-line width adds to the text's
        # (its widest line: a cell may hold two, as money over its interval does).
        margin = one_line - max(
            metrics.horizontalAdvance(line) for metrics, text in texts for line in text.splitlines()
        )
        words = max(metrics.horizontalAdvance(w) for metrics, text in texts for w in text.split())
        return max(heading, margin + words)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if event.size().width() != event.oldSize().width():
            self.fit_columns()


def figure_table(headers: list[str], stretch: int) -> FigureTable:
    """A table of figures whose ``stretch`` column (of words) takes what is left of the
    panel and wraps, and that is as tall as its rows."""
    table = FigureTable(headers, stretch)
    table.verticalHeader().setVisible(False)
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    table.setWordWrap(True)
    table.horizontalHeader().setMinimumSectionSize(24)
    table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    return table


def fill_rows(table: FigureTable, rows: list[list[QTableWidgetItem]]) -> None:
    """Put the rows of cells into ``table``, fit it to them and show it."""
    table.setRowCount(len(rows))
    for r, cells in enumerate(rows):
        for column, item in enumerate(cells):
            table.setItem(r, column, item)
    table.show()
    table.fit_columns()


def change_cell(change: Change | None) -> QTableWidgetItem:
    """A Change cell: the signed change in its unit ("+7.3 pt": a share's change in
    percentage points, as "+7.3%" would read as a change of 7.3% of the share;
    "+$0.6M"), grey with the noise mark when a two-sided test at 95% cannot tell it
    from chance; empty with nothing to compare. Its text and its tooltip's change come
    from the same ``change_figure``. The tooltip gives the figures before and after and
    the change with its 95% interval, as ``simulate --against`` prints it (the cell has
    no room for the interval at the dock's usual width)."""
    if change is None:
        return QTableWidgetItem("")
    text = change_figure(change, short=True)
    item = QTableWidgetItem(f"{NOISE_MARK} {text}" if not change.significant else text)
    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
    item.setToolTip(change_tip(change))
    if not change.significant:
        item.setForeground(NOISE_COLOUR)
    return item


def change_tip(change: Change) -> str:
    """The tooltip of a Change cell: the figures before and after, the change with its
    95% interval in brackets (when it has one), and what the interval says of noise, or
    how a change without one is judged (the balance's, by the grid slots' shares)."""
    tip = f"{change_figures(change)}: {change_words(change)}"
    if change.judged:  # no interval of its own (the balance): how it is judged instead
        # Wrapped: on one line it ran across the whole window.
        return f"{tip}\n{textwrap.fill(change.judged, TIP_WIDTH)}"
    if not has_range(change):
        return tip + ("" if change.significant else ", within noise (95%)")
    if change.significant:
        return f"{tip}\n{BEYOND_NOISE}"
    return f"{tip}\n{WITHIN_NOISE}"


def marked(item: QTableWidgetItem, tip: str) -> QTableWidgetItem:
    """A value beyond chance: bold, in the warning colour, with why in its tooltip."""
    item.setForeground(UNFAIR)
    font = item.font()
    font.setBold(True)
    item.setFont(font)
    item.setToolTip(f"{item.toolTip()}: {tip}" if item.toolTip() else tip)
    return item
