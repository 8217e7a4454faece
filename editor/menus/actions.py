"""The one maker of the editor's menu entries: a ``QAction`` with its words, keys,
what the status bar and the tooltip say, and what it does; and the word an entry's
keys say when it is off (``say_why_when_off``)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction, QKeySequence, QShortcut
from PySide6.QtWidgets import QWidget

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


def say_why_when_off(
    action: QAction,
    window: QWidget,
    why: Callable[[], str],
    say: Callable[[str], None],
) -> QShortcut:
    """Make ``action``'s keys, pressed in ``window`` while the action is off, ``say``
    why it is off (``why()``, the words of its tooltip then; nothing when that is
    empty). While it is on, its keys do what they always did."""
    # Qt 6 drops the keys of a disabled action without a word (its shortcut is off in
    # the shortcut map, the key goes nowhere). A shortcut of the same keys, on exactly
    # while the action is off, takes them then; both are never on at once, so no key
    # is ever ambiguous.
    keys = QShortcut(window)
    keys.setContext(action.shortcutContext())
    keys.setAutoRepeat(False)

    def follow() -> None:
        if keys.keys() != action.shortcuts():
            keys.setKeys(action.shortcuts())
        keys.setEnabled(action.isVisible() and not action.isEnabled())

    def tell() -> None:
        text = why()
        if text:
            say(text)

    action.changed.connect(follow)
    keys.activated.connect(tell)
    follow()
    return keys
