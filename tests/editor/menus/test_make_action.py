"""One maker for every menu entry: its keys, status tip and tooltip, and what choosing
or checking it calls."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QObject
from PySide6.QtGui import QKeySequence

from trackside.editor.menus.actions import make_action

pytestmark = pytest.mark.gui


def test_an_entry_says_its_name_keys_and_tip_and_calls_its_slot(qapp):
    owner, calls = QObject(), []
    action = make_action(
        owner, "&Print…", lambda: calls.append("chosen"), "Ctrl+P", "Print it", named_tip=True
    )
    assert action.shortcut() == QKeySequence("Ctrl+P") and action.statusTip() == "Print it"
    assert action.toolTip() == "Print (Ctrl+P)\nPrint it"
    action.trigger()
    assert calls == ["chosen"]
    bare = make_action(owner, "&Quit", lambda: None, QKeySequence.StandardKey.Quit)
    assert bare.statusTip() == "Quit" and bare.shortcuts() == QKeySequence.keyBindings(
        QKeySequence.StandardKey.Quit
    )
    untold = make_action(owner, "Opacity…", lambda: None, None, "How strongly", named_tip=True)
    assert untold.toolTip() == "How strongly"


def test_a_checkable_entry_calls_with_its_state_and_one_made_so_later_only_when_chosen(qapp):
    owner, states, chosen = QObject(), [], []
    grid = make_action(owner, "Show &Grid", states.append, checkable=True, checked=True)
    grid.setChecked(False)  # set by the program: told too
    assert states == [False]
    show = make_action(owner, "&Show", chosen.append)
    show.setCheckable(True)
    show.setChecked(True)  # set by the program: not a choice
    assert chosen == []
    show.trigger()
    assert chosen == [False]
