"""The words of a track file's schema problems: the space a problem lies in named by
its id, and for the gaps a half-drawn circuit has (no spaces, no start grid, no racing
line...), how to fill them, in the file and in the editor.

The schema's own words say what is wrong and where (``engine.schema``); these add
what a designer does about it, as the validator's messages do.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from trackside.engine.yamlio import JsonPath, path_text

if TYPE_CHECKING:
    from trackside.engine.schema import Violation

# How to add each part a track file may lack or have too few of (by its path).
# (``format`` too: its words name the format, which ``worded`` is given.)
HOW_TO_ADD: dict[JsonPath, str] = {
    ("name",): "give the circuit a name, as 'name: My Circuit'",
    ("centerline",): (
        "add the racing line (centerline: closed and at least 2 points along the track); "
        "in the editor, draw it with the Racing line tool (R), or lay out lanes with the "
        "Lanes tool (L), which draws one"
    ),
    ("centerline", "points"): (
        "give the racing line at least 2 points along the track; in the editor, draw it "
        "with the Racing line tool (R), or lay out lanes with the Lanes tool (L), which "
        "draws one"
    ),
    ("spaces",): (
        "add the board's spaces; in the editor, lay out lanes of spaces with the Lanes "
        "tool (L) or draw them one by one with the Space tool (P)"
    ),
    ("start_grid",): (
        "list the ids of the six start spaces, pole first; in the editor, click them "
        "with the Grid tool (G)"
    ),
    ("betting_lines",): (
        "give three betting lines across the track, in race order; in the editor, place "
        "them with the Betting line tool (B)"
    ),
    ("finish_line",): (
        "give the finish line across the track; in the editor, place it with the Finish "
        "line tool (F)"
    ),
}


def worded(violation: Violation, data: object, file_format: str) -> str:
    """The message of a track file's schema ``violation`` (``data``, the file's
    content; ``file_format``, what its ``format`` says): the space named by its id
    where it has one, and how to add what is missing for the common gaps."""
    from trackside.engine.schema import ViolationKind

    message = _with_space_id(violation.message, violation.path, data)
    gaps: Sequence[JsonPath] = ()
    if violation.kind is ViolationKind.TOO_FEW:
        gaps = [violation.path]
    elif violation.kind is ViolationKind.MISSING_KEY:
        gaps = [(*violation.path, key) for key in violation.missing if isinstance(key, str)]
    how = {("format",): f"begin the file with 'format: {file_format}'", **HOW_TO_ADD}
    fixes = [how[gap] for gap in gaps if gap in how]
    return "; ".join([message, *fixes])


def _with_space_id(message: str, path: JsonPath, data: object) -> str:
    """``spaces[0].corners: ...`` as ``space a1 (spaces[0].corners): ...``."""
    if len(path) < 2 or path[0] != "spaces" or not isinstance(path[1], int):
        return message
    space = _at(data, path[:2])
    sid = space.get("id") if isinstance(space, Mapping) else None
    where = path_text(path)
    if not isinstance(sid, str) or not sid or not message.startswith(where + ":"):
        return message
    return f"space {sid} ({where}){message[len(where) :]}"


def _at(data: object, path: JsonPath) -> object:
    """The value at ``path`` in ``data``; None where there is none."""
    for part in path:
        if isinstance(data, Mapping):
            data = data.get(part)
        elif isinstance(data, list) and isinstance(part, int) and 0 <= part < len(data):
            data = data[part]
        else:
            return None
    return data
