"""Changes of a circuit the balance lab proposes and tries: a line moved some spaces
along the track, the grid moved back, a lane added or removed where cars jam.

A ``Proposal`` says what to change in numbers (a hint carries one); ``make_edit``
turns a line or grid proposal into an ``Edit``: its words, the spaces it is about
and the edited circuit, a valid track, or None when the circuit has no room for
it (``engine.balance.lane_fixes`` makes the lane proposals). Distances
are in steps (spaces a car moves), as the bots count them: a line ``k`` spaces
earlier is one that every car reaches ``k`` steps sooner.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from trackside.engine.text import plural
from trackside.engine.track.across import line_across
from trackside.engine.track.geometry import (
    FINISH,
    LINE_COUNT,
    LINE_NAMES,
    GeometryCache,
    TrackGeometry,
)
from trackside.engine.track.lap_start import centerline_starting_at, clean_lap_start, edge_progress
from trackside.engine.track.model import Track
from trackside.engine.track.movement import FAR, fewest_steps
from trackside.engine.track.validate import validate_track

MAX_MISS = 2  # steps a moved line may land from where it was asked, when no line fits there
ALONG = ", the betting lines moved along to keep their share of the race"
# Said of a finish moved without them when the same move is tried with them too.
STAY = ", the betting lines left where they are"


@dataclass(frozen=True)
class Proposal:
    """A change in numbers: ``line`` moved ``steps`` earlier (negative: later), the grid
    moved ``steps`` rows back, or ``lanes`` added (negative: removed) to a piece."""

    kind: str  # "line", "grid" or "lanes"
    steps: int = 0
    line: int = FINISH  # which line (0-2 betting, 3 finish) for "line"
    layout: int = 0  # which kept lane layout, for "lanes"
    piece: int = 0  # which of its pieces, for "lanes"
    along: bool = False  # the finish moved with the betting lines kept in proportion

    def words(self) -> str:
        """What a line or grid change is, in a few words (a lane fix is worded by what it
        does to the board as it is, in ``lane_fixes``)."""
        if self.kind == "line":
            name = LINE_NAMES[self.line]
            name = name[0].upper() + name[1:]
            way = "earlier" if self.steps > 0 else "later"
            return f"{name} {plural(abs(self.steps), 'space')} {way}"
        return f"Grid {plural(self.steps, 'row')} further back"


@dataclass(frozen=True)
class Edit:
    """A proposal made on one circuit: its words, the spaces it is about, the new track."""

    proposal: Proposal
    text: str
    spaces: tuple[str, ...]
    track: Track
    # The validation warnings the new track has and the circuit as it was has not
    # (``fixes.with_new_warnings``): a fix that adds one does not make nothing worse.
    warnings: tuple[str, ...] = ()


def make_edit(track: Track, proposal: Proposal, cache: GeometryCache | None = None) -> Edit | None:
    """``proposal`` made on ``track`` (which is not changed), or None when it cannot be
    made there or the result would not be a valid circuit (``why_not`` says why)."""
    made = _attempt(track, proposal, cache)
    return made if isinstance(made, Edit) else None


def why_not(track: Track, proposal: Proposal, cache: GeometryCache | None = None) -> str:
    """Why ``make_edit`` cannot make ``proposal`` on ``track``, in a few words that
    follow its words (an empty string when it can)."""
    made = _attempt(track, proposal, cache)
    return "" if isinstance(made, Edit) else made


def _attempt(track: Track, proposal: Proposal, cache: GeometryCache | None) -> Edit | str:
    geometry = TrackGeometry(track, cache)
    if proposal.kind == "line":
        return _line_moved(track, geometry, proposal, cache)
    if proposal.kind == "grid":
        return _grid_back(track, geometry, proposal, cache)
    raise ValueError(f"unknown proposal kind {proposal.kind!r}")


def steps_to_line(g: TrackGeometry, k: int) -> list[int]:
    """Per space: the fewest steps that take a car from it across line ``k`` (other cars
    ignored); ``FAR`` when no path crosses it."""
    return fewest_steps(
        g.n,
        (
            (a, b, crossed)
            for a in range(g.n)
            for b in g.forward[a]
            if (crossed := bool(g.crossed(a, b) >> k & 1)) or not g.beyond[k][b]
        ),
    )


def steps_past_line(g: TrackGeometry, k: int) -> list[int]:
    """Per space beyond line ``k``: 1 for the spaces a step across it enters, then one
    more for each step on; ``FAR`` for the others."""
    # The steps reversed: from the space entered back to the one left.
    return fewest_steps(
        g.n,
        (
            (b, a, crossed)
            for a in range(g.n)
            for b in g.forward[a]
            if (crossed := bool(g.crossed(a, b) >> k & 1)) or (g.beyond[k][a] and g.beyond[k][b])
        ),
    )


def _line_moved(
    track: Track, g: TrackGeometry, proposal: Proposal, cache: GeometryCache | None
) -> Edit | str:
    """The line placed at the rear edge of a space ``steps`` steps before it (or after),
    or as near that as a line fits, checked by counting the pole's steps to it again on
    the new circuit. A finish line takes the betting lines along, each keeping its share
    of the race, when the proposal says so (``along``) or when it would pass one."""
    k, shift = proposal.line, proposal.steps
    name = LINE_NAMES[k]
    pole = g.index.get(track.start_grid[0]) if track.start_grid else None
    if shift == 0 or pole is None:
        return "the circuit has no grid to measure it from"
    if steps_to_line(g, k)[pole] >= FAR:
        return f"no way from the pole crosses the {name}"
    moved = _moved_line(track, g, k, shift, pole, cache)
    if moved is None:
        return f"no {name} fits across the track there"
    edited, space, shift = moved
    made = replace(proposal, steps=shift)
    text = f"{made.words()} (at the rear edge of {g.ids[space]})"
    if k == FINISH and proposal.along:
        along = _betting_along(edited, g, shift, pole, cache)
        if along is None or along == edited:
            return "the betting lines cannot move along with it"
        return Edit(made, text + ALONG, (g.ids[space],), along)
    problem = _first_error(edited, TrackGeometry(edited, cache))
    if not problem:
        return Edit(made, text, (g.ids[space],), edited)
    if k != FINISH:
        return problem
    along = _betting_along(edited, g, shift, pole, cache)  # it passed a betting line
    if along is None:
        return problem
    return Edit(made, text + ALONG, (g.ids[space],), along)


def pole_steps(track: Track, cache: GeometryCache | None = None) -> list[int]:
    """Per line (betting lines 1 to 3, then the finish), the fewest steps that take the
    car on the pole across it (``FAR`` when none does); empty when no pole is on the
    circuit."""
    g = TrackGeometry(track, cache)
    pole = g.index.get(track.start_grid[0]) if track.start_grid else None
    return [] if pole is None else [steps_to_line(g, k)[pole] for k in range(LINE_COUNT)]


def line_shares(track: Track, cache: GeometryCache | None = None) -> list[float]:
    """Each betting line's share of the pole's way to the finish (empty when there is
    no way to measure it)."""
    steps = pole_steps(track, cache)
    race = steps[FINISH] if steps else FAR
    if not 0 < race < FAR:
        return []
    return [steps[k] / race for k in range(FINISH)]


def _moved_line(
    track: Track, g: TrackGeometry, k: int, shift: int, pole: int, cache: GeometryCache | None
) -> tuple[Track, int, int] | None:
    """Line ``k`` moved ``shift`` steps earlier (later when negative), or as near that as
    a line across the track fits without cutting a space: the new track, the space at
    whose rear edge the line lies, and the shift made. None when none fits."""
    before = steps_to_line(g, k)[pole]
    earlier = shift > 0
    distance = steps_to_line(g, k) if earlier else steps_past_line(g, k)
    wanted = shift if earlier else 1 - shift
    for miss in range(MAX_MISS + 1):
        for target in sorted({wanted - miss, wanted + miss}):
            for space in (i for i in range(g.n) if distance[i] == target):
                segment = line_across(g, space)
                if segment is None or g.cut_spaces(segment):
                    continue
                lines = [*track.betting_lines, track.finish_line]
                lines[k] = segment
                edited = replace(track, betting_lines=lines[:FINISH], finish_line=lines[FINISH])
                made = before - steps_to_line(TrackGeometry(edited, cache), k)[pole]
                if made != 0 and (made > 0) == earlier:
                    return edited, space, made
    return None


def _betting_along(
    track: Track, old: TrackGeometry, shift: int, pole: int, cache: GeometryCache | None
) -> Track | None:
    """``track`` (its finish moved ``shift`` steps earlier) with each betting line moved
    so that it keeps its share of the pole's way to the finish."""
    race = steps_to_line(old, FINISH)[pole]
    edited = track
    for k in range(FINISH):
        to_line = steps_to_line(old, k)[pole]
        move = round(shift * to_line / race) if race else 0
        if move:
            moved = _moved_line(edited, TrackGeometry(edited, cache), k, move, pole, cache)
            if moved is None:
                return None
            edited = moved[0]
    return edited if _valid(edited, TrackGeometry(edited, cache)) else None


def _grid_back(
    track: Track, g: TrackGeometry, proposal: Proposal, cache: GeometryCache | None
) -> Edit | str:
    """Each start space replaced by the space ``steps`` rows behind it in its lane; on a
    closed circuit whose grid then reaches over the lap start, the lap start moves to
    just behind the grid."""
    grid = _spaces_behind(track, g, proposal.steps)
    if grid is None:
        return "a lane ends behind the grid, or two of its cars would share a space"
    edited = replace(track, start_grid=[g.ids[i] for i in grid])
    text = f"{proposal.words()} (pole on {g.ids[grid[0]]})"
    problem = _first_error(edited, TrackGeometry(edited, cache))
    if problem:
        free = _rows_before_finish(track, g, proposal.steps + 1)
        if free is not None:  # the lap start would need a row of its own
            return (
                f"the finish line is only {plural(free, 'row')} behind it (move the finish "
                "line earlier first)"
            )
        if not g.wraps:
            return problem
        last = max(grid, key=lambda i: steps_to_line(g, FINISH)[i])
        start = clean_lap_start(g, edge_progress(g, last))
        edited = replace(edited, centerline=centerline_starting_at(track.centerline, start))
        problem = _first_error(edited, TrackGeometry(edited, cache))
        if problem:
            return problem
        text += f", the lap start just behind it (at {g.ids[last]})"
    return Edit(proposal, text, tuple(edited.start_grid), edited)


def _rows_before_finish(track: Track, g: TrackGeometry, most: int) -> int | None:
    """The rows behind the grid before the finish line, walking back each start space's
    lane, when fewer than ``most``; None when there are at least that many."""
    behind = _behind(g)
    grid = {g.index[s] for s in track.start_grid if s in g.index}
    fewest: int | None = None
    for here in grid:
        free = 0
        while free < most and behind[here]:
            back = max(behind[here], key=lambda a: g.front[a])
            if g.crossed(back, here) >> FINISH & 1:
                fewest = free if fewest is None else min(fewest, free)
                break
            here = back
            free += back not in grid
    return fewest


def _behind(g: TrackGeometry) -> list[list[int]]:
    """Per space, the spaces of its lane from which a step enters it."""
    behind: list[list[int]] = [[] for _ in range(g.n)]
    for a in range(g.n):
        for b in g.forward[a]:
            if g.lanes[a] == g.lanes[b]:
                behind[b].append(a)
    return behind


def _spaces_behind(track: Track, g: TrackGeometry, rows: int) -> list[int] | None:
    """The start spaces, each walked ``rows`` spaces back in its lane; None when a lane
    ends first or two would share a space."""
    behind = _behind(g)
    grid = []
    for space_id in track.start_grid:
        here = g.index.get(space_id)
        for _ in range(rows):
            if here is None or not behind[here]:
                return None
            here = max(behind[here], key=lambda a: g.front[a])  # the one just behind
        if here is None:
            return None
        grid.append(here)
    return grid if len(set(grid)) == len(grid) else None


def _valid(track: Track, geometry: TrackGeometry) -> bool:
    return not _first_error(track, geometry)


def _first_error(track: Track, geometry: TrackGeometry) -> str:
    """The first error that makes ``track`` no valid circuit; empty when it is one."""
    report = validate_track(track, geometry=geometry)
    return next((i.message for i in report.issues if i.severity == "error"), "")
