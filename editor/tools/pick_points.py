"""Picking two points on the canvas (to scale the background picture): not a tool
of the tool bar, but taken up for two clicks and then given back.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, Qt, Signal
from PySide6.QtGui import QKeyEvent

from trackside.editor.tools.base import Tool, ToolEvent


class PickPoints(Tool):
    """Two clicks give two points (mm, not snapped); Esc gives up."""

    name = "pick-points"
    label = "Pick two points"
    hint = "Click the first of two points a known distance apart on the picture (Esc cancels)"

    picked = Signal(QPointF, QPointF)
    abandoned = Signal()

    def __init__(self, scene) -> None:
        super().__init__(scene)
        self.first: QPointF | None = None

    def activate(self) -> None:
        self.first = None
        super().activate()

    def mouse_press(self, ev: ToolEvent) -> None:
        if ev.button != Qt.MouseButton.LeftButton:
            return
        if self.first is None:
            self.first = QPointF(ev.pos)
            self.set_hint("Click the second point (Esc cancels)")
            return
        first, self.first = self.first, None
        self.picked.emit(first, QPointF(ev.pos))

    def key_press(self, event: QKeyEvent) -> bool:
        if event.key() == Qt.Key.Key_Escape:
            self.cancel()
            return True
        return False

    def cancel(self) -> None:
        """Give up (Esc, or another tool taken up)."""
        self.first = None
        self.abandoned.emit()
