"""Betting lines and the finish line: drag across the track, ends snapping to space edges;
click a space to put the line across the track at its nearest edge; drag a handle (the
squares at the line's ends) to move one end."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QKeyEvent
from PySide6.QtWidgets import QGraphicsItem, QGraphicsLineItem, QGraphicsRectItem

from trackside.editor.canvas.items import Z_OVERLAY, cosmetic_pen
from trackside.editor.document.commands import SetLine
from trackside.editor.document.track_document import is_unset
from trackside.editor.tools import across
from trackside.editor.tools.base import Tool, ToolEvent
from trackside.engine.track.across import fit_drag_across
from trackside.engine.track.geometry import FINISH, LINE_NAMES

if TYPE_CHECKING:
    from trackside.editor.canvas.scene import TrackScene

END_PIXELS = 6.0  # a press this close to a handle drags that end
HANDLE_PIXELS = 4.0  # half the side of a handle's square
CLICK_PIXELS = 4.0  # a press and release closer than this is a click
CORNER_PIXELS = 12.0  # a fitted end moves to a space corner this close
MIN_LENGTH_MM = 2.0
NO_EDGE = (
    "no edge between rows of spaces runs across the track where it was dragged, so the "
    "line would run through spaces; drag nearer a row's edge, or click a space"
)


class _LineTool(Tool):
    """Drag a segment for line ``self.k``; a click on a space puts it across the track
    there; pressing on a handle (an end of the line) moves that end, Shift starts a new
    line even there."""

    def __init__(self, scene: TrackScene) -> None:
        super().__init__(scene)
        self.k = 0
        self._start: tuple[float, float] | None = None
        self._fixed: tuple[float, float] | None = None
        self._preview: QGraphicsLineItem | None = None
        self._press: ToolEvent | None = None
        self._handles: list[QGraphicsRectItem] = []
        self._over_handle = False
        scene.doc.linesChanged.connect(lambda _k: self._show_handles())
        scene.doc.trackReplaced.connect(self._show_handles)

    def _hint(self) -> str:
        return self.hint

    def activate(self) -> None:
        self.set_hint(self._hint())
        self._show_handles()

    # -- handles -------------------------------------------------------------
    def _show_handles(self) -> None:
        """Squares on the ends of line k while the tool is active."""
        seg = self.doc.lines()[self.k]
        active = self.scene.tool is self and not is_unset(seg)
        while len(self._handles) < 2:
            handle = QGraphicsRectItem(
                QRectF(-HANDLE_PIXELS, -HANDLE_PIXELS, 2 * HANDLE_PIXELS, 2 * HANDLE_PIXELS)
            )
            handle.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations, True)
            handle.setZValue(Z_OVERLAY)
            handle.setPen(cosmetic_pen("#101010", 1.5))
            handle.setBrush(QBrush(QColor("#ffd23f")))
            handle.setToolTip("Drag to move this end of the line (Shift+drag: a new line)")
            self.scene.addItem(handle)
            self._handles.append(handle)
        for handle, end in zip(self._handles, seg, strict=True):
            handle.setPos(QPointF(float(end[0]), float(end[1])))
            handle.setVisible(active)

    def handle_ends(self) -> list[tuple[float, float]]:
        """Where the handles are shown (mm): the ends of line k, or none."""
        return [(h.pos().x(), h.pos().y()) for h in self._handles if h.isVisible()]

    def _handle_at(self, ev: ToolEvent) -> tuple[float, float] | None:
        """The other end of line k when ``ev`` is on one of its handles (not with Shift)."""
        seg = self.doc.lines()[self.k]
        if is_unset(seg) or ev.shift:
            return None
        reach = END_PIXELS * self.scene.pixel_mm()
        for end, other in ((seg[0], seg[1]), (seg[1], seg[0])):
            if math.hypot(float(end[0]) - ev.x, float(end[1]) - ev.y) <= reach:
                return (float(other[0]), float(other[1]))
        return None

    def _hover(self, ev: ToolEvent) -> None:
        over = self._handle_at(ev) is not None
        if over != self._over_handle:
            self._over_handle = over
            shape = Qt.CursorShape.SizeAllCursor if over else self.cursor()
            for view in self.scene.views():
                view.viewport().setCursor(shape)
            self.set_hint(
                "Drag to move this end of the line; Shift+drag starts a new line"
                if over
                else self._hint()
            )

    # -- pointer -------------------------------------------------------------
    def mouse_press(self, ev: ToolEvent) -> None:
        if ev.button != Qt.MouseButton.LeftButton:
            return
        self._press = ev
        other = self._handle_at(ev)
        if other is not None:
            self._fixed = other
            self._start = self._fixed
            self._update(self._start, ev)
            return
        hit = self.scene.snap(ev)
        self._start = (hit.x, hit.y)
        self._fixed = None
        self._update(self._start, ev)

    def mouse_move(self, ev: ToolEvent) -> None:
        if self._start is None:
            self._hover(ev)
            self.scene.snap(ev)
            return
        self._update(self._start, ev)

    def _update(self, anchor: tuple[float, float], ev: ToolEvent) -> None:
        fitted = self._segment(anchor, ev)
        start, end = fitted or (anchor, self._pointer(ev))
        if self._preview is None:
            self._preview = QGraphicsLineItem()
            self._preview.setZValue(Z_OVERLAY)
            self._preview.setPen(cosmetic_pen("#f2c230" if self.k != FINISH else "#ffffff", 3))
            self.scene.addItem(self._preview)
        self._preview.setLine(QLineF(QPointF(*start), QPointF(*end)))
        if fitted is None:
            self.set_hint(f"{LINE_NAMES[self.k].capitalize()}: {NO_EDGE}")
            return
        length = math.dist(start, end)
        self.set_hint(
            f"{LINE_NAMES[self.k].capitalize()}: {length:.1f} mm"
            + ("" if ev.ctrl or self._fixed else " (fitted to the track's edges; Ctrl: as drawn)")
        )

    def _pointer(self, ev: ToolEvent, show: bool = True) -> tuple[float, float]:
        """Where the pointer is, snapped as the canvas snaps (mm)."""
        hit = self.scene.snap(ev, show=show)
        return (hit.x, hit.y)

    def _segment(
        self, start: tuple[float, float], ev: ToolEvent, show: bool = True
    ) -> tuple[tuple[float, float], tuple[float, float]] | None:
        """The line the gesture makes from ``start``: a fresh drag across spaces is laid
        on the edges between their rows. None when no row edge lies across the track
        there (a line as drawn would run through spaces)."""
        end = self._pointer(ev, show)
        snapping = self.scene.snap_settings.corners or self.scene.snap_settings.edges
        geometry = self.scene.geometry()  # cached until the next edit
        if (
            self._fixed is None
            and not ev.ctrl
            and snapping
            and geometry is not None
            and math.dist(start, end) > 0
        ):
            reach = CORNER_PIXELS * self.scene.pixel_mm()
            return fit_drag_across(geometry, start, end, reach)
        return start, end

    def mouse_release(self, ev: ToolEvent) -> None:
        if self._start is None or ev.button != Qt.MouseButton.LeftButton:
            return
        clicked = self._fixed is None and self._is_click(ev)
        fitted = self._segment(self._start, ev, show=False)
        self.cancel()
        if clicked:
            self._place_across(ev)
        elif fitted is None:
            self.set_hint(f"{LINE_NAMES[self.k].capitalize()} not placed: {NO_EDGE}")
        elif math.dist(*fitted) >= MIN_LENGTH_MM:
            self.doc.undo_stack.push(SetLine(self.doc, self.k, fitted))
            self.after_place()

    def _is_click(self, ev: ToolEvent) -> bool:
        press = self._press
        if press is None or press.screen_pos is None or ev.screen_pos is None:
            return False
        d = ev.screen_pos - press.screen_pos
        return math.hypot(d.x(), d.y()) < CLICK_PIXELS

    def _place_across(self, ev: ToolEvent) -> None:
        """A click on a space: the line across the track at the space's nearest edge."""
        space, near = across.spot(self.scene, ev.pos)
        if space is None:
            self.set_hint("Click a space to put the line across the track there, or drag across")
            return
        if across.place_line_across(self.scene, self.k, space, near):
            self.after_place()

    def after_place(self) -> None:
        """Called once a line has been placed."""
        self.set_hint(self._hint())
        self._show_handles()

    def cancel(self) -> None:
        self._start = None
        self._fixed = None
        self._press = None
        if self._preview is not None:
            self.scene.removeItem(self._preview)
            self._preview = None
        self.scene.hide_snap()

    def deactivate(self) -> None:
        self.cancel()
        self._over_handle = False
        for handle in self._handles:
            handle.setVisible(False)


class BettingLineTool(_LineTool):
    """Places betting lines 1-3; keys 1, 2, 3 choose which, else the next one unset."""

    name = "betting"
    label = "Betting line"
    purpose = (
        "Places the three betting lines across the track; when the first car crosses one,"
        " every player bets."
    )
    tip = (
        "Right-click a space and choose Betting Line 1, 2 or 3 Across Here (Ctrl+Shift+1 "
        "to 3) to put it square to the racing line at that space's edge."
    )
    shortcut = "B"
    icon = "①"
    hint = (
        "Click a space (or drag across the track) to place the betting line; "
        "keys 1-3 choose which line"
    )

    def _hint(self) -> str:
        return (
            f"Betting line {self.k + 1}: click a space to put it across the track at its "
            "nearest edge, or drag across; keys 1, 2, 3 choose the line; drag a square "
            "handle to move an end"
        )

    def activate(self) -> None:
        lines = self.doc.lines()[:3]
        unset = [k for k, seg in enumerate(lines) if is_unset(seg)]
        self.k = unset[0] if unset else self.k
        super().activate()

    def after_place(self) -> None:
        lines = self.doc.lines()[:3]
        unset = [k for k, seg in enumerate(lines) if is_unset(seg)]
        if unset:
            self.k = unset[0]
        super().after_place()

    def choose(self, k: int) -> None:
        """Place betting line ``k`` (0-based) with the next drag."""
        self.cancel()
        self.k = k
        self.set_hint(self._hint())
        self._show_handles()

    def key_press(self, event: QKeyEvent) -> bool:
        keys: dict[int, int] = {Qt.Key.Key_1: 0, Qt.Key.Key_2: 1, Qt.Key.Key_3: 2}
        if event.key() in keys:
            self.choose(keys[event.key()])
            return True
        return False


class FinishLineTool(_LineTool):
    """Places the chequered finish line."""

    name = "finish"
    label = "Finish line"
    purpose = "Places the finish line across the track: the race ends for a car that crosses it."
    tip = (
        "If the Balance panel says cars stall before the finish, move the finish line "
        "back or shorten the circuit."
    )
    shortcut = "F"
    icon = "🏁"
    hint = (
        "Finish line: click a space to put it across the track at its nearest edge, or drag "
        "across; drag a square handle to move an end"
    )

    def __init__(self, scene: TrackScene) -> None:
        super().__init__(scene)
        self.k = FINISH
