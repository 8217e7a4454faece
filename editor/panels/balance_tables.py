"""The Balance panel's tables: columns that fit the dock, and the change cells that
mark a change within noise."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableWidgetItem

from trackside.editor.panels.fixes import NOISE_COLOUR
from trackside.editor.widgets.whole_views import WholeTable
from trackside.engine.balance import Change
from trackside.engine.balance.compare import NOISE_MARK
from trackside.engine.balance.wording import shown_change
from trackside.engine.text import MONEY_DIGITS, money

UNFAIR = QColor("#ff6b5e")  # readable on light and dark themes


def figure_table(headers: list[str], stretch: int | None = None) -> WholeTable:
    """A table as tall as its rows whose columns fit the panel: each as wide as its
    contents, but ``stretch`` (a column of words) takes what is left and wraps."""
    table = WholeTable(headers)
    table.verticalHeader().setVisible(False)
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    table.setWordWrap(True)
    header = table.horizontalHeader()
    header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    header.setMinimumSectionSize(24)
    if stretch is None:
        header.setStretchLastSection(True)
    else:
        header.setSectionResizeMode(stretch, QHeaderView.ResizeMode.Stretch)
    table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    return table


def fill_rows(table: WholeTable, rows: list[list[QTableWidgetItem]]) -> None:
    """Put the rows of cells into ``table``, fit it to them and show it."""
    table.setRowCount(len(rows))
    for r, cells in enumerate(rows):
        for column, item in enumerate(cells):
            table.setItem(r, column, item)
    table.resizeRowsToContents()
    table.fit()
    table.show()


def change_item(
    change: Change | None,
    scale: float = 1.0,
    unit: str = "",
    digits: int = 2,
    of: str | None = None,
) -> QTableWidgetItem:
    """A Change cell: the signed change (``unit`` after it; ``of`` after each figure of
    its tooltip, when the change is in another unit than the figures), grey with the
    noise mark when a two-sided test at 95% cannot tell it from chance; empty with
    nothing to compare."""
    if change is None:
        return QTableWidgetItem("")
    was, now = change.before * scale, change.after * scale
    text = f"{shown_change(was, now, digits):+.{digits}f}{unit}"
    of = unit if of is None else of
    return _change_cell(change, text, f"{was:.{digits}f}{of} → {now:.{digits}f}{of}")


def share_change(change: Change | None) -> QTableWidgetItem:
    """The change of a share, in percentage points ("+7.3 pt": "+7.3%" reads as a
    change of 7.3% of the share)."""
    return change_item(change, 100, " pt", 1, "%")


def money_change(change: Change | None) -> QTableWidgetItem:
    """The change of an amount of money, as every money figure is shown: "+$0.6M"."""
    if change is None:
        return QTableWidgetItem("")
    delta = shown_change(change.before, change.after, MONEY_DIGITS)
    text = money(delta, signed=True)
    return _change_cell(change, text, f"{money(change.before)} → {money(change.after)}")


def _change_cell(change: Change, text: str, figures: str) -> QTableWidgetItem:
    """A change shown as ``text``, its tooltip the ``figures`` before and after."""
    item = QTableWidgetItem(f"{NOISE_MARK} {text}" if not change.significant else text)
    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
    item.setToolTip(f"{figures}: {text}" + ("" if change.significant else ", within noise (95%)"))
    if not change.significant:
        item.setForeground(NOISE_COLOUR)
    return item


def marked(item: QTableWidgetItem, tip: str) -> QTableWidgetItem:
    """A value beyond chance: bold, in the warning colour, with why in its tooltip."""
    item.setForeground(UNFAIR)
    font = item.font()
    font.setBold(True)
    item.setFont(font)
    item.setToolTip(f"{item.toolTip()}: {tip}" if item.toolTip() else tip)
    return item
