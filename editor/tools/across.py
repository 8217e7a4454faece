"""Edits made at a space: the lap start, or a betting or finish line, across the track at
one of its edges (the one nearest the pointer), fitted across every lane.

Used by the line tools (a click on a space), the select tool (dragging the lap
start marker) and the canvas menu (right-click a space). Each edit is one
command on the document's undo stack.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QPointF

from trackside.editor.document.commands import SetLapStart, SetLine
from trackside.engine.track.across import line_across as fitted_line_across
from trackside.engine.track.geometry import LINE_NAMES
from trackside.engine.track.lap_start import clean_lap_start, edge_progress, point_and_normal
from trackside.engine.track.model import Segment

if TYPE_CHECKING:
    from trackside.editor.canvas.scene import TrackScene


def is_loop(scene: TrackScene) -> bool:
    """True when the track is a closed circuit with a racing line (it has a lap start)."""
    cl = scene.doc.track.centerline
    return cl.closed and len(cl.points) >= 3


def spot(scene: TrackScene, pos: QPointF) -> tuple[int | None, float | None]:
    """The space at ``pos`` an edit there would use (or None), and how far along the
    racing line ``pos`` is."""
    g = scene.geometry()
    if g is None or g.length == 0:
        return None, None
    space = scene.space_at(pos)
    if space is not None and (space >= g.n or g.polygons[space] is None):
        space = None
    return space, g.progress(pos.x(), pos.y())


def lap_start_near(scene: TrackScene, pos: QPointF) -> float | None:
    """Where the lap would start for a pointer at ``pos`` (mm along the racing line): the
    space edge nearest it that no space lies across. None on a point-to-point track."""
    space, progress = spot(scene, pos)
    return lap_start_for(scene, space, progress)


def lap_start_for(scene: TrackScene, space: int | None, near: float | None = None) -> float | None:
    """Where the lap would start at space ``space`` (its edge nearest ``near``, else its
    rear edge), or at ``near`` with no space: the nearest edge no space lies across."""
    g = scene.geometry()
    if g is None or not g.wraps:
        return None
    if space is not None:
        near = edge_progress(g, space, near)
    return None if near is None else clean_lap_start(g, near)


def set_lap_start(scene: TrackScene, progress: float, text: str = "Set lap start") -> bool:
    """Start the lap ``progress`` mm along the racing line (one undo step); False when
    it already starts there."""
    g = scene.geometry()
    if g is None or not g.wraps:
        return False
    along = progress % g.length
    if min(along, g.length - along) <= 1e-3:
        return False
    scene.doc.undo_stack.push(SetLapStart(scene.doc, progress, text))
    return True


def set_lap_start_at(scene: TrackScene, space: int, near: float | None = None) -> bool:
    """Set Lap Start Here: the lap starts at the edge of space ``space`` nearest ``near``
    (its rear edge without); False when nothing changed."""
    progress = lap_start_for(scene, space, near)
    if progress is None:
        return False
    return set_lap_start(scene, progress, f"Set lap start at {scene.doc.track.spaces[space].id}")


def line_across(scene: TrackScene, space: int, near: float | None = None) -> Segment | None:
    """A line across the track at the edge of space ``space`` nearest ``near`` (its rear
    edge without): square to the racing line there, over every lane."""
    g = scene.geometry()
    return None if g is None else fitted_line_across(g, space, near)


def place_line_across(scene: TrackScene, k: int, space: int, near: float | None = None) -> bool:
    """Put line k (0-2 betting, 3 finish) across the track at the edge of space ``space``
    nearest ``near`` (one undo step); False when it cannot be fitted there."""
    segment = line_across(scene, space, near)
    if segment is None:
        return False
    command = SetLine(scene.doc, k, segment)
    command.setText(f"Place {LINE_NAMES[k]} at {scene.doc.track.spaces[space].id}")
    scene.doc.undo_stack.push(command)
    return True


class LapStartDrag:
    """Dragging the lap start marker: it slides along the racing line, settling on the
    nearest space edge no space lies across; the release moves the lap start there."""

    def __init__(self, scene: TrackScene) -> None:
        self.scene = scene
        self.progress: float | None = None
        self.active = False

    def press(self, pos: QPointF) -> bool:
        """Start a drag when ``pos`` is on the marker; True when it is."""
        marker = self.scene.lap_start
        if not marker.hit(pos, self.scene.pixel_mm()) or self.scene.geometry() is None:
            return False
        self.active, self.progress = True, None
        return True

    def move(self, pos: QPointF) -> str:
        """Follow the pointer; returns a hint for the status bar."""
        g = self.scene.geometry()
        progress = lap_start_near(self.scene, pos)
        if g is None or progress is None:
            return ""
        self.progress = progress
        self.scene.lap_start.show_preview(*point_and_normal(g, progress))
        return f"Lap start: {progress:.0f} mm along the racing line; release to move it here"

    def release(self) -> bool:
        """Move the lap start where the marker was dropped (one undo step); False when the
        marker was only clicked, not dragged."""
        progress, self.progress, self.active = self.progress, None, False
        self.scene.lap_start.end_preview()
        if progress is None:
            return False
        set_lap_start(self.scene, progress, "Move lap start")
        return True

    def cancel(self) -> None:
        """Put the marker back."""
        if self.active:
            self.active, self.progress = False, None
            self.scene.lap_start.end_preview()
