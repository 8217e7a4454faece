"""Re-applying an edited lane layout to a track: which of the spaces it made stay (same
id, new corners or lane), which go, and which come, with ids that clash with none.

The editor's Lanes tool makes such a plan one undo step
(``editor.document.compound.reapply_lanes``); ``reapplied`` gives the track it
leaves without changing the one given, so that the balance lab can try a layout
changed this way (``engine.balance.lane_fixes``) and Apply makes that very circuit.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, replace

from trackside.engine.track.lanes import LaneResult
from trackside.engine.track.layout import KeptLayout
from trackside.engine.track.loop_fit import kept_ids
from trackside.engine.track.model import Centerline, Space, Track

_BUILDER_ID = re.compile(r"^[a-z](\d+)$")  # the builder's ids: a lane letter, a row number


def highest_row(ids: Iterable[str]) -> int:
    """The highest row number among ``ids`` of the builder's form (``b12``: 12), else 0."""
    return max((int(m.group(1)) for m in map(_BUILDER_ID.match, ids) if m), default=0)


@dataclass
class Reapplication:
    """What re-applying an edited layout changes: spaces that survive (same id, same
    object) get new corners or lane, the others go, new ones come."""

    kept: list[tuple[str, Space]]  # track id, the space as built now
    removed: list[str]  # track ids
    added: list[Space]
    names: dict[str, str]  # builder id -> track id, for the next edit
    centerline: Centerline | None = None


def plan_reapplication(result: LaneResult, old: KeptLayout, present: set[str]) -> Reapplication:
    """Match the spaces of ``result`` (the edited layout built) with those ``old`` made (by
    the builder's id), given the ids ``present`` in the track now; new spaces get ids
    that clash with none."""
    alive = {bid: did for bid, did in kept_ids(old).items() if did in present}
    built = result.track_spaces()
    new_ids = {sp.id for sp in built}
    kept = [(alive[sp.id], sp) for sp in built if sp.id in alive]
    removed = [did for bid, did in alive.items() if bid not in new_ids]
    taken = present | set(alive.values())
    fresh = [sp for sp in built if sp.id not in alive]
    names = {bid: did for bid, did in alive.items() if bid in new_ids}
    added = []
    top = highest_row(taken)
    for sp in fresh:
        sid = sp.id if sp.id not in taken else f"{sp.id[0]}{top + int(sp.id[1:])}"
        taken.add(sid)
        names[sp.id] = sid
        added.append(Space(id=sid, lane=sp.lane, corners=sp.corners))
    centerline = result.track_centerline() if old.sets_racing_line else None
    return Reapplication(kept, removed, added, names, centerline)


def reapplied(track: Track, plan: Reapplication, index: int, new: KeptLayout) -> Track:
    """``track`` as re-applying ``plan`` leaves it, its lane layout ``index`` now ``new``
    (``track`` itself is not changed)."""
    reshaped = {did: built for did, built in plan.kept}
    gone = set(plan.removed)
    spaces = [
        replace(sp, lane=reshaped[sp.id].lane, corners=reshaped[sp.id].corners)
        if sp.id in reshaped
        else sp
        for sp in track.spaces
        if sp.id not in gone
    ]
    layouts = list(track.lane_layouts)
    layouts[index] = new
    return replace(
        track,
        spaces=[*spaces, *plan.added],
        centerline=plan.centerline or track.centerline,
        lane_layouts=layouts,
    )
