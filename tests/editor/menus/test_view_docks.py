"""View menu's panel entries: choosing one brings its panel forward when it is hidden
or behind another tab, and hides it only when it is in view."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QLabel

pytestmark = pytest.mark.gui


def view_entry(window, dock):
    view = next(a.menu() for a in window.menuBar().actions() if a.text() == "&View")
    return next(a for a in view.actions() if a.text() == dock.windowTitle())


def docks(window):
    return [
        window.inspector_dock,
        window.issues_dock,
        window.compare_dock,
        window.history_dock,
        window.lane_dock,
        window.movement_dock,
        window.balance_dock,
    ]


def in_view(dock) -> bool:
    return dock.isVisible() and not dock.visibleRegion().isEmpty()


def test_a_panel_behind_a_tab_comes_to_the_front_and_hides_only_from_the_front(window, qtbot):
    """View > Balance hid the Balance panel when it sat as a tab behind the Inspector
    (its entry was checked): every panel's entry brings it forward instead."""
    for dock in docks(window):
        others = window.tabifiedDockWidgets(dock)
        if not others:
            continue
        others[0].show()
        others[0].raise_()
        qtbot.waitUntil(lambda d=dock: not in_view(d))
        entry = view_entry(window, dock)
        assert entry.isChecked()  # open, though covered
        entry.trigger()
        qtbot.waitUntil(lambda d=dock: in_view(d))
        assert entry.isChecked() and not dock.isHidden(), dock.windowTitle()
        entry.trigger()  # in front now: the entry hides it
        assert dock.isHidden() and not entry.isChecked(), dock.windowTitle()
        entry.trigger()
        qtbot.waitUntil(lambda d=dock: in_view(d))
        assert entry.isChecked()


def test_a_hidden_panel_is_shown_and_its_close_button_unchecks_its_entry(window, qtbot):
    dock = window.compare_dock
    entry = view_entry(window, dock)
    assert dock.isHidden() and not entry.isChecked()
    entry.trigger()
    qtbot.waitUntil(lambda: in_view(dock))
    assert entry.isChecked()
    dock.close()  # as its close button does
    assert not entry.isChecked()


def view_menu(window):
    return next(a.menu() for a in window.menuBar().actions() if a.text() == "&View")


def test_view_tool_options_shows_the_tool_s_panel_by_one_name_whatever_its_title(
    window, qtbot, monkeypatch
):
    """The Tool Options panel had no View entry: once closed, or behind another tab,
    nothing brought it back. Its entry is with the tool panels', keeps its name while
    the panel's title names the tool, and brings it forward as every panel's does."""
    titles = [a.text() for a in view_menu(window).actions()]
    at = titles.index("Tool Options")
    assert titles[at - 2 : at + 2] == ["Lanes", "Movement", "Tool Options", "Balance"]
    dock = window.options_dock
    entry = view_entry(window, dock)
    assert dock.isHidden() and not entry.isChecked()
    entry.trigger()
    qtbot.waitUntil(lambda: in_view(dock))
    assert entry.isChecked()
    assert "Select tool has no options" in dock.widget().currentWidget().text()
    entry.trigger()  # in front: the entry hides it
    assert dock.isHidden() and not entry.isChecked()

    spacing = QLabel("Spacing")  # a tool with options: its panel's title names it
    monkeypatch.setattr(window.tools["grid"], "options_widget", lambda: spacing)
    window.set_tool("grid")
    qtbot.waitUntil(lambda: in_view(dock))
    assert dock.windowTitle() == "Grid Options" and dock.widget().currentWidget() is spacing
    window.inspector_dock.raise_()
    qtbot.waitUntil(lambda: not in_view(dock))
    assert entry.text() == "Tool Options" and entry.isChecked()
    entry.trigger()
    qtbot.waitUntil(lambda: in_view(dock))
    window.set_tool("select")  # no options: the panel goes, and its title is the entry's
    assert dock.isHidden() and not entry.isChecked()
    assert dock.windowTitle() == "Tool Options"
