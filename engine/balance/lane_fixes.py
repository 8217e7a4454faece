"""Lane fixes the balance lab tries where cars jam: a lane added to, or taken from, the
piece of a kept lane layout that holds a jammed stretch, or the next one, and that
piece as wide as the layout has it where lanes were taken away there by hand.

A fix is worded by what it does to the board as it is: the lanes the piece has there
now and after ("1 lane added to piece 5 of lane layout 1 (1 lane there now, 2
after, ...)"), not against the layout, whose width at the piece the board may no
longer have; and every other piece it puts back as the layout has it, since
Re-apply builds the whole layout again.

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
from trackside.engine.text import listed, noun, plural
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
    fewer when it has more than one, and as wide as the layout has it where the board
    there is not (lanes taken away or put back by hand since the layout was applied);
    each only when it changes the lanes on the board there and makes a valid circuit."""
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
                for more in (0, 1, -1) if lanes > 1 else (0, 1):
                    proposal = Proposal("lanes", more, layout=index, piece=changed)
                    if any(f.edit.proposal == proposal for f in found):
                        continue
                    fix = lane_fix(track, proposal, tuple(spaces))
                    if fix is not None:
                        found.append(fix)
    return found


def lane_fix(track: Track, proposal: Proposal, jam: tuple[str, ...] = ()) -> LaneFix | None:
    """The lane fix ``proposal`` (kind "lanes": ``steps`` lanes more than the layout's
    piece has, 0 for the layout's own width) made on ``track`` (which is not changed),
    ``jam`` the stretch it is for, worded by what it does to the board as it is; None
    when it leaves the lanes on the board there as they are or does not make a valid
    circuit."""
    if not 0 <= proposal.layout < len(track.lane_layouts):
        return None
    kept = track.lane_layouts[proposal.layout]
    if not 0 <= proposal.piece < len(kept.pieces):
        return None
    lanes = _lanes(kept, proposal.piece) + proposal.steps
    present = {sp.id for sp in track.spaces}
    board = _board_lanes(kept, present)
    now = board.get(proposal.piece, set())
    if lanes < 1 or not now or now == {lanes}:
        return None
    pieces = list(kept.pieces)
    if proposal.steps:  # the layout's own width back leaves the layout as it is
        pieces[proposal.piece] = replace(pieces[proposal.piece], lanes=lanes)
    changed = replace(kept, pieces=tuple(pieces))
    try:
        plan = plan_reapplication(build_kept(changed), kept, present)
    except LayoutError:
        return None
    new = replace(changed, renamed=renamed_pairs(plan.names))
    edited = reapplied(track, plan, proposal.layout, new)
    if not validate_track(edited).ok:
        return None
    text = _words(proposal, min(now), max(now), lanes, jam) + _also(kept, proposal, board)
    return LaneFix(Edit(proposal, text, jam, edited), kept, new, plan)


def _words(proposal: Proposal, fewest: int, most: int, lanes: int, jam: tuple[str, ...]) -> str:
    """What a lane fix does to the board: from the lanes its piece has there now
    (``fewest`` to ``most`` over the piece's rows) to ``lanes``, and whether that is
    the layout's own width back."""
    where = f"piece {proposal.piece + 1} of lane layout {proposal.layout + 1}"
    if fewest != most:
        head = f"{where[0].upper()}{where[1:]} made {plural(lanes, 'lane')} wide"
        there = f"{fewest} to {most} lanes there now"
    else:
        way = "added to" if lanes > most else "removed from"
        head = f"{plural(abs(lanes - most), 'lane')} {way} {where}"
        there = f"{plural(most, 'lane')} there now, {lanes} after"
    back = ", back to the layout's width" if proposal.steps == 0 else ""
    at = f", where cars jam at {jam[0]}" if jam else ""
    return f"{head}{back} ({there}{at})"


def _also(kept: KeptLayout, proposal: Proposal, board: dict[int, set[int]]) -> str:
    """What the fix puts back elsewhere: Re-apply builds the whole layout again, so every
    other piece whose lanes on the board (``board``) differ from the layout's is made as
    the layout has it too ("" when none is)."""
    others = [
        k for k, now in sorted(board.items()) if k != proposal.piece and now != {_lanes(kept, k)}
    ]
    if not others:
        return ""
    pieces, go = listed(str(k + 1) for k in others), "goes" if len(others) == 1 else "go"
    return f"; {noun(len(others), 'piece')} {pieces} {go} back to the layout's lanes too"


def _lanes(kept: KeptLayout, piece: int) -> int:
    """The lanes piece ``piece`` of ``kept`` has."""
    return kept.pieces[piece].lanes or kept.settings.lanes


def _board_lanes(kept: KeptLayout, present: set[str]) -> dict[int, set[int]]:
    """Per piece of ``kept``, the lanes each of its rows has on the board (the layout's
    spaces still there, by the track ids ``present``): the piece's width in the layout
    unless lanes were taken away by hand; empty when the layout cannot be built."""
    try:
        built = build_kept(kept)
    except LayoutError:
        return {}
    ids = kept_ids(kept)
    rows: dict[int, Counter[int]] = {}
    for sp in built.spaces:
        rows.setdefault(sp.piece, Counter())[sp.row] += ids.get(sp.id, sp.id) in present
    return {piece: set(counts.values()) for piece, counts in rows.items()}


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
