"""Each menu entry is listed once, and its keys read as keys: what the menus show a
designer, through the real window's menu bar."""

from __future__ import annotations

from collections import Counter

import pytest
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QMenu

pytestmark = pytest.mark.gui


def entries(menu: QMenu) -> list:
    """Every entry of ``menu`` and its submenus (separators and submenus left out)."""
    found = []
    for action in menu.actions():
        if action.menu():
            found += entries(action.menu())
        elif not action.isSeparator():
            found.append(action)
    return found


def top_menus(window) -> dict[str, QMenu]:
    return {a.text().replace("&", ""): a.menu() for a in window.menuBar().actions() if a.menu()}


def test_no_menu_lists_an_entry_twice(window):
    """The File menu listed Print the Grass among the print entries and again at the
    end of its Export submenu: one setting shown twice, which reads as two."""
    for title, menu in top_menus(window).items():
        twice = [a.text() for a, n in Counter(entries(menu)).items() if n > 1]
        assert not twice, (title, twice)
    file_menu = top_menus(window)["File"]
    assert window.print_menu.act_grass in entries(file_menu)


def test_a_key_alone_is_a_letter_a_digit_or_a_named_key(window):
    """Snap's key was "%", shown as a stray sign in the menu and its tooltip (Shift and
    5 on some keyboards, elsewhere on others); a key without a modifier reads as what
    is printed on a key."""
    for menu in top_menus(window).values():
        for action in entries(menu):
            for sequence in action.shortcuts():
                text = sequence.toString(QKeySequence.SequenceFormat.NativeText)
                if "+" not in text and len(text) == 1:
                    assert text.isalnum(), (action.text(), text)
    snap = window.act_snap
    keys = snap.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
    assert keys == "Shift+S" and f"({keys})" in snap.toolTip()
    assert snap in entries(top_menus(window)["View"])
