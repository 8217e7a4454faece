"""Betting lines and the finish line: drag across the track, ends snapping to space edges."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from PySide6.QtCore import QLineF, QPointF, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QGraphicsLineItem

from trackside.editor.canvas.items import Z_OVERLAY, cosmetic_pen
from trackside.editor.canvas.snapping import fit_across_track
from trackside.editor.document.commands import SetLine
from trackside.editor.document.track_document import is_unset
from trackside.editor.tools.base import Tool, ToolEvent
from trackside.engine.track.geometry import FINISH, LINE_NAMES

if TYPE_CHECKING:
    from trackside.editor.canvas.scene import TrackScene

END_PIXELS = 8.0
CORNER_PIXELS = 12.0  # a fitted end moves to a space corner this close
MIN_LENGTH_MM = 2.0


class _LineTool(Tool):
    """Drag a segment for line ``self.k``; pressing on one of its ends moves that end."""

    def __init__(self, scene: TrackScene) -> None:
        super().__init__(scene)
        self.k = 0
        self._start: tuple[float, float] | None = None
        self._fixed: tuple[float, float] | None = None
        self._preview: QGraphicsLineItem | None = None

    def _hint(self) -> str:
        return self.hint

    def activate(self) -> None:
        self.set_hint(self._hint())

    def mouse_press(self, ev: ToolEvent) -> None:
        if ev.button != Qt.MouseButton.LeftButton:
            return
        seg = self.doc.lines()[self.k]
        reach = END_PIXELS * self.scene.pixel_mm()
        if not is_unset(seg):
            for end, other in ((seg[0], seg[1]), (seg[1], seg[0])):
                if math.hypot(float(end[0]) - ev.x, float(end[1]) - ev.y) <= reach:
                    self._fixed = (float(other[0]), float(other[1]))
                    self._start = self._fixed
                    self._update(self._start, ev)
                    return
        hit = self.scene.snap(ev)
        self._start = (hit.x, hit.y)
        self._fixed = None
        self._update(self._start, ev)

    def mouse_move(self, ev: ToolEvent) -> None:
        if self._start is None:
            self.scene.snap(ev)
            return
        self._update(self._start, ev)

    def _update(self, anchor: tuple[float, float], ev: ToolEvent) -> None:
        start, end = self._segment(anchor, ev)
        if self._preview is None:
            self._preview = QGraphicsLineItem()
            self._preview.setZValue(Z_OVERLAY)
            self._preview.setPen(cosmetic_pen("#f2c230" if self.k != FINISH else "#ffffff", 3))
            self.scene.addItem(self._preview)
        self._preview.setLine(QLineF(QPointF(*start), QPointF(*end)))
        length = math.dist(start, end)
        self.set_hint(
            f"{LINE_NAMES[self.k].capitalize()}: {length:.1f} mm"
            + ("" if ev.ctrl or self._fixed else " (fitted to the track's edges; Ctrl: as drawn)")
        )

    def _segment(
        self, start: tuple[float, float], ev: ToolEvent, show: bool = True
    ) -> tuple[tuple[float, float], tuple[float, float]]:
        """The line the gesture makes from ``start``: a fresh drag across spaces is fitted
        to their edges."""
        hit = self.scene.snap(ev, show=show)
        end = (hit.x, hit.y)
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
            start, end = fit_across_track(geometry, start, end, reach)
        return start, end

    def mouse_release(self, ev: ToolEvent) -> None:
        if self._start is None or ev.button != Qt.MouseButton.LeftButton:
            return
        start, end = self._segment(self._start, ev, show=False)
        self.cancel()
        if math.dist(start, end) >= MIN_LENGTH_MM:
            self.doc.undo_stack.push(SetLine(self.doc, self.k, (start, end)))
            self.after_place()

    def after_place(self) -> None:
        """Called once a line has been placed."""
        self.set_hint(self._hint())

    def cancel(self) -> None:
        self._start = None
        self._fixed = None
        if self._preview is not None:
            self.scene.removeItem(self._preview)
            self._preview = None
        self.scene.hide_snap()

    def deactivate(self) -> None:
        self.cancel()


class BettingLineTool(_LineTool):
    """Places betting lines 1-3; keys 1, 2, 3 choose which, else the next one unset."""

    name = "betting"
    label = "Betting line"
    shortcut = "B"
    icon = "①"
    hint = "Drag across the track to place the betting line; keys 1-3 choose which line"

    def _hint(self) -> str:
        return (
            f"Betting line {self.k + 1}: drag across the track (it fits to the space edges); "
            "keys 1, 2, 3 choose the line; drag an end to adjust it"
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
    shortcut = "F"
    icon = "🏁"
    hint = (
        "Finish line: drag across the track (it fits to the space edges); drag an end to adjust it"
    )

    def __init__(self, scene: TrackScene) -> None:
        super().__init__(scene)
        self.k = FINISH
