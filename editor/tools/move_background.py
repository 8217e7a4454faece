"""Dragging the background picture to line it up with the spaces (View > Background >
Move Background): not a tool of the tool bar, but taken up until Esc or another tool.

Each drag is one undo step; while it lasts only the picture moves, the document is
changed once, at the release.
"""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import QPointF, Qt, Signal
from PySide6.QtWidgets import QGraphicsItem

from trackside.editor.document.commands import SetBackground
from trackside.editor.tools.base import Tool, ToolEvent


class MoveBackground(Tool):
    """Drag anywhere on the canvas to move the picture (not snapped); Esc stops."""

    name = "move-background"
    label = "Move background"
    hint = "Drag to move the background picture; Esc ends moving it"

    # Esc when no drag is on; also sent when another tool takes over, just before ``left``.
    escaped = Signal()
    left = Signal()  # another tool was taken up

    def __init__(self, scene, picture: QGraphicsItem) -> None:
        super().__init__(scene)
        self.picture = picture
        self.grabbed: tuple[QPointF, QPointF] | None = None  # (pointer, picture) at the press

    def cursor(self) -> Qt.CursorShape:
        return Qt.CursorShape.SizeAllCursor

    def mouse_press(self, ev: ToolEvent) -> None:
        background = self.doc.track.background
        if ev.button != Qt.MouseButton.LeftButton or background is None:
            return
        if background.locked or background.hidden:
            return
        self.grabbed = (QPointF(ev.pos), self.picture.pos())
        for view in self.scene.views():
            view.viewport().setCursor(Qt.CursorShape.ClosedHandCursor)

    def mouse_move(self, ev: ToolEvent) -> None:
        if self.grabbed is not None:
            pointer, start = self.grabbed
            self.picture.setPos(start + ev.pos - pointer)

    def mouse_release(self, ev: ToolEvent) -> None:
        if ev.button != Qt.MouseButton.LeftButton or self.grabbed is None:
            return
        pointer, start = self.grabbed
        self._drop_grab()
        background = self.doc.track.background
        moved = ev.pos - pointer
        if background is None or (moved.x() == 0 and moved.y() == 0):
            return
        at = (round(start.x() + moved.x(), 3), round(start.y() + moved.y(), 3))
        self.doc.undo_stack.push(
            SetBackground(self.doc, replace(background, at=at), "Move background")
        )

    def cancel(self) -> None:
        """Esc: put the picture back if a drag is on, else ask to end moving (``escaped``)."""
        if self.grabbed is not None:
            self.picture.setPos(self.grabbed[1])
            self._drop_grab()
        else:
            self.escaped.emit()

    def deactivate(self) -> None:
        self.left.emit()

    def _drop_grab(self) -> None:
        self.grabbed = None
        for view in self.scene.views():
            view.viewport().setCursor(self.cursor())
