"""Lane fixes the balance lab tries where cars jam: a lane added to, or taken from, the
piece of a kept lane layout that holds a jammed stretch, or the next one.

Each is the layout built again with one piece changed, its spaces matched with the
track's as Re-apply matches them (``engine.track.reapply``), so that the circuit
tried is the one the editor's Apply makes, as one undo step, from the same
``LaneFix`` (``lane_fix`` makes it again from its proposal).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace

from trackside.engine.balance.edits import Edit, Proposal
from trackside.engine.text import plural
from trackside.engine.track.lanes import LayoutError
from trackside.engine.track.layout import KeptLayout, renamed_pairs
from trackside.engine.track.loop_fit import build_kept, kept_ids
from trackside.engine.track.model import Track
from trackside.engine.track.reapply import Reapplication, plan_reapplication, reapplied
from trackside.engine.track.validate import validate_track


@dataclass(frozen=True)
class LaneFix:
    """A lane fix: the edit the lab plays, and how Re-apply makes it on the track."""

    edit: Edit
    old: KeptLayout  # the track's layout, as it is
    new: KeptLayout  # the layout with the piece changed
    plan: Reapplication


def lane_fixes(track: Track, jams: Sequence[Sequence[str]]) -> list[LaneFix]:
    """For each jammed stretch (its space ids) lying in a piece of one of the lane layouts
    ``track`` keeps: that piece, and the next, with one lane more, and with one lane
    fewer when it has more than one; each only when it makes a valid circuit."""
    found: list[LaneFix] = []
    for spaces in jams:
        for index, kept in enumerate(track.lane_layouts):
            piece = _piece_holding(kept, spaces)
            if piece is None:
                continue
            # Cars queue on the piece that holds the jam; the narrowing that causes it
            # is often the next one.
            for changed in dict.fromkeys((piece, (piece + 1) % len(kept.pieces))):
                lanes = _lanes(kept, changed)
                for more in (1, -1) if lanes > 1 else (1,):
                    proposal = Proposal("lanes", more, layout=index, piece=changed)
                    if any(f.edit.proposal == proposal for f in found):
                        continue
                    fix = lane_fix(track, proposal, tuple(spaces))
                    if fix is not None:
                        found.append(fix)
    return found


def lane_fix(track: Track, proposal: Proposal, jam: tuple[str, ...] = ()) -> LaneFix | None:
    """The lane fix ``proposal`` (kind "lanes") made on ``track`` (which is not changed),
    ``jam`` the stretch it is for; None when it does not make a valid circuit."""
    if not 0 <= proposal.layout < len(track.lane_layouts):
        return None
    kept = track.lane_layouts[proposal.layout]
    if not 0 <= proposal.piece < len(kept.pieces):
        return None
    lanes = _lanes(kept, proposal.piece) + proposal.steps
    pieces = list(kept.pieces)
    pieces[proposal.piece] = replace(pieces[proposal.piece], lanes=lanes)
    changed = replace(kept, pieces=tuple(pieces))
    present = {sp.id for sp in track.spaces}
    try:
        plan = plan_reapplication(build_kept(changed), kept, present)
    except LayoutError:
        return None
    new = replace(changed, renamed=renamed_pairs(plan.names))
    edited = reapplied(track, plan, proposal.layout, new)
    if not validate_track(edited).ok:
        return None
    where = f", where cars jam at {jam[0]}" if jam else ""
    text = f"{proposal.words()} ({plural(lanes, 'lane')} there{where})"
    return LaneFix(Edit(proposal, text, jam, edited), kept, new, plan)


def _lanes(kept: KeptLayout, piece: int) -> int:
    """The lanes piece ``piece`` of ``kept`` has."""
    return kept.pieces[piece].lanes or kept.settings.lanes


def _piece_holding(kept: KeptLayout, spaces: Sequence[str]) -> int | None:
    """The piece of ``kept`` that holds most of ``spaces`` (track ids), if any."""
    try:
        built = build_kept(kept)
    except LayoutError:
        return None
    piece_of = {sp.id: sp.piece for sp in built.spaces}
    builder = {track_id: builder_id for builder_id, track_id in kept_ids(kept).items()}
    pieces = Counter(piece_of[builder[s]] for s in spaces if builder.get(s) in piece_of)
    return pieces.most_common(1)[0][0] if pieces else None
