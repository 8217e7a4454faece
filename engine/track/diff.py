"""What changed between two versions of a circuit: spaces by id and geometry, lines, grid.

Spaces are matched by id. A space in both whose outline differs is *moved*; one
whose lane, kind or label differs is *changed*. A space that left under one id
and came back with the same outline under another is *renamed*, not removed
and added. An outline is the polygon: the same corners listed from another
corner or wound the other way are the same space in the same place.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from trackside.engine.track.geometry import LINE_NAMES
from trackside.engine.track.model import Point, Space, Track

# Corners closer than this (mm) count as the same place: the files' own rounding.
SAME_PLACE_MM = 0.001


@dataclass
class TrackDiff:
    """The differences from an old version of a track to a new one (ids as in each)."""

    added: list[str] = field(default_factory=list)  # ids in the new version only
    removed: list[str] = field(default_factory=list)  # ids in the old version only
    moved: list[str] = field(default_factory=list)  # in both, other corners
    changed: list[str] = field(default_factory=list)  # in both, other lane, kind or label
    renamed: list[tuple[str, str]] = field(default_factory=list)  # (old id, new id)
    lines: list[int] = field(default_factory=list)  # lines placed elsewhere (3 is the finish)
    grid: bool = False
    racing_line: bool = False
    details: list[str] = field(default_factory=list)  # name, author, description, ...

    @property
    def same(self) -> bool:
        """True when nothing differs."""
        return not (
            self.added
            or self.removed
            or self.moved
            or self.changed
            or self.renamed
            or self.lines
            or self.grid
            or self.racing_line
            or self.details
        )

    def summary(self) -> str:
        """One line: how many spaces were added, removed, moved, ..."""
        if self.same:
            return "no differences"
        parts = [
            f"{len(ids)} {what}"
            for ids, what in (
                (self.added, "added"),
                (self.removed, "removed"),
                (self.moved, "moved"),
                (self.renamed, "renamed"),
                (self.changed, "changed"),
            )
            if ids
        ]
        text = ("spaces " + ", ".join(parts)) if parts else ""
        others = [LINE_NAMES[k] for k in self.lines]
        others += ["start grid"] * self.grid + ["racing line"] * self.racing_line
        others += self.details
        if others:
            text += ("; " if text else "") + "also " + ", ".join(others)
        return text

    def lines_of_text(self) -> list[str]:
        """Every difference, one per line, as ``trackside diff`` prints them."""
        out = [f"+ {sid}  added" for sid in self.added]
        out += [f"- {sid}  removed" for sid in self.removed]
        out += [f"~ {sid}  moved" for sid in self.moved]
        out += [f"> {old} -> {new}  renamed" for old, new in self.renamed]
        out += [f"* {sid}  lane, kind or label changed" for sid in self.changed]
        out += [f"~ {LINE_NAMES[k]}  moved" for k in self.lines]
        out += ["* start grid  changed"] * self.grid + ["~ racing line  changed"] * self.racing_line
        out += [f"* {name}  changed" for name in self.details]
        return out


def _same_corners(a: list[Point], b: list[Point]) -> bool:
    """The same points in the same order, each within ``SAME_PLACE_MM``."""
    return len(a) == len(b) and all(
        math.dist((float(p[0]), float(p[1])), (float(q[0]), float(q[1]))) <= SAME_PLACE_MM
        for p, q in zip(a, b, strict=True)
    )


def same_outline(a: list[Point], b: list[Point]) -> bool:
    """True when two corner lists draw the same polygon: the same corners within
    ``SAME_PLACE_MM``, whichever corner comes first and whichever way they wind."""
    if len(a) != len(b):
        return False
    if not b:  # two spaces not drawn yet (half-drawn in the editor) are alike
        return True
    backwards = b[::-1]
    return any(
        _same_corners(a, turn[k:] + turn[:k]) for turn in (b, backwards) for k in range(len(b))
    )


def _cell(space: Space) -> tuple[int, int]:
    """The millimetre square holding the middle of a space's corners."""
    xs = [float(p[0]) for p in space.corners]
    ys = [float(p[1]) for p in space.corners]
    return math.floor(sum(xs) / len(xs)), math.floor(sum(ys) / len(ys))


def _near_cells(cell: tuple[int, int]) -> list[tuple[int, int]]:
    # A middle within SAME_PLACE_MM of another lies in its square or a neighbour.
    return [(cell[0] + dx, cell[1] + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)]


def _renames(
    before: dict[str, Space], after: dict[str, Space], gone: list[str], came: list[str]
) -> list[tuple[str, str]]:
    """(old id, new id) for each space gone under one id and come under another
    with the same outline; each new id pairs with one old id at most."""
    by_cell: dict[tuple[int, int], list[str]] = {}
    for sid in came:
        if after[sid].corners:
            by_cell.setdefault(_cell(after[sid]), []).append(sid)
    pairs: list[tuple[str, str]] = []
    for sid in gone:
        corners = before[sid].corners
        if not corners:
            continue
        for cell in _near_cells(_cell(before[sid])):
            twin = next(
                (n for n in by_cell.get(cell, []) if same_outline(corners, after[n].corners)),
                None,
            )
            if twin is not None:
                by_cell[cell].remove(twin)
                pairs.append((sid, twin))
                break
    return pairs


def _segments_differ(a: tuple[Point, Point], b: tuple[Point, Point]) -> bool:
    return not _same_corners(list(a), list(b))


def diff_tracks(old: Track, new: Track) -> TrackDiff:
    """What changed from ``old`` to ``new``."""
    before = {sp.id: sp for sp in old.spaces}
    after = {sp.id: sp for sp in new.spaces}
    out = TrackDiff()
    gone = [sid for sid in before if sid not in after]
    came = [sid for sid in after if sid not in before]
    out.renamed = _renames(before, after, gone, came)
    renamed_from = {old_id for old_id, _new in out.renamed}
    renamed_to = {new_id for _old, new_id in out.renamed}
    out.removed = [sid for sid in gone if sid not in renamed_from]
    out.added = [sid for sid in came if sid not in renamed_to]
    for sid, sp in after.items():
        was = before.get(sid)
        if was is None:
            continue
        if not same_outline(was.corners, sp.corners):
            out.moved.append(sid)
        if (was.lane, was.kind, was.label) != (sp.lane, sp.kind, sp.label):
            out.changed.append(sid)
    old_lines = [*old.betting_lines, old.finish_line]
    new_lines = [*new.betting_lines, new.finish_line]
    out.lines = [
        k
        for k, (a, b) in enumerate(zip(old_lines, new_lines, strict=False))
        if _segments_differ(a, b)
    ]
    out.grid = old.start_grid != new.start_grid
    out.racing_line = old.centerline.closed != new.centerline.closed or not _same_corners(
        list(old.centerline.points), list(new.centerline.points)
    )
    out.details = [
        key
        for key in ("name", "author", "description", "tolerance", "labels")
        if getattr(old, key) != getattr(new, key)
    ]
    return out
