"""Draw a space corner by corner; close it on the first corner, Enter or a double click."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QBrush, QColor, QKeyEvent, QPainterPath
from PySide6.QtWidgets import QGraphicsPathItem

from trackside.editor.canvas.items import Z_OVERLAY, cosmetic_pen
from trackside.editor.document.commands import AddSpaces, corners_rounded
from trackside.editor.tools.base import Tool, ToolEvent
from trackside.engine.text import plural
from trackside.engine.track.lane_slot import lane_across, lane_space_id
from trackside.engine.track.model import Space

if TYPE_CHECKING:
    from trackside.editor.canvas.scene import TrackScene

CLOSE_PIXELS = 9.0


class DrawSpaceTool(Tool):
    """Click corners of a new space; the new space takes the lane of the spaces that lie as
    far across the track as it does (without a racing line, that of the space its first
    snapped corner belongs to), and goes on with that lane's ids (a49 after a48)."""

    name = "draw"
    label = "Space"
    purpose = (
        "Draws one space corner by corner, for a shape the Lanes tool does not lay out (a"
        " pit, a chicane, a merge)."
    )
    tip = (
        "Corners snap to the neighbours' corners and edges, so the new space shares its "
        "sides with them and cars can move across; hold Ctrl to place a corner freely."
    )
    shortcut = "P"
    icon = "▱"
    hint = (
        "Click to place corners (snaps to corners, edges, racing line and grid; Ctrl: no snap); "
        "click the first corner, double-click or Enter to finish; Backspace undoes a corner"
    )

    def __init__(self, scene: TrackScene) -> None:
        super().__init__(scene)
        self.corners: list[tuple[float, float]] = []
        self.lane: int | None = None
        self._cursor: tuple[float, float] | None = None
        self._preview: QGraphicsPathItem | None = None

    # -- events --------------------------------------------------------------
    def mouse_press(self, ev: ToolEvent) -> None:
        if ev.button == Qt.MouseButton.RightButton:
            self.finish()
            return
        if ev.button != Qt.MouseButton.LeftButton:
            return
        hit = self.scene.snap(ev)
        if len(self.corners) >= 3 and self._near_first(hit.x, hit.y):
            self.finish()
            return
        if self.corners and math.dist(self.corners[-1], (hit.x, hit.y)) < 1e-6:
            return  # second click of a double click lands on the same corner
        if self.lane is None and hit.space is not None:
            self.lane = self.doc.track.spaces[hit.space].lane
        self.corners.append((hit.x, hit.y))
        self._update_preview()

    def mouse_move(self, ev: ToolEvent) -> None:
        hit = self.scene.snap(ev)
        self._cursor = (hit.x, hit.y)
        if self.corners:
            self._update_preview()

    def double_click(self, ev: ToolEvent) -> None:
        self.finish()

    def key_press(self, event: QKeyEvent) -> bool:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.finish()
            return True
        if event.key() == Qt.Key.Key_Backspace:
            return self.delete_selection()
        return False

    def delete_selection(self) -> bool:
        """Backspace or Delete while drawing takes the last corner back."""
        if not self.corners:
            return False
        self.corners.pop()
        self._update_preview()
        return True

    def _near_first(self, x: float, y: float) -> bool:
        return math.dist(self.corners[0], (x, y)) <= CLOSE_PIXELS * self.scene.pixel_mm()

    # -- result --------------------------------------------------------------
    def finish(self) -> None:
        """Create the space from the corners placed so far (3 or more)."""
        corners = self.corners
        if len(corners) >= 3:
            g = self.scene.geometry()
            across = lane_across(g, corners) if g is not None else None
            lane = across if across is not None else self.lane or 0
            spaces = self.doc.track.spaces
            sid = lane_space_id(spaces, lane, corners) or self.doc.unique_id("s")
            space = Space(id=sid, lane=lane, corners=corners_rounded(corners))
            self.doc.undo_stack.push(AddSpaces(self.doc, [space]))
            self.scene.select_indices([len(self.doc.track.spaces) - 1])
            self.stepDone.emit(f"Added space {sid}")
        self.cancel()

    def cancel(self) -> None:
        self.corners = []
        self.lane = None
        if self._preview is not None:
            self.scene.removeItem(self._preview)
            self._preview = None
        self.scene.hide_snap()
        self.set_hint(self.hint)

    def deactivate(self) -> None:
        self.cancel()

    def _update_preview(self) -> None:
        if self._preview is None:
            self._preview = QGraphicsPathItem()
            self._preview.setZValue(Z_OVERLAY)
            self._preview.setPen(cosmetic_pen("#2f8cff", 2))
            self._preview.setBrush(QBrush(QColor(47, 140, 255, 50)))
            self.scene.addItem(self._preview)
        path = QPainterPath()
        pts = list(self.corners) + ([self._cursor] if self._cursor else [])
        if pts:
            path.moveTo(QPointF(*pts[0]))
            for p in pts[1:]:
                path.lineTo(QPointF(*p))
            if len(pts) >= 3:
                path.closeSubpath()
        for x, y in self.corners:
            r = 2.5 * self.scene.pixel_mm()
            path.addEllipse(QPointF(x, y), r, r)
        self._preview.setPath(path)
        n = len(self.corners)
        self.set_hint(
            f"{plural(n, 'corner')} placed; "
            + (
                "click the first corner or press Enter to finish"
                if n >= 3
                else "keep clicking corners"
            )
        )
