"""Compound edits of the lane and racing-line tools and of the balance lab's fixes, each one
undo step.

They are macros of the commands in ``editor.document.commands``, so undo and redo
stay the document's own business.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtGui import QUndoCommand

from trackside.editor.document.commands import (
    AddSpaces,
    RemoveSpaces,
    ReshapeSpaces,
    SetBackground,
    SetCenterline,
    SetGrid,
    SetLabels,
    SetLaneLayouts,
    SetLine,
    SetSpaceField,
    push_as_one,
)
from trackside.editor.document.lane_draft import Creation
from trackside.editor.document.track_document import (
    UNSET_SEGMENT,
    TrackDocument,
    is_unset,
)
from trackside.engine.schema import schema_part
from trackside.engine.text import listed, plural
from trackside.engine.track.fragment import Fragment, carried_lines, placed
from trackside.engine.track.geometry import FINISH, LINE_NAMES
from trackside.engine.track.layout import KeptLayout
from trackside.engine.track.model import Centerline, Point, Track
from trackside.engine.track.reapply import Reapplication
from trackside.engine.track.transform import (
    Transform,
    bounds_centre,
    map_background,
    map_centerline,
    map_corners,
    map_kept_layout,
    map_label,
    map_segment,
    track_centre,
    translation,
)

PASTE_STEP_MM = 10.0
MAX_KEPT_LAYOUTS: int = schema_part("track", "properties/lane_layouts")["maxItems"]


def create_lanes(
    doc: TrackDocument, creation: Creation, kept: KeptLayout | None = None
) -> list[int]:
    """Add the lane tool's spaces (and racing line, grid and lines if planned)
    as one undo step, keeping the layout ``kept`` for editing again; returns the
    indices of the new spaces."""
    n = len(creation.spaces)
    add = AddSpaces(doc, creation.spaces, text=f"Add {n} lane spaces")
    steps: list[QUndoCommand] = [add]
    if creation.centerline is not None:
        steps.append(SetCenterline(doc, creation.centerline, "Set racing line from the lanes"))
    if creation.grid is not None:
        steps.append(SetGrid(doc, creation.grid))
    if creation.betting is not None:
        steps += [SetLine(doc, k, seg) for k, seg in enumerate(creation.betting)]
    if creation.finish is not None:
        steps.append(SetLine(doc, FINISH, creation.finish))
    if kept is not None and len(doc.lane_layouts) < MAX_KEPT_LAYOUTS:
        steps.append(SetLaneLayouts(doc, [*doc.lane_layouts, kept]))
    elif kept is not None:
        creation.notes.append(
            f"the layout is not kept for editing again: a track keeps at most "
            f"{MAX_KEPT_LAYOUTS} lane layouts"
        )
    push_as_one(doc, f"Lay out {plural(n, 'space')} with the lane tool", steps)
    return [doc.position(sp) for sp in add.spaces]


def reapply_lanes(
    doc: TrackDocument, old: KeptLayout, plan: Reapplication, new: KeptLayout
) -> list[int]:
    """Re-apply an edited lane layout as one undo step: spaces that survive keep
    their id (and stay the same spaces) with new corners and lane, the others are
    removed, new ones added; returns the indices of all the layout's spaces."""
    spaces = {sp.id: sp for sp in doc.track.spaces}
    reshaped = [(spaces[did], built) for did, built in plan.kept]
    moved = [(sp, built) for sp, built in reshaped if sp.corners != built.corners]
    steps: list[QUndoCommand] = []
    if moved:
        steps.append(
            ReshapeSpaces(
                doc, [sp for sp, _b in moved], [b.corners for _sp, b in moved], "Reshape lanes"
            )
        )
    for sp, built in reshaped:
        if sp.lane != built.lane:
            steps.append(SetSpaceField(doc, doc.position(sp), "lane", built.lane))
    gone = [doc.position(spaces[did]) for did in plan.removed]
    if gone:
        steps.append(RemoveSpaces(doc, gone))
    add = AddSpaces(doc, plan.added, text=f"Add {len(plan.added)} lane spaces")
    if plan.added:
        steps.append(add)
    if plan.centerline is not None:
        steps.append(SetCenterline(doc, plan.centerline, "Set racing line from the lanes"))
    layouts = [new if layout is old else layout for layout in doc.lane_layouts]
    steps.append(SetLaneLayouts(doc, layouts, "Keep lane layout"))
    push_as_one(
        doc,
        f"Re-apply lane layout ({len(plan.kept)} kept, {len(plan.removed)} removed, "
        f"{len(plan.added)} added)",
        steps,
    )
    ours = [sp for sp, _b in reshaped] + (add.spaces if plan.added else [])
    return sorted(doc.position(sp) for sp in ours)


def edit_racing_line(doc: TrackDocument, points: list, text: str) -> None:
    """Replace the racing line's points (keeping closed or open) as one undo step."""
    closed = doc.track.centerline.closed
    doc.undo_stack.push(SetCenterline(doc, Centerline(closed=closed, points=list(points)), text))


def transform_spaces(
    doc: TrackDocument,
    indices: list[int],
    lines: list[int],
    make: Callable[[Point], Transform],
    text: str,
) -> str:
    """Mirror, turn or move the spaces at ``indices`` (the whole circuit when none, or
    all, are given) as one undo step. ``make`` builds the map from the centre of what
    moves; ``text`` names the step, with ``{what}`` standing for what moves. The lines
    in ``lines`` and those whose spaces all move go along; the whole circuit takes its
    racing line, labels and background picture too, so the picture stays under what
    was traced on it; a locked picture stays put, as the lock promises, and the
    status says so. Returns what was done, for the status bar ('' when there was
    nothing to do)."""
    track = doc.track
    whole = not indices or len(set(indices)) == len(track.spaces)
    chosen = list(range(len(track.spaces))) if whole else sorted(set(indices))
    if not chosen:
        return ""
    spaces = [track.spaces[i] for i in chosen]
    centre = track_centre(track) if whole else bounds_centre(p for sp in spaces for p in sp.corners)
    tf = make(centre)
    segments = doc.lines()
    moving = set(range(len(segments))) if whole else set(lines) | set(carried_lines(track, chosen))
    moving = {k for k in moving if not is_unset(segments[k])}
    what = "the whole circuit" if whole else plural(len(spaces), "space")
    picture = track.background if whole else None
    if picture is not None and not picture.locked:
        what += " and its background picture"
    if moving and not whole:
        what += " with " + listed([LINE_NAMES[k] for k in sorted(moving)])
    said = text.format(what=what)
    steps: list[QUndoCommand] = [
        ReshapeSpaces(doc, spaces, [map_corners(sp.corners, tf) for sp in spaces], said)
    ]
    steps += [SetLine(doc, k, map_segment(segments[k], tf), exact=True) for k in sorted(moving)]
    if whole and track.centerline.points:
        steps.append(SetCenterline(doc, map_centerline(track.centerline, tf), said))
    if whole and track.labels:
        steps.append(SetLabels(doc, [map_label(lb, tf) for lb in track.labels], said))
    if picture is not None and not picture.locked:
        steps.append(SetBackground(doc, map_background(picture, tf), said))
    if whole and doc.lane_layouts:
        layouts = [map_kept_layout(kept, tf) for kept in doc.lane_layouts]
        steps.append(SetLaneLayouts(doc, layouts, said))
    push_as_one(doc, said, steps)
    if picture is not None and picture.locked:
        return f"{said}; the background picture is locked, so it stays where it was"
    return said


def cut_spaces(doc: TrackDocument, indices: list[int]) -> None:
    """Delete spaces as one undo step, taking away the lines they carry (a paste puts
    those back where no line of the kind is placed)."""
    chosen = sorted(set(indices))
    if not chosen:
        return
    carried = carried_lines(doc.track, chosen)
    steps: list[QUndoCommand] = [RemoveSpaces(doc, chosen)]
    steps += [SetLine(doc, k, UNSET_SEGMENT, exact=True) for k in sorted(carried)]
    push_as_one(doc, f"Cut {plural(len(chosen), 'space')}", steps)


def paste_offset(doc: TrackDocument, fragment: Fragment) -> tuple[float, float]:
    """Where a plain paste goes: where it was copied from, moved on by 10 mm steps
    while it would lie exactly on spaces already there."""
    there = {tuple(map(tuple, sp.corners)) for sp in doc.track.spaces}
    step = 0.0
    while step < 1000 and any(
        tuple((x + step, y + step) for x, y in sp.corners) in there for sp in fragment.spaces
    ):
        step += PASTE_STEP_MM
    return step, step


def paste_fragment(
    doc: TrackDocument, fragment: Fragment, dx: float, dy: float
) -> tuple[list[int], str]:
    """Add a fragment's spaces moved by (dx, dy), with fresh ids where theirs are taken,
    as one undo step. Its lines, grid and racing line are placed only where the track
    has none yet. Returns the indices of the new spaces and what was done."""
    if not fragment.spaces:
        return [], ""
    piece = placed(fragment, (sp.id for sp in doc.track.spaces), translation(dx, dy))
    n = len(piece.spaces)
    segments = doc.lines()
    lines = {k: seg for k, seg in piece.lines.items() if is_unset(segments[k])}
    kept = sorted(set(piece.lines) - set(lines))
    add = AddSpaces(doc, piece.spaces, text=f"Paste {plural(n, 'space')}")
    steps: list[QUndoCommand] = [add]
    steps += [SetLine(doc, k, seg, exact=True) for k, seg in sorted(lines.items())]
    grid = bool(piece.start_grid) and not doc.track.start_grid
    if grid:
        steps.append(SetGrid(doc, piece.start_grid))
    racing = piece.centerline is not None and len(doc.track.centerline.points) < 2
    if racing and piece.centerline is not None:
        steps.append(SetCenterline(doc, piece.centerline, "Paste racing line"))
    push_as_one(doc, f"Paste {plural(n, 'space')}", steps)
    parts = [plural(n, "space")]
    parts += [LINE_NAMES[k] for k in sorted(lines)]
    parts += ["the start grid"] * grid + ["the racing line"] * racing
    said = "Pasted " + listed(parts)
    if kept:
        said += f" ({listed([LINE_NAMES[k] for k in kept])} already placed, kept where it is)"
    return [doc.position(sp) for sp in add.spaces], said


def apply_edited_track(doc: TrackDocument, edited: Track, text: str) -> bool:
    """Make the document's circuit the ``edited`` one where they differ in lines, grid
    or racing line (a fix the balance lab tried), as one undo step ``text``; False
    (and nothing done) when they differ in nothing, or in spaces, which this does not
    change."""
    track = doc.track
    if edited.spaces != track.spaces:
        return False
    wanted = [*edited.betting_lines, edited.finish_line]
    lines = [k for k, seg in enumerate(wanted) if seg != doc.lines()[k]]
    grid = edited.start_grid != track.start_grid
    racing = edited.centerline != track.centerline
    if not (lines or grid or racing):
        return False
    steps: list[QUndoCommand] = [SetLine(doc, k, wanted[k], exact=True) for k in lines]
    if grid:
        steps.append(SetGrid(doc, edited.start_grid))
    if racing:
        steps.append(SetCenterline(doc, edited.centerline, "Move the lap start"))
    push_as_one(doc, text, steps)
    return True
