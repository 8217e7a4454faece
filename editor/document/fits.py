"""Only what the file holds goes into the document.

Before an undo command changes the track it checks what it would put there
against the track schema (``schemas/track.schema.json``, the one the editor
opens files with), so that every state of the document saves to a file the
editor opens again. Values are made plain on the way in (a numpy number is a
``float`` to ``isinstance`` and to mypy, yet no file can hold it). What is only
missing (too few spaces, grid entries or lines) is no refusal: a half-drawn
circuit saves and opens as a draft.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterable
from typing import Protocol

from trackside.engine.errors import more_problems
from trackside.engine.schema import ViolationKind, check_part, schema_part
from trackside.engine.track.layout import KeptLayout
from trackside.engine.track.model import MAX_SPACES, Point, Space
from trackside.engine.yamlio import JsonPath, NotPlainData, check_plain

# How far from the origin a point may lie, in mm (either way, on either axis).
COORDINATE_MM: int = schema_part("track", "$defs/number")["maximum"]


def most_characters(pointer: str) -> int:
    """The longest text the track schema takes at ``pointer`` (``"properties/name"``)."""
    return int(schema_part("track", pointer)["maxLength"])


class Refused(ValueError):
    """An edit the document does not take: it would put in the track what its file
    cannot hold. ``str()`` says what, in words for the status bar."""


class Kinded(Protocol):
    """A schema problem, as the schema check or a track reader gives it."""

    @property
    def kind(self) -> ViolationKind: ...


def only_missing(problem: Kinded) -> bool:
    """True for a schema problem that only says parts are still missing (too few
    spaces, grid entries or lines): a draft, which opens and saves."""
    return problem.kind is ViolationKind.TOO_FEW


def breaks_schema(pointer: str, value: object, at: JsonPath = ()) -> list[str]:
    """What ``value``, standing at ``at`` in a track file, breaks in the part of the
    track schema at ``pointer`` ('' for the whole), other than by lacking parts."""
    return [v.message for v in check_part("track", pointer, value, at) if not only_missing(v)]


def refuse_unless_fits(pointer: str, value: object, at: JsonPath) -> None:
    """Refused when ``value``, standing at ``at`` in a track file, breaks the part of
    the track schema at ``pointer`` (other than by lacking parts)."""
    problems = breaks_schema(pointer, value, at)
    if problems:
        raise Refused(problems[0] + more_problems(len(problems) - 1))


def plain_number(value: object) -> int | float:
    """``value`` as a plain int or float (a numpy number becomes one); TypeError for
    anything else, ValueError for a number that is not finite."""
    if type(value) is int:
        return value
    if type(value) is float:
        if not math.isfinite(value):
            raise ValueError(f"{value} is no finite number")
        return value
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{value!r} is no number")
    if isinstance(value, numbers.Integral):
        return int(value)
    return plain_number(float(value))


def plain_point(point: Iterable[object]) -> Point:
    """A point of plain numbers."""
    x, y = point
    return (plain_number(x), plain_number(y))


def plain_points(points: Iterable[Iterable[object]]) -> list[Point]:
    """Points of plain numbers."""
    return [plain_point(p) for p in points]


def refuse_unless_points_fit(points: Iterable[Point], what: str) -> None:
    """Refused when a point is no pair of finite numbers within the coordinates a file
    holds (``what`` names the points in the message)."""
    for x, y in points:
        for v in (x, y):
            if type(v) in (int, float) and -COORDINATE_MM <= v <= COORDINATE_MM:
                continue  # the common case, at once
            if isinstance(v, numbers.Real) and not math.isfinite(v):
                raise Refused(f"{what}: {v} is no finite number")
            if isinstance(v, numbers.Real):
                raise Refused(
                    f"{what} would reach {float(v):,.0f} mm; a track file holds "
                    f"coordinates from -{COORDINATE_MM:,} to {COORDINATE_MM:,} mm"
                )
            refuse_unless_fits("$defs/point", [_as_data(x), _as_data(y)], (what,))


def refuse_unless_spaces_fit(spaces: Iterable[Space], total: int) -> None:
    """Refused when a space breaks the schema or the track would hold more than
    ``MAX_SPACES`` (``total``: how many it would hold)."""
    if total > MAX_SPACES:
        raise Refused(
            f"the track would have {total:,} spaces; a track file holds at most {MAX_SPACES:,}"
        )
    for space in spaces:
        refuse_unless_fits("$defs/space", space.to_dict(), (f"space {space.id}",))


def _as_data(value: object) -> object:
    """A number as the schema check should see it: plain when it is one, else as it is."""
    try:
        return plain_number(value)
    except (TypeError, ValueError):
        return value


def plain_data(value: object) -> object:
    """File data (mappings, lists, text, true or false, numbers) with every number made
    plain; Refused for a number that is not finite."""
    if isinstance(value, dict):
        return {key: plain_data(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [plain_data(item) for item in value]
    if isinstance(value, str | bool) or value is None:
        return str(value) if isinstance(value, str) else value
    try:
        return plain_number(value)
    except ValueError:
        raise Refused(f"{value} is no finite number") from None


def plain_layout(kept: KeptLayout) -> KeptLayout:
    """``kept`` itself when every number in it is plain, else a copy whose numbers are
    (a layout built from numpy's arithmetic would not write)."""
    data = kept.to_data()
    try:
        check_plain(data)
    except NotPlainData:
        return KeptLayout.from_data(plain_data(data))
    return kept
