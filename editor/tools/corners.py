"""Edit corners: drag a corner (shared corners follow unless Alt), add on an edge, delete."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QKeyEvent, QUndoCommand
from PySide6.QtWidgets import QGraphicsItem, QGraphicsRectItem

from trackside.editor.canvas.items import Z_OVERLAY, cosmetic_pen
from trackside.editor.canvas.snapping import nearest_edge_of_space
from trackside.editor.document.commands import SetCorners
from trackside.editor.tools.base import Tool, ToolEvent

if TYPE_CHECKING:
    from trackside.editor.canvas.scene import TrackScene

HANDLE_PIXELS = 7.0
SHARED_MM = 0.01


class CornerTool(Tool):
    """Corner handles of the selected spaces (or the one clicked)."""

    name = "corners"
    label = "Corners"
    purpose = "Reshapes laid-out spaces by their corners."
    tip = (
        "Double-click an edge to add a corner (a space may have more than four); a corner"
        " shared with neighbours moves them too, so no gap opens."
    )
    shortcut = "A"
    icon = "◇"
    hint = (
        "Click a space to show its corners; drag a corner (neighbours' shared corners follow, "
        "Alt: only this space); double-click an edge to add a corner; "
        "Delete removes the picked corner"
    )

    def __init__(self, scene: TrackScene) -> None:
        super().__init__(scene)
        self._handles: list[QGraphicsRectItem] = []
        self._drag: list[tuple[int, int]] | None = None  # (space, corner) pairs moving
        self._drag_origin: tuple[float, float] | None = None
        self.picked: tuple[int, int] | None = None
        scene.selectionChanged.connect(self._refresh_handles)
        self.doc.spaceChanged.connect(self._refresh_handles)
        self.doc.spaceRemoved.connect(self._clear_pick)
        self.doc.spaceAdded.connect(self._clear_pick)
        self._active = False

    def activate(self) -> None:
        super().activate()
        self._active = True
        self._refresh_handles()

    def deactivate(self) -> None:
        self._active = False
        self.cancel()
        self._clear_handles()

    def cursor(self) -> Qt.CursorShape:
        return Qt.CursorShape.ArrowCursor

    # -- handles ---------------------------------------------------------------
    def _clear_pick(self, *_args) -> None:
        self.picked = None

    def _clear_handles(self) -> None:
        for h in self._handles:
            self.scene.removeItem(h)
        self._handles = []

    def _refresh_handles(self, *_args) -> None:
        if not self._active:
            return
        try:
            self._clear_handles()
        except RuntimeError:  # the scene is being destroyed with the window
            self._active = False
            return
        s = HANDLE_PIXELS / 2
        for i in self.scene.selected_indices():
            for k, (x, y) in enumerate(self.doc.track.spaces[i].corners):
                h = QGraphicsRectItem(QRectF(-s, -s, 2 * s, 2 * s))
                h.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations, True)
                h.setZValue(Z_OVERLAY)
                h.setPos(float(x), float(y))
                picked = self.picked == (i, k)
                h.setPen(cosmetic_pen("#0d1b2a", 1))
                h.setBrush(QBrush(QColor("#ff3df2" if picked else "#ffffff")))
                h.setData(0, (i, k))
                self.scene.addItem(h)
                self._handles.append(h)

    def corner_at(self, x: float, y: float) -> tuple[int, int] | None:
        """The (space, corner) of a selected space's corner under (x, y)."""
        reach = HANDLE_PIXELS * self.scene.pixel_mm()
        best, best_d = None, reach
        for i in self.scene.selected_indices():
            for k, (cx, cy) in enumerate(self.doc.track.spaces[i].corners):
                d = math.hypot(float(cx) - x, float(cy) - y)
                if d <= best_d:
                    best, best_d = (i, k), d
        return best

    def _shared(self, i: int, k: int, alone: bool) -> list[tuple[int, int]]:
        """The corner and every other space's corner at the same place."""
        x, y = self.doc.track.spaces[i].corners[k]
        out = [(i, k)]
        if alone:
            return out
        for j, sp in enumerate(self.doc.track.spaces):
            if j == i:
                continue
            for m, (cx, cy) in enumerate(sp.corners):
                if math.hypot(float(cx) - float(x), float(cy) - float(y)) <= SHARED_MM:
                    out.append((j, m))
        return out

    # -- events --------------------------------------------------------------
    def mouse_press(self, ev: ToolEvent) -> None:
        if ev.button != Qt.MouseButton.LeftButton:
            return
        hit = self.corner_at(ev.x, ev.y)
        if hit is not None:
            self.picked = hit
            alone = bool(ev.modifiers & Qt.KeyboardModifier.AltModifier)
            self._drag = self._shared(*hit, alone)
            x, y = self.doc.track.spaces[hit[0]].corners[hit[1]]
            self._drag_origin = (float(x), float(y))
            self._refresh_handles()
            return
        space = self.scene.space_at(ev.pos)
        self.picked = None
        if space is None:
            self.scene.select_indices([])
        elif ev.shift:
            self.scene.select_indices(set(self.scene.selected_indices()) | {space})
        else:
            self.scene.select_indices([space])

    def mouse_move(self, ev: ToolEvent) -> None:
        if self._drag is None:
            return
        moving = {i for i, _ in self._drag}
        hit = self.scene.snap(ev, exclude=moving)
        for h in self._handles:
            if h.data(0) in self._drag:
                h.setPos(hit.x, hit.y)
        for i, ks in self._by_space(self._drag).items():
            corners = list(self.doc.track.spaces[i].corners)
            for k in ks:
                corners[k] = (hit.x, hit.y)
            self.scene.space_items[i].preview_corners(corners)
        self.set_hint(f"Corner at {hit.x:.1f}, {hit.y:.1f} mm")

    def mouse_release(self, ev: ToolEvent) -> None:
        if self._drag is None or ev.button != Qt.MouseButton.LeftButton:
            return
        moving = {i for i, _ in self._drag}
        hit = self.scene.snap(ev, exclude=moving, show=False)
        drag, origin = self._drag, self._drag_origin
        self._drag = None
        self._end_preview(drag)
        self.scene.hide_snap()
        if origin is None or math.hypot(hit.x - origin[0], hit.y - origin[1]) < 1e-6:
            self._refresh_handles()
            return
        self._apply(drag, (hit.x, hit.y), "Move corner")
        self.set_hint(self.hint)

    @staticmethod
    def _by_space(pairs: list[tuple[int, int]]) -> dict[int, list[int]]:
        by_space: dict[int, list[int]] = {}
        for i, k in pairs:
            by_space.setdefault(i, []).append(k)
        return by_space

    def _end_preview(self, pairs: list[tuple[int, int]]) -> None:
        for i in self._by_space(pairs):
            if i < len(self.scene.space_items):
                self.scene.space_items[i].preview_corners(None)

    def _apply(self, pairs: list[tuple[int, int]], to: tuple[float, float], text: str) -> None:
        def steps() -> list[QUndoCommand]:
            made: list[QUndoCommand] = []
            for i, ks in self._by_space(pairs).items():
                corners = list(self.doc.track.spaces[i].corners)
                for k in ks:
                    corners[k] = to
                made.append(SetCorners(self.doc, i, corners, text))
            return made

        self.apply(text, steps)

    def double_click(self, ev: ToolEvent) -> None:
        """Add a corner on the nearest edge of the space under the pointer."""
        candidates = self.scene.selected_indices() or []
        space = self.scene.space_at(ev.pos)
        if space is not None and space not in candidates:
            candidates = [space]
        best = None
        for i in candidates:
            k, px, py, d = nearest_edge_of_space(self.doc.track.spaces[i].corners, ev.x, ev.y)
            if best is None or d < best[3]:
                best = (i, k, px, py, d)
        if best is None or best[4] > 3 * HANDLE_PIXELS * self.scene.pixel_mm():
            return
        i, k, px, py, _ = best
        corners = list(self.doc.track.spaces[i].corners)
        corners.insert(k + 1, (px, py))
        if not self.apply("Add corner", lambda: [SetCorners(self.doc, i, corners, "Add corner")]):
            return
        self.picked = (i, k + 1)
        self.scene.select_indices(set(self.scene.selected_indices()) | {i})

    def delete_picked(self) -> bool:
        """Delete the picked corner (a space keeps at least 3); True when done."""
        if self.picked is None:
            return False
        i, k = self.picked
        if i >= len(self.doc.track.spaces):
            return False
        corners = list(self.doc.track.spaces[i].corners)
        if len(corners) <= 3 or k >= len(corners):
            self.set_hint("A space needs at least 3 corners")
            return True
        del corners[k]
        self.picked = None
        self.doc.undo_stack.push(SetCorners(self.doc, i, corners, "Delete corner"))
        return True

    def delete_selection(self) -> bool:
        return self.delete_picked()

    def key_press(self, event: QKeyEvent) -> bool:
        if event.key() in (Qt.Key.Key_Delete, Qt.Key.Key_Backspace):
            return self.delete_picked()
        return False

    def cancel(self) -> None:
        if self._drag is not None:
            self._end_preview(self._drag)
            self._drag = None
            self._refresh_handles()
        self.scene.hide_snap()
