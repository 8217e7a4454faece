"""The lane tool: lay out a racing line of straights and arcs, preview the lanes, build.

Click once for the start of the racing line; each further click extends it to
the pointer: a straight when the pointer is ahead, else an arc tangent to the
line so far that passes through it (angles in 5 degree steps, radii in 5 mm).
Backspace takes the last piece back. The options panel sets lanes, space
length, lane width and stagger, closes the loop, and builds the spaces with
the engine's lane builder (``engine.lanes``), as one undoable step.
"""
from __future__ import annotations

import math
from dataclasses import replace

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QBrush, QColor, QKeyEvent, QPainterPath, QPen
from PySide6.QtWidgets import (QDoubleSpinBox, QFormLayout, QGraphicsPathItem,
                               QHBoxLayout, QLabel, QPushButton, QSpinBox, QVBoxLayout, QWidget)

from engine.errors import TracksideError
from engine.lanes import (Arc, LaneLayout, LaneResult, Straight, build_lanes, close_loop,
                          closure_gap, make_track, trace)
from engine.track import Space

from ..commands import AddSpaces, RemoveSpaces, SetCenterline, SetGrid, SetLine
from ..items import Z_OVERLAY, cosmetic_pen
from .base import Tool, ToolEvent

ANGLE_STEP = 5.0
RADIUS_STEP = 5.0
LENGTH_STEP = 5.0


def piece_to(x0: float, y0: float, heading: float, px: float, py: float,
             free: bool = False) -> Straight | Arc | None:
    """The piece that continues a line at (x0, y0) heading ``heading`` degrees to (px, py).

    A straight when the point is (nearly) straight ahead, else the tangent arc
    through it; rounded to tidy steps unless ``free``.
    """
    # Board coordinates are y down and headings turn counter-clockwise as seen (engine.lanes):
    # the driving direction is (cos h, -sin h) and the left side (cos, sin of h + 90°) mirrored.
    h = math.radians(heading)
    dx, dy = px - x0, py - y0
    along = dx * math.cos(h) - dy * math.sin(h)
    lat = -dx * math.sin(h) - dy * math.cos(h)   # > 0: the point lies to the left
    dist = math.hypot(dx, dy)
    if dist < 1.0:
        return None
    if along > 0 and abs(lat) <= max(2.0, 0.04 * dist):
        length = along if free else max(LENGTH_STEP, round(along / LENGTH_STEP) * LENGTH_STEP)
        return Straight(length)
    radius = dist * dist / (2 * abs(lat))
    angle = math.degrees(2 * math.atan2(abs(lat), along))
    if not free:
        angle = max(ANGLE_STEP, round(angle / ANGLE_STEP) * ANGLE_STEP)
        radius = max(RADIUS_STEP, round(radius / RADIUS_STEP) * RADIUS_STEP)
    angle = min(angle, 355.0)
    return Arc(radius, angle if lat > 0 else -angle)


def sample_piece(x: float, y: float, heading: float, piece: Straight | Arc,
                 step_deg: float = 3.0) -> list[tuple[float, float]]:
    """Points along a piece starting at board point (x, y) with ``heading`` (for drawing)."""
    h = math.radians(heading)
    if isinstance(piece, Straight):
        return [(x, y), (x + piece.length * math.cos(h), y - piece.length * math.sin(h))]
    sign = 1.0 if piece.angle > 0 else -1.0
    r = float(piece.radius)
    # The centre lies to the left for a left turn: left of (cos h, -sin h) is (-sin h, -cos h).
    cx, cy = x - sign * r * math.sin(h), y - sign * r * math.cos(h)
    steps = max(2, int(abs(piece.angle) / step_deg))
    out = []
    for k in range(steps + 1):
        a = h + math.radians(piece.angle) * k / steps
        out.append((cx + sign * r * math.sin(a), cy + sign * r * math.cos(a)))
    return out


def describe(piece: Straight | Arc) -> str:
    """Short text for a piece, e.g. 'straight 200' or 'arc r150 +90°'."""
    if isinstance(piece, Straight):
        return f"straight {piece.length:g}"
    return f"arc r{piece.radius:g} {piece.angle:+g}°"


class LaneTool(Tool):
    """Builds lanes of spaces along a racing line of straights and arcs."""

    name = "lanes"
    label = "Lanes"
    shortcut = "L"
    icon = "≡"
    hint = ("Click the start of the racing line, then click to extend it (ahead: straight, aside: "
            "arc); Backspace removes a piece; build the spaces from the Tool Options panel")

    def __init__(self, scene):
        super().__init__(scene)
        self.start: tuple[float, float] | None = None
        self.heading = 0.0
        self.pieces: list[Straight | Arc] = []
        self.closed = False
        self.lanes = 3
        self.space_length = 40.0
        self.lane_width = 35.0
        self.stagger = 0.0
        self.result: LaneResult | None = None
        self.error: str | None = None
        self._candidate: Straight | Arc | None = None
        self._preview: QGraphicsPathItem | None = None
        self._line: QGraphicsPathItem | None = None
        self._options: LaneOptions | None = None

    # -- layout --------------------------------------------------------------
    def layout(self, extra: Straight | Arc | None = None) -> LaneLayout | None:
        """The layout so far (plus ``extra``), or None before the first piece."""
        pieces = list(self.pieces) + ([extra] if extra is not None else [])
        if self.start is None or not pieces:
            return None
        return LaneLayout(pieces=tuple(pieces), start=self.start, heading=self.heading,
                          closed=self.closed and extra is None, lanes=self.lanes,
                          space_length=self.space_length, lane_width=self.lane_width,
                          stagger=self.stagger)

    def end_pose(self) -> tuple[float, float, float] | None:
        """Where the racing line ends now: x, y, heading in degrees."""
        if self.start is None:
            return None
        layout = self.layout()
        if layout is None:
            return (self.start[0], self.start[1], self.heading)
        end = trace(layout)[-1]
        return (end.x, end.y, end.heading)

    def add_piece(self, piece: Straight | Arc) -> None:
        """Append a piece and rebuild the preview."""
        self.pieces.append(piece)
        self.closed = False
        self.rebuild()

    def remove_piece(self) -> bool:
        """Take the last piece back (or the start point); True if something went."""
        if self.pieces:
            self.pieces.pop()
            self.closed = False
            if not self.pieces:
                self.heading = 0.0
        elif self.start is not None:
            self.start = None
        else:
            return False
        self.rebuild()
        return True

    def set_options(self, lanes: int | None = None, space_length: float | None = None,
                    lane_width: float | None = None, stagger: float | None = None) -> None:
        """Change the lane options and rebuild the preview."""
        if lanes is not None:
            self.lanes = lanes
        if space_length is not None:
            self.space_length = space_length
        if lane_width is not None:
            self.lane_width = lane_width
        if stagger is not None:
            self.stagger = stagger
        self.rebuild()

    def close(self) -> bool:
        """Make the line a loop by adjusting two straights; False (and a message) if it cannot."""
        layout = self.layout()
        if layout is None:
            self.error = "lay out a racing line first"
            self._report()
            return False
        gap, turn = closure_gap(replace(layout, closed=False))
        if abs(turn) > 1e-6:
            self.error = (f"the turns add up to {sum(p.turn for p in self.pieces):g}°; "
                          "a loop needs ±360°")
            self._report()
            return False
        if gap <= layout.closure_tolerance or self._stretch_one(layout):
            self.closed = True
            self.rebuild()
            return True
        straights = [k for k, p in enumerate(self.pieces) if isinstance(p, Straight)]
        last_error = "the loop needs at least two straights that are not parallel"
        for i in reversed(straights):
            for j in reversed(straights):
                if j >= i:
                    continue
                try:
                    closed = close_loop(replace(layout, closed=False), (j, i))
                except TracksideError as exc:
                    last_error = exc.message + (f" ({exc.hint})" if exc.hint else "")
                    continue
                self.pieces = list(closed.pieces)
                self.closed = True
                self.rebuild()
                return True
        self.error = last_error
        self._report()
        return False

    def _stretch_one(self, layout: LaneLayout) -> bool:
        """Close a gap that lies along one straight by changing that straight's length."""
        end = trace(replace(layout, closed=False))[-1]
        gx, gy = layout.start[0] - end.x, layout.start[1] - end.y
        for pose, k in ((p, k) for k, p in enumerate(trace(layout)[:-1])):
            piece = self.pieces[k]
            if not isinstance(piece, Straight):
                continue
            h = math.radians(pose.heading)
            ux, uy = math.cos(h), -math.sin(h)
            along = gx * ux + gy * uy
            if abs(gx * uy - gy * ux) <= layout.closure_tolerance / 2 and \
                    piece.length + along >= self.space_length / 2:
                self.pieces[k] = replace(piece, length=piece.length + along)
                return True
        return False

    def rebuild(self) -> None:
        """Run the lane builder on the layout and show the result."""
        self.result, self.error = None, None
        layout = self.layout()
        if layout is not None:
            try:
                self.result = build_lanes(layout)
            except TracksideError as exc:
                self.error = exc.message + (f" ({exc.hint})" if exc.hint else "")
        self._draw()
        self._report()

    # -- creating the track ------------------------------------------------------
    def build_track(self) -> bool:
        """Replace the track's spaces, racing line, grid and lines with the built lanes."""
        if self.result is None:
            self._report()
            return False
        result = self.result
        length = result.length
        try:
            track = make_track(result, self.doc.track.name or "Untitled",
                               betting=[0.3 * length, 0.55 * length, 0.8 * length],
                               finish=length - 1.5 * self.space_length if result.closed
                               else length - self.space_length)
        except TracksideError as exc:
            self.error = exc.message
            self._report()
            return False
        doc = self.doc
        stack = doc.undo_stack
        stack.beginMacro(f"Build {len(track.spaces)} spaces with the lane tool")
        if doc.track.spaces:
            stack.push(RemoveSpaces(doc, list(range(len(doc.track.spaces)))))
        stack.push(AddSpaces(doc, track.spaces, text=f"Add {len(track.spaces)} spaces"))
        stack.push(SetCenterline(doc, track.centerline))
        stack.push(SetGrid(doc, track.start_grid))
        for k, seg in enumerate(list(track.betting_lines) + [track.finish_line]):
            stack.push(SetLine(doc, k, seg))
        stack.endMacro()
        self.set_hint(f"Built {len(track.spaces)} spaces, the racing line, a start grid and "
                      "the lines; adjust them with the other tools")
        return True

    def add_spaces(self) -> bool:
        """Add the built spaces to the track (ids made unique), leaving the rest alone."""
        if self.result is None:
            self._report()
            return False
        taken = {sp.id for sp in self.doc.track.spaces}
        spaces: list[Space] = []
        for sp in self.result.track_spaces():
            sid, n = sp.id, 2
            while sid in taken:
                sid = f"{sp.id}-{n}"
                n += 1
            taken.add(sid)
            sp.id = sid
            spaces.append(sp)
        self.doc.undo_stack.push(AddSpaces(self.doc, spaces,
                                           text=f"Add {len(spaces)} spaces with the lane tool"))
        return True

    def clear(self) -> None:
        """Forget the layout."""
        self.start, self.pieces, self.closed, self.heading = None, [], False, 0.0
        self._candidate = None
        self.rebuild()

    # -- events --------------------------------------------------------------
    def mouse_press(self, ev: ToolEvent) -> None:
        if ev.button != Qt.MouseButton.LeftButton:
            return
        hit = self.scene.snap(ev)
        if self.start is None:
            self.start = (hit.x, hit.y)
            self.heading = 0.0
            self.rebuild()
            return
        if not self.pieces:
            dx, dy = hit.x - self.start[0], hit.y - self.start[1]
            if math.hypot(dx, dy) < 1.0:
                return
            heading = math.degrees(math.atan2(-dy, dx))
            self.heading = heading if ev.ctrl else round(heading / ANGLE_STEP) * ANGLE_STEP
        pose = self.end_pose()
        piece = piece_to(pose[0], pose[1], pose[2], hit.x, hit.y, free=ev.ctrl)
        if piece is not None:
            self._candidate = None
            self.add_piece(piece)

    def mouse_move(self, ev: ToolEvent) -> None:
        hit = self.scene.snap(ev)
        if self.start is None:
            return
        if not self.pieces:
            dx, dy = hit.x - self.start[0], hit.y - self.start[1]
            heading = math.degrees(math.atan2(-dy, dx))
            self.heading = heading if ev.ctrl else round(heading / ANGLE_STEP) * ANGLE_STEP
        pose = self.end_pose()
        self._candidate = piece_to(pose[0], pose[1], pose[2], hit.x, hit.y, free=ev.ctrl)
        self._draw_line()
        if self._candidate is not None:
            self.set_hint(f"Click to add {describe(self._candidate)}"
                          + (f"  ·  {len(self.pieces)} pieces" if self.pieces else ""))

    def key_press(self, event: QKeyEvent) -> bool:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            return self.build_track() or True
        return False

    def delete_selection(self) -> bool:
        return self.remove_piece()

    def cancel(self) -> None:
        self._candidate = None
        self._draw_line()

    def activate(self) -> None:
        super().activate()
        self._draw()
        self._report()

    def deactivate(self) -> None:
        for item in (self._preview, self._line):
            if item is not None:
                item.setVisible(False)

    # -- drawing ------------------------------------------------------------------
    def _items(self) -> tuple[QGraphicsPathItem, QGraphicsPathItem]:
        if self._preview is None:
            self._preview = QGraphicsPathItem()
            self._preview.setZValue(Z_OVERLAY - 1)
            self.scene.addItem(self._preview)
            self._line = QGraphicsPathItem()
            self._line.setZValue(Z_OVERLAY)
            self.scene.addItem(self._line)
        self._preview.setVisible(True)
        self._line.setVisible(True)
        return self._preview, self._line

    def _draw(self) -> None:
        preview, _line = self._items()
        path = QPainterPath()
        if self.result is not None:
            for sp in self.result.spaces:
                pts = [QPointF(x, y) for x, y in sp.corners]
                path.moveTo(pts[0])
                for p in pts[1:]:
                    path.lineTo(p)
                path.closeSubpath()
        ok = self.error is None
        preview.setPath(path)
        preview.setPen(cosmetic_pen("#7fd1ff" if ok else "#ff6b6b", 1))
        preview.setBrush(QBrush(QColor(47, 140, 255, 45) if ok else QColor(255, 80, 80, 40)))
        self._draw_line()

    def _draw_line(self) -> None:
        _preview, line = self._items()
        path = QPainterPath()
        if self.start is not None:
            r = 4 * self.scene.pixel_mm()
            path.addEllipse(QPointF(*self.start), r, r)
            pts = self._trace_points(self.layout())
            if pts:
                path.moveTo(QPointF(*pts[0]))
                for p in pts[1:]:
                    path.lineTo(QPointF(*p))
            if self._candidate is not None:
                cand = self._trace_points(self.layout(self._candidate), only_last=True)
                if cand:
                    path.moveTo(QPointF(*cand[0]))
                    for p in cand[1:]:
                        path.lineTo(QPointF(*p))
        line.setPath(path)
        pen = QPen(QColor("#ff9a3c"), 2.5)
        pen.setCosmetic(True)
        line.setPen(pen)

    def _trace_points(self, layout: LaneLayout | None, only_last: bool = False) -> list:
        """Points along the racing line (every few degrees), for drawing only."""
        if layout is None:
            return []
        try:
            poses = trace(layout)
        except TracksideError:
            return []
        pts: list[tuple[float, float]] = []
        pairs = list(zip(poses, layout.pieces))
        for pose, piece in pairs[-1:] if only_last else pairs:
            pts += sample_piece(pose.x, pose.y, pose.heading, piece)
        return pts

    def _report(self) -> None:
        if self._options is not None:
            self._options.show_state()
        if self.error:
            self.set_hint("Lane builder: " + self.error)

    # -- options panel --------------------------------------------------------------
    def options_widget(self) -> QWidget:
        """The panel with lane options and the build buttons."""
        if self._options is None:
            self._options = LaneOptions(self)
        return self._options

    def summary(self) -> str:
        """The layout in words: pieces, rows, spaces, length, closure."""
        if self.start is None:
            return "Click the canvas to place the start of the racing line."
        if not self.pieces:
            return "Click again to set the direction and the first straight."
        text = ", ".join(describe(p) for p in self.pieces)
        layout = self.layout()
        if self.result is not None:
            text += (f"\n{len(self.result.spaces)} spaces in {self.result.rows} rows, "
                     f"{self.result.length:.0f} mm of racing line")
        if layout is not None and not self.closed:
            gap, turn = closure_gap(replace(layout, closed=False))
            text += f"\nopen: the end is {gap:.0f} mm and {turn:+.0f}° from the start"
        elif self.closed:
            text += "\nclosed loop"
        return text


class LaneOptions(QWidget):
    """Lanes, space length, lane width, stagger, and the build buttons of the lane tool."""

    def __init__(self, tool: LaneTool):
        super().__init__()
        self.tool = tool
        self.lanes = QSpinBox()
        self.lanes.setRange(1, 4)
        self.lanes.setValue(tool.lanes)
        self.space_length = _mm(tool.space_length, 5, 300)
        self.lane_width = _mm(tool.lane_width, 5, 300)
        self.stagger = QDoubleSpinBox()
        self.stagger.setRange(0.0, 0.5)
        self.stagger.setSingleStep(0.25)
        self.stagger.setValue(tool.stagger)
        form = QFormLayout()
        form.addRow("Lanes", self.lanes)
        form.addRow("Space length", self.space_length)
        form.addRow("Lane width", self.lane_width)
        form.addRow("Stagger (rows)", self.stagger)
        self.state = QLabel()
        self.state.setWordWrap(True)
        self.error = QLabel()
        self.error.setWordWrap(True)
        self.error.setStyleSheet("color: #ff6b6b")
        self.undo_button = QPushButton("Remove Piece")
        self.close_button = QPushButton("Close Loop")
        self.build_button = QPushButton("Build Track")
        self.build_button.setToolTip("Replace the spaces, racing line, grid and lines (undoable)")
        self.add_button = QPushButton("Add Spaces Only")
        self.clear_button = QPushButton("Clear")
        row1 = QHBoxLayout()
        row1.addWidget(self.undo_button)
        row1.addWidget(self.close_button)
        row1.addWidget(self.clear_button)
        row2 = QHBoxLayout()
        row2.addWidget(self.build_button)
        row2.addWidget(self.add_button)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.state)
        layout.addWidget(self.error)
        layout.addLayout(row1)
        layout.addLayout(row2)
        layout.addStretch(1)
        self.lanes.valueChanged.connect(lambda v: tool.set_options(lanes=v))
        self.space_length.valueChanged.connect(lambda v: tool.set_options(space_length=v))
        self.lane_width.valueChanged.connect(lambda v: tool.set_options(lane_width=v))
        self.stagger.valueChanged.connect(lambda v: tool.set_options(stagger=v))
        self.undo_button.clicked.connect(tool.remove_piece)
        self.close_button.clicked.connect(tool.close)
        self.clear_button.clicked.connect(tool.clear)
        self.build_button.clicked.connect(tool.build_track)
        self.add_button.clicked.connect(tool.add_spaces)
        self.show_state()

    def show_state(self) -> None:
        """Refresh the summary, the error and which buttons work."""
        t = self.tool
        self.state.setText(t.summary())
        self.error.setText(t.error or "")
        self.error.setVisible(bool(t.error))
        ready = t.result is not None
        self.build_button.setEnabled(ready)
        self.add_button.setEnabled(ready)
        self.close_button.setEnabled(len(t.pieces) >= 3 and not t.closed)
        self.undo_button.setEnabled(t.start is not None)


def _mm(value: float, low: float, high: float) -> QDoubleSpinBox:
    box = QDoubleSpinBox()
    box.setRange(low, high)
    box.setDecimals(1)
    box.setSingleStep(5)
    box.setSuffix(" mm")
    box.setValue(value)
    return box
