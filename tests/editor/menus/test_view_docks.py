"""View menu's panel entries: choosing one brings its panel forward when it is hidden
or behind another tab, and hides it only when it is in view."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QAbstractSpinBox,
    QComboBox,
    QDockWidget,
    QLabel,
    QLineEdit,
    QMainWindow,
    QPlainTextEdit,
    QTextEdit,
    QWidget,
)

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


# What a designer can use in a panel; labels, stacks and scroll bars alone are not it.
CONTROLS = (
    QAbstractButton,
    QAbstractItemView,
    QAbstractSpinBox,
    QComboBox,
    QLineEdit,
    QTextEdit,
    QPlainTextEdit,
)


def panel_entries(window):
    """The View menu's entries that show a panel, in menu order."""
    view = next(a.menu() for a in window.menuBar().actions() if a.text() == "&View")
    return [a for a in view.actions() if isinstance(a.parent(), QDockWidget)]


def test_every_panel_has_its_view_entry_and_something_to_use(window):
    """The Tool Options panel held nothing for any tool (no tool has had options since
    the Lanes panel came), yet took a tab on the right: every panel of the window holds
    controls, and every one has its entry in the View menu, in the menu's order."""
    window.set_tool("select")
    entries = panel_entries(window)
    assert [a.text() for a in entries] == [
        "Inspector",
        "Issues",
        "Compare",
        "History",
        "Lanes",
        "Movement",
        "Balance",
    ]
    panels = window.findChildren(QDockWidget)
    assert sorted(d.objectName() for d in panels) == sorted(d.objectName() for d in docks(window))
    for dock in panels:
        assert [a.parent() for a in entries].count(dock) == 1, dock.windowTitle()
        inside = [dock.widget(), *dock.widget().findChildren(QWidget)]
        assert any(isinstance(w, CONTROLS) for w in inside), dock.windowTitle()


def saved_by_an_older_version(qtbot):
    """The window state and geometry of a window laid out as Trackside's was when it
    had the Tool Options panel, that panel open in front of the Inspector's tabs."""
    old = QMainWindow()
    qtbot.addWidget(old)
    old.setCentralWidget(QLabel("canvas"))
    made = {}
    for title in ("Inspector", "History", "Issues", "Tool Options", "Compare", "Lanes"):
        made[title] = QDockWidget(title, old)
        made[title].setObjectName(title.lower() + "Dock")  # as the main window names docks
        made[title].setWidget(QLabel(title))
        old.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, made[title])
    for title in ("History", "Tool Options", "Compare", "Lanes"):
        old.tabifyDockWidget(made["Inspector"], made[title])
    made["Tool Options"].raise_()
    old.resize(1100, 700)
    old.show()
    qtbot.waitExposed(old)
    return old.saveState(), old.saveGeometry()


def test_a_state_saved_with_the_old_tool_options_panel_restores(make_window, tmp_path, qtbot):
    """A window state and geometry saved while the Tool Options panel existed (and was
    in front of its tabs) restore without error: no panel of that name comes back, and
    the Inspector's tabs show a panel rather than an empty place."""
    state, geometry = saved_by_an_older_version(qtbot)
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    settings.setValue("geometry", geometry)  # the window saves its geometry, not its docks
    settings.sync()
    window = make_window()  # reads the saved geometry from the same settings file
    assert window.restoreState(state)  # a dock layout kept by an older version, if one was
    assert {d.objectName() for d in window.findChildren(QDockWidget)} == {
        d.objectName() for d in docks(window)
    }
    tabbed = [window.inspector_dock, *window.tabifiedDockWidgets(window.inspector_dock)]
    qtbot.waitUntil(lambda: any(in_view(d) for d in tabbed))
    assert in_view(window.issues_dock)
    window.set_tool("lanes")  # a tool's panel still comes forward with it
    qtbot.waitUntil(lambda: in_view(window.lane_dock))
