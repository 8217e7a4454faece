"""The track as data: what a track file holds, loaded, checked and saved.

Geometry derived from a track lives in ``engine.track.geometry``; this module only
knows the file contract of docs/design.md.
"""

from __future__ import annotations

import copy
import os
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any

from trackside.engine.errors import Place, UnreadableInput
from trackside.engine.resources import missing_track_hint
from trackside.engine.track.layout import KeptLayout
from trackside.engine.yamlio import (
    JsonPath,
    YamlDocument,
    dump_yaml,
    load_yaml,
    parse_yaml,
    refuse_other_kind,
    write_atomic,
)

if TYPE_CHECKING:
    from trackside.engine.schema import ViolationKind

FORMAT = "trackside-track/1"
# What begins a schema problem's message on the command line, as `trackside validate`
# has it (severity, then code): render, simulate, moves and validate say one alike.
SCHEMA_HEAD = "error schema"
DEFAULT_TOLERANCE = 1.0
NOT_PLAYED = ("name", "author", "description", "labels", "background")  # a track's words and looks
MAX_SPACES = 20_000  # the most spaces a track file may hold (its schema says the same)
# The keys of a track file, in the order a file writes them (and its schema lists them).
FILE_KEYS = (
    "format",
    "name",
    "author",
    "description",
    "tolerance",
    "centerline",
    "spaces",
    "start_grid",
    "betting_lines",
    "finish_line",
    "labels",
    "background",
    "lane_layouts",
)

Number = int | float
Point = tuple[Number, Number]
Segment = tuple[Point, Point]


@dataclass
class Space:
    """One space of the board: a simple polygon in a lane."""

    id: str
    lane: int
    corners: list[Point]
    kind: str | None = None
    label: str | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": self.id,
            "lane": self.lane,
            "corners": [list(c) for c in self.corners],
        }
        if self.kind is not None:
            out["kind"] = self.kind
        if self.label is not None:
            out["label"] = self.label
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Space:
        return cls(
            id=data["id"],
            lane=data["lane"],
            corners=[_point(c) for c in data["corners"]],
            kind=data.get("kind"),
            label=data.get("label"),
        )


@dataclass
class Centerline:
    """The racing line in driving direction; closed for a loop."""

    closed: bool
    points: list[Point]


@dataclass
class Label:
    """Free text printed on the board."""

    text: str
    at: Point
    size: Number | None = None
    angle: Number | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"text": self.text, "at": list(self.at)}
        if self.size is not None:
            out["size"] = self.size
        if self.angle is not None:
            out["angle"] = self.angle
        return out


@dataclass
class Background:
    """A picture under the spaces in the editor, to trace over (never printed)."""

    path: str
    at: Point
    mm_per_pixel: Number
    opacity: Number = 0.5
    locked: bool = False
    hidden: bool = False
    page: int | None = None  # the page shown, 1 for the first, when the file is a PDF
    turn: Number = 0  # degrees counter-clockwise as seen, about ``at``
    mirrored: bool = False  # flipped left to right (before the turn)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "path": self.path,
            "at": list(self.at),
            "mm_per_pixel": self.mm_per_pixel,
            "opacity": self.opacity,
        }
        if self.locked:
            out["locked"] = True
        if self.hidden:
            out["hidden"] = True
        if self.page is not None:
            out["page"] = self.page
        if self.turn:
            out["turn"] = self.turn
        if self.mirrored:
            out["mirrored"] = True
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Background:
        return cls(
            path=data["path"],
            at=_point(data["at"]),
            mm_per_pixel=data["mm_per_pixel"],
            opacity=data.get("opacity", 0.5),
            locked=bool(data.get("locked", False)),
            hidden=bool(data.get("hidden", False)),
            page=data.get("page"),
            turn=data.get("turn", 0),
            mirrored=bool(data.get("mirrored", False)),
        )


@dataclass
class Track:
    """A circuit as in a track file (docs/design.md, track model)."""

    name: str
    centerline: Centerline
    spaces: list[Space]
    start_grid: list[str]
    betting_lines: list[Segment]
    finish_line: Segment
    author: str | None = None
    description: str | None = None
    tolerance: Number | None = None
    labels: list[Label] = field(default_factory=list)
    background: Background | None = None
    # Lane layouts kept for the editor's Lanes tool; the rules never read them.
    lane_layouts: list[KeptLayout] = field(default_factory=list, repr=False)
    source: str | None = field(default=None, compare=False, repr=False)

    @property
    def tol(self) -> float:
        """The tolerance in mm (docs/design.md default 1.0)."""
        return float(self.tolerance) if self.tolerance is not None else DEFAULT_TOLERANCE

    def space(self, space_id: str) -> Space:
        """The space with this id (first one if ids repeat)."""
        for sp in self.spaces:
            if sp.id == space_id:
                return sp
        raise KeyError(space_id)

    def copy(self) -> Track:
        """A deep copy, independent of this track."""
        return copy.deepcopy(self)

    def plays_like(self, other: Track) -> bool:
        """True when ``other`` differs from this circuit at most in what no game reads:
        its name, author, description, labels and background picture."""
        return all(
            getattr(self, f.name) == getattr(other, f.name)
            for f in fields(self)
            if f.compare and f.name not in NOT_PLAYED
        )

    def to_dict(self) -> dict[str, Any]:
        """The file form, keys in the order of ``FILE_KEYS``."""
        out: dict[str, Any] = {"format": FORMAT, "name": self.name}
        for key in ("author", "description", "tolerance"):
            value = getattr(self, key)
            if value is not None:
                out[key] = value
        out["centerline"] = {
            "closed": self.centerline.closed,
            "points": [list(p) for p in self.centerline.points],
        }
        out["spaces"] = [sp.to_dict() for sp in self.spaces]
        out["start_grid"] = list(self.start_grid)
        out["betting_lines"] = [[list(a), list(b)] for a, b in self.betting_lines]
        out["finish_line"] = [list(p) for p in self.finish_line]
        if self.labels:
            out["labels"] = [lb.to_dict() for lb in self.labels]
        if self.background is not None:
            out["background"] = self.background.to_dict()
        if self.lane_layouts:
            out["lane_layouts"] = [kept.to_data() for kept in self.lane_layouts]
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any], source: str | None = None) -> Track:
        """Build from schema-valid file data (see ``schema_problems``)."""
        cl = data["centerline"]
        return cls(
            name=data["name"],
            centerline=Centerline(closed=cl["closed"], points=[_point(p) for p in cl["points"]]),
            spaces=[Space.from_dict(s) for s in data["spaces"]],
            start_grid=list(data["start_grid"]),
            betting_lines=[_segment(s) for s in data["betting_lines"]],
            finish_line=_segment(data["finish_line"]),
            author=data.get("author"),
            description=data.get("description"),
            tolerance=data.get("tolerance"),
            labels=[
                Label(
                    text=lb["text"], at=_point(lb["at"]), size=lb.get("size"), angle=lb.get("angle")
                )
                for lb in data.get("labels", [])
            ],
            background=Background.from_dict(data["background"]) if "background" in data else None,
            lane_layouts=[KeptLayout.from_data(d) for d in data.get("lane_layouts", [])],
            source=source,
        )

    def played_data(self) -> dict[str, Any]:
        """What a game reads of the circuit (what game records fingerprint): its file
        form without ``NOT_PLAYED`` and without the kept lane layouts, which only the
        editor and the balance lab's lane fixes read."""
        out = self.to_dict()
        for key in ("format", *NOT_PLAYED, "lane_layouts"):
            out.pop(key, None)
        return out

    def to_yaml(self) -> str:
        """The track file text."""
        return dump_yaml(self.to_dict())


def _point(p: Any) -> Point:
    return (p[0], p[1])


def _segment(s: Any) -> Segment:
    return (_point(s[0]), _point(s[1]))


@dataclass
class SchemaProblem:
    """One schema violation with its place in the file and its kind; ``where`` is
    the path of that place (an unknown key's own, not its mapping's)."""

    message: str
    path: JsonPath
    place: Place
    kind: ViolationKind
    where: JsonPath

    def __str__(self) -> str:
        """``file:line:column: error schema: message``, as ``trackside validate`` and
        every command that refuses the file say it."""
        return f"{self.place}: {SCHEMA_HEAD}: {self.message}"


def schema_problems(doc: YamlDocument) -> list[SchemaProblem]:
    """Every violation of the track schema, in file order."""
    from trackside.engine.schema import check
    from trackside.engine.track.schema_words import worded

    return [
        SchemaProblem(worded(v, doc.data, FORMAT), v.path, doc.place(v.where), v.kind, v.where)
        for v in check("track", doc.data)
    ]


def _require_mapping(doc: YamlDocument) -> YamlDocument:
    """A document that is not a mapping at all is no track file (exit code 2)."""
    if not isinstance(doc.data, dict):
        kinds = {
            str: "a single line of text",
            list: "a list",
            int: "a number",
            float: "a number",
            bool: "true or false",
        }
        what = "empty" if doc.data is None else kinds.get(type(doc.data), "a single value")
        place = doc.place(())
        if place.line is None:
            place = Place(doc.file, 1, 1)
        raise UnreadableInput(
            f"not a track file: the document is {what}",
            place,
            f"a track file is a mapping that starts with 'format: {FORMAT}'",
        )
    return doc


def _track_yaml(path: str | os.PathLike[str]) -> YamlDocument:
    """The YAML of a track file; when there is no such file, the error's hint says
    what may have been meant (a close file name, a bundled circuit)."""
    try:
        return load_yaml(path, "track file")
    except UnreadableInput as exc:
        if exc.hint is None and not os.path.lexists(path):
            exc.hint = missing_track_hint(str(path))
        raise


def read_track_document(
    path: str | os.PathLike[str], *, text: str | None = None
) -> tuple[Track | None, YamlDocument, list[SchemaProblem]]:
    """Read a track file, or ``text`` as the content of the file named ``path``: the
    track (None if the schema refuses it), the document, the problems."""
    doc = parse_yaml(text, str(path)) if text is not None else _track_yaml(path)
    doc = _require_mapping(doc)
    refuse_other_kind(doc, "track")
    problems = schema_problems(doc)
    track = None if problems else Track.from_dict(doc.data, source=str(path))
    return track, doc, problems


def load_track(path: str | os.PathLike[str]) -> Track:
    """Load a track file, raising a user-facing error if it cannot be used."""
    track, doc, problems = read_track_document(path)
    if track is None:
        from trackside.engine.schema import refusal

        raise refusal(problems, doc, code=SCHEMA_HEAD)
    return track


def save_track(track: Track, path: str | os.PathLike[str]) -> None:
    """Save atomically: the file holds the old or the new track, never half."""
    write_atomic(path, track.to_yaml(), "the track")
