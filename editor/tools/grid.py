"""Start grid: click six spaces in grid order, pole first."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QColor, QKeyEvent
from PySide6.QtWidgets import QGraphicsSimpleTextItem

from trackside.editor.canvas.items import Z_OVERLAY
from trackside.editor.document.commands import SetGrid
from trackside.editor.tools.base import Tool, ToolEvent

if TYPE_CHECKING:
    from trackside.editor.canvas.scene import TrackScene

GRID_SIZE = 6


class GridTool(Tool):
    """Builds the start grid from six clicks; the grid is set in one undo step."""

    name = "grid"
    label = "Grid"
    purpose = "Picks the six start spaces, pole position first."
    tip = (
        "Tools > Simulate plays bot games: the Balance panel then shows whether one grid "
        "slot wins too often."
    )
    shortcut = "G"
    icon = "⚑"
    hint = "Click the six start spaces in grid order, pole first; Backspace takes one back"

    def __init__(self, scene: TrackScene) -> None:
        super().__init__(scene)
        self.picked: list[int] = []
        self._marks: list[QGraphicsSimpleTextItem] = []
        # Picks are space indices: any change to the list of spaces starts the grid over.
        self.doc.spaceAdded.connect(self._restart)
        self.doc.spaceRemoved.connect(self._restart)
        self.doc.trackReplaced.connect(self._restart)

    def _restart(self, *_args) -> None:
        if self.picked:
            self.cancel()
            self.set_hint("The spaces changed; click the six start spaces again")

    def mouse_press(self, ev: ToolEvent) -> None:
        if ev.button != Qt.MouseButton.LeftButton:
            return
        space = self.scene.space_at(ev.pos)
        if space is None:
            return
        if space in self.picked:
            self.set_hint(
                f"{self.doc.track.spaces[space].id} is already grid position "
                f"{self.picked.index(space) + 1}"
            )
            return
        self.picked.append(space)
        if len(self.picked) == GRID_SIZE:
            ids = [self.doc.track.spaces[i].id for i in self.picked]
            self.doc.undo_stack.push(SetGrid(self.doc, ids))
            self.cancel()
            self.set_hint("Start grid set: " + ", ".join(ids))
            return
        self._show()

    def key_press(self, event: QKeyEvent) -> bool:
        if event.key() == Qt.Key.Key_Backspace:
            return self.delete_selection()
        return False

    def delete_selection(self) -> bool:
        """Backspace or Delete takes the last picked start space back."""
        if not self.picked:
            return False
        self.picked.pop()
        self._show()
        return True

    def _show(self) -> None:
        for m in self._marks:
            self.scene.removeItem(m)
        self._marks = []
        for n, i in enumerate(self.picked, 1):
            item = self.scene.space_items[i]
            mark = QGraphicsSimpleTextItem(f"#{n}")
            mark.setBrush(QColor("#2f8cff"))
            font = mark.font()
            font.setPointSizeF(16)
            font.setBold(True)
            mark.setFont(font)
            mark.setFlag(mark.GraphicsItemFlag.ItemIgnoresTransformations, True)
            mark.setZValue(Z_OVERLAY)
            c = item.sceneBoundingRect().center()
            mark.setPos(QPointF(c.x(), c.y()))
            self.scene.addItem(mark)
            self._marks.append(mark)
        n = len(self.picked)
        self.set_hint(
            f"Grid position {n + 1} of {GRID_SIZE}: click the next start space" if n else self.hint
        )

    def cancel(self) -> None:
        self.picked = []
        self._show()

    def deactivate(self) -> None:
        self.cancel()
