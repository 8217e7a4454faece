"""A piece of a track as copied and pasted: some spaces, the lines and grid they carry.

A fragment is written as YAML in the layout of a track file (docs/track-format.md)
with ``format: trackside-fragment/1``; the keys other than ``spaces`` are optional.
A whole track file reads as a fragment too, so a circuit copied as text from
anywhere pastes as it is.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from shapely.geometry import Polygon

from trackside.engine.errors import Place, UnreadableInput
from trackside.engine.track.geometry import LINE_COUNT, segment_line
from trackside.engine.track.model import FORMAT, Centerline, Segment, Space, Track
from trackside.engine.track.transform import (
    Transform,
    bounds_centre,
    fresh_ids,
    map_centerline,
    map_segment,
    map_space,
)
from trackside.engine.yamlio import dump_yaml, parse_yaml

FRAGMENT_FORMAT = "trackside-fragment/1"
GRID_SIZE = 6
# Stand-ins for the optional parts when the schema checks a fragment as a track.
_STAND_IN_POINTS = [[0, 0], [1, 0]]
_STAND_IN_SEGMENT = [[0, 0], [0, 0]]


@dataclass
class Fragment:
    """Spaces, and the lines (by index, 3 is the finish), grid and racing line they carry."""

    spaces: list[Space]
    lines: dict[int, Segment] = field(default_factory=dict)
    start_grid: list[str] = field(default_factory=list)
    centerline: Centerline | None = None
    name: str = ""

    def to_dict(self) -> dict[str, Any]:
        """The YAML form, keys in the order of a track file."""
        out: dict[str, Any] = {"format": FRAGMENT_FORMAT}
        if self.name:
            out["name"] = self.name
        if self.centerline is not None:
            out["centerline"] = {
                "closed": self.centerline.closed,
                "points": [list(p) for p in self.centerline.points],
            }
        out["spaces"] = [sp.to_dict() for sp in self.spaces]
        if self.start_grid:
            out["start_grid"] = list(self.start_grid)
        if any(k < LINE_COUNT - 1 for k in self.lines):
            out["betting_lines"] = [
                [list(p) for p in self.lines.get(k, _UNSET)] for k in range(LINE_COUNT - 1)
            ]
        if LINE_COUNT - 1 in self.lines:
            out["finish_line"] = [list(p) for p in self.lines[LINE_COUNT - 1]]
        return out

    def to_yaml(self) -> str:
        """The text put on the clipboard."""
        return dump_yaml(self.to_dict())

    def centre(self) -> tuple[float, float]:
        """The centre of the bounding box of the spaces."""
        x, y = bounds_centre(p for sp in self.spaces for p in sp.corners)
        return float(x), float(y)


_UNSET: Segment = ((0, 0), (0, 0))


def _is_set(segment: Segment) -> bool:
    return tuple(segment[0]) != tuple(segment[1])


def carried_lines(track: Track, indices: Iterable[int]) -> dict[int, Segment]:
    """The lines (by index, 3 is the finish) whose spaces are all among ``indices``.

    A line's spaces are those that come within the tolerance of its segment; a line
    that touches no space, or is not placed yet, is carried by none.
    """
    chosen = set(indices)
    if not chosen:
        return {}
    lines = [*track.betting_lines, track.finish_line]
    shapes = {}
    for i, sp in enumerate(track.spaces):
        if len(sp.corners) >= 3:
            shapes[i] = Polygon([(float(x), float(y)) for x, y in sp.corners])
    out: dict[int, Segment] = {}
    for k, seg in enumerate(lines):
        if not _is_set(seg):
            continue
        line = segment_line(seg)
        touching = {i for i, poly in shapes.items() if poly.distance(line) <= track.tol}
        if touching and touching <= chosen:
            out[k] = seg
    return out


def copy_fragment(track: Track, indices: Iterable[int]) -> Fragment:
    """The spaces at ``indices`` with what they carry: the lines whose spaces are all
    copied, the start grid if all six are, and the racing line if every space is."""
    chosen = sorted(set(indices))
    spaces = [copy.deepcopy(track.spaces[i]) for i in chosen]
    ids = {sp.id for sp in spaces}
    grid = list(track.start_grid)
    whole = len(chosen) == len(track.spaces)
    return Fragment(
        spaces=spaces,
        lines=carried_lines(track, chosen),
        start_grid=grid if len(grid) == GRID_SIZE and set(grid) <= ids else [],
        centerline=copy.deepcopy(track.centerline)
        if whole and len(track.centerline.points) >= 2
        else None,
        name=track.name,
    )


def placed(fragment: Fragment, taken: Iterable[str], tf: Transform) -> Fragment:
    """The fragment with ids not in ``taken`` (fresh ones where they clash), mapped by
    ``tf``; the grid follows the new ids."""
    new_ids = fresh_ids((sp.id for sp in fragment.spaces), taken)
    spaces = []
    for sp in fragment.spaces:
        moved = map_space(sp, tf)
        moved.id = new_ids[sp.id]
        spaces.append(moved)
    return Fragment(
        spaces=spaces,
        lines={k: map_segment(seg, tf) for k, seg in fragment.lines.items()},
        start_grid=[new_ids.get(g, g) for g in fragment.start_grid],
        centerline=map_centerline(fragment.centerline, tf) if fragment.centerline else None,
        name=fragment.name,
    )


def parse_fragment(text: str, file: str = "<clipboard>") -> Fragment:
    """Read a fragment (or a whole track file) from YAML text; raise if it is neither."""
    doc = parse_yaml(text, file)
    data = doc.data
    if not isinstance(data, dict) or data.get("format") not in (FRAGMENT_FORMAT, FORMAT):
        raise UnreadableInput(
            "no Trackside spaces here",
            Place(file),
            "copy spaces in the editor first (Edit > Copy)",
        )
    from trackside.engine.schema import check, refusal

    trial = {
        "format": FORMAT,
        "name": data.get("name", "fragment"),
        "centerline": data.get("centerline", {"closed": True, "points": _STAND_IN_POINTS}),
        "spaces": data.get("spaces"),
        "start_grid": data.get("start_grid", ["x"] * GRID_SIZE),
        "betting_lines": data.get("betting_lines", [_STAND_IN_SEGMENT] * (LINE_COUNT - 1)),
        "finish_line": data.get("finish_line", _STAND_IN_SEGMENT),
    }
    problems = check("track", trial)
    if problems:
        raise refusal(problems, doc)
    track = Track.from_dict(trial, source=file)
    lines = [*track.betting_lines, track.finish_line]
    return Fragment(
        spaces=track.spaces,
        lines={k: seg for k, seg in enumerate(lines) if _is_set(seg)},
        start_grid=list(data.get("start_grid", [])),
        centerline=track.centerline if "centerline" in data else None,
        name=str(data.get("name", "")),
    )
