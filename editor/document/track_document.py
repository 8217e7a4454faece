"""The edited document: one engine ``Track`` with its file, undo stack and signals.

The document is the editor's model (docs/design.md: model, commands, scene, tools).
It changes the track only through the mutator methods below, which the undo
commands of ``editor.document.commands`` call; every mutation emits a fine-grained
signal so that views redraw only what changed.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Iterable
from pathlib import Path

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoStack

from trackside.editor.document.fits import plain_layout, plain_number, plain_point, plain_points
from trackside.engine.track.geometry import FINISH
from trackside.engine.track.layout import KeptLayout
from trackside.engine.track.model import (
    Background,
    Centerline,
    Label,
    Point,
    Segment,
    Space,
    Track,
)

UNSET_SEGMENT: Segment = ((0, 0), (0, 0))

UNTITLED = "Untitled"


def blank_track(name: str = UNTITLED) -> Track:
    """A new, empty circuit: no spaces, no racing line, lines not yet placed."""
    return Track(
        name=name,
        centerline=Centerline(closed=True, points=[]),
        spaces=[],
        start_grid=[],
        betting_lines=[UNSET_SEGMENT] * 3,
        finish_line=UNSET_SEGMENT,
    )


def is_unset(segment: Segment) -> bool:
    """True for a line that has not been placed yet (both ends equal)."""
    return tuple(segment[0]) == tuple(segment[1])


class TrackDocument(QObject):
    """A track being edited: the model, its path, undo stack and clean state."""

    spaceAdded = Signal(int)  # index in track.spaces, after insertion
    spaceRemoved = Signal(int)  # index it had before removal
    spaceChanged = Signal(int)  # corners, id, lane, kind or label changed
    linesChanged = Signal(int)  # 0-2 betting line, 3 finish line
    gridChanged = Signal()
    metaChanged = Signal(str)  # name, author, description or tolerance
    centerlineChanged = Signal()
    trackReplaced = Signal()  # a whole new track (open, new, recover)
    changed = Signal()  # after any of the above
    pathChanged = Signal(str)
    modifiedChanged = Signal(bool)
    layoutsChanged = Signal()  # the lane layouts kept for editing again
    backgroundChanged = Signal()  # the picture under the spaces

    def __init__(
        self, track: Track | None = None, path: str | None = None, parent: QObject | None = None
    ):
        super().__init__(parent)
        self._track = track if track is not None else blank_track()
        self._path = path
        self.undo_stack = QUndoStack(self)
        self._forced_modified = False
        self._named = False  # a command has set the track's name since it was opened
        self._positions: dict[int, int] = {}  # id(space) -> index, see position()
        # id(space) -> (the space, a copy of it as it is now), see shared_snapshot().
        self._copies: dict[int, tuple[Space, Space]] = {}
        self.undo_stack.cleanChanged.connect(self._on_clean_changed)

    def _on_clean_changed(self, _clean: bool) -> None:
        self.modifiedChanged.emit(self.is_modified())

    # -- state ----------------------------------------------------------
    @property
    def track(self) -> Track:
        """The edited track. Read it freely; change it only through commands."""
        return self._track

    @property
    def path(self) -> str | None:
        """The file the document was opened from or saved to, if any."""
        return self._path

    def set_path(self, path: str | None) -> None:
        """Point the document at another file (save as)."""
        self._path = str(path) if path else None
        self.pathChanged.emit(self._path or "")

    @property
    def display_name(self) -> str:
        """The file name, or the track name for a document never saved."""
        return Path(self._path).name if self._path else (self._track.name or "Untitled")

    def is_modified(self) -> bool:
        """True when the track differs from the file (or was recovered)."""
        return self._forced_modified or not self.undo_stack.isClean()

    def mark_saved(self, path: str) -> None:
        """Record a successful save to ``path``."""
        self._forced_modified = False
        self.set_path(path)
        self.undo_stack.setClean()
        self.modifiedChanged.emit(False)

    def mark_modified(self) -> None:
        """Count the track as unsaved although no command changed it (its file went away)."""
        self._forced_modified = True
        self.modifiedChanged.emit(True)

    def replace(self, track: Track, path: str | None, modified: bool = False) -> None:
        """Start over with another track (open, new, recover); clears the undo history."""
        self._track = track
        self._copies = {}
        self._path = str(path) if path else None
        self.undo_stack.clear()
        self.undo_stack.setClean()
        self._forced_modified = modified
        self._named = False
        self.trackReplaced.emit()
        self.pathChanged.emit(self._path or "")
        self.modifiedChanged.emit(self.is_modified())
        self.changed.emit()

    def snapshot(self) -> Track:
        """An independent deep copy of the track (for saving or checking elsewhere)."""
        return self._track.copy()

    def shared_snapshot(self) -> Track:
        """A copy of the track as it is now, for reading elsewhere (a worker thread).

        Each space is copied once and the copy shared by later such snapshots for
        as long as it equals the space, so a snapshot after one edit costs a
        comparison per space, not a deep copy of every space. Read it, never
        change it (``snapshot`` gives an independent copy to change).
        """
        t = self._track
        copies = self._copies
        spaces = []
        for sp in t.spaces:
            known = copies.get(id(sp))
            if known is None or known[0] is not sp or known[1] != sp:
                known = (sp, copy.deepcopy(sp))
                copies[id(sp)] = known
            spaces.append(known[1])
        if len(copies) > 2 * len(spaces) + 64:  # forget spaces long gone
            live = {id(sp) for sp in t.spaces}
            self._copies = {k: v for k, v in copies.items() if k in live}
        out = copy.copy(t)
        for f in dataclasses.fields(t):
            if f.name != "spaces":
                setattr(out, f.name, copy.deepcopy(getattr(t, f.name)))
        out.spaces = spaces
        return out

    def position(self, space: Space) -> int:
        """Where this very space (not an equal one) is in the list of spaces now."""
        spaces = self._track.spaces
        # A map by identity, rebuilt only when an entry no longer holds: moving every
        # space of a large track then costs one pass, not one pass per space.
        known = self._positions.get(id(space))
        if known is not None and known < len(spaces) and spaces[known] is space:
            return known
        self._positions = {id(sp): i for i, sp in enumerate(spaces)}
        known = self._positions.get(id(space))
        if known is None or spaces[known] is not space:
            raise LookupError(f"space {space.id!r} is not in the track")
        return known

    def index_of(self, space_id: str) -> int | None:
        """Index of the first space with this id, or None."""
        for i, sp in enumerate(self._track.spaces):
            if sp.id == space_id:
                return i
        return None

    def indices_of(self, space_ids: Iterable[str]) -> list[int]:
        """Indices of the first spaces with these ids, in order, skipping unknown ids."""
        first: dict[str, int] = {}
        for i, sp in enumerate(self._track.spaces):
            first.setdefault(sp.id, i)
        return [first[s] for s in space_ids if s in first]

    def unique_id(self, stem: str = "s") -> str:
        """An id not used by any space: the stem followed by the smallest free number."""
        used = {sp.id for sp in self._track.spaces}
        n = 1
        while f"{stem}{n}" in used:
            n += 1
        return f"{stem}{n}"

    def lines(self) -> list[Segment]:
        """The three betting lines then the finish line."""
        t = self._track
        return [*list(t.betting_lines), t.finish_line]

    # -- mutators: called by editor.document.commands only --------------------------
    # Commands name a space by the Space object itself, never by its place in the list
    # (places shift when a space before it goes or comes; ids repeat or change), and
    # signals give the place the space has at the moment they are emitted.
    def insert_space(self, index: int, space: Space) -> None:
        """Put ``space`` at ``index`` in the list of spaces."""
        space.corners = plain_points(space.corners)
        space.lane = int(space.lane)
        self._track.spaces.insert(index, space)
        self.spaceAdded.emit(index)
        self.changed.emit()

    def remove_space(self, space: Space) -> int:
        """Take ``space`` out; returns the index it had."""
        index = self.position(space)
        del self._track.spaces[index]
        self.spaceRemoved.emit(index)
        self.changed.emit()
        return index

    def set_corners(self, space: Space, corners: list[Point]) -> None:
        """Replace the corners of ``space``."""
        index = self.position(space)
        space.corners = plain_points(corners)
        self.spaceChanged.emit(index)
        self.changed.emit()

    def set_space_field(self, space: Space, name: str, value: object) -> None:
        """Set a space's id, lane, kind or label."""
        if name not in ("id", "lane", "kind", "label"):
            raise ValueError(f"not a space field: {name}")
        index = self.position(space)
        setattr(space, name, int(value) if name == "lane" else value)  # type: ignore[call-overload]
        self.spaceChanged.emit(index)
        self.changed.emit()

    def set_grid(self, ids: list[str]) -> None:
        """Set the start grid, pole first."""
        self._track.start_grid = list(ids)
        self.gridChanged.emit()
        self.changed.emit()

    def set_line(self, k: int, segment: Segment) -> None:
        """Set betting line ``k`` (0-2) or the finish line (3)."""
        seg = (plain_point(segment[0]), plain_point(segment[1]))
        if k == FINISH:
            self._track.finish_line = seg
        else:
            lines = list(self._track.betting_lines)
            while len(lines) < 3:
                lines.append(UNSET_SEGMENT)
            lines[k] = seg
            self._track.betting_lines = lines
        self.linesChanged.emit(k)
        self.changed.emit()

    def set_centerline(self, centerline: Centerline) -> None:
        """Replace the racing line."""
        self._track.centerline = Centerline(
            closed=bool(centerline.closed), points=plain_points(centerline.points)
        )
        self.centerlineChanged.emit()
        self.changed.emit()

    def set_meta(self, name: str, value: object) -> None:
        """Set the track's name, author, description or tolerance."""
        if name not in ("name", "author", "description", "tolerance"):
            raise ValueError(f"not a track property: {name}")
        if name == "tolerance" and value is not None:
            value = plain_number(value)
        self._named = self._named or name == "name"
        setattr(self._track, name, value)
        self.metaChanged.emit(name)
        self.changed.emit()

    def may_name_from_file(self) -> bool:
        """True when no step of the undo history sets the track's name, so a name given
        outside the history (``name_from_file``) holds in every step of it."""
        return not self._named

    def name_from_file(self, name: str) -> None:
        """Name the track without an undo step (an untitled track saved under a file
        name): the redo steps stay. Only when ``may_name_from_file``."""
        if self._named:
            raise RuntimeError("a step of the undo history sets the name: push SetMeta")
        self._track.name = name
        self.metaChanged.emit("name")
        self.changed.emit()

    def set_labels(self, labels: list[Label]) -> None:
        """Replace the free text printed on the board."""
        self._track.labels = [
            Label(
                text=str(lb.text),
                at=plain_point(lb.at),
                size=None if lb.size is None else plain_number(lb.size),
                angle=None if lb.angle is None else plain_number(lb.angle),
            )
            for lb in labels
        ]
        self.metaChanged.emit("labels")
        self.changed.emit()

    def set_background(self, background: Background | None) -> None:
        """Set (or with None remove) the picture under the spaces."""
        self._track.background = None if background is None else _plain_background(background)
        self.backgroundChanged.emit()
        self.changed.emit()

    @property
    def lane_layouts(self) -> list[KeptLayout]:
        """The lane layouts the track keeps, oldest first (for editing again)."""
        return list(self._track.lane_layouts)

    def set_lane_layouts(self, layouts: list[KeptLayout]) -> None:
        """Replace the kept lane layouts (saved with the track as ``lane_layouts``)."""
        self._track.lane_layouts = [plain_layout(kept) for kept in layouts]
        self.layoutsChanged.emit()
        self.changed.emit()


def _plain_background(background: Background) -> Background:
    """A copy of ``background`` whose numbers are plain."""
    return dataclasses.replace(
        background,
        at=plain_point(background.at),
        mm_per_pixel=plain_number(background.mm_per_pixel),
        opacity=plain_number(background.opacity),
        turn=plain_number(background.turn),
        page=None if background.page is None else int(background.page),
    )
