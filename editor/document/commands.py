"""Undoable edits of a ``TrackDocument``: every change to a track is one of these.

Each command keeps what it needs to undo itself and calls only the document's
mutators. Compound edits are macros (``QUndoStack.beginMacro``) built by the
helpers at the end of this module, so that one user action is one undo step.

A command checks what it would put in the track when it is made, before it is
pushed: ``Refused`` (``editor.document.fits``) when the track's file could not
hold it, with the reason in words; the document is then as it was.
"""

from __future__ import annotations

import copy
import functools
import math
from collections.abc import Callable
from typing import Any

from PySide6.QtGui import QUndoCommand

from trackside.editor.document.fits import (
    Refused,
    plain_data,
    refuse_unless_fits,
    refuse_unless_points_fit,
    refuse_unless_spaces_fit,
)
from trackside.editor.document.said import grid_back, grid_moved, line_back, line_moved
from trackside.editor.document.track_document import TrackDocument
from trackside.engine.text import plural
from trackside.engine.track.geometry import LINE_NAMES
from trackside.engine.track.lap_start import centerline_starting_at
from trackside.engine.track.layout import KeptLayout
from trackside.engine.track.model import Centerline, Label, Point, Segment, Space

# Ids for mergeWith: consecutive commands with the same id may merge.
MERGE_NUDGE = 1001


class AddSpaces(QUndoCommand):
    """Add spaces at the end of the track (draw, duplicate, paste)."""

    def __init__(self, doc: TrackDocument, spaces: list[Space], text: str | None = None):
        super().__init__(
            text
            or (f"Add space {spaces[0].id}" if len(spaces) == 1 else f"Add {len(spaces)} spaces")
        )
        self.doc = doc
        # The command's own copies: every redo puts these same objects back, so the
        # commands pushed after this one find them again.
        self.spaces = [copy.deepcopy(sp) for sp in spaces]
        refuse_unless_spaces_fit(self.spaces, len(doc.track.spaces) + len(self.spaces))

    def redo(self) -> None:
        for sp in self.spaces:
            self.doc.insert_space(len(self.doc.track.spaces), sp)

    def undo(self) -> None:
        for sp in reversed(self.spaces):
            self.doc.remove_space(sp)


class RemoveSpaces(QUndoCommand):
    """Remove the spaces now at these indices; undo puts them back where they were."""

    def __init__(self, doc: TrackDocument, indices: list[int]):
        self.spaces = _spaces_at(doc, indices)
        ids = [sp.id for sp in self.spaces]
        super().__init__(f"Delete space {ids[0]}" if len(ids) == 1 else f"Delete {len(ids)} spaces")
        self.doc = doc
        self.places: list[int] = []  # where the spaces were when last removed, ascending

    def redo(self) -> None:
        self.places = sorted(self.doc.position(sp) for sp in self.spaces)
        removed = [self.doc.track.spaces[i] for i in self.places]
        for sp in reversed(removed):
            self.doc.remove_space(sp)
        self.spaces = removed

    def undo(self) -> None:
        for i, sp in zip(self.places, self.spaces, strict=True):
            self.doc.insert_space(i, sp)


class MoveSpaces(QUndoCommand):
    """Translate spaces by (dx, dy) mm. Arrow-key nudges of the same spaces merge."""

    def __init__(
        self, doc: TrackDocument, indices: list[int], dx: float, dy: float, nudge: bool = False
    ):
        self.spaces = _spaces_at(doc, indices)
        super().__init__(
            "Nudge"
            if nudge
            else (
                f"Move space {self.spaces[0].id}"
                if len(self.spaces) == 1
                else f"Move {len(self.spaces)} spaces"
            )
        )
        self.doc = doc
        self.dx, self.dy = dx, dy
        self.nudge = nudge
        self.old = [list(sp.corners) for sp in self.spaces]
        for sp, old in zip(self.spaces, self.old, strict=True):
            refuse_unless_points_fit(self._moved(old), f"space {sp.id}")

    def id(self) -> int:
        return MERGE_NUDGE if self.nudge else -1

    def mergeWith(self, other: QUndoCommand) -> bool:
        if not isinstance(other, MoveSpaces) or not other.nudge or not _same(other, self):
            return False
        self.dx += other.dx
        self.dy += other.dy
        return True

    def _moved(self, corners: list[Point]) -> list[Point]:
        return [(_clean(float(x) + self.dx), _clean(float(y) + self.dy)) for x, y in corners]

    def redo(self) -> None:
        for sp, old in zip(self.spaces, self.old, strict=True):
            self.doc.set_corners(sp, self._moved(old))

    def undo(self) -> None:
        for sp, old in zip(self.spaces, self.old, strict=True):
            self.doc.set_corners(sp, old)


class Replace(QUndoCommand):
    """An edit that puts a new value in one place of the document: redo puts ``new``
    there through the document's mutator ``put``, undo puts ``old`` back."""

    def __init__(self, text: str, put: Callable[[Any], None], old: object, new: object):
        super().__init__(text)
        self.put = put
        self.old = old
        self.new = new

    def redo(self) -> None:
        self.put(self.new)

    def undo(self) -> None:
        self.put(self.old)


class SetCorners(Replace):
    """Replace the corners of one space (move, add or delete a corner)."""

    def __init__(self, doc: TrackDocument, index: int, corners: list[Point], text: str = ""):
        space = doc.track.spaces[index]
        new = _fitting_corners(space, corners_rounded(corners))
        put = functools.partial(doc.set_corners, space)
        super().__init__(text or f"Edit corners of {space.id}", put, list(space.corners), new)


class SetSpaceField(Replace):
    """Change a space's id, lane, kind or label."""

    def __init__(self, doc: TrackDocument, index: int, name: str, value: object):
        space = doc.track.spaces[index]
        put = functools.partial(doc.set_space_field, space, name)
        super().__init__(f"Set {name} of {space.id}", put, getattr(space, name), value)
        changed = copy.copy(space)
        setattr(changed, name, value)
        refuse_unless_fits("$defs/space", changed.to_dict(), (f"space {space.id}",))


class SetGrid(Replace):
    """Set the start grid (six ids, pole first)."""

    def __init__(self, doc: TrackDocument, ids: list[str], text: str = "Set start grid"):
        self.was = list(doc.track.start_grid)
        super().__init__(text, doc.set_grid, self.was, list(ids))
        refuse_unless_fits("properties/start_grid", self.new, ("start_grid",))
        self.doc = doc

    def said(self) -> str:
        """What the move did, once done (how far the grid went back or forward)."""
        return grid_moved(self.doc.track, self.was)

    def unsaid(self) -> str:
        """What undoing the move did."""
        return grid_back(self.was)


class SetLine(Replace):
    """Place betting line k (0-2) or the finish line (3)."""

    def __init__(self, doc: TrackDocument, k: int, segment: Segment, exact: bool = False):
        # A line drawn by hand is rounded to 0.001 mm; one moved with its spaces
        # (``exact``) keeps the precision they have.
        rounded = (lambda v: v) if exact else _clean
        new = (
            (rounded(segment[0][0]), rounded(segment[0][1])),
            (rounded(segment[1][0]), rounded(segment[1][1])),
        )
        put = functools.partial(doc.set_line, k)
        self.was = doc.lines()[k]
        super().__init__(f"Place {LINE_NAMES[k]}", put, self.was, new)
        refuse_unless_points_fit(new, LINE_NAMES[k])
        self.doc, self.k = doc, k

    def said(self) -> str:
        """What the move did, once done (how many spaces earlier or later the line is)."""
        return line_moved(self.doc.track, self.k, self.was)

    def unsaid(self) -> str:
        """What undoing the move did."""
        return line_back(self.k, self.was)


class SetCenterline(Replace):
    """Replace the racing line."""

    def __init__(self, doc: TrackDocument, centerline: Centerline, text: str = "Edit racing line"):
        new = copy.deepcopy(centerline)
        super().__init__(text, doc.set_centerline, copy.deepcopy(doc.track.centerline), new)
        refuse_unless_points_fit(new.points, "racing line")
        data = {"closed": new.closed, "points": [list(p) for p in new.points]}
        refuse_unless_fits("properties/centerline", data, ("racing line",))


class SetLapStart(SetCenterline):
    """Move the lap start of a closed circuit: the racing line's points re-ordered to
    start ``progress`` mm along it (the line itself does not change)."""

    def __init__(self, doc: TrackDocument, progress: float, text: str = "Set lap start"):
        super().__init__(doc, centerline_starting_at(doc.track.centerline, progress), text)


class SetMeta(Replace):
    """Change the track's name, author, description or tolerance."""

    def __init__(self, doc: TrackDocument, name: str, value: object):
        put = functools.partial(doc.set_meta, name)
        super().__init__(f"Set track {name}", put, getattr(doc.track, name), value)
        if value is not None:
            refuse_unless_fits(f"properties/{name}", value, (f"track {name}",))


class ReshapeSpaces(QUndoCommand):
    """Give several spaces new corners at once (mirror, rotate, move by a typed offset)."""

    def __init__(
        self, doc: TrackDocument, spaces: list[Space], corners: list[list[Point]], text: str
    ):
        super().__init__(text)
        self.doc = doc
        self.spaces = list(spaces)
        self.old = [list(sp.corners) for sp in self.spaces]
        self.new = [_fitting_corners(sp, c) for sp, c in zip(self.spaces, corners, strict=True)]

    def redo(self) -> None:
        for sp, corners in zip(self.spaces, self.new, strict=True):
            self.doc.set_corners(sp, corners)

    def undo(self) -> None:
        for sp, corners in zip(self.spaces, self.old, strict=True):
            self.doc.set_corners(sp, corners)


class SetLabels(Replace):
    """Replace the free text printed on the board."""

    def __init__(self, doc: TrackDocument, labels: list[Label], text: str = "Edit labels"):
        new = copy.deepcopy(labels)
        super().__init__(text, doc.set_labels, copy.deepcopy(doc.track.labels), new)
        refuse_unless_points_fit([lb.at for lb in new], "labels")
        refuse_unless_fits("properties/labels", [lb.to_dict() for lb in new], ("labels",))


class SetLaneLayouts(Replace):
    """Replace the lane layouts the document keeps for editing again."""

    def __init__(
        self, doc: TrackDocument, layouts: list[KeptLayout], text: str = "Keep lane layout"
    ):
        super().__init__(text, doc.set_lane_layouts, doc.lane_layouts, list(layouts))
        data = plain_data([kept.to_data() for kept in layouts])
        refuse_unless_fits("properties/lane_layouts", data, ("lane layouts",))


class SetBackground(Replace):
    """Set, change or remove the picture under the spaces."""

    def __init__(self, doc: TrackDocument, background, text: str = "Change background"):
        old = copy.deepcopy(doc.track.background)
        super().__init__(text, doc.set_background, old, copy.deepcopy(background))
        if background is not None:
            refuse_unless_points_fit([background.at], "background")
            data = plain_data(background.to_dict())
            refuse_unless_fits("properties/background", data, ("background",))


# -- compound edits (one undo step each) ---------------------------------


def rename_space(doc: TrackDocument, index: int, new_id: str) -> None:
    """Change a space's id and every start-grid reference to it, as one step."""
    old_id = doc.track.spaces[index].id
    steps: list[QUndoCommand] = [SetSpaceField(doc, index, "id", new_id)]
    last_of_its_id = sum(sp.id == old_id for sp in doc.track.spaces) == 1
    if old_id in doc.track.start_grid and last_of_its_id:
        steps.append(SetGrid(doc, [new_id if g == old_id else g for g in doc.track.start_grid]))
    push_as_one(doc, f"Rename {old_id} to {new_id}", steps)


def push_as_one(doc: TrackDocument, text: str, steps: list[QUndoCommand]) -> None:
    """Push commands already made (each checked: a refused one was never made) as one
    undo step named ``text``; a single command as itself (named ``text`` if given)."""
    if len(steps) == 1:
        if text:
            steps[0].setText(text)
        doc.undo_stack.push(steps[0])
        return
    doc.undo_stack.beginMacro(text)
    for step in steps:
        doc.undo_stack.push(step)
    doc.undo_stack.endMacro()


def delete_spaces(doc: TrackDocument, indices: list[int]) -> None:
    """Delete spaces; grid entries naming them are kept so the issues list shows the gap."""
    if indices:
        doc.undo_stack.push(RemoveSpaces(doc, indices))


def duplicate_spaces(
    doc: TrackDocument, indices: list[int], dx: float = 10.0, dy: float = 10.0
) -> list[int]:
    """Copy spaces with fresh ids, shifted by (dx, dy); returns the new indices."""
    copies = []
    taken = {sp.id for sp in doc.track.spaces}
    for i in sorted(set(indices)):
        sp = copy.deepcopy(doc.track.spaces[i])
        sp.id = _fresh_id(sp.id, taken)
        taken.add(sp.id)
        sp.corners = [(_clean(x + dx), _clean(y + dy)) for x, y in sp.corners]
        copies.append(sp)
    if not copies:
        return []
    add = AddSpaces(doc, copies, text=f"Duplicate {plural(len(copies), 'space')}")
    doc.undo_stack.push(add)
    return [doc.position(sp) for sp in add.spaces]


def _spaces_at(doc: TrackDocument, indices: list[int]) -> list[Space]:
    """The spaces now at these indices, in list order (each once)."""
    return [doc.track.spaces[i] for i in sorted(set(indices))]


def _same(a: MoveSpaces, b: MoveSpaces) -> bool:
    """True when two moves move the very same spaces."""
    return len(a.spaces) == len(b.spaces) and all(
        x is y for x, y in zip(a.spaces, b.spaces, strict=True)
    )


def _fresh_id(stem: str, taken: set[str]) -> str:
    base = stem.rstrip("0123456789") or stem
    n = 2
    while f"{base}{n}" in taken or f"{base}{n}" == stem:
        n += 1
    return f"{base}{n}"


def _clean(v: float) -> float | int:
    """Round to 0.001 mm and drop a needless '.0' so saved files stay readable."""
    r = round(float(v), 3)
    if not math.isfinite(r):
        return r
    return int(r) if r == int(r) else r


def corners_rounded(corners: list[Point]) -> list[Point]:
    """Corners rounded as commands store them (a number that is not finite stays as it
    is, for the check to refuse)."""
    return [(_clean(x), _clean(y)) for x, y in corners]


def _fitting_corners(space: Space, corners: list[Point]) -> list[Point]:
    """``corners`` for ``space``, Refused unless a track file holds them."""
    what = f"space {space.id}"
    refuse_unless_points_fit(corners, what)
    refuse_unless_fits("$defs/space/properties/corners", [list(c) for c in corners], (what,))
    return list(corners)


__all__ = [
    "AddSpaces",
    "MoveSpaces",
    "Refused",
    "RemoveSpaces",
    "ReshapeSpaces",
    "SetBackground",
    "SetCenterline",
    "SetCorners",
    "SetGrid",
    "SetLabels",
    "SetLaneLayouts",
    "SetLine",
    "SetMeta",
    "SetSpaceField",
    "corners_rounded",
    "delete_spaces",
    "duplicate_spaces",
    "push_as_one",
    "rename_space",
]
