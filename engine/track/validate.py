"""Track validation: every problem of a track at once, as data.

``validate_file(path)`` reads a track file and checks it; ``validate_track(track,
doc)`` checks a track already in memory (the editor re-validates live). The
``Report`` lists ``Issue`` objects, errors first, then in file order; the CLI
and the editor's issue list show the same report. Rule and model references
are to docs/design.md ("Track model") and docs/rules.md.

Issue codes (stable; also in docs/validation.md):

=========================  ========  =============================================
code                       severity  meaning
=========================  ========  =============================================
schema                     error     the file breaks the track schema
duplicate-id               error     two spaces share one id
grid-size                  error     the start grid does not list 6 spaces
grid-repeat                error     the start grid lists a space twice
grid-unknown-id            error     the start grid names a space that does not exist
grid-not-behind-line       error     a start space is not behind betting line 1
line-count                 error     there are not exactly 3 betting lines
centerline-degenerate      error     the racing line has (almost) no length
centerline-crossing        error     the racing line crosses itself
bad-polygon                error     a space is not a usable simple polygon
space-size                 error     a space is too small or too large to be a board space
overlap                    error     two spaces overlap
off-racing-line            error     a space lies far from the racing line
across-seam                error     a space lies across the lap start of a closed track
line-misses-centerline     error     a betting or finish line does not cross the racing line
line-crosses-twice         error     a line crosses the racing line more than once
line-order                 error     lines are not in race order (1, 2, 3, finish)
line-cuts-space            error     a line runs through a space instead of along edges
line-gap                   error     a line does not span the track (a step passes it)
no-finish-space            error     no space lies beyond the finish line
dead-end                   error     a space (before the finish) has no forward neighbour
start-cannot-finish        error     no forward path leads from a start space to the finish
unreachable                warning   spaces no car can reach from the start grid
single-file                warning   a stretch where every car must use the same space
coarse-centerline          warning   the racing line has too few points on a curve
lane-mismatch              warning   side-by-side spaces with inconsistent lane numbers
grid-order                 warning   the start grid is not listed front to back
background-not-a-file      warning   the background picture's path is a folder, named pipe or device
bet-near-finish            warning   a betting line so near the finish that its bet comes too late
=========================  ========  =============================================

Thresholds: a space is far off the racing line when its centroid is more than
``OFF_LINE_FACTOR`` (4) times the median space size (square root of the area)
from the racing line. The racing line is too coarse where it turns more than
``COARSE_TURN_DEG`` (2) degrees at one point and a space there is far enough
from it that the projection error (offset x turn / 2) exceeds half the
tolerance. A betting line is too near the finish when fewer than ``BET_ROOM_ROWS``
(3) rows lie between it and the finish on the shortest way.
"""

from __future__ import annotations

import gc
import math
import os
from collections import deque
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import shapely

from trackside.engine.errors import Place, place_text
from trackside.engine.text import noun, plural
from trackside.engine.track.geometry import (
    BETTING_LINE_COUNT,
    FINISH,
    LINE_COUNT,
    TrackGeometry,
    line_name,
)
from trackside.engine.track.line_order import line_order
from trackside.engine.track.model import FILE_KEYS, Track, read_track_document
from trackside.engine.yamlio import JsonPath, YamlDocument, file_kind

ERROR = "error"
WARNING = "warning"

CODES: dict[str, str] = {
    "schema": ERROR,
    "duplicate-id": ERROR,
    "grid-size": ERROR,
    "grid-repeat": ERROR,
    "grid-unknown-id": ERROR,
    "grid-not-behind-line": ERROR,
    "line-count": ERROR,
    "centerline-degenerate": ERROR,
    "centerline-crossing": ERROR,
    "bad-polygon": ERROR,
    "space-size": ERROR,
    "overlap": ERROR,
    "off-racing-line": ERROR,
    "across-seam": ERROR,
    "line-misses-centerline": ERROR,
    "line-crosses-twice": ERROR,
    "line-order": ERROR,
    "line-cuts-space": ERROR,
    "line-gap": ERROR,
    "no-finish-space": ERROR,
    "dead-end": ERROR,
    "start-cannot-finish": ERROR,
    "unreachable": WARNING,
    "single-file": WARNING,
    "coarse-centerline": WARNING,
    "lane-mismatch": WARNING,
    "grid-order": WARNING,
    "background-not-a-file": WARNING,
    "bet-near-finish": WARNING,
}

OFF_LINE_FACTOR = 4.0
# A board space holds a car: its size (the square root of its area) in mm.
# Outside this range the file is in other units or scaled, and drawing it fails.
SPACE_SIZE_MM = (5.0, 500.0)
COARSE_TURN_DEG = 2.0
# A bet is made after the card that takes the first car over its line (R-BET-1, R-BET-2).
# A row of the standard deck moves a car 3.3 spaces on average, so with fewer than 3 rows
# between a line and the finish, most moves that take a car over the line take it over
# the finish too: the bet comes with a car already home. The bundled circuits keep 6 or
# more rows between their third line and the finish.
BET_ROOM_ROWS = 3
_KEY_ORDER = {key: n for n, key in enumerate(FILE_KEYS)}


@dataclass
class Issue:
    """One problem: a stable code, its severity, a message and where it is.

    ``spaces`` are space ids; ``line`` is 0-2 for a betting line, 3 for the
    finish line; ``path`` is the JSON path in the file; ``file``,
    ``yaml_line`` and ``yaml_column`` are known only for a track read from a file.
    """

    code: str
    severity: str
    message: str
    spaces: list[str] = field(default_factory=list)
    line: int | None = None
    path: JsonPath = ()
    file: str | None = None
    yaml_line: int | None = None
    yaml_column: int | None = None

    def where(self) -> str:
        """``file:line:column`` as far as known."""
        return place_text(self.file, self.yaml_line, self.yaml_column, unnamed="<track>")

    def to_dict(self) -> dict[str, Any]:
        """JSON form, every key present."""
        return {
            "code": self.code,
            "severity": self.severity,
            "message": self.message,
            "spaces": list(self.spaces),
            "line": self.line,
            "path": list(self.path),
            "file": self.file,
            "yaml_line": self.yaml_line,
            "yaml_column": self.yaml_column,
        }


@dataclass
class Report:
    """The validation report of one track."""

    issues: list[Issue] = field(default_factory=list)
    file: str | None = None

    @property
    def errors(self) -> int:
        return sum(1 for i in self.issues if i.severity == ERROR)

    @property
    def warnings(self) -> int:
        return sum(1 for i in self.issues if i.severity == WARNING)

    @property
    def ok(self) -> bool:
        """True when there is no error (warnings allowed)."""
        return self.errors == 0

    def codes(self) -> list[str]:
        """The codes of the issues, in report order."""
        return [i.code for i in self.issues]

    def summary(self) -> str:
        """One line: how many errors and warnings."""
        return (
            f"{self.file or '<track>'}: {plural(self.errors, 'error')}, "
            f"{plural(self.warnings, 'warning')}"
        )

    def to_dict(self) -> dict[str, Any]:
        """JSON form: file, ok, counts and the issues."""
        return {
            "file": self.file,
            "ok": self.ok,
            "errors": self.errors,
            "warnings": self.warnings,
            "issues": [i.to_dict() for i in self.issues],
        }


def validate_file(path: str | os.PathLike[str]) -> Report:
    """Read a track file and validate it.

    Raises ``UnreadableInput`` when the file cannot be read or parsed at all;
    schema problems become issues, and then the geometry is not checked.
    """
    with _no_garbage_collection():
        track, doc, problems = read_track_document(path)
        if track is None:
            issues = [
                _placed(Issue("schema", ERROR, p.message, path=tuple(p.path)), p.place)
                for p in problems
            ]
            return Report(_ordered(issues), doc.file)
        return validate_track(track, doc)


@contextmanager
def _no_garbage_collection() -> Iterator[None]:
    """Python's collector off for a while: a validation makes tens of thousands of
    objects and no cycles, and each pass of the collector walks all the objects
    made so far (a tenth of the time at 10,000 spaces, and growing faster than
    the track). Collection resumes afterwards as it was."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()


def validate_track(
    track: Track, doc: YamlDocument | None = None, geometry: TrackGeometry | None = None
) -> Report:
    """Check a track against the track model; ``doc`` (the file it came from)
    lets issues carry YAML lines. Pass ``geometry`` to reuse one already built."""
    checker = _Checker(track, geometry or TrackGeometry(track))
    issues = [_locate(issue, doc) for issue in checker.run()]
    return Report(_ordered(issues), doc.file if doc else track.source)


# -- report helpers -----------------------------------------------------------


def _locate(issue: Issue, doc: YamlDocument | None) -> Issue:
    return issue if doc is None else _placed(issue, doc.place(issue.path))


def _placed(issue: Issue, place: Place) -> Issue:
    issue.file, issue.yaml_line, issue.yaml_column = place.file, place.line, place.column
    return issue


def _path_key(path: JsonPath) -> tuple[tuple[int, int, str], ...]:
    return tuple(
        (0, _KEY_ORDER.get(p, 99), "")
        if isinstance(p, str)
        else (1, p, "")
        if isinstance(p, int)
        else (2, 0, str(p))
        for p in path
    )


def _ordered(issues: list[Issue]) -> list[Issue]:
    """Errors first, then by place in the file, then by code."""
    return sorted(
        issues,
        key=lambda i: (
            i.severity != ERROR,
            i.yaml_line or 0,
            i.yaml_column or 0,
            _path_key(i.path),
            i.code,
            i.spaces,
            i.message,
        ),
    )


def _names(ids: list[str], limit: int = 8) -> str:
    if len(ids) <= limit:
        return ", ".join(ids)
    return ", ".join(ids[:limit]) + f" and {len(ids) - limit} more"


def on_every_path(
    order: list[int], succ: dict[int, list[int]], starts: set[int], sink_edges: dict[int, int]
) -> list[int]:
    """The nodes, in ``order``, that every path from a start to a sink passes.

    ``order`` is a topological order of the graph's nodes (a successor not in it
    is left out); a path starts at a node of ``starts`` and ends along one of
    ``sink_edges[a]`` edges out of ``a``. A path misses v exactly when one of
    its edges jumps over v in the order, so v is on all of them when it is on
    one and no edge of any path jumps over it. (Counting the paths to and from
    each node says the same, but the counts grow to numbers of n digits.)
    """
    pos = {a: k for k, a in enumerate(order)}
    reached = dict.fromkeys(order, False)
    for a in order:
        if a in starts:
            reached[a] = True
        if reached[a]:
            for b in succ[a]:
                if b in pos:
                    reached[b] = True
    finishing = dict.fromkeys(order, False)
    for a in reversed(order):
        finishing[a] = sink_edges[a] > 0 or any(finishing.get(b, False) for b in succ[a])
    n = len(order)
    if not any(reached[a] and sink_edges[a] > 0 for a in order):
        return []
    # jumps[k] - jumps[k - 1]: edges of some path that begin before k and end after it
    jumps = [0] * (n + 1)
    for k, a in enumerate(order):
        if a in starts and finishing[a]:  # from the common start, before every node
            jumps[0] += 1
            jumps[k] -= 1
        if not reached[a]:
            continue
        if sink_edges[a] > 0:  # to the common end, after every node
            jumps[k + 1] += 1
            jumps[n] -= 1
        for b in succ[a]:
            if finishing.get(b, False):
                jumps[k + 1] += 1
                jumps[pos[b]] -= 1
    found = []
    over = 0
    for k, a in enumerate(order):
        over += jumps[k]
        if over == 0 and reached[a] and finishing[a]:
            found.append(a)
    return found


def _median(values: list[float]) -> float:
    """The middle value, or the mean of the two middle ones (as numpy's median;
    numpy's would import numpy.ma, a tenth of the start-up time)."""
    ordered = sorted(values)
    mid = len(ordered) // 2
    return ordered[mid] if len(ordered) % 2 else (ordered[mid - 1] + ordered[mid]) / 2


def _line_path(k: int) -> JsonPath:
    return ("finish_line",) if k == FINISH else ("betting_lines", k)


def _slot_words(slot: tuple[int | None, int | None]) -> str:
    """Where a line goes back among the others: 'between betting line 1 and betting
    line 3', 'before betting line 2', 'after betting line 3'."""
    before, after = slot
    if before is not None and after is not None:
        return f"between {line_name(before)} and {line_name(after)}"
    if after is not None:
        return f"before {line_name(after)}"
    if before is not None:
        return f"after {line_name(before)}"
    return "into that order"


# -- the checks ---------------------------------------------------------------


class _Checker:
    """Runs every check over one track and its geometry."""

    def __init__(self, track: Track, g: TrackGeometry):
        self.t = track
        self.g = g
        self.issues: list[Issue] = []
        self.bad = set(g.bad_polygons)

    def add(
        self,
        code: str,
        message: str,
        spaces: Sequence[int | str] = (),
        line: int | None = None,
        path: JsonPath = (),
    ) -> None:
        ids = [s if isinstance(s, str) else self.g.ids[s] for s in spaces]
        self.issues.append(Issue(code, CODES[code], message, ids, line, path))

    def space_path(self, i: int, *rest: str) -> JsonPath:
        return ("spaces", i, *rest)

    def run(self) -> list[Issue]:
        self.check_background()
        self.check_ids()
        self.check_grid_list()
        lines_ok = self.check_line_count()
        self.check_polygons()
        self.check_sizes()
        centerline_ok = self.check_centerline()
        if centerline_ok:
            self.check_off_line()
            self.check_seam()
            if lines_ok:
                self.check_lines()
                self.check_grid_position()
                self.check_graph()
            self.check_coarse()
            self.check_lanes()
            self.check_grid_order()
        return self.issues

    # the file beside it
    def check_background(self) -> None:
        """The picture to trace over must be a file: a named pipe would stall whoever
        opens it, a folder or a device is no picture. A missing file is no problem of
        the track (the picture is often not shared with it)."""
        background = self.t.background
        if background is None:
            return
        path = background.path
        if not os.path.isabs(path) and self.t.source:
            path = os.path.join(os.path.dirname(self.t.source), path)
        try:
            kind = file_kind(path)
        except (OSError, ValueError):
            return
        if kind is not None:
            self.add(
                "background-not-a-file",
                f"the background picture {background.path!r} is {kind}, not a picture file; "
                "the editor does not open it (give the path of a PNG, JPEG or PDF file, or "
                "remove the background)",
                path=("background", "path"),
            )

    # structure
    def check_ids(self) -> None:
        first: dict[str, int] = {}
        for i, sid in enumerate(self.g.ids):
            if sid in first:
                self.add(
                    "duplicate-id",
                    f"space id {sid!r} is used again (first by space {first[sid] + 1} "
                    "in the list); give every space its own id",
                    [sid],
                    path=self.space_path(i, "id"),
                )
            else:
                first[sid] = i

    def check_grid_list(self) -> None:
        grid = list(self.t.start_grid)
        if len(grid) != 6:
            self.add(
                "grid-size",
                f"the start grid lists {plural(len(grid), 'space')}; "
                "it needs exactly 6, pole first",
                [s for s in grid if s in self.g.index],
                path=("start_grid",),
            )
        seen: set[str] = set()
        for k, sid in enumerate(grid):
            if sid not in self.g.index:
                self.add(
                    "grid-unknown-id",
                    f"start grid position {k + 1} names space "
                    f"{sid!r}, which does not exist; use the id of a space",
                    path=("start_grid", k),
                )
            elif sid in seen:
                self.add(
                    "grid-repeat",
                    f"start grid position {k + 1} repeats space {sid!r}; "
                    "the grid needs 6 different spaces",
                    [sid],
                    path=("start_grid", k),
                )
            seen.add(sid)

    def check_line_count(self) -> bool:
        n = len(self.t.betting_lines)
        if n != BETTING_LINE_COUNT:
            self.add(
                "line-count",
                f"the track has {n} betting lines; "
                f"it needs exactly {BETTING_LINE_COUNT}, in race order",
                path=("betting_lines",),
            )
            return False
        return True

    def check_polygons(self) -> None:
        g = self.g
        for i, reason in sorted(g.bad_polygons.items()):
            self.add(
                "bad-polygon",
                f"space {g.ids[i]} is not a usable shape: {reason}; "
                "give it 3 or more corners in order around a non-zero area",
                [i],
                path=self.space_path(i, "corners"),
            )
        for ov in g.overlaps:
            a, b = sorted((ov.a, ov.b))
            self.add(
                "overlap",
                f"spaces {g.ids[a]} and {g.ids[b]} overlap by "
                f"{ov.area:.1f} mm²; move their corners so they only share edges",
                [a, b],
                path=self.space_path(a, "corners"),
            )

    def check_sizes(self) -> None:
        """Spaces outside SPACE_SIZE_MM, the too small and the too large together."""
        g = self.g
        low, high = SPACE_SIZE_MM
        small = [i for i in g.good if g.size(i) < low]
        large = [i for i in g.good if g.size(i) > high]
        for group, what in ((small, "small"), (large, "large")):
            if not group:
                continue
            sizes = [g.size(i) for i in group]
            least, most = f"{min(sizes):.3g}", f"{max(sizes):.3g}"
            across = f"{least} mm" if least == most else f"{least} to {most} mm"
            ids = [g.ids[i] for i in group]
            self.add(
                "space-size",
                f"{noun(len(ids), 'space')} {_names(ids)} "
                f"{noun(len(ids), 'is', 'are')} too {what}: {across} across (the square "
                f"root of the area), where a space is {low:g} to {high:g} mm; give "
                "coordinates in millimetres at the size of the printed board",
                group,
                path=self.space_path(group[0], "corners"),
            )

    def check_centerline(self) -> bool:
        g = self.g
        if g.length <= 2 * g.tol:
            self.add(
                "centerline-degenerate",
                f"the racing line is {g.length:.1f} mm long; draw it through "
                "the whole track with at least 2 distinct points",
                path=("centerline", "points"),
            )
            return False
        if not g.centerline.is_simple:
            k = self._crossing_point()
            self.add(
                "centerline-crossing",
                "the racing line crosses itself"
                + (f" near point {k + 1}" if k is not None else "")
                + "; progress along it is ambiguous there, redraw it as one loop or "
                "one path",
                path=("centerline", "points") + ((k,) if k is not None else ()),
            )
        return True

    def _crossing_point(self) -> int | None:
        """The index of the first centerline point near a self-crossing."""
        pts = np.asarray(self.g.centerline.coords, dtype=float)
        lines = shapely.linestrings(np.stack([pts[:-1], pts[1:]], axis=1))
        left, right = shapely.STRtree(lines).query(lines, predicate="intersects")
        last = len(lines) - 1
        for a, b in sorted(zip(left.tolist(), right.tolist(), strict=False)):
            if b <= a + 1 or (self.g.closed and a == 0 and b == last):
                continue
            return min(int(b), len(self.t.centerline.points) - 1)  # where the later pass starts
        return None

    def check_off_line(self) -> None:
        g = self.g
        good = g.good
        if not good:
            return
        sizes = [g.size(i) for i in good]
        limit = OFF_LINE_FACTOR * _median(sizes)
        for i in good:
            if g.offset[i] > limit:
                self.add(
                    "off-racing-line",
                    f"space {g.ids[i]} is {g.offset[i]:.0f} mm from the racing line "
                    f"(more than {limit:.0f} mm, {OFF_LINE_FACTOR:g} space sizes), so its "
                    "progress along the track is unreliable; run the racing line through "
                    "the track near it",
                    [i],
                    path=self.space_path(i),
                )

    def check_seam(self) -> None:
        g = self.g
        for i in g.good:
            if g.straddles_seam[i]:
                self.add(
                    "across-seam",
                    f"space {g.ids[i]} lies across the lap start (where the closed racing "
                    "line begins and ends); move the lap start to an edge between spaces: in "
                    "the editor right-click a space and choose Set Lap Start Here, or drag "
                    "the green lap start marker",
                    [i],
                    path=self.space_path(i),
                )

    # lines
    def check_lines(self) -> None:
        g = self.g
        for k in range(LINE_COUNT):
            name = line_name(k)
            crossings = g.line_crossings[k]
            path = _line_path(k)
            if not crossings:
                self.add(
                    "line-misses-centerline",
                    f"{name} does not cross the racing line; draw it across the whole track",
                    line=k,
                    path=path,
                )
            elif len(crossings) > 1:
                self.add(
                    "line-crosses-twice",
                    f"{name} crosses the racing line "
                    f"{len(crossings)} times; make it one short segment across the track",
                    line=k,
                    path=path,
                )
            progress = g.line_progress[k]
            if g.cuts[k]:
                ids = [g.ids[i] for i in g.cuts[k]]
                self.add(
                    "line-cuts-space",
                    f"{name} runs through {noun(len(ids), 'space')} {_names(ids)}; "
                    "put it on the edges "
                    "between spaces",
                    g.cuts[k],
                    line=k,
                    path=path,
                )
            if progress is not None:
                self.check_gap(k)
        self.check_line_order()
        if g.line_progress[FINISH] is not None and not any(g.beyond[FINISH][i] for i in g.good):
            self.add(
                "no-finish-space",
                "no space lies beyond the finish line, so no car "
                "can finish; add spaces after it or move it back",
                line=FINISH,
                path=_line_path(FINISH),
            )

    def check_line_order(self) -> None:
        """The lines out of race order: the ones moved, where the track tells (the
        others still in order), else the likelier, naming the other; or, every line
        reversed, the racing line's direction."""
        g = self.g
        order = line_order(g.line_progress, g.length)
        rule = "the order is betting lines 1, 2, 3, then the finish"
        if order.reversed:
            first = next(k for k in range(LINE_COUNT) if g.line_progress[k] is not None)
            self.add(
                "line-order",
                f"the lines lie in reverse order along the racing line; {rule} (check that "
                "the racing line runs in the driving direction, and draw it again the other "
                "way round if not)",
                line=first,
                path=_line_path(first),
            )
        for m in order.misplaced:
            progress = g.line_progress[m.line] or 0.0
            if g.wraps and min(progress, g.length - progress) <= g.tol:
                fix = (
                    "it lies on the lap start: move the lap start to between the finish "
                    "line and the grid, e.g. right-click the last grid space and choose Set "
                    "Lap Start Here"
                )
            else:
                fix = (
                    f"move it {_slot_words(m.slot)}, or check that the racing line runs in "
                    "the driving direction"
                )
            instead = (
                f"; {' or '.join(line_name(j) for j in m.instead)} may be the one moved instead"
                if m.instead
                else ""
            )
            self.add(
                "line-order",
                f"{line_name(m.line)} lies {'after' if m.after else 'before'} "
                f"{line_name(m.past)} along the track{instead}; {rule} ({fix})",
                line=m.line,
                path=_line_path(m.line),
            )

    def check_gap(self, k: int) -> None:
        """A step from before line k to beyond it must pass over the line."""
        g = self.g
        beyond = g.beyond[k]
        seg = g.lines[k]
        cut = set(g.cuts[k])
        missed: list[int] = []
        for a in g.good:
            if beyond[a] or a in cut:
                continue
            for b in g.forward[a]:
                if (
                    beyond[b]
                    and b not in cut
                    and not g.wraps_seam(a, b)
                    and not g.step_on_line(a, b, seg)
                ):
                    missed.extend(x for x in (a, b) if x not in missed)
        if missed:
            missed.sort()
            ids = [g.ids[i] for i in missed]
            self.add(
                "line-gap",
                f"{line_name(k)} does not span the track: a car can "
                f"pass it without touching it at spaces {_names(ids)}; extend it across "
                "every lane",
                missed,
                line=k,
                path=_line_path(k),
            )

    def check_grid_position(self) -> None:
        g = self.g
        if g.line_progress[0] is None:
            return
        for k, sid in enumerate(self.t.start_grid):
            i = g.index.get(sid)
            if i is None or i in self.bad:
                continue
            if g.beyond[0][i] or i in g.cuts[0]:
                self.add(
                    "grid-not-behind-line",
                    f"start space {sid} (grid position {k + 1}) "
                    "is not behind betting line 1; put the grid just after the lap start "
                    "and before the first betting line (or move the lap start to just "
                    "behind the grid: Set Lap Start Here on its last space)",
                    [i],
                    line=0,
                    path=("start_grid", k),
                )

    def check_grid_order(self) -> None:
        g = self.g
        grid = [g.index.get(s) for s in self.t.start_grid]
        prev: int | None = None
        for k, i in enumerate(grid):
            if i is None or i in self.bad:
                continue
            if prev is not None and g.delta(g.front[prev], g.front[i]) > g.tol:
                self.add(
                    "grid-order",
                    f"start space {g.ids[i]} (grid position {k + 1}) is "
                    f"ahead of {g.ids[prev]} (position {k}); list the grid pole first, "
                    "front to back",
                    [prev, i],
                    path=("start_grid", k),
                )
            prev = i

    # the forward graph
    def check_graph(self) -> None:
        g = self.g
        has_finish = g.line_progress[FINISH] is not None
        # Without a finish line no space is beyond it.
        before = [not beyond for beyond in g.beyond[FINISH]]
        if g.closed or has_finish:
            for i in g.good:
                if not g.forward[i] and (g.closed or before[i]):
                    self.add(
                        "dead-end",
                        f"space {g.ids[i]} has no space ahead of it: a car "
                        "there could never move on; connect it to a space further along "
                        "the track",
                        [i],
                        path=self.space_path(i),
                    )
        grid = [
            g.index[s]
            for s in dict.fromkeys(self.t.start_grid)
            if s in g.index and g.index[s] not in self.bad
        ]
        if has_finish:
            finishing = self.can_finish()
            for k, sid in enumerate(self.t.start_grid):
                at = g.index.get(sid)
                if (
                    at is not None
                    and at not in self.bad
                    and at not in finishing
                    and not g.beyond[FINISH][at]
                    and sid not in self.t.start_grid[:k]
                ):
                    self.add(
                        "start-cannot-finish",
                        f"no forward path leads from start space "
                        f"{sid} to the finish; connect the grid to the track",
                        [at],
                        path=("start_grid", k),
                    )
            self.check_single_file(grid, before)
            self.check_bet_room()
        self.check_reachable(grid)

    def can_finish(self) -> set[int]:
        """Spaces from which some forward walk reaches a space beyond the finish."""
        g = self.g
        back: list[list[int]] = [[] for _ in range(g.n)]
        for a in range(g.n):
            for b in g.forward[a]:
                back[b].append(a)
        found = {i for i in g.good if g.beyond[FINISH][i]}
        todo = deque(found)
        while todo:
            b = todo.popleft()
            for a in back[b]:
                if a not in found:
                    found.add(a)
                    todo.append(a)
        return found

    def check_reachable(self, grid: list[int]) -> None:
        g = self.g
        seen = set(grid)
        todo = deque(grid)
        while todo:
            a = todo.popleft()
            for b in g.forward[a]:
                if b not in seen:
                    seen.add(b)
                    todo.append(b)
        lost = [i for i in g.good if i not in seen]
        if not grid or not lost:
            return
        for group in self._components(lost):
            ids = [g.ids[i] for i in group]
            self.add(
                "unreachable",
                f"no car can reach {noun(len(ids), 'space')} "
                f"{_names(ids)} from the start grid; connect "
                f"{noun(len(ids), 'it', 'them')} or remove "
                f"{'them' if len(ids) > 1 else 'it'}",
                group,
                path=self.space_path(group[0]),
            )

    def _components(self, members: list[int]) -> list[list[int]]:
        """Groups of the given spaces that touch each other, in index order."""
        left = set(members)
        groups = []
        for start in members:
            if start not in left:
                continue
            left.discard(start)
            group, todo = [start], [start]
            while todo:
                a = todo.pop()
                for b in self.g.adjacent[a]:
                    if b in left:
                        left.discard(b)
                        group.append(b)
                        todo.append(b)
            groups.append(sorted(group))
        return groups

    def check_single_file(self, grid: list[int], before: list[bool]) -> None:
        """Spaces on every forward path from the grid to the finish (R-MOVE-3: no
        passing there)."""
        g = self.g
        nodes = [i for i in g.good if before[i]]
        inside = set(nodes)
        succ: dict[int, list[int]] = {i: [] for i in nodes}
        sink_edges = dict.fromkeys(nodes, 0)
        indeg = dict.fromkeys(nodes, 0)
        for a in nodes:
            for b in g.forward[a]:
                if g.wraps_seam(a, b):
                    continue
                if b in inside:
                    succ[a].append(b)
                    indeg[b] += 1
                elif g.beyond[FINISH][b]:
                    sink_edges[a] += 1
        order = []
        todo = deque(sorted(i for i in nodes if indeg[i] == 0))
        while todo:
            a = todo.popleft()
            order.append(a)
            for b in succ[a]:
                indeg[b] -= 1
                if indeg[b] == 0:
                    todo.append(b)
        starts = {i for i in grid if i in inside}
        narrow = [a for a in on_every_path(order, succ, starts, sink_edges) if a not in starts]
        for stretch in self._stretches(narrow):
            ids = [g.ids[i] for i in stretch]
            self.add(
                "single-file",
                f"single-file stretch: every car must pass through "
                f"{noun(len(ids), 'space')} {_names(ids)}, so no car can "
                "overtake there; fine if intended, otherwise add a lane",
                stretch,
                path=self.space_path(stretch[0]),
            )

    def check_bet_room(self) -> None:
        """Each betting line (in order before the finish) leaves at least BET_ROOM_ROWS
        rows before the finish on the shortest way there."""
        g = self.g
        finish = g.line_progress[FINISH]
        for k in range(BETTING_LINE_COUNT):
            progress = g.line_progress[k]
            if finish is None or progress is None or progress >= finish or g.cuts[k]:
                continue  # a line out of order or through spaces is an error of its own
            rows = self._rows_to_finish(k)
            if rows is not None and rows < BET_ROOM_ROWS:
                self.add(
                    "bet-near-finish",
                    f"{line_name(k)} is {plural(rows, 'row')} before the finish: its bet "
                    "is made when the race is all but decided, as the card that takes a "
                    "car over the line (3 spaces on average) often takes it over the "
                    "finish too, and bets come after the card; move the line back to "
                    f"at least {BET_ROOM_ROWS} rows before the finish",
                    line=k,
                    path=_line_path(k),
                )

    def _rows_to_finish(self, k: int) -> int | None:
        """The fewest steps from a space just beyond line k to one beyond the finish
        (the rows between them), None when no step crosses line k or none gets there."""
        g = self.g
        beyond = g.beyond[k]
        steps = {
            b: 0
            for a in g.good
            if not beyond[a]
            for b in g.forward[a]
            if beyond[b] and not g.wraps_seam(a, b)
        }
        todo = deque(steps)
        while todo:
            a = todo.popleft()
            if g.beyond[FINISH][a]:
                return steps[a]
            for b in g.forward[a]:
                if b not in steps and not g.wraps_seam(a, b):
                    steps[b] = steps[a] + 1
                    todo.append(b)
        return None

    def _stretches(self, spaces: list[int]) -> list[list[int]]:
        """Split spaces (in path order) into runs that follow one another."""
        runs: list[list[int]] = []
        for i in sorted(spaces, key=lambda i: self.g.front[i]):
            if runs and i in self.g.forward[runs[-1][-1]]:
                runs[-1].append(i)
            else:
                runs.append([i])
        return runs

    # warnings about drawing quality
    def check_coarse(self) -> None:
        """Projection errs by about offset x turn / 2 on the inside of a curve
        (docs/design.md), so a sharp turn at one point near far spaces is flagged."""
        g = self.g
        pts = np.array(g.centerline.coords, dtype=float)
        if len(pts) < 3 or not g.good:
            return
        seg = np.diff(pts, axis=0)
        seglen = np.hypot(seg[:, 0], seg[:, 1])
        keep = seglen > 1e-9
        seg, seglen = seg[keep], seglen[keep]
        if len(seg) < 2:
            return
        heading = np.arctan2(seg[:, 1], seg[:, 0])
        turns = np.abs((np.diff(heading) + np.pi) % (2 * np.pi) - np.pi)
        at = np.cumsum(seglen)[:-1]  # progress of each interior vertex
        vertex = np.flatnonzero(keep)[1:]  # its index in the point list
        if g.wraps:
            closing = abs((heading[0] - heading[-1] + np.pi) % (2 * np.pi) - np.pi)
            turns = np.append(turns, closing)
            at = np.append(at, 0.0)
            vertex = np.append(vertex, 0)
        sharp = np.flatnonzero(turns > math.radians(COARSE_TURN_DEG))
        if len(sharp) == 0:
            return
        sharp = sharp[np.argsort(at[sharp], kind="stable")]
        sharp_at = at[sharp]
        flagged: dict[int, list[int]] = {}
        for i in g.good:
            lo = np.searchsorted(sharp_at, g.rear[i] - g.tol, "left")
            hi = np.searchsorted(sharp_at, g.front[i] + g.tol, "right")
            reach = g.offset[i] + g.size(i) / 2
            for j in sharp[lo:hi].tolist():
                if reach * turns[j] / 2 > g.tol / 2:
                    flagged.setdefault(j, []).append(i)
        n_points = len(self.t.centerline.points)
        runs: list[list[int]] = []
        for j in sorted(flagged, key=lambda j: vertex[j]):
            prev = runs[-1][-1] if runs else None
            if (
                prev is not None
                and vertex[j] == vertex[prev] + 1
                and at[j] - at[prev] <= 2 * max(g.front[i] - g.rear[i] for i in flagged[prev])
            ):
                runs[-1].append(j)
            else:
                runs.append([j])
        for run in runs:
            spaces = sorted({i for j in run for i in flagged[j]}, key=lambda i: (g.front[i], i))
            worst = math.degrees(max(float(turns[j]) for j in run))
            ids = [g.ids[i] for i in spaces]
            self.add(
                "coarse-centerline",
                f"the racing line turns up to {worst:.1f}° at one point near "
                f"{noun(len(ids), 'space')} {_names(ids)}, so their progress "
                "may be off; add points on the curve (about 1° of turn per point)",
                spaces,
                path=("centerline", "points", int(vertex[run[0]]) % n_points),
            )

    def check_lanes(self) -> None:
        """Side-by-side neighbours (same front and rear) are one lane apart."""
        g = self.g
        tol = g.tol
        seen: set[tuple[int, int]] = set()
        for a in g.good:
            for b in g.adjacent[a]:
                if b < a or (a, b) in seen:
                    continue
                if (
                    abs(g.delta(g.front[a], g.front[b])) > tol
                    or abs(g.delta(g.rear[a], g.rear[b])) > tol
                ):
                    continue
                la, lb = g.lanes[a], g.lanes[b]
                if abs(la - lb) != 1:
                    seen.add((a, b))
                    self.add(
                        "lane-mismatch",
                        f"spaces {g.ids[a]} (lane {la}) and {g.ids[b]} "
                        f"(lane {lb}) lie side by side, so their lanes should differ by "
                        "1; renumber the lanes (0 is the innermost)",
                        [a, b],
                        path=self.space_path(b, "lane"),
                    )
