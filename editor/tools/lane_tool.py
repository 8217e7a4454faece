"""The lane layout tool: lay out a racing line of straights and arcs, preview its spaces,
create them.

Click (snapping like the other tools) to place the start, then click or drag
ahead to lay a straight, or off to a side to lay the arc through the cursor
(turns snap to 15 degrees, radii to 5 mm, lengths to whole spaces; Ctrl turns
snapping off, Shift forces a straight). Pointing at the start marker offers the
pieces that close the loop (the remaining turn and a straight). The spaces of
the line and of the piece under the cursor are previewed live with the
engine's lane builder.
Enter (or a double click, or the panel's Create) adds them as one undoable
step; Backspace takes back the last piece; Esc drops the draft. The lane
panel (``editor.panels.lanes``) types exact values for the same draft.
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import TYPE_CHECKING

from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QKeyEvent, QPainter, QPen, QPolygonF
from PySide6.QtWidgets import QStyleOptionGraphicsItem, QWidget

from trackside.editor.canvas.items import Z_OVERLAY, BoundedItem, arrow_polygon, cosmetic_pen
from trackside.editor.canvas.painting import DEFAULT_STYLE
from trackside.editor.document.compound import create_lanes, reapply_lanes
from trackside.editor.document.fits import Refused
from trackside.editor.document.lane_draft import (
    DraftBuild,
    LaneDraft,
    axes,
    build_draft,
    closing_pieces,
    draft_of,
    first_heading,
    keep_draft,
    piece_towards,
    plan_creation,
    plan_reapplication,
)
from trackside.editor.document.track_document import is_unset
from trackside.editor.tools.base import Tool, ToolEvent
from trackside.engine.text import plural
from trackside.engine.track.lanes import Arc, LayoutError, Piece, Pose
from trackside.engine.track.layout import KeptLayout
from trackside.engine.track.loop_fit import kept_ids

if TYPE_CHECKING:
    from trackside.editor.canvas.scene import TrackScene

FINISHED_HINT = "New Layout (N) starts another layout; Edit Layout Again changes this one"
DRAG_PIXELS = 4.0
CLOSE_PIXELS = 14.0
OK_EDGE = QColor("#2f8cff")
BAD_EDGE = QColor("#ff4d4d")


class LanePreviewItem(BoundedItem):
    """The draft's spaces, racing line, start and end markers, drawn over the track."""

    def __init__(self) -> None:
        super().__init__()
        self.setZValue(Z_OVERLAY)
        self.polygons: list[tuple[int, QPolygonF]] = []
        self.pieces: list[int] = []  # the piece of each polygon
        self.highlight: int | None = None  # a piece picked in the panel's table
        self.line = QPolygonF()
        self.start: QPointF | None = None
        self.end: tuple[QPointF, QPointF] | None = None
        self.failed = False

    def show_build(self, build: DraftBuild, start, end_pose) -> None:
        """Show a build (or, when it failed, keep the last good spaces in red)."""
        self.failed = build.error is not None
        if build.result is not None:
            self.polygons = [
                (sp.lane, QPolygonF([QPointF(x, y) for x, y in sp.corners]))
                for sp in build.result.spaces
            ]
            self.pieces = [sp.piece for sp in build.result.spaces]
            pts = list(build.result.centerline)
            if build.result.closed and pts:
                pts.append(pts[0])
            self.line = QPolygonF([QPointF(x, y) for x, y in pts])
        else:
            self.polygons, self.line, self.pieces = [], QPolygonF(), []
        self.start = QPointF(*start) if start is not None else None
        self.end = None
        if end_pose is not None:
            tip = QPointF(end_pose[0], end_pose[1])
            self.end = (tip, QPointF(end_pose[0] + end_pose[2], end_pose[1] + end_pose[3]))
        rect = QRectF()
        for _lane, poly in self.polygons:
            rect = rect.united(poly.boundingRect())
        for p in (self.start, *(self.end or ())):
            if p is not None:
                rect = rect.united(QRectF(p.x() - 1, p.y() - 1, 2, 2))
        self.set_bounds(rect.adjusted(-40, -40, 40, 40))

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        edge = BAD_EDGE if self.failed else OK_EDGE
        painter.setPen(cosmetic_pen(edge, 1.2))
        for lane, poly in self.polygons:
            fill = QColor(BAD_EDGE) if self.failed else DEFAULT_STYLE.lane_colour(lane)
            fill.setAlpha(150)
            painter.setBrush(QBrush(fill))
            painter.drawPolygon(poly)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        if self.highlight is not None:
            painter.setPen(cosmetic_pen("#ffffff", 2.5))
            for (_lane, poly), piece in zip(self.polygons, self.pieces, strict=False):
                if piece == self.highlight:
                    painter.drawPolygon(poly)
        if self.line.size() > 1:
            pen = cosmetic_pen("#ff9a3c", 1.5, Qt.PenStyle.DashLine)
            painter.setPen(pen)
            painter.drawPolyline(self.line)
        scale = painter.worldTransform().m11() or 1.0
        px = 1.0 / scale
        if self.start is not None:
            painter.setPen(QPen(QColor("#101418"), 2 * px))
            painter.setBrush(QColor("#3ddc84"))
            painter.drawEllipse(self.start, 6 * px, 6 * px)
        if self.end is not None:
            tip, ahead = self.end
            painter.setPen(QPen(QColor("#101418"), 1.5 * px))
            painter.setBrush(QColor("#ffffff"))
            d = ahead - tip
            length = math.hypot(d.x(), d.y()) or 1.0
            head = tip + QPointF(d.x() / length * 14 * px, d.y() / length * 14 * px)
            painter.drawPolygon(arrow_polygon(tip, head, 10 * px))


class LaneTool(Tool):
    """Lays out a ``LaneDraft`` with the mouse; the lane panel edits the same draft."""

    name = "lanes"
    label = "Lanes"
    purpose = (
        "Lays out whole lanes of spaces along straights and arcs, with their racing line,"
        " in one step."
    )
    tip = (
        "Type exact lengths, radii and turns in the Lanes panel; a loop closes when its "
        "turns add up to 360°, and Edit Layout Again changes it later in place."
    )
    shortcut = "L"
    icon = "≡"
    hint = "Click (or drag) to place the start of the racing line; Ctrl: no snap"
    hint_first = (
        "Click or drag ahead for the first straight; Backspace takes the start back, "
        "Esc drops the draft"
    )
    hint_next = (
        "Click ahead for a straight, aside for an arc (Shift: straight); point at the "
        "green start to close; Enter creates, Backspace takes back"
    )

    draftChanged = Signal()  # start, pieces or settings changed (the panel refreshes)
    buildChanged = Signal(str)  # the preview's summary or error
    created = Signal(list)  # indices of the spaces just created

    def __init__(self, scene: TrackScene) -> None:
        super().__init__(scene)
        self.draft = LaneDraft()
        self.ghost: Piece | tuple[Piece, ...] | None = None  # under the pointer
        self.build = DraftBuild(None, None)
        self.highlighted: int | None = None
        self._press: tuple[float, float] | None = None  # start being placed, mm
        self._press_screen: QPointF | None = None
        self._dragging = False
        self._heading_fixed = False  # typed in the panel: the first piece keeps it
        self._item: LanePreviewItem | None = None
        self._active = False
        self._closed = False  # the draft alone already builds a closed loop
        self.editing: KeptLayout | None = None  # the kept layout Create re-applies
        # After Create or Re-apply a click on the canvas starts nothing until New Layout:
        # a stray click must not begin a draft unasked.
        self.finished = False
        self.doc.trackReplaced.connect(self.clear_draft)

    def cursor(self) -> Qt.CursorShape:
        return Qt.CursorShape.CrossCursor

    def activate(self) -> None:
        self.finished = False  # taking up the tool is asking for a new layout
        self.set_hint(self.step_hint())
        self._active = True
        self.refresh()

    def deactivate(self) -> None:
        self._active = False
        self.ghost = None
        self._remove_item()
        self.scene.hide_snap()

    # -- draft editing (also used by the panel) ----------------------------------
    def set_start(self, x: float, y: float, heading: float | None = None) -> None:
        """Place the start of the racing line (and its heading, degrees)."""
        self.draft.start = (x, y)
        if heading is not None:
            self.draft.heading = heading
            self._heading_fixed = True
        self._changed()

    def add_piece(self, piece: Piece) -> None:
        """Append a piece to the racing line."""
        if self.draft.start is None:
            self.draft.start = (0.0, 0.0)
        self.draft.pieces.append(piece)
        self._changed()

    def set_piece(self, index: int, piece: Piece) -> None:
        """Replace piece ``index`` (typed in the panel)."""
        self.draft.pieces[index] = piece
        self._changed()

    def remove_piece(self, index: int) -> None:
        """Take piece ``index`` out of the racing line."""
        del self.draft.pieces[index]
        self._changed()

    def split_piece(self, index: int) -> None:
        """Cut piece ``index`` into two halves (of its length, or of its turn)."""
        piece = self.draft.pieces[index]
        rows = None if piece.rows is None else max(1, piece.rows // 2)
        if isinstance(piece, Arc):
            half: Piece = replace(piece, angle=piece.angle / 2, rows=rows)
        else:
            half = replace(piece, length=piece.length / 2, rows=rows)
        self.draft.pieces[index : index + 1] = [half, half]
        self._changed()

    def insert_piece(self, index: int, piece: Piece) -> None:
        """Put ``piece`` into the racing line before piece ``index``."""
        self.draft.pieces.insert(index, piece)
        self._changed()

    def remove_last(self) -> bool:
        """Take back the last piece, or the start when there are none; False if empty."""
        if self.draft.pieces:
            self.draft.pieces.pop()
        elif self.draft.start is not None:
            self.draft.start = None
        else:
            return False
        self._changed()
        return True

    def update_settings(self, **values) -> None:
        """Change draft settings (lanes, space_length, lane_width, stagger, close, ...)."""
        for key, value in values.items():
            if not hasattr(self.draft.settings, key):
                raise AttributeError(key)
            setattr(self.draft.settings, key, value)
        self._changed()

    def clear_draft(self) -> None:
        """Drop the draft (Esc), and stop editing a kept layout."""
        self.editing = None
        self.draft.start = None
        self.draft.pieces = []
        self.ghost = None
        self._press = None
        self._heading_fixed = False
        self._changed()

    def _changed(self) -> None:
        if self.draft.start is not None:
            self.finished = False
        self.refresh()
        alone = self.build if self.ghost is None else build_draft(self.draft)
        self._closed = alone.result is not None and alone.result.closed
        self.set_hint(self.step_hint())
        self.draftChanged.emit()

    def new_layout(self) -> None:
        """Start another layout: the next click on the canvas places its start."""
        self.finished = False
        self.clear_draft()

    def step_hint(self) -> str:
        """What the next click does, for the status bar."""
        if self.finished and self.draft.start is None:
            return FINISHED_HINT
        if self.draft.start is None:
            return self.hint
        if self._closed and self.editing is None:
            return "The loop is closed: Enter creates it; Backspace takes back the last piece"
        if self.editing is not None:
            return "Editing a layout made before: change its pieces; Enter re-applies it in place"
        return self.hint_next if self.draft.pieces else self.hint_first

    # -- building and preview --------------------------------------------------
    def refresh(self) -> DraftBuild:
        """Rebuild the preview from the draft and the piece under the cursor."""
        draft = self.draft
        if self._press is not None and self.draft.start is None:
            draft = LaneDraft(start=self._press, heading=draft.heading, settings=draft.settings)
        self.build = build_draft(draft, self.ghost)
        if self.ghost is not None and not self.build.ok:
            fallback = build_draft(draft)  # keep the good part visible under the red piece
            if fallback.ok:
                self.build = DraftBuild(fallback.result, fallback.layout, self.build.error)
        if self._active:
            self._show(draft)
        self.buildChanged.emit(self.summary())
        return self.build

    def extent(self) -> QRectF | None:
        """The preview's extent in mm, for Fit to Window (None without a draft)."""
        if self._item is None or self.draft.start is None:
            return None
        return self._item.sceneBoundingRect()

    def reveal(self) -> None:
        """Scroll so a draft typed in the panel can be seen: all of it, else its end."""
        rect = self.extent()
        if rect is None:
            return
        pose = self.draft.end_pose()
        for view in self.scene.views():
            shown = view.mapToScene(view.viewport().rect()).boundingRect()
            if rect.width() <= shown.width() and rect.height() <= shown.height():
                view.ensureVisible(rect, 0, 0)
            else:
                view.ensureVisible(QRectF(pose.x - 60, pose.y - 60, 120, 120), 20, 20)

    def highlight_piece(self, index: int | None) -> None:
        """Outline the spaces of piece ``index`` in the preview (None: none)."""
        self.highlighted = index
        if self._item is not None:
            self._item.highlight = index
            self._item.update()

    def summary(self) -> str:
        """The panel's status line."""
        if self.finished and self.draft.start is None:
            return FINISHED_HINT
        if self.build.error and self.build.result is not None:
            return self.build.error
        return self.build.summary()

    def _show(self, draft: LaneDraft) -> None:
        if self._item is None:
            self._item = LanePreviewItem()
            self._item.highlight = self.highlighted
            self.scene.addItem(self._item)
        end = None
        if draft.start is not None:
            pose = draft.end_pose()
            (fx, fy), _side = axes(pose)
            end = (pose.x, pose.y, fx, fy)
        self._item.show_build(self.build, draft.start, end)

    def _remove_item(self) -> None:
        if self._item is not None:
            self.scene.removeItem(self._item)
            self._item = None

    # -- events ------------------------------------------------------------------
    def mouse_press(self, ev: ToolEvent) -> None:
        if ev.button != Qt.MouseButton.LeftButton:
            return
        if self.finished and self.draft.start is None:
            self.set_hint(FINISHED_HINT)
            return
        self._press_screen = ev.screen_pos
        self._dragging = False
        if self.draft.start is None:
            hit = self.scene.snap(ev)
            self._press = (hit.x, hit.y)
            self.ghost = None
            self.refresh()

    def mouse_move(self, ev: ToolEvent) -> None:
        held = bool(ev.buttons & Qt.MouseButton.LeftButton)
        if held and self._press_screen is not None and ev.screen_pos is not None:
            d = ev.screen_pos - self._press_screen
            if math.hypot(d.x(), d.y()) > DRAG_PIXELS:
                self._dragging = True
        if self.draft.start is None:
            if self._press is not None and self._dragging:
                self._ghost_first(ev)
            elif not self.finished:
                self.scene.snap(ev)
            return
        self.scene.hide_snap()
        self._ghost_next(ev)

    def pointer_left(self) -> None:
        """The piece under the pointer is only a suggestion: it goes when the pointer does,
        so the preview and the summary show what Create would build."""
        if self.ghost is not None and self._press is None:
            self.ghost = None
            self.refresh()
        self.scene.hide_snap()

    def _ghost_first(self, ev: ToolEvent, start=None) -> None:
        start = start or self._press
        heading = first_heading(start, (ev.x, ev.y), snap=not ev.ctrl)
        if heading is None:
            return
        self.draft.heading = heading
        self.ghost = piece_towards(
            Pose(start[0], start[1], heading),
            (ev.x, ev.y),
            self.draft.settings.space_length,
            snap=not ev.ctrl,
            straight_only=True,
        )
        self.refresh()

    def _ghost_next(self, ev: ToolEvent) -> None:
        if self._closed:  # a finished loop: no piece could follow it
            if self.ghost is not None:
                self.ghost = None
                self.refresh()
            return
        if not self.draft.pieces and not self._heading_fixed:
            self._ghost_first(ev, self.draft.start)  # the first piece sets the heading
            return
        try:
            if self._near_start(ev):
                self.ghost = closing_pieces(self.draft) or None
            else:
                pose = self.draft.end_pose()
                self.ghost = piece_towards(
                    pose,
                    (ev.x, ev.y),
                    self.draft.settings.space_length,
                    snap=not ev.ctrl,
                    straight_only=ev.shift,
                )
        except LayoutError:
            self.ghost = None
        self.refresh()

    def _near_start(self, ev: ToolEvent) -> bool:
        """The pointer is on the start marker: the next piece closes the loop."""
        start = self.draft.start
        if start is None or not self.draft.pieces or not self.draft.settings.close or ev.ctrl:
            return False
        reach = max(CLOSE_PIXELS * self.scene.pixel_mm(), self.draft.settings.space_length / 2)
        return math.hypot(ev.x - start[0], ev.y - start[1]) <= reach

    def mouse_release(self, ev: ToolEvent) -> None:
        if ev.button != Qt.MouseButton.LeftButton:
            return
        if self.draft.start is None:
            if self._press is None:
                return
            start, ghost = self._press, self.ghost if self._dragging else None
            self._press = None
            self.ghost = None
            self.draft.start = start
            self.draft.pieces.extend(_as_pieces(ghost))
            self._changed()
        else:
            self._ghost_next(ev)
            if self.ghost is not None:
                pieces, self.ghost = _as_pieces(self.ghost), None
                self.draft.pieces.extend(pieces)
                self._changed()
        self._press_screen = None
        self._dragging = False

    def double_click(self, ev: ToolEvent) -> None:
        self.ghost = None
        self.create()

    def key_press(self, event: QKeyEvent) -> bool:
        key = event.key()
        if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.create()
            return True
        if key == Qt.Key.Key_N and self.finished and self.draft.start is None:
            self.new_layout()
            return True
        if key == Qt.Key.Key_Backspace:
            self.delete_selection()
            return True  # taken even with no piece to take back
        return False

    def delete_selection(self) -> bool:
        """Backspace or Delete take back the last piece while a draft exists."""
        self.ghost = None
        return self.remove_last()

    def cancel(self) -> None:
        """Esc: drop the draft."""
        if self.draft.start is not None or self._press is not None:
            self.clear_draft()

    # -- editing a kept layout ---------------------------------------------------
    def layout_for(self, space_ids: list[str]) -> KeptLayout | None:
        """The newest kept layout that built one of these spaces, else the newest one."""
        layouts = self.doc.lane_layouts
        wanted = set(space_ids)
        for kept in reversed(layouts):
            if not wanted.isdisjoint(kept_ids(kept).values()):
                return kept
        return layouts[-1] if layouts else None

    def edit_layout(self, kept: KeptLayout) -> None:
        """Load a kept layout into the draft; Create then re-applies it in place."""
        self.clear_draft()
        draft = draft_of(kept)
        self.draft.start, self.draft.heading = draft.start, draft.heading
        self.draft.pieces, self.draft.settings = draft.pieces, draft.settings
        self._heading_fixed = True
        self.editing = kept
        self._changed()

    # -- create ----------------------------------------------------------------
    def create(self) -> list[int]:
        """Add the draft's spaces to the track as one undoable step (or re-apply the
        kept layout being edited); returns their indices."""
        self.ghost = None
        build = build_draft(self.draft)
        if not build.ok:
            self.refresh()
            self.set_hint(build.error or "Nothing to create yet")
            return []
        if self.editing is not None and self.editing in self.doc.lane_layouts:
            return self._reapply(build)
        track = self.doc.track
        has_line = len(track.centerline.points) >= 2
        has_furniture = bool(track.start_grid) or any(not is_unset(s) for s in self.doc.lines())
        try:
            creation = plan_creation(
                build, {sp.id for sp in track.spaces}, has_line, has_furniture, self.draft.settings
            )
        except LayoutError as exc:
            self.set_hint(str(exc))
            return []
        kept = keep_draft(self.draft, creation.names, creation.centerline is not None)
        try:
            new = create_lanes(self.doc, creation, kept)
        except Refused as exc:
            self.set_hint(f"Not created: {exc}")
            return []
        notes = "".join(f"; {note}" for note in creation.notes)
        self._done(new, f"Created {plural(len(new), 'space')}{notes}")
        return new

    def _reapply(self, build) -> list[int]:
        old = self.editing
        if old is None:
            return []
        present = {sp.id for sp in self.doc.track.spaces}
        try:
            plan = plan_reapplication(build, old, present)
        except LayoutError as exc:
            self.set_hint(str(exc))
            return []
        kept = keep_draft(self.draft, plan.names, old.sets_racing_line)
        try:
            ours = reapply_lanes(self.doc, old, plan, kept)
        except Refused as exc:
            self.set_hint(f"Not re-applied: {exc}")
            return []
        self._done(
            ours,
            f"Re-applied the layout: {len(plan.kept)} spaces kept their ids, "
            f"{len(plan.removed)} removed, {len(plan.added)} added",
        )
        return ours

    def _done(self, spaces: list[int], said: str) -> None:
        """After Create or Re-apply: the layout's spaces outlined, not selected (so that
        no Cut or Delete takes the whole layout unasked), and no new draft until New."""
        self.clear_draft()
        self.finished = True
        self.scene.select_indices([])
        self.scene.point_out(spaces)
        self.set_hint(f"{said}; outlined, nothing selected. {FINISHED_HINT}")
        self.buildChanged.emit(self.summary())
        self.draftChanged.emit()
        self.created.emit(spaces)


def _as_pieces(ghost: Piece | tuple[Piece, ...] | None) -> tuple[Piece, ...]:
    """The pieces a ghost stands for: none, one, or the several that close the loop."""
    if ghost is None:
        return ()
    return ghost if isinstance(ghost, tuple) else (ghost,)
