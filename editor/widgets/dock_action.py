"""A dock's entry in the View menu: it brings the dock forward unless it is in front.

Qt's own ``toggleViewAction`` only shows or hides: a dock that sat as a tab behind
another is shown (its entry checked), so choosing it hid it, the opposite of what was
asked. Here choosing a hidden dock shows it, choosing one covered by another tab brings
it to the front, and only a dock already in view is hidden, as its close button does.
"""

from __future__ import annotations

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QDockWidget


def dock_view_action(dock: QDockWidget) -> QAction:
    """A checked-while-open View entry for ``dock`` that shows and raises it when it
    is hidden or behind another tab, and hides it when it is in view."""
    own = dock.toggleViewAction()  # kept checked while the dock is open, by Qt
    action = QAction(own.text(), dock)
    action.setCheckable(True)
    action.setChecked(own.isChecked())
    action.setStatusTip(f"Show the {own.text()} panel, or hide it when it is in view")
    own.toggled.connect(action.setChecked)
    action.triggered.connect(lambda _checked=False: choose_dock(dock, action))
    return action


def choose_dock(dock: QDockWidget, action: QAction) -> None:
    """What choosing ``dock``'s entry does (see ``dock_view_action``)."""
    if not dock.isHidden() and in_front(dock):
        dock.close()
    else:
        dock.show()
        dock.raise_()  # the tab in front, or a floating dock over the window
    action.setChecked(not dock.isHidden())


def in_front(dock: QDockWidget) -> bool:
    """Whether some of ``dock`` shows on screen: a dock behind another tab has none."""
    return dock.isVisible() and not dock.visibleRegion().isEmpty()
