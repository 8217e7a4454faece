"""A lane layout as data: its pieces, the builder's input, and the kept form a track stores.

A layout is a racing line of straights and arcs from a start point and
heading, with a lane count (and kept lanes) per piece. ``LaneLayout`` is what
the lane builder (``engine.track.lanes``) builds spaces from; ``KeptLayout`` is
a layout as a track file keeps it (``lane_layouts``, docs/track-format.md), so
that the editor's Lanes tool can edit it again: its pieces as typed, its
defaults, which straights close the loop, and the ids its spaces were given.

``KeptLayout.from_data`` reads the file form strictly (every key and type
checked; a key that is absent stays absent) and ``to_data`` writes exactly what
was read, so a track file round-trips byte for byte. Conventions for headings,
turns and kept lanes are those of ``engine.track.lanes``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Protocol

from trackside.engine.errors import InvalidInput, Place
from trackside.engine.text import closest

KEEP_CHOICES = ("left", "centre", "right")
MIRRORED_KEEP = {"left": "right", "right": "left"}
MAX_LANES = 6

Coordinates = tuple[float, float]


class LayoutError(InvalidInput):
    """A lane layout that cannot be built or read; the message names the piece."""

    def __init__(self, message: str, hint: str | None = None):
        super().__init__(message, Place("lane layout"), hint)


@dataclass(frozen=True)
class Straight:
    """A straight piece of racing line.

    ``lanes``, ``rows`` and ``stagger`` override the layout's defaults
    for this piece (None: use the layout's lane count, rounded length, stagger);
    ``keep`` is where its lanes lie when it has more or fewer than the layout's
    (one of ``KEEP_CHOICES``; None: centred). ``closes`` is the designer's
    choice of the straights whose length closes a loop (``engine.track.loop_fit``):
    True, this one is fitted to close it; False, it stays as typed; None, the
    fitter may take it when no straight is chosen.
    """

    length: float
    lanes: int | None = None
    rows: int | None = None
    stagger: float | None = None
    keep: str | None = None
    closes: bool | None = None

    @property
    def path_length(self) -> float:
        """Length of the racing line along this piece."""
        return float(self.length)

    @property
    def turn(self) -> float:
        """Turn in degrees (0 for a straight)."""
        return 0.0


@dataclass(frozen=True)
class Arc:
    """A circular piece: ``radius`` of the racing line, ``angle`` in degrees (+ left, - right).

    ``lanes``, ``rows``, ``stagger`` and ``keep`` as for ``Straight``."""

    radius: float
    angle: float
    lanes: int | None = None
    rows: int | None = None
    stagger: float | None = None
    keep: str | None = None

    @property
    def path_length(self) -> float:
        """Length of the racing line along this piece."""
        return float(self.radius) * math.radians(abs(self.angle))

    @property
    def turn(self) -> float:
        """Turn in degrees, + left."""
        return float(self.angle)


Piece = Straight | Arc


@dataclass(frozen=True)
class LaneLayout:
    """Everything ``build_lanes`` needs: the racing line, lanes and space sizes.

    ``pieces`` run from ``start`` with ``heading`` (degrees). ``closed`` makes
    a loop: its end must meet its start within ``closure_tolerance`` mm and
    0.01 degree (``close_loop`` fits two straights to make it so), and the
    last piece then ends exactly on the first one's corners. ``lanes``,
    ``stagger`` (fraction of a row) and ``space_length`` (mm along the racing
    line) are defaults that each piece may override; ``lane_width`` is the
    same everywhere. ``inner`` ("left"/"right") overrides which side lane 0 is
    on. ``max_turn`` bounds the turn at each centerline point and
    ``wedge_step`` the angle between points on a wedge's curved sides
    (degrees).
    """

    pieces: tuple[Piece, ...]
    start: Coordinates = (0.0, 0.0)
    heading: float = 0.0
    closed: bool = False
    lanes: int = 2
    space_length: float = 40.0
    lane_width: float = 40.0
    stagger: float = 0.0
    inner: str | None = None
    max_turn: float = 1.0
    wedge_step: float = 6.0
    closure_tolerance: float = 0.01


@dataclass(frozen=True)
class LayoutSettings:
    """The defaults of a kept layout's pieces, and whether it closes into a loop
    when its turns add up to a whole turn (the file's defaults when a key is absent)."""

    lanes: int = 2
    space_length: float = 40.0
    lane_width: float = 30.0
    stagger: float = 0.0
    close: bool = True


DEFAULTS = LayoutSettings()


class PieceDefaults(Protocol):
    """What the pieces of a layout take when they do not say (``LayoutSettings``, or
    the editor's draft settings)."""

    @property
    def lanes(self) -> int: ...

    @property
    def space_length(self) -> float: ...

    @property
    def lane_width(self) -> float: ...

    @property
    def stagger(self) -> float: ...


def lane_layout(
    pieces: Sequence[Piece],
    start: Coordinates,
    heading: float,
    defaults: PieceDefaults,
    closed: bool = False,
) -> LaneLayout:
    """The builder's input for ``pieces`` from ``start`` with ``heading``."""
    return LaneLayout(
        pieces=tuple(pieces),
        start=start,
        heading=heading,
        closed=closed,
        lanes=defaults.lanes,
        space_length=defaults.space_length,
        lane_width=defaults.lane_width,
        stagger=defaults.stagger,
    )


_SETTING_KEYS = ("lanes", "space_length", "lane_width", "stagger", "close")
_PIECE_KEYS = ("lanes", "rows", "stagger", "keep")


@dataclass(frozen=True)
class KeptLayout:
    """A lane layout as a track keeps it, key for key as in the file.

    An optional key absent from the file is None here and stays absent when
    written; ``settings`` gives the values that hold. ``racing_line`` is True
    when the layout set the track's racing line (re-applying it replaces the
    line); ``renamed`` maps the builder's id of a space (``a1``) to its id in
    the track where the two differ.
    """

    start: Coordinates
    heading: float
    pieces: tuple[Piece, ...]
    lanes: int | None = None
    space_length: float | None = None
    lane_width: float | None = None
    stagger: float | None = None
    close: bool | None = None
    racing_line: bool | None = None
    renamed: tuple[tuple[str, str], ...] | None = None

    @property
    def settings(self) -> LayoutSettings:
        """The defaults that hold: the file's values, else the format's defaults."""
        given = {k: getattr(self, k) for k in _SETTING_KEYS if getattr(self, k) is not None}
        return replace(DEFAULTS, **given)

    @property
    def sets_racing_line(self) -> bool:
        """True when re-applying the layout replaces the track's racing line."""
        return bool(self.racing_line)

    def names(self) -> dict[str, str]:
        """The builder's id of a space mapped to its id in the track, where they differ."""
        return dict(self.renamed or ())

    def lane_layout(self, closed: bool = False) -> LaneLayout:
        """The builder's input for these pieces and settings (not yet fitted into a loop)."""
        return lane_layout(self.pieces, self.start, self.heading, self.settings, closed)

    def to_data(self) -> dict[str, object]:
        """The file form (``lane_layouts`` in docs/track-format.md), keys in order."""
        out: dict[str, object] = {
            "start": [self.start[0], self.start[1]],
            "heading": self.heading,
            "pieces": [piece_data(p) for p in self.pieces],
        }
        for key in (*_SETTING_KEYS, "racing_line"):
            value = getattr(self, key)
            if value is not None:
                out[key] = value
        if self.renamed is not None:
            out["renamed"] = dict(self.renamed)
        return out

    @classmethod
    def from_data(cls, data: object) -> KeptLayout:
        """Read the file form, checking every key and type (``LayoutError`` if wrong)."""
        fields = _mapping(data, "a lane layout")
        _only(fields, {"start", "heading", "pieces", *_SETTING_KEYS, "racing_line", "renamed"})
        pieces = _required(fields, "pieces")
        if not isinstance(pieces, list) or not pieces:
            raise LayoutError("a lane layout's pieces must be a list of at least one piece")
        renamed = fields.get("renamed")
        return cls(
            start=_point(_required(fields, "start"), "start"),
            heading=_number(_required(fields, "heading"), "heading"),
            pieces=tuple(piece_of(p) for p in pieces),
            lanes=_optional_int(fields.get("lanes"), "lanes"),
            space_length=_optional_number(fields.get("space_length"), "space_length"),
            lane_width=_optional_number(fields.get("lane_width"), "lane_width"),
            stagger=_optional_number(fields.get("stagger"), "stagger"),
            close=_optional_bool(fields.get("close"), "close"),
            racing_line=_optional_bool(fields.get("racing_line"), "racing_line"),
            renamed=None if renamed is None else _renamed(renamed),
        )


def renamed_pairs(ids: Mapping[str, str]) -> tuple[tuple[str, str], ...] | None:
    """A kept layout's ``renamed``: the builder ids (``a1``) of ``ids`` that the track
    names otherwise, with those names; None when none is."""
    pairs = tuple((built, named) for built, named in ids.items() if built != named)
    return pairs or None


def tidy(value: float) -> float:
    """A computed value as a file keeps it: rounded to 0.001, an int when whole."""
    rounded = round(float(value), 3)
    return int(rounded) if rounded == int(rounded) else rounded


def mirrored(piece: Piece) -> Piece:
    """The piece seen in a mirror: an arc turns the other way, kept lanes swap sides."""
    keep = MIRRORED_KEEP.get(piece.keep, piece.keep) if piece.keep else None
    if isinstance(piece, Arc):
        return replace(piece, angle=-piece.angle, keep=keep)
    return replace(piece, keep=keep)


def piece_data(piece: Piece) -> dict[str, object]:
    """A piece in the file form: ``{straight: LENGTH}`` or ``{arc: RADIUS, turn: DEGREES}``
    with its optional keys."""
    out: dict[str, object] = (
        {"straight": piece.length}
        if isinstance(piece, Straight)
        else {"arc": piece.radius, "turn": piece.angle}
    )
    for key in _PIECE_KEYS:
        value = getattr(piece, key)
        if value is not None:
            out[key] = value
    if isinstance(piece, Straight) and piece.closes is not None:
        out["closes"] = piece.closes
    return out


def piece_of(data: object) -> Piece:
    """Read a piece of the file form, checking its keys and types."""
    fields = _mapping(data, "a piece")
    lanes = _optional_int(fields.get("lanes"), "lanes")
    rows = _optional_int(fields.get("rows"), "rows")
    stagger = _optional_number(fields.get("stagger"), "stagger")
    keep = fields.get("keep")
    if keep is not None and keep not in KEEP_CHOICES:
        raise LayoutError(f"a piece's keep must be one of {', '.join(KEEP_CHOICES)}, got {keep!r}")
    kept = keep if isinstance(keep, str) else None
    if "straight" in fields:
        _only(fields, {"straight", *_PIECE_KEYS, "closes"})
        return Straight(
            _number(fields["straight"], "straight"),
            lanes=lanes,
            rows=rows,
            stagger=stagger,
            keep=kept,
            closes=_optional_bool(fields.get("closes"), "closes"),
        )
    _only(fields, {"arc", "turn", *_PIECE_KEYS})
    return Arc(
        _number(_required(fields, "arc"), "arc"),
        _number(_required(fields, "turn"), "turn"),
        lanes=lanes,
        rows=rows,
        stagger=stagger,
        keep=kept,
    )


# -- strict reading ----------------------------------------------------------


def _mapping(data: object, what: str) -> Mapping[str, object]:
    if not isinstance(data, Mapping) or not all(isinstance(k, str) for k in data):
        raise LayoutError(f"{what} must be a mapping of names to values, got {data!r}")
    return data


def _only(fields: Mapping[str, object], allowed: set[str]) -> None:
    unknown = sorted(set(fields) - allowed)
    if unknown:
        near = closest(unknown[0], sorted(allowed))
        meant = f" (did you mean {near!r}?)" if near else ""
        raise LayoutError(f"unknown key {unknown[0]!r} in a lane layout{meant}")


def _required(fields: Mapping[str, object], key: str) -> object:
    if key not in fields:
        raise LayoutError(f"a lane layout needs {key!r}")
    return fields[key]


def _number(value: object, key: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise LayoutError(f"{key} must be a number, got {value!r}")
    return value


def _optional_number(value: object, key: str) -> float | None:
    return None if value is None else _number(value, key)


def _optional_int(value: object, key: str) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise LayoutError(f"{key} must be a whole number, got {value!r}")
    return value


def _optional_bool(value: object, key: str) -> bool | None:
    if value is None:
        return None
    if not isinstance(value, bool):
        raise LayoutError(f"{key} must be true or false, got {value!r}")
    return value


def _point(value: object, key: str) -> Coordinates:
    if not isinstance(value, list | tuple) or len(value) != 2:
        raise LayoutError(f"{key} must be a point [x, y], got {value!r}")
    return (_number(value[0], key), _number(value[1], key))


def _renamed(value: object) -> tuple[tuple[str, str], ...]:
    fields = _mapping(value, "renamed")
    pairs = []
    for builder_id, track_id in fields.items():
        if not isinstance(track_id, str):
            raise LayoutError(f"renamed ids must be text, got {track_id!r} for {builder_id!r}")
        pairs.append((builder_id, track_id))
    return tuple(pairs)
