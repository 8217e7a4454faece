"""Lane fixes the balance lab tries where cars jam: a lane added to, or taken from, the
piece of a kept lane layout that holds a jammed stretch.

Each is the layout built again with one piece changed, its spaces matched with the
track's as Re-apply matches them (``plan_reapplication``), so the circuit tried is
the one Apply makes in the editor, as one undo step (``compound.reapply_lanes``).
No Qt: ``trackside suggest`` tries them too.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace

from trackside.editor.document.lane_draft import (
    KeptLayout,
    Reapplication,
    build_draft,
    plan_reapplication,
)
from trackside.engine.balance.edits import Edit, Proposal
from trackside.engine.errors import TracksideError
from trackside.engine.track.model import Track
from trackside.engine.track.validate import validate_track


@dataclass(frozen=True)
class LaneFix:
    """A lane fix: the edit the lab plays, and how to apply it to the document."""

    edit: Edit
    old: KeptLayout  # the document's layout, as it is
    new: KeptLayout  # the layout with the piece changed
    plan: Reapplication


def lane_fixes(
    track: Track, layouts: Sequence[KeptLayout], jams: Sequence[tuple[str, ...]]
) -> list[LaneFix]:
    """For each jammed stretch (its space ids) lying in a piece of one of ``layouts``
    (the lane layouts ``track`` keeps): that piece with one lane more, and with one lane
    fewer when it has more than one; each only when it makes a valid circuit."""
    found: list[LaneFix] = []
    for spaces in jams:
        for index, kept in enumerate(layouts):
            piece = _piece_holding(kept, spaces)
            if piece is None:
                continue
            # Cars queue on the piece that holds the jam; the narrowing that causes it
            # is often the next one.
            for changed in dict.fromkeys((piece, (piece + 1) % len(kept.pieces))):
                lanes = kept.pieces[changed].lanes or kept.settings.lanes
                for more in (1, -1) if lanes > 1 else (1,):
                    fix = _changed(track, index, kept, changed, lanes + more, tuple(spaces))
                    if fix is not None and all(f.edit.proposal != fix.edit.proposal for f in found):
                        found.append(fix)
    return found


def _piece_holding(kept: KeptLayout, spaces: Sequence[str]) -> int | None:
    """The piece of ``kept`` that holds most of ``spaces`` (document ids), if any."""
    built = build_draft(kept.draft()).result
    if built is None:
        return None
    builder = {doc_id: builder_id for builder_id, doc_id in kept.ids.items()}
    pieces = Counter(
        built.space(builder[s]).piece
        for s in spaces
        if s in builder and builder[s] in {sp.id for sp in built.spaces}
    )
    return pieces.most_common(1)[0][0] if pieces else None


def _changed(
    track: Track, index: int, kept: KeptLayout, piece: int, lanes: int, jam: tuple[str, ...]
) -> LaneFix | None:
    """Piece ``piece`` of layout ``index`` with ``lanes`` lanes, as a lane fix at ``jam``."""
    more = lanes - (kept.pieces[piece].lanes or kept.settings.lanes)
    pieces = list(kept.pieces)
    pieces[piece] = replace(pieces[piece], lanes=lanes)
    draft = replace(kept.draft(), pieces=pieces)
    build = build_draft(draft)
    present = {sp.id for sp in track.spaces}
    try:
        plan = plan_reapplication(build, kept, present)
    except TracksideError:
        return None
    new = KeptLayout.of(draft, plan.names, kept.owns_centerline)
    edited = _planned_track(track, plan, index, new)
    if not validate_track(edited).ok:
        return None
    proposal = Proposal("lanes", more, layout=index, piece=piece)
    text = f"{proposal.words()} ({lanes} lanes there, where cars jam at {jam[0]})"
    return LaneFix(Edit(proposal, text, jam, edited), kept, new, plan)


def _planned_track(track: Track, plan: Reapplication, index: int, new: KeptLayout) -> Track:
    """``track`` as Re-apply would leave it (``track`` itself is not changed)."""
    reshaped = {doc_id: built for doc_id, built in plan.kept}
    gone = set(plan.removed)
    spaces = [
        replace(sp, lane=reshaped[sp.id].lane, corners=reshaped[sp.id].corners)
        if sp.id in reshaped
        else sp
        for sp in track.spaces
        if sp.id not in gone
    ]
    layouts = list(track.lane_layouts)
    layouts[index] = new.to_data()
    return replace(
        track,
        spaces=[*spaces, *plan.added],
        centerline=plan.centerline or track.centerline,
        lane_layouts=layouts,
    )
