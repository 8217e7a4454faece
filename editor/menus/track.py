"""Edits at a space, from the Edit menu, their shortcuts and the canvas's right-click menu:
Set Lap Start Here, and the betting and finish lines across the track there.

"Here" is where the canvas was right-clicked; from the Edit menu or a shortcut,
the space under the pointer, else the selected space (its rear edge). The
main window adds ``actions`` to its Edit menu and calls ``install`` once.
"""

from __future__ import annotations

from functools import partial

from PySide6.QtCore import QObject, QPoint, QPointF, Qt, QTimer
from PySide6.QtGui import QAction, QCursor
from PySide6.QtWidgets import QMainWindow, QMenu

from trackside.editor.canvas.lap_start import TIP as LAP_START_TIP
from trackside.editor.canvas.scene import TrackScene
from trackside.editor.canvas.view import CanvasView
from trackside.editor.menus.actions import make_action
from trackside.editor.tools import across
from trackside.engine.track.geometry import FINISH, LINE_NAMES

# Tools whose right button means something else (finish a space, delete a point).
RIGHT_BUTTON_TOOLS = ("draw", "racing")


class TrackMenu(QObject):
    """The at-a-space actions of one window's canvas."""

    def __init__(self, window: QMainWindow, scene: TrackScene, view: CanvasView):
        super().__init__(window)
        self.window, self.scene, self.view = window, scene, view
        self._clicked: QPointF | None = None  # scene point of the right-click being served
        at_space = partial(make_action, window, named_tip=True, in_context_menu=True)
        self.act_lap_start = at_space(
            "Set &Lap Start Here", self.set_lap_start, "Ctrl+Shift+L", LAP_START_TIP
        )
        self.line_actions: list[QAction] = []
        for k, name in enumerate(LINE_NAMES):
            keys = "Ctrl+Shift+F" if k == FINISH else f"Ctrl+Shift+{k + 1}"
            text = (
                "&Finish Line Across Here" if k == FINISH else f"Betting Line &{k + 1} Across Here"
            )
            tip = (
                f"Put the {name} across the track at the space edge nearest the pointer, "
                "square to the racing line, over every lane"
            )
            self.line_actions.append(at_space(text, lambda k=k: self.place_line(k), keys, tip))

    @property
    def actions(self) -> list[QAction]:
        """Set Lap Start Here, then the four lines across."""
        return [self.act_lap_start, *self.line_actions]

    def install(self) -> None:
        """Show the menu on a right-click on the canvas."""
        self.view.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.view.customContextMenuRequested.connect(self.show_menu)

    def menu_at(self, viewport_pos: QPoint) -> QMenu | None:
        """The menu for a right-click at ``viewport_pos``, or None off the track or while a
        tool uses the right button."""
        tool = self.scene.tool
        if tool is not None and tool.name in RIGHT_BUTTON_TOOLS:
            return None
        pos = self.view.mapToScene(viewport_pos)
        if self.scene.space_at(pos) is None:
            return None
        self._clicked = pos
        menu = QMenu(self.view)
        menu.addAction(self.act_lap_start)
        self.act_lap_start.setEnabled(across.is_loop(self.scene))
        menu.addSeparator()
        menu.addActions(self.line_actions)
        menu.aboutToHide.connect(self._forget_click_later)
        return menu

    def show_menu(self, viewport_pos: QPoint) -> None:
        menu = self.menu_at(viewport_pos)
        if menu is not None:
            menu.popup(self.view.viewport().mapToGlobal(viewport_pos))

    def _forget_click_later(self) -> None:
        # The menu hides before the chosen action fires: forget the click after it.
        QTimer.singleShot(0, self._forget_click)

    def _forget_click(self) -> None:
        self._clicked = None
        self.act_lap_start.setEnabled(True)

    # -- the edits ---------------------------------------------------------------
    def _here(self) -> tuple[int | None, float | None]:
        """The space meant by "here" and how far along the racing line "here" is."""
        if self._clicked is not None:
            return across.spot(self.scene, self._clicked)
        viewport = self.view.viewport()
        local = viewport.mapFromGlobal(QCursor.pos())
        if viewport.rect().contains(local):
            space, progress = across.spot(self.scene, self.view.mapToScene(local))
            if space is not None:
                return space, progress
        selected = self.scene.selected_indices()
        return (selected[0], None) if selected else (None, None)

    def _say(self, text: str) -> None:
        self.window.statusBar().showMessage(text, 8000)

    def set_lap_start(self) -> bool:
        """Set Lap Start Here."""
        if not across.is_loop(self.scene):
            self._say("Only a closed circuit has a lap start (the racing line is open or unset)")
            return False
        space, near = self._here()
        if space is None:
            self._say("Point at a space, or select one, to start the lap at its edge")
            return False
        if not across.set_lap_start_at(self.scene, space, near):
            self._say("The lap already starts there")
            return False
        self._say(f"The lap now starts at {self.scene.doc.track.spaces[space].id}")
        return True

    def place_line(self, k: int) -> bool:
        """Betting line k + 1 (or the finish line) across the track here."""
        space, near = self._here()
        if space is None:
            self._say("Point at a space, or select one, to put the line at its edge")
            return False
        if not across.place_line_across(self.scene, k, space, near):
            self._say("No line fits across the track there")
            return False
        return True  # the window says how far the line moved, as for any move of it
