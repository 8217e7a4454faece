"""Walking a QTreeWidget's rows (Qt hands them out one index at a time, maybe None)."""

from __future__ import annotations

from PySide6.QtWidgets import QTreeWidget, QTreeWidgetItem


def top_level_items(tree: QTreeWidget) -> list[QTreeWidgetItem]:
    """The tree's top-level rows, in order."""
    rows = (tree.topLevelItem(k) for k in range(tree.topLevelItemCount()))
    return [row for row in rows if row is not None]


def children(item: QTreeWidgetItem) -> list[QTreeWidgetItem]:
    """A row's children, in order."""
    rows = (item.child(k) for k in range(item.childCount()))
    return [row for row in rows if row is not None]
