"""View menu's panel entries: choosing one brings its panel forward when it is hidden
or behind another tab, and hides it only when it is in view."""

from __future__ import annotations

import pytest

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
