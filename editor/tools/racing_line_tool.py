"""The racing-line tool: show the centerline's points, drag them, insert and delete them.

Every edit is one undoable command (a whole drag is one). Dragged points snap
to the grid, corners and edges (not to the racing line itself; Ctrl: no snap).
Double-click on the line inserts a point there; click a point to pick it and
press Delete (or right-click a point) to remove it; Shift+click appends a
point at the end of the line (which is how a blank track gets one by hand).
"""

from __future__ import annotations

import itertools
import math
from typing import TYPE_CHECKING

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QPainter, QPen, QPolygonF
from PySide6.QtWidgets import QStyleOptionGraphicsItem, QWidget

from trackside.editor.canvas.items import Z_OVERLAY, BoundedItem, points_rect
from trackside.editor.canvas.snapping import Snap, SnapSettings, snap_point
from trackside.editor.document.commands import corners_rounded
from trackside.editor.document.compound import edit_racing_line
from trackside.editor.tools.base import Tool, ToolEvent

if TYPE_CHECKING:
    from trackside.editor.canvas.scene import TrackScene

HANDLE_PIXELS = 8.0
HANDLE_SIZE = 3.5  # half size of a drawn handle, screen pixels


class RacingLineHandles(BoundedItem):
    """The points of the racing line as small squares, the picked one filled."""

    def __init__(self) -> None:
        super().__init__()
        self.setZValue(Z_OVERLAY + 1)
        self.points: list[tuple[float, float]] = []
        self.closed = False
        self.picked: int | None = None
        self.dragging = False

    def set_points(self, points, closed: bool, picked: int | None, dragging: bool = False) -> None:
        """Show these points (a drag in progress draws the line as well)."""
        self.points = [(float(x), float(y)) for x, y in points]
        self.closed = closed
        self.picked = picked
        self.dragging = dragging
        self.set_bounds(points_rect(self.points, 20))

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        if not self.points:
            return
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        px = 1.0 / (painter.worldTransform().m11() or 1.0)
        if self.dragging:
            pen = QPen(QColor("#ff9a3c"), 1.5 * px, Qt.PenStyle.DashLine)
            painter.setPen(pen)
            pts = [QPointF(x, y) for x, y in self.points]
            if self.closed:
                pts.append(pts[0])
            painter.drawPolyline(QPolygonF(pts))
        s = HANDLE_SIZE * px
        painter.setPen(QPen(QColor("#101418"), 1 * px))
        last: tuple[float, float] | None = None
        for k, (x, y) in enumerate(self.points):
            special = k == 0 or k == self.picked
            # Dense curves (a point per degree) would be a solid zipper of squares:
            # draw a handle only where it stands clear of the last one drawn.
            if not special and last is not None and math.hypot(x - last[0], y - last[1]) < 4 * s:
                continue
            colour = "#ff3df2" if k == self.picked else ("#3ddc84" if k == 0 else "#ffffff")
            painter.setBrush(QBrush(QColor(colour)))
            size = s * (1.6 if special else 1.0)
            painter.drawRect(QRectF(x - size, y - size, 2 * size, 2 * size))
            last = (x, y)


class RacingLineTool(Tool):
    """Edit the centerline point by point."""

    name = "racing"
    label = "Racing line"
    purpose = (
        "Shapes the racing line: the path that says which way cars drive and how far "
        "along each space is."
    )
    tip = "View > Show Racing Line draws it with arrows; the Issues list names any space it misses."
    shortcut = "R"
    icon = "∿"
    hint = (
        "Drag a point of the racing line (Ctrl: no snap); double-click the line to insert "
        "a point; Delete or right-click removes one; Shift+click appends"
    )

    def __init__(self, scene: TrackScene) -> None:
        super().__init__(scene)
        self.picked: int | None = None
        self._drag: int | None = None
        self._drag_points: list[tuple[float, float]] | None = None
        self._item: RacingLineHandles | None = None
        self._active = False
        self.doc.centerlineChanged.connect(self._on_changed)
        self.doc.trackReplaced.connect(self._on_changed)

    def cursor(self) -> Qt.CursorShape:
        return Qt.CursorShape.ArrowCursor

    @property
    def points(self) -> list:
        """The racing line's points in mm, as stored."""
        return [tuple(p) for p in self.doc.track.centerline.points]

    def activate(self) -> None:
        super().activate()
        self._active = True
        self.scene.racing_line.setVisible(True)
        if self._item is None:
            self._item = RacingLineHandles()
            self.scene.addItem(self._item)
        self._show()

    def deactivate(self) -> None:
        self._active = False
        self.cancel()
        if self._item is not None:
            self.scene.removeItem(self._item)
            self._item = None

    def _on_changed(self) -> None:
        if self.picked is not None and self.picked >= len(self.doc.track.centerline.points):
            self.picked = None
        if self._active:
            self._show()

    def _show(self) -> None:
        if self._item is None:
            return
        pts = self._drag_points if self._drag_points is not None else self.points
        self._item.set_points(
            pts, self.doc.track.centerline.closed, self.picked, self._drag_points is not None
        )

    # -- hit testing -----------------------------------------------------------
    def point_at(self, x: float, y: float) -> int | None:
        """Index of the racing-line point within reach of (x, y), nearest first."""
        reach = HANDLE_PIXELS * self.scene.pixel_mm()
        best, best_d = None, reach
        for k, (px, py) in enumerate(self.points):
            d = math.hypot(float(px) - x, float(py) - y)
            if d <= best_d:
                best, best_d = k, d
        return best

    def segment_at(self, x: float, y: float) -> tuple[int, tuple[float, float]] | None:
        """The segment (index of its first point) within reach, and the nearest point on it."""
        pts = [(float(px), float(py)) for px, py in self.points]
        if len(pts) < 2:
            return None
        pairs = list(itertools.pairwise(pts))
        if self.doc.track.centerline.closed:
            pairs.append((pts[-1], pts[0]))
        reach = HANDLE_PIXELS * self.scene.pixel_mm()
        best = None
        for k, (a, b) in enumerate(pairs):
            q, d = _nearest_on_segment(a, b, (x, y))
            if d <= reach and (best is None or d < best[2]):
                best = (k, q, d)
        return (best[0], best[1]) if best else None

    def _snap(self, ev: ToolEvent) -> Snap:
        if ev.ctrl:
            self.scene.hide_snap()
            return Snap(ev.x, ev.y, "none")
        s = self.scene.snap_settings
        settings = SnapSettings(
            grid=s.grid, corners=s.corners, edges=s.edges, racing_line=False, grid_step=s.grid_step
        )
        hit = snap_point(
            self.doc.track,
            ev.x,
            ev.y,
            9.0 * self.scene.pixel_mm(),
            settings,
            index=self.scene.snap_index(),
        )
        if hit.kind != "none":
            self.scene.snap_marker.show_at(QPointF(hit.x, hit.y), hit.kind)
        return hit

    # -- events ------------------------------------------------------------------
    def mouse_press(self, ev: ToolEvent) -> None:
        k = self.point_at(ev.x, ev.y)
        if ev.button == Qt.MouseButton.RightButton:
            if k is not None:
                self.delete_point(k)
            return
        if ev.button != Qt.MouseButton.LeftButton:
            return
        if ev.shift:
            hit = self._snap(ev)
            self.append_point(hit.x, hit.y)
            return
        self.picked = k
        if k is not None:
            self._drag = k
            self._drag_points = self.points
        self._show()

    def mouse_move(self, ev: ToolEvent) -> None:
        points = self._drag_points
        if self._drag is None or points is None or not ev.buttons & Qt.MouseButton.LeftButton:
            return
        hit = self._snap(ev)
        points[self._drag] = _tidy(hit.x, hit.y)
        self._show()

    def mouse_release(self, ev: ToolEvent) -> None:
        if ev.button != Qt.MouseButton.LeftButton or self._drag is None:
            return
        k, pts = self._drag, self._drag_points
        self._drag = self._drag_points = None
        self.scene.hide_snap()
        if pts is not None and pts != self.points:
            edit_racing_line(self.doc, pts, f"Move racing-line point {k + 1}")
        self._show()

    def double_click(self, ev: ToolEvent) -> None:
        if self.point_at(ev.x, ev.y) is not None:
            return
        hit = self.segment_at(ev.x, ev.y)
        if hit is None:
            return
        k, (x, y) = hit
        self.insert_point(k + 1, x, y)

    # -- edits -------------------------------------------------------------------
    def insert_point(self, index: int, x: float, y: float) -> None:
        """Insert a point before ``index`` (one undo step)."""
        pts = self.points
        pts.insert(index, _tidy(x, y))
        self.picked = index
        edit_racing_line(self.doc, pts, f"Insert racing-line point {index + 1}")

    def append_point(self, x: float, y: float) -> None:
        """Add a point at the end of the line (one undo step)."""
        pts = self.points
        pts.append(_tidy(x, y))
        self.picked = len(pts) - 1
        edit_racing_line(self.doc, pts, f"Add racing-line point {len(pts)}")

    def delete_point(self, index: int) -> None:
        """Remove point ``index`` (one undo step)."""
        pts = self.points
        if not 0 <= index < len(pts):
            return
        del pts[index]
        self.picked = None
        edit_racing_line(self.doc, pts, f"Delete racing-line point {index + 1}")

    def delete_selection(self) -> bool:
        """Delete removes the picked point."""
        if self.picked is None:
            return False
        self.delete_point(self.picked)
        return True

    def cancel(self) -> None:
        self._drag = self._drag_points = None
        self.picked = None
        self.scene.hide_snap()
        if self._active:
            self._show()


def _tidy(x: float, y: float) -> tuple:
    """A point rounded as the other commands store them (0.001 mm)."""
    return corners_rounded([(x, y)])[0]


def _nearest_on_segment(a, b, p) -> tuple[tuple[float, float], float]:
    ax, ay = a
    bx, by = b
    dx, dy = bx - ax, by - ay
    length2 = dx * dx + dy * dy
    t = 0.0 if length2 == 0 else max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / length2))
    q = (ax + t * dx, ay + t * dy)
    return q, math.hypot(p[0] - q[0], p[1] - q[1])
