"""Select and move: click, rubber band, Shift adds, Ctrl removes, drag and nudge."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QKeyEvent, QUndoCommand
from PySide6.QtWidgets import QGraphicsRectItem

from trackside.editor.canvas.items import Z_OVERLAY, cosmetic_pen
from trackside.editor.document.commands import MoveSpaces, SetLine
from trackside.editor.tools.across import LapStartDrag
from trackside.editor.tools.base import Tool, ToolEvent

if TYPE_CHECKING:
    from trackside.editor.canvas.scene import TrackScene

DRAG_PIXELS = 4.0
NUDGE_MM, BIG_NUDGE_MM = 1.0, 10.0


class SelectTool(Tool):
    """Pick spaces and lines; drag them (one undo step); arrows nudge."""

    name = "select"
    label = "Select"
    purpose = "Picks spaces and lines to move, copy, turn or mirror, and to edit in the Inspector."
    tip = (
        "Ctrl+A selects every space; with nothing selected, Edit > Transform turns or "
        "mirrors the whole circuit."
    )
    shortcut = "V"
    icon = "➚"
    hint = (
        "Click to select, drag to move, drag on empty canvas for a rubber band; "
        "Shift adds, Ctrl removes; arrows nudge 1 mm (Shift 10 mm); Ctrl while dragging: no snap; "
        "drag the green lap start marker to move where a lap starts"
    )

    def __init__(self, scene: TrackScene) -> None:
        super().__init__(scene)
        self._press: ToolEvent | None = None
        self._mode: str | None = None  # "move" or "band"
        self._band: QGraphicsRectItem | None = None
        self._offset = QPointF()
        self._anchor: tuple[float, float] | None = None
        self._before: set[int] = set()
        self._before_lines: set[int] = set()
        self._click_picks: tuple[int | None, int | None] | None = None
        self._lap_start = LapStartDrag(scene)

    def cursor(self) -> Qt.CursorShape:
        return Qt.CursorShape.ArrowCursor

    # -- press -----------------------------------------------------------------
    def mouse_press(self, ev: ToolEvent) -> None:
        if ev.button != Qt.MouseButton.LeftButton:
            return
        scene = self.scene
        self._press = ev
        if not (ev.shift or ev.ctrl) and self._lap_start.press(ev.pos):
            self._mode = "lap start"
            return
        self._before = set(scene.selected_indices())
        self._before_lines = set(scene.selected_lines())
        # Lines lie on space edges, so a press on a line picks the line.
        line = scene.line_at(ev.pos)
        space = scene.space_at(ev.pos) if line is None else None
        spaces, lines = set(self._before), set(self._before_lines)
        if space is not None:
            target, chosen = spaces, space
        elif line is not None:
            target, chosen = lines, line
        else:
            self._mode = "band"
            if not (ev.shift or ev.ctrl):
                scene.select_indices([])
            return
        if ev.ctrl:
            target.discard(chosen)
            self._mode = None
        elif ev.shift:
            target.add(chosen)
            self._mode = "move"
        else:
            if chosen not in target:
                spaces, lines = set(), set()
                (spaces if space is not None else lines).add(chosen)
            elif len(spaces) + len(lines) > 1:
                # Pressed on a selected item: a drag moves them all, a click picks it alone.
                self._click_picks = (space, line)
            self._mode = "move"
        scene.select_indices(spaces, lines)
        self._anchor = self._grab_point(ev, space, line)

    def _grab_point(
        self, ev: ToolEvent, space: int | None, line: int | None
    ) -> tuple[float, float] | None:
        """The corner (or line end) nearest the press: it is what snaps while moving."""
        if space is not None:
            pts = self.doc.track.spaces[space].corners
        elif line is not None:
            pts = list(self.doc.lines()[line])
        else:
            return None
        return min(
            ((float(x), float(y)) for x, y in pts),
            key=lambda p: math.hypot(p[0] - ev.x, p[1] - ev.y),
        )

    # -- move ------------------------------------------------------------------
    def mouse_move(self, ev: ToolEvent) -> None:
        press = self._press
        if press is None or not (ev.buttons & Qt.MouseButton.LeftButton):
            self._hover_lap_start(ev)
            return
        if self._mode == "band":
            self._update_band(press, ev)
        elif self._mode == "lap start":
            self.set_hint(self._lap_start.move(ev.pos))
        elif self._mode == "move":
            if self._offset.isNull() and not _past_threshold(press, ev):
                return
            self._update_move(press, ev)

    def _hover_lap_start(self, ev: ToolEvent) -> None:
        """Over the lap start marker the pointer shows that it can be dragged."""
        over = self.scene.lap_start.hit(ev.pos, self.scene.pixel_mm())
        shape = Qt.CursorShape.SizeAllCursor if over else self.cursor()
        for view in self.scene.views():
            if view.viewport().cursor().shape() != shape:
                view.viewport().setCursor(shape)

    def _update_move(self, press: ToolEvent, ev: ToolEvent) -> None:
        dx, dy = ev.x - press.x, ev.y - press.y
        if self._anchor is not None:
            moved = ToolEvent(
                QPointF(self._anchor[0] + dx, self._anchor[1] + dy),
                ev.button,
                ev.buttons,
                ev.modifiers,
            )
            hit = self.scene.snap(moved, exclude=set(self.scene.selected_indices()))
            dx, dy = hit.x - self._anchor[0], hit.y - self._anchor[1]
        self._offset = QPointF(dx, dy)
        for i in self.scene.selected_indices():
            self.scene.space_items[i].setPos(self._offset)
        for k in self.scene.selected_lines():
            self.scene.line_items[k].setPos(self._offset)
        self.set_hint(f"Move by {dx:.1f}, {dy:.1f} mm")

    def _update_band(self, press: ToolEvent, ev: ToolEvent) -> None:
        rect = QRectF(press.pos, ev.pos).normalized()
        if self._band is None:
            self._band = QGraphicsRectItem()
            self._band.setZValue(Z_OVERLAY)
            self._band.setPen(cosmetic_pen("#2f8cff", 1, Qt.PenStyle.DashLine))
            self._band.setBrush(QBrush(QColor(47, 140, 255, 40)))
            self.scene.addItem(self._band)
        self._band.setRect(rect)
        inside = {
            i
            for i, item in enumerate(self.scene.space_items)
            if rect.contains(item.sceneBoundingRect().adjusted(3, 3, -3, -3))
        }
        lines = {
            k
            for k, item in enumerate(self.scene.line_items)
            if item.isVisible() and rect.contains(item.shape().boundingRect())
        }
        if ev.ctrl:
            spaces, lines = self._before - inside, self._before_lines - lines
        elif ev.shift:
            spaces, lines = self._before | inside, self._before_lines | lines
        else:
            spaces = inside
        self.scene.select_indices(spaces, lines)

    # -- release -----------------------------------------------------------------
    def mouse_release(self, ev: ToolEvent) -> None:
        if ev.button != Qt.MouseButton.LeftButton:
            return
        if self._mode == "lap start":
            if not self._lap_start.release() and self._press is not None:
                # A click on the marker, not a drag: it picks what lies under it.
                space = self.scene.space_at(self._press.pos)
                self.scene.select_indices([space] if space is not None else [])
        elif self._mode == "move" and not self._offset.isNull():
            self._commit_move(self._offset.x(), self._offset.y(), "Move")
        elif self._mode == "move" and self._click_picks is not None:
            space, line = self._click_picks
            self.scene.select_indices(
                [space] if space is not None else [], [line] if line is not None else []
            )
        self._reset()

    def _commit_move(self, dx: float, dy: float, verb: str, nudge: bool = False) -> None:
        spaces = self.scene.selected_indices()
        lines = self.scene.selected_lines()
        for i in spaces:
            self.scene.space_items[i].setPos(0, 0)
        for k in lines:
            self.scene.line_items[k].setPos(0, 0)
        if not spaces and not lines:
            return
        if not lines:
            self.apply("", lambda: [MoveSpaces(self.doc, spaces, dx, dy, nudge=nudge)])
            return

        def steps() -> list[QUndoCommand]:
            made: list[QUndoCommand] = [MoveSpaces(self.doc, spaces, dx, dy)] if spaces else []
            for k in lines:
                (a, b) = self.doc.lines()[k]
                ends = ((float(a[0]) + dx, float(a[1]) + dy), (float(b[0]) + dx, float(b[1]) + dy))
                made.append(SetLine(self.doc, k, ends))
            return made

        self.apply(f"{verb} selection", steps)

    def _reset(self) -> None:
        if self._band is not None:
            self.scene.removeItem(self._band)
            self._band = None
        for item in (*self.scene.space_items, *self.scene.line_items):
            if not item.pos().isNull():
                item.setPos(0, 0)
        self._press = None
        self._mode = None
        self._offset = QPointF()
        self._anchor = None
        self._click_picks = None
        self._lap_start.cancel()
        self.scene.hide_snap()
        self.set_hint(self.hint)

    def cancel(self) -> None:
        self._reset()

    def deactivate(self) -> None:
        self._reset()

    def double_click(self, ev: ToolEvent) -> None:
        """Double-click a space to edit its corners (as Inkscape's node tool)."""
        space = self.scene.space_at(ev.pos)
        if space is not None:
            self.scene.select_indices([space])
            self.toolRequested.emit("corners")

    def key_press(self, event: QKeyEvent) -> bool:
        if event.key() == Qt.Key.Key_Escape:  # a drag is given up; else the selection goes
            if self._press is None:
                self.scene.select_indices([])
            self.cancel()
            return True
        step = BIG_NUDGE_MM if event.modifiers() & Qt.KeyboardModifier.ShiftModifier else NUDGE_MM
        moves: dict[int, tuple[float, float]] = {
            Qt.Key.Key_Left: (-step, 0),
            Qt.Key.Key_Right: (step, 0),
            Qt.Key.Key_Up: (0, -step),
            Qt.Key.Key_Down: (0, step),
        }
        if event.key() in moves and self._press is None:
            dx, dy = moves[event.key()]
            self._commit_move(dx, dy, "Nudge", nudge=True)
            return True
        return False


def _past_threshold(press: ToolEvent, ev: ToolEvent) -> bool:
    """True once the pointer has moved far enough from the press to be a drag."""
    if ev.screen_pos is None or press.screen_pos is None:
        return True
    d = ev.screen_pos - press.screen_pos
    return math.hypot(d.x(), d.y()) >= DRAG_PIXELS
