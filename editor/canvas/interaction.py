"""What the canvas asks of the active tool, and the pointer events it gives it.

The scene forwards its events to one ``Interaction`` (a tool of
``editor.tools``); it knows them only through this protocol, so the canvas
never imports the tools that build on it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QKeyEvent


@dataclass
class ToolEvent:
    """A pointer event in scene millimetres."""

    pos: QPointF  # raw position in mm
    button: Qt.MouseButton
    buttons: Qt.MouseButton  # a flag combination of the buttons held
    modifiers: Qt.KeyboardModifier  # a flag combination of the modifiers held
    screen_pos: QPointF | None = None  # view pixel position, for drag thresholds

    @property
    def x(self) -> float:
        return self.pos.x()

    @property
    def y(self) -> float:
        return self.pos.y()

    @property
    def shift(self) -> bool:
        return bool(self.modifiers & Qt.KeyboardModifier.ShiftModifier)

    @property
    def ctrl(self) -> bool:
        """Ctrl (Cmd on macOS) held: snapping is off while it is."""
        return bool(self.modifiers & Qt.KeyboardModifier.ControlModifier)


class Interaction(Protocol):
    """The active tool as the scene drives it."""

    name: str

    def activate(self) -> None: ...
    def deactivate(self) -> None: ...
    def cancel(self) -> None: ...
    def extent(self) -> QRectF | None: ...
    def cursor(self) -> Qt.CursorShape: ...
    def mouse_press(self, ev: ToolEvent) -> None: ...
    def mouse_move(self, ev: ToolEvent) -> None: ...
    def mouse_release(self, ev: ToolEvent) -> None: ...
    def double_click(self, ev: ToolEvent) -> None: ...
    def key_press(self, event: QKeyEvent) -> bool: ...
    def pointer_left(self) -> None: ...
