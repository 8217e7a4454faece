"""The one maker of the editor's menu entries: a ``QAction`` with its words, keys,
what the status bar and the tooltip say, and what it does."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction, QKeySequence

Keys = str | QKeySequence | QKeySequence.StandardKey


def make_action(
    parent: QObject,
    text: str,
    slot: Callable[..., object],
    keys: Keys | None = None,
    tip: str = "",
    *,
    named_tip: bool = False,
    checkable: bool = False,
    checked: bool = False,
    in_context_menu: bool = False,
) -> QAction:
    """An entry called ``text`` that calls ``slot`` when chosen.

    ``keys`` are its shortcut (a platform's standard keys too); ``tip`` shows in the
    status bar (its name when none); ``named_tip`` puts it in the tooltip under the
    entry's name and keys ("Print (Ctrl+P)" over the tip; the tip alone for an entry
    without keys). A ``checkable`` entry starts ``checked`` and calls ``slot`` with
    its state whenever it changes; any other calls it with nothing, or with its state
    when it is made checkable later (chosen only, not set by the program).
    ``in_context_menu`` shows its keys in right-click menus too, where some
    platforms hide them.
    """
    action = QAction(text, parent)
    if isinstance(keys, QKeySequence.StandardKey):
        action.setShortcuts(keys)
    elif keys is not None:
        action.setShortcut(QKeySequence(keys))
    action.setStatusTip(tip or text.replace("&", ""))
    if named_tip:
        shown = action.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
        name = text.replace("&", "").rstrip("…")
        action.setToolTip(f"{name} ({shown})\n{tip}" if shown else tip)
    if in_context_menu:
        action.setShortcutVisibleInContextMenu(True)
    if checkable:
        action.setCheckable(True)
        action.setChecked(checked)
        action.toggled.connect(slot)
    else:
        action.triggered.connect(
            lambda state=False: slot(state) if action.isCheckable() else slot()
        )
    return action
