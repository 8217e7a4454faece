"""Undoable edits of a ``TrackDocument``: every change to a track is one of these.

Each command keeps what it needs to undo itself and calls only the document's
mutators. Compound edits are macros (``QUndoStack.beginMacro``) built by the
helpers at the end of this module, so that one user action is one undo step.
"""

from __future__ import annotations

import copy

from PySide6.QtGui import QUndoCommand

from trackside.editor.document.track_document import TrackDocument
from trackside.engine.track.geometry import LINE_NAMES
from trackside.engine.track.model import Centerline, Point, Segment, Space

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
        self.spaces = [copy.deepcopy(sp) for sp in spaces]
        self.first = len(doc.track.spaces)

    def redo(self) -> None:
        for k, sp in enumerate(self.spaces):
            self.doc.insert_space(self.first + k, copy.deepcopy(sp))

    def undo(self) -> None:
        for k in reversed(range(len(self.spaces))):
            self.doc.remove_space(self.first + k)


class RemoveSpaces(QUndoCommand):
    """Remove spaces by index; undo puts them back where they were."""

    def __init__(self, doc: TrackDocument, indices: list[int]):
        self.indices = sorted(set(indices))
        ids = [doc.track.spaces[i].id for i in self.indices]
        super().__init__(f"Delete space {ids[0]}" if len(ids) == 1 else f"Delete {len(ids)} spaces")
        self.doc = doc
        self.removed: list[Space] = []

    def redo(self) -> None:
        self.removed = [self.doc.track.spaces[i] for i in self.indices]
        for i in reversed(self.indices):
            self.doc.remove_space(i)

    def undo(self) -> None:
        for i, sp in zip(self.indices, self.removed, strict=False):
            self.doc.insert_space(i, sp)


class MoveSpaces(QUndoCommand):
    """Translate spaces by (dx, dy) mm. Arrow-key nudges of the same spaces merge."""

    def __init__(
        self, doc: TrackDocument, indices: list[int], dx: float, dy: float, nudge: bool = False
    ):
        super().__init__(
            "Nudge"
            if nudge
            else (
                f"Move space {doc.track.spaces[indices[0]].id}"
                if len(indices) == 1
                else f"Move {len(indices)} spaces"
            )
        )
        self.doc = doc
        self.indices = sorted(set(indices))
        self.dx, self.dy = dx, dy
        self.nudge = nudge
        self.old = {i: list(doc.track.spaces[i].corners) for i in self.indices}

    def id(self) -> int:
        return MERGE_NUDGE if self.nudge else -1

    def mergeWith(self, other: QUndoCommand) -> bool:
        if not isinstance(other, MoveSpaces) or other.indices != self.indices or not other.nudge:
            return False
        self.dx += other.dx
        self.dy += other.dy
        return True

    def redo(self) -> None:
        for i in self.indices:
            old = self.old[i]
            self.doc.set_corners(
                i, [(_clean(float(x) + self.dx), _clean(float(y) + self.dy)) for x, y in old]
            )

    def undo(self) -> None:
        for i in self.indices:
            self.doc.set_corners(i, self.old[i])


class SetCorners(QUndoCommand):
    """Replace the corners of one space (move, add or delete a corner)."""

    def __init__(self, doc: TrackDocument, index: int, corners: list[Point], text: str = ""):
        sp = doc.track.spaces[index]
        super().__init__(text or f"Edit corners of {sp.id}")
        self.doc = doc
        self.index = index
        self.old = list(sp.corners)
        self.new = [(_clean(x), _clean(y)) for x, y in corners]

    def redo(self) -> None:
        self.doc.set_corners(self.index, self.new)

    def undo(self) -> None:
        self.doc.set_corners(self.index, self.old)


class SetSpaceField(QUndoCommand):
    """Change a space's id, lane, kind or label."""

    def __init__(self, doc: TrackDocument, index: int, name: str, value: object):
        sp = doc.track.spaces[index]
        super().__init__(f"Set {name} of {sp.id}")
        self.doc = doc
        self.index = index
        self.name = name
        self.old = getattr(sp, name)
        self.new = value

    def redo(self) -> None:
        self.doc.set_space_field(self.index, self.name, self.new)

    def undo(self) -> None:
        self.doc.set_space_field(self.index, self.name, self.old)


class SetGrid(QUndoCommand):
    """Set the start grid (six ids, pole first)."""

    def __init__(self, doc: TrackDocument, ids: list[str], text: str = "Set start grid"):
        super().__init__(text)
        self.doc = doc
        self.old = list(doc.track.start_grid)
        self.new = list(ids)

    def redo(self) -> None:
        self.doc.set_grid(self.new)

    def undo(self) -> None:
        self.doc.set_grid(self.old)


class SetLine(QUndoCommand):
    """Place betting line k (0-2) or the finish line (3)."""

    def __init__(self, doc: TrackDocument, k: int, segment: Segment):
        super().__init__(f"Place {LINE_NAMES[k]}")
        self.doc = doc
        self.k = k
        self.old = doc.lines()[k]
        self.new = (
            (_clean(segment[0][0]), _clean(segment[0][1])),
            (_clean(segment[1][0]), _clean(segment[1][1])),
        )

    def redo(self) -> None:
        self.doc.set_line(self.k, self.new)

    def undo(self) -> None:
        self.doc.set_line(self.k, self.old)


class SetCenterline(QUndoCommand):
    """Replace the racing line."""

    def __init__(self, doc: TrackDocument, centerline: Centerline, text: str = "Edit racing line"):
        super().__init__(text)
        self.doc = doc
        self.old = copy.deepcopy(doc.track.centerline)
        self.new = copy.deepcopy(centerline)

    def redo(self) -> None:
        self.doc.set_centerline(self.new)

    def undo(self) -> None:
        self.doc.set_centerline(self.old)


class SetMeta(QUndoCommand):
    """Change the track's name, author, description or tolerance."""

    def __init__(self, doc: TrackDocument, name: str, value: object):
        super().__init__(f"Set track {name}")
        self.doc = doc
        self.name = name
        self.old = getattr(doc.track, name)
        self.new = value

    def redo(self) -> None:
        self.doc.set_meta(self.name, self.new)

    def undo(self) -> None:
        self.doc.set_meta(self.name, self.old)


# -- compound edits (one undo step each) ---------------------------------


def rename_space(doc: TrackDocument, index: int, new_id: str) -> None:
    """Change a space's id and every start-grid reference to it, as one step."""
    old_id = doc.track.spaces[index].id
    stack = doc.undo_stack
    stack.beginMacro(f"Rename {old_id} to {new_id}")
    stack.push(SetSpaceField(doc, index, "id", new_id))
    if old_id in doc.track.start_grid and doc.index_of(old_id) is None:
        stack.push(SetGrid(doc, [new_id if g == old_id else g for g in doc.track.start_grid]))
    stack.endMacro()


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
    first = len(doc.track.spaces)
    doc.undo_stack.push(
        AddSpaces(
            doc, copies, text=f"Duplicate {len(copies)} space" + ("s" if len(copies) > 1 else "")
        )
    )
    return list(range(first, first + len(copies)))


def _fresh_id(stem: str, taken: set[str]) -> str:
    base = stem.rstrip("0123456789") or stem
    n = 2
    while f"{base}{n}" in taken or f"{base}{n}" == stem:
        n += 1
    return f"{base}{n}"


def _clean(v: float) -> float | int:
    """Round to 0.001 mm and drop a needless '.0' so saved files stay readable."""
    r = round(float(v), 3)
    return int(r) if r == int(r) else r


def corners_rounded(corners: list[Point]) -> list[Point]:
    """Corners rounded as commands store them."""
    return [(_clean(x), _clean(y)) for x, y in corners]


__all__ = [
    "AddSpaces",
    "MoveSpaces",
    "RemoveSpaces",
    "SetCenterline",
    "SetCorners",
    "SetGrid",
    "SetLine",
    "SetMeta",
    "SetSpaceField",
    "corners_rounded",
    "delete_spaces",
    "duplicate_spaces",
    "rename_space",
]
