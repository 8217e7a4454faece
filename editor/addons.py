"""The lane tool, the racing-line tool and the export dialog, wired into the main window.

Importing this module registers the two tools in ``editor.tools.TOOLS`` (the
main window makes their toolbar buttons and shortcuts); ``install(window)``
adds the Lanes panel dock (raised while the lane tool is active), the
movement dock (raised with the moves tool; ``editor.preview``) and the
File > Export > Export… dialog action.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QDockWidget, QScrollArea

from .tools import register
from .tools.lane_tool import LaneTool
from .tools.racing_line_tool import RacingLineTool

if TYPE_CHECKING:
    from .mainwindow import MainWindow

register(LaneTool, after="corners")
register(RacingLineTool, after="lanes")


def install(window: MainWindow) -> None:
    """Add the lane panel and the export dialog to ``window``."""
    from .lane_panel import LanePanel

    lane_tool = window.tools[LaneTool.name]
    window.lane_panel = LanePanel(lane_tool)
    scroll = QScrollArea()
    scroll.setWidget(window.lane_panel)
    scroll.setWidgetResizable(True)
    dock = QDockWidget("Lanes", window)
    dock.setObjectName("lanesDock")
    dock.setWidget(scroll)
    window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, dock)
    window.tabifyDockWidget(window.inspector_dock, dock)
    window.inspector_dock.raise_()
    window.lane_dock = dock
    _install_movement(window)
    _install_export(window)
    tool_docks = {lane_tool: dock}
    if hasattr(window, "movement_dock"):
        tool_docks[window.tools["moves"]] = window.movement_dock

    def on_tool(tool) -> None:
        """A tool's panel comes to the front with it and gives way to the Inspector after."""
        own = tool_docks.get(tool)
        if own is not None:
            own.show()
            own.raise_()
        elif any(not d.visibleRegion().isEmpty() for d in tool_docks.values()):
            window.inspector_dock.raise_()
        if tool is window.tools.get("racing"):
            window.act_racing.setChecked(True)

    window.scene.toolChanged.connect(on_tool)


def _install_movement(window: MainWindow) -> None:
    if "moves" not in window.tools or not hasattr(window, "act_arrows"):
        return
    from .preview import MovementDock

    window.movement_panel = MovementDock(window)
    dock = QDockWidget("Movement", window)
    dock.setObjectName("movementDock")
    dock.setWidget(window.movement_panel)
    window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, dock)
    window.tabifyDockWidget(window.inspector_dock, dock)
    window.inspector_dock.raise_()
    window.movement_dock = dock


def _install_export(window: MainWindow) -> None:
    from .export_dialog import ExportDialog, local_paper

    action = QAction("&Export…", window)
    action.setShortcut(QKeySequence("Ctrl+Shift+E"))
    action.setStatusTip("PNG, SVG or PDF: choose the paper for a print and the DPI of a picture")

    def run() -> None:
        ExportDialog(window).exec()

    action.triggered.connect(run)
    window.act_export_dialog = action
    printing = QAction("&Print…", window)
    printing.setShortcut(QKeySequence(QKeySequence.StandardKey.Print))
    printing.setStatusTip("A PDF at true scale, tiled over paper pages with overlap marks")
    printing.triggered.connect(lambda: ExportDialog(window, local_paper()).exec())
    window.act_print = printing
    for menu_action in window.menuBar().actions():
        menu = menu_action.menu()
        if menu is None:
            continue
        for sub in menu.actions():
            if sub.menu() is not None and sub.text().replace("&", "") == "Export":
                first = sub.menu().actions()[0] if sub.menu().actions() else None
                sub.menu().insertAction(first, action)
                sub.menu().insertSeparator(first)
                after = menu.actions()[menu.actions().index(sub) + 1 :]
                menu.insertAction(after[0] if after else None, printing)
                return
    window.addAction(action)
    window.addAction(printing)
