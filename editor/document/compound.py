"""Compound edits of the lane and racing-line tools, each one undo step.

They are macros of the commands in ``editor.document.commands``, so undo and redo
stay the document's own business.
"""

from __future__ import annotations

from trackside.editor.document.commands import AddSpaces, SetCenterline, SetGrid, SetLine
from trackside.editor.document.lane_draft import Creation
from trackside.editor.document.track_document import TrackDocument
from trackside.engine.track.geometry import FINISH
from trackside.engine.track.model import Centerline


def create_lanes(doc: TrackDocument, creation: Creation) -> list[int]:
    """Add the lane tool's spaces (and racing line, grid and lines if planned)
    as one undo step; returns the indices of the new spaces."""
    first = len(doc.track.spaces)
    n = len(creation.spaces)
    stack = doc.undo_stack
    stack.beginMacro(f"Lay out {n} space{'s' if n != 1 else ''} with the lane tool")
    stack.push(AddSpaces(doc, creation.spaces, text=f"Add {n} lane spaces"))
    if creation.centerline is not None:
        stack.push(SetCenterline(doc, creation.centerline, "Set racing line from the lanes"))
    if creation.grid is not None:
        stack.push(SetGrid(doc, creation.grid))
    if creation.betting is not None:
        for k, seg in enumerate(creation.betting):
            stack.push(SetLine(doc, k, seg))
    if creation.finish is not None:
        stack.push(SetLine(doc, FINISH, creation.finish))
    stack.endMacro()
    return list(range(first, first + n))


def edit_racing_line(doc: TrackDocument, points: list, text: str) -> None:
    """Replace the racing line's points (keeping closed or open) as one undo step."""
    closed = doc.track.centerline.closed
    doc.undo_stack.push(SetCenterline(doc, Centerline(closed=closed, points=list(points)), text))
