"""The canvas scene: items mirrored from the document, events forwarded to the tool.

Scene units are millimetres, y down (as ``editor.canvas.painting``). The scene never
edits the track: tools push commands, the document emits signals, and the
handlers here add, remove or refresh the matching items.
"""

from __future__ import annotations

import math

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QGraphicsScene, QGraphicsSceneMouseEvent

from trackside.editor.canvas.interaction import Interaction, ToolEvent
from trackside.editor.canvas.items import (
    LineItem,
    RacingLineItem,
    SnapMarker,
    SpaceItem,
    SurfaceItem,
)
from trackside.editor.canvas.lap_start import LapStartItem
from trackside.editor.canvas.overlays import ForwardArrowsItem
from trackside.editor.canvas.snapping import Snap, SnapIndex, SnapSettings, snap_point
from trackside.editor.document.track_document import TrackDocument
from trackside.engine.track.geometry import LINE_NAMES, TrackGeometry
from trackside.engine.track.movement import MoveGraph

SNAP_PIXELS = 9.0
MARGIN = 2000.0  # mm of room around the track so the view can pan past its edges
SURFACE_NOW = 400  # a track opened with fewer spaces gets its tarmac before the first paint


class TrackScene(QGraphicsScene):
    """Items for one ``TrackDocument``; the active tool receives the events."""

    cursorMoved = Signal(float, float)  # mm
    toolChanged = Signal(object)
    shownCleared = Signal()  # Esc: what is shown without being selected is to go

    def __init__(self, doc: TrackDocument, parent=None):
        super().__init__(parent)
        self.doc = doc
        self.snap_settings = SnapSettings()
        self.show_ids = True
        self.tool: Interaction | None = None
        self.space_items: list[SpaceItem] = []
        self.surface = SurfaceItem(doc)
        self.addItem(self.surface)
        self.racing_line = RacingLineItem(doc)
        self.racing_line.setVisible(False)
        self.addItem(self.racing_line)
        self.line_items = [LineItem(doc, k) for k in range(len(LINE_NAMES))]
        for item in self.line_items:
            self.addItem(item)
        self.lap_start = LapStartItem(doc, self)
        self.addItem(self.lap_start)
        self.snap_marker = SnapMarker()
        self.addItem(self.snap_marker)
        self._refresh_timer = QTimer(self)
        self._refresh_timer.setSingleShot(True)
        self._refresh_timer.setInterval(0)
        self._refresh_timer.timeout.connect(self._refresh_later)
        self._surface_dirty = False
        self._items_rect: QRectF | None = None  # track_rect's cache
        # Each space item's scene bounds (x0, y0, x1, y1; NaN when empty), patched as a
        # space changes, so the track's extent after an edit is one pass of numpy.
        self._space_bounds: np.ndarray | None = None
        self._slots_dirty = True  # grid numbers to assign again (see _update_grid_slots)
        self._geometry: TrackGeometry | None = None
        self._geometry_failed = False
        self._move_graph: MoveGraph | None = None
        self._snap_index: SnapIndex | None = None  # built at the first snap
        self.forward_arrows = ForwardArrowsItem(self)
        self.addItem(self.forward_arrows)
        doc.changed.connect(self._invalidate_geometry)
        self._rebuild_spaces()
        doc.spaceAdded.connect(self._drop_snap_index)
        doc.spaceRemoved.connect(self._drop_snap_index)
        doc.trackReplaced.connect(self._drop_snap_index)
        doc.spaceAdded.connect(self._on_space_added)
        doc.spaceRemoved.connect(self._on_space_removed)
        doc.spaceChanged.connect(self._on_space_changed)
        doc.linesChanged.connect(self._on_line_changed)
        doc.gridChanged.connect(self._update_grid_slots)
        doc.centerlineChanged.connect(self.racing_line.refresh)
        doc.trackReplaced.connect(self._on_replaced)
        self.selectionChanged.connect(lambda: self.point_out([]))
        self._fit_scene_rect()

    # -- mirror the document -------------------------------------------------
    def _rebuild_spaces(self) -> None:
        for item in self.space_items:
            self.removeItem(item)
        self.space_items = [SpaceItem(self.doc, sp) for sp in self.doc.track.spaces]
        for item in self.space_items:
            item.show_id = self.show_ids
            self.addItem(item)
        self._update_grid_slots()

    def _on_space_added(self, index: int) -> None:
        self._space_bounds, self._slots_dirty = None, True
        item = SpaceItem(self.doc, self.doc.track.spaces[index])
        item.show_id = self.show_ids
        self.space_items.insert(index, item)
        self.addItem(item)
        self._spaces_changed()

    def _on_space_removed(self, index: int) -> None:
        self._space_bounds, self._slots_dirty = None, True
        item = self.space_items.pop(index)
        item.setSelected(False)
        self.removeItem(item)
        self._spaces_changed()

    def _invalidate_geometry(self) -> None:
        self._geometry = None
        self._move_graph = None
        self._items_rect = None
        self._geometry_failed = False
        if self.forward_arrows.isVisible():
            self.forward_arrows.refresh()

    def geometry(self) -> TrackGeometry | None:
        """The track's derived geometry (cached until the next edit), or None if unusable."""
        if self._geometry is None and not self._geometry_failed:
            try:
                self._geometry = TrackGeometry(self.doc.track)
            except Exception:  # a half-drawn or hostile track: overlays just stay empty
                self._geometry_failed = True
        return self._geometry

    def move_graph(self) -> MoveGraph | None:
        """The moves on the track's geometry (built once per version of the track)."""
        g = self.geometry()
        if g is None:
            return None
        if self._move_graph is None or self._move_graph.geometry is not g:
            self._move_graph = MoveGraph(g)
        return self._move_graph

    def _on_line_changed(self, k: int) -> None:
        # The later lines' badges keep clear of this line's: they may move with it.
        for item in self.line_items[k:]:
            item.refresh()

    def _on_space_changed(self, index: int) -> None:
        if self._snap_index is not None:
            self._snap_index.update(index)
        item = self.space_items[index]
        item.refresh()
        if self._space_bounds is not None:
            self._space_bounds[index] = _bounds(item.sceneBoundingRect())
        if item.space.id != item.slot_id:  # renamed: the grid may number it (or another)
            self._slots_dirty = True
        self._spaces_changed()

    def _spaces_changed(self) -> None:
        # One macro may add hundreds of spaces: rebuild the tarmac once, when it is done.
        self._surface_dirty = True
        self._refresh_timer.start()

    def _refresh_later(self) -> None:
        """After edits: the tarmac on a worker thread, the rest now."""
        if self._surface_dirty:
            self._surface_dirty = False
            self.surface.refresh_later()
        if self._slots_dirty:
            self._update_grid_slots()
        self._fit_scene_rect()

    def flush(self) -> None:
        """Bring the tarmac, grid numbers and scene size up to date now."""
        self._refresh_timer.stop()
        if self._surface_dirty:
            self._surface_dirty = False
            self.surface.refresh()
        elif self.surface.pending:
            self.surface.wait()
        self._update_grid_slots()
        self._fit_scene_rect()

    def _update_grid_slots(self) -> None:
        self._slots_dirty = False
        slots: dict[str, int] = {}
        for n, sid in enumerate(self.doc.track.start_grid, 1):
            slots.setdefault(sid, n)
        for item in self.space_items:
            item.slot_id = item.space.id
            slot = slots.pop(item.space.id, None)  # a repeated id is numbered once
            if slot != item.grid_slot:
                item.grid_slot = slot
                item.update()

    def _on_replaced(self) -> None:
        self._items_rect = None
        self._space_bounds = None
        self.clearSelection()
        self._rebuild_spaces()
        self._surface_dirty = False
        if len(self.space_items) < SURFACE_NOW:
            self.surface.refresh()
        else:  # the first paint shows the spaces; the tarmac follows from a worker
            self.surface.replace_later()
        self.racing_line.refresh()
        for item in self.line_items:
            item.refresh()
        if self.tool:
            self.tool.cancel()
        self._fit_scene_rect()

    def _fit_scene_rect(self) -> None:
        rect = self.track_rect()
        self.setSceneRect(rect.adjusted(-MARGIN, -MARGIN, MARGIN, MARGIN))

    def track_rect(self) -> QRectF:
        """The extent of the track's spaces, lines and racing line in mm, with what the
        active tool is drawing (a lane draft)."""
        if self._items_rect is None:  # cached until the next change of the document
            self._items_rect = self._spaces_rect()
            shown_lines = [item for item in self.line_items if item.isVisible()]
            for item in (*shown_lines, self.racing_line):
                r = item.sceneBoundingRect()
                if not r.isEmpty():
                    self._items_rect = self._items_rect.united(r)
        rect = QRectF(self._items_rect)
        drawing = self.tool.extent() if self.tool is not None else None
        if drawing is not None and not drawing.isEmpty():
            rect = rect.united(drawing)
        if rect.isNull():
            rect = QRectF(0, 0, 600, 400)
        return rect

    def _spaces_rect(self) -> QRectF:
        """The extent of the space items (their bounds kept in ``_space_bounds``)."""
        if self._space_bounds is None or len(self._space_bounds) != len(self.space_items):
            self._space_bounds = np.array(
                [_bounds(item.sceneBoundingRect()) for item in self.space_items], dtype=float
            ).reshape(-1, 4)
        shown = self._space_bounds[~np.isnan(self._space_bounds[:, 0])]
        if not len(shown):
            return QRectF()
        x0, y0 = float(shown[:, 0].min()), float(shown[:, 1].min())
        x1, y1 = float(shown[:, 2].max()), float(shown[:, 3].max())
        return QRectF(x0, y0, x1 - x0, y1 - y0)

    # -- selection ---------------------------------------------------------
    def selected_indices(self) -> list[int]:
        """Indices of the selected spaces, ascending."""
        # The scene keeps the selected items: no walk over every space (a drag asks often).
        return sorted(item.index for item in self.selectedItems() if isinstance(item, SpaceItem))

    def selected_lines(self) -> list[int]:
        """Indices (0-3) of the selected lines."""
        return [k for k, item in enumerate(self.line_items) if item.isSelected()]

    def select_indices(self, indices, lines=()) -> None:
        """Select exactly these spaces (and lines)."""
        wanted = set(indices)
        self.blockSignals(True)
        for i, space_item in enumerate(self.space_items):
            space_item.setSelected(i in wanted)
        for k, line_item in enumerate(self.line_items):
            line_item.setSelected(k in set(lines))
        self.blockSignals(False)
        self.selectionChanged.emit()

    def point_out(self, indices) -> None:
        """Outline these spaces to be seen, without selecting them: tools act on the
        selection only. The outline goes with the next change of selection, the next
        tool, or Esc."""
        wanted = set(indices)
        for i, space_item in enumerate(self.space_items):
            if space_item.pointed != (i in wanted):
                space_item.pointed = i in wanted
                space_item.update()

    def clear_shown(self) -> None:
        """Esc: take away what is shown over the board without being selected or made:
        the outline of spaces shown, and (through ``shownCleared``) what others draw,
        such as a fix's preview."""
        self.point_out([])
        self.shownCleared.emit()

    def pointed_indices(self) -> list[int]:
        """Indices of the spaces outlined by ``point_out``, ascending."""
        return [i for i, item in enumerate(self.space_items) if item.pointed]

    def set_problems(self, spaces: set[int], lines: set[int]) -> None:
        """Outline the spaces and lines the issues list complains about."""
        for i, space_item in enumerate(self.space_items):
            if space_item.problem != (i in spaces):
                space_item.problem = i in spaces
                space_item.update()
        for k, line_item in enumerate(self.line_items):
            if line_item.problem != (k in lines):
                line_item.problem = k in lines
                line_item.update()

    def set_show_ids(self, show: bool) -> None:
        """Print space ids on the canvas or not."""
        self.show_ids = show
        for item in self.space_items:
            item.show_id = show
            item.update()

    def space_at(self, pos: QPointF) -> int | None:
        """Index of the topmost space under ``pos``, or None."""
        for item in self.items(pos):
            if isinstance(item, SpaceItem):
                return item.index
        return None

    def line_at(self, pos: QPointF) -> int | None:
        """Index (0-3) of a line under ``pos``, or None."""
        for item in self.items(pos):
            if isinstance(item, LineItem) and item.isVisible():
                return item.k
        return None

    # -- snapping ------------------------------------------------------------
    def snap_index(self) -> SnapIndex:
        """Where the spaces are, for quick snapping: patched as a space changes, built
        again when spaces come or go."""
        if self._snap_index is None or self._snap_index.track is not self.doc.track:
            self._snap_index = SnapIndex(self.doc.track)
        return self._snap_index

    def _drop_snap_index(self, *_args: object) -> None:
        self._snap_index = None

    def pixel_mm(self) -> float:
        """How many mm one screen pixel spans in the first view."""
        views = self.views()
        if not views:
            return 1.0
        scale = views[0].transform().m11()
        return 1.0 / scale if scale > 0 else 1.0

    def snap(self, ev: ToolEvent, exclude=frozenset(), show: bool = True) -> Snap:
        """Where the event snaps; Ctrl held turns snapping off."""
        if ev.ctrl:
            self.snap_marker.setVisible(False)
            return Snap(ev.x, ev.y, "none")
        hit = snap_point(
            self.doc.track,
            ev.x,
            ev.y,
            SNAP_PIXELS * self.pixel_mm(),
            self.snap_settings_for_view(),
            set(exclude),
            self.snap_index(),
        )
        if show and hit.kind != "none":
            self.snap_marker.show_at(QPointF(hit.x, hit.y), hit.kind)
        else:
            self.snap_marker.setVisible(False)
        return hit

    def set_snapping(self, on: bool, *, grid: bool) -> None:
        """Snap to corners, edges and the racing line, or not; to the grid, or not."""
        settings = self.snap_settings
        settings.corners = settings.edges = settings.racing_line = on
        settings.grid = grid

    def snap_settings_for_view(self) -> SnapSettings:
        """Snap settings, with the racing line only while it is shown."""
        s = self.snap_settings
        return SnapSettings(
            grid=s.grid,
            corners=s.corners,
            edges=s.edges,
            racing_line=s.racing_line and self.racing_line.isVisible(),
            grid_step=s.grid_step,
        )

    def hide_snap(self) -> None:
        """Hide the snap marker."""
        self.snap_marker.setVisible(False)

    # -- tools -------------------------------------------------------------
    def set_tool(self, tool: Interaction) -> None:
        """Make ``tool`` the active one."""
        if self.tool is tool:
            return
        if self.tool is not None:
            self.tool.cancel()
            self.tool.deactivate()
        self.hide_snap()
        self.point_out([])
        self.tool = tool
        tool.activate()
        for view in self.views():
            view.viewport().setCursor(tool.cursor())
        self.toolChanged.emit(tool)

    def _event(self, event: QGraphicsSceneMouseEvent) -> ToolEvent:
        return ToolEvent(
            event.scenePos(),
            event.button(),
            event.buttons(),
            event.modifiers(),
            QPointF(event.screenPos()),
        )

    def mousePressEvent(self, event: QGraphicsSceneMouseEvent) -> None:
        if self.tool and event.button() in (Qt.MouseButton.LeftButton, Qt.MouseButton.RightButton):
            self.snap_index()  # built now if spaces came or went, not in a drag's first frame
            self.tool.mouse_press(self._event(event))
            event.accept()

    def mouseMoveEvent(self, event: QGraphicsSceneMouseEvent) -> None:
        pos = event.scenePos()
        self.cursorMoved.emit(pos.x(), pos.y())
        if self.tool:
            self.tool.mouse_move(self._event(event))
        super().mouseMoveEvent(event)  # keeps hover highlights working

    def mouseReleaseEvent(self, event: QGraphicsSceneMouseEvent) -> None:
        if self.tool:
            self.tool.mouse_release(self._event(event))
            event.accept()

    def mouseDoubleClickEvent(self, event: QGraphicsSceneMouseEvent) -> None:
        if self.tool and event.button() == Qt.MouseButton.LeftButton:
            self.tool.double_click(self._event(event))
            event.accept()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if self.tool and event.key() == Qt.Key.Key_Escape:
            self.clear_shown()
            if not self.tool.key_press(event):  # a tool may give Esc a meaning of its own
                self.tool.cancel()
            event.accept()
            return
        if self.tool and self.tool.key_press(event):
            event.accept()
            return
        super().keyPressEvent(event)


def _bounds(rect: QRectF) -> tuple[float, float, float, float]:
    """(x0, y0, x1, y1) of a rect; NaNs for an empty one, which adds nothing to an extent."""
    if rect.isEmpty():
        return (math.nan, math.nan, math.nan, math.nan)
    return (rect.left(), rect.top(), rect.right(), rect.bottom())
