"""The lane tool's draft: a racing line of straights and arcs being laid out.

No Qt here: the draft is plain data that the lane tool edits from mouse
gestures and the lane panel edits from typed values. ``build_draft`` turns it
into spaces with the engine's lane builder (``engine.track.lanes``), closing the
loop when the turns add up to a whole turn, and ``plan_creation`` gives what
the Create button adds to a track: spaces with ids that collide with none
already there, the dense racing line, and (for a track that has none) a start
grid, three betting lines and a finish line on edges shared by every lane.

The layout itself (pieces, lanes, kept lanes, how a loop closes) is the
engine's (``engine.track.layout``, ``engine.track.loop_fit``); the draft is the
mutable form the tool edits, and ``keep_draft`` / ``draft_of`` turn it into the
``KeptLayout`` a track stores and back.

Headings and angles follow ``engine.track.lanes`` (the tool asks the engine which
way a heading points and which way a + arc turns, rather than assuming it).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

from trackside.engine.text import plural
from trackside.engine.track import reapply
from trackside.engine.track.lanes import (
    Arc,
    LaneLayout,
    LaneResult,
    LayoutError,
    Piece,
    Pose,
    Straight,
    build_lanes,
    line_across,
    pick_grid,
    trace,
)
from trackside.engine.track.layout import KeptLayout, lane_layout, renamed_pairs, tidy
from trackside.engine.track.loop_fit import LoopFit, fit_loop
from trackside.engine.track.model import MAX_SPACES, Centerline, Point, Segment, Space
from trackside.engine.track.reapply import Reapplication, highest_row

ANGLE_STEP = 15.0  # degrees an arc snaps to while dragging
RADIUS_STEP = 5.0  # mm a radius snaps to while dragging
HEADING_STEP = 15.0  # degrees the first straight's direction snaps to
MAX_ARC = 345.0  # the largest turn one dragged arc may make
MIN_STRAIGHT = 5.0  # mm: a shorter closing straight is left out (fit_loop closes the rest)


@dataclass
class DraftSettings:
    """Defaults for every piece, and what Create does."""

    lanes: int = 2
    space_length: float = 40.0
    lane_width: float = 30.0
    stagger: float = 0.0
    close: bool = True  # close into a loop when the turns add up to ±360°
    replace_centerline: bool = False  # replace a racing line the track already has
    furniture: bool = True  # place grid and lines on a track that has none


@dataclass
class LaneDraft:
    """A racing line being laid out: where it starts, its heading and its pieces."""

    start: Point | None = None
    heading: float = 0.0
    pieces: list[Piece] = field(default_factory=list)
    settings: DraftSettings = field(default_factory=DraftSettings)

    def layout(
        self, extra: Piece | tuple[Piece, ...] | None = None, closed: bool = False
    ) -> LaneLayout:
        """The engine layout of the pieces (plus ``extra``, pieces being dragged)."""
        pieces = (*self.pieces, *_pieces(extra))
        return lane_layout(pieces, self.start or (0.0, 0.0), self.heading, self.settings, closed)

    def end_pose(self) -> Pose:
        """Where the line ends now and its heading there (the start if no pieces)."""
        x, y = self.start or (0.0, 0.0)
        if not self.pieces:
            return Pose(float(x), float(y), self.heading)
        try:
            return trace(self.layout())[-1]
        except LayoutError:
            return Pose(float(x), float(y), self.heading)


@dataclass
class DraftBuild:
    """The outcome of building a draft: the lanes, or why they cannot be built."""

    result: LaneResult | None
    layout: LaneLayout | None
    error: str | None = None
    note: str = ""
    fitted: tuple[int, ...] = ()  # the straights whose length closes the loop
    miss: float = 0.0  # mm the end misses the start of a loop that cannot close

    @property
    def ok(self) -> bool:
        return self.result is not None

    def summary(self) -> str:
        """One line for the panel: size and shape, or the error."""
        if self.result is None:
            return self.error or "Click on the canvas to place the start of the racing line."
        r = self.result
        kind = "closed loop" if r.closed else "open line"
        text = (
            f"{plural(len(r.spaces), 'space')} in {plural(r.rows, 'row')}; "
            f"{kind} of {r.length:,.0f} mm"
        )
        return text + (f". {self.note}" if self.note else "")


def snap_step(value: float, step: float) -> float:
    """``value`` rounded to a multiple of ``step``."""
    return round(value / step) * step


def piece_towards(
    pose: Pose,
    target: Point,
    space_length: float,
    snap: bool = True,
    straight_only: bool = False,
    lanes: int | None = None,
) -> Piece | None:
    """The piece that leaves ``pose`` tangentially and ends at (or near) ``target``.

    A target ahead on the line gives a straight; one off to a side gives the
    arc through it, whose turn snaps to 15 degrees and radius to 5 mm when
    ``snap`` (a turn that snaps to 0 is a straight whose length snaps to whole
    spaces). None when the target is behind or on the start of the piece.
    """
    (fx, fy), plus_side = axes(pose)
    dx, dy = target[0] - pose.x, target[1] - pose.y
    ahead = dx * fx + dy * fy
    side = (-dx * fy + dy * fx) * plus_side  # > 0: on the side of a + (engine) turn
    dist = math.hypot(dx, dy)
    if dist < 1.0:
        return None
    turn = math.degrees(2 * math.atan2(abs(side), ahead))
    if snap:
        turn = min(snap_step(turn, ANGLE_STEP), MAX_ARC)
    elif turn < 0.5:
        turn = 0.0
    if straight_only or turn == 0.0:
        if ahead < 1.0:
            return None
        length = max(snap_step(ahead, space_length), space_length) if snap else ahead
        return Straight(tidy(length), lanes=lanes)
    turn = min(turn, MAX_ARC if snap else 359.0)
    radius = dist / (2 * math.sin(math.radians(turn) / 2))
    if snap:
        radius = max(snap_step(radius, RADIUS_STEP), RADIUS_STEP)
    return Arc(tidy(radius), math.copysign(turn, side), lanes=lanes)


def axes(pose: Pose) -> tuple[tuple[float, float], float]:
    """The unit driving direction at ``pose`` in board coordinates, and +1 or -1:
    the sign of the lateral offset (rotated direction (-fy, fx)) of a + turn.
    Asked of the engine itself, so the tool follows its heading convention."""
    start = (pose.x, pose.y)
    ahead = trace(LaneLayout(pieces=(Straight(100.0),), start=start, heading=pose.heading))[-1]
    fx, fy = (ahead.x - pose.x) / 100.0, (ahead.y - pose.y) / 100.0
    turned = trace(LaneLayout(pieces=(Arc(100.0, 90.0),), start=start, heading=pose.heading))[-1]
    lateral = -(turned.x - pose.x) * fy + (turned.y - pose.y) * fx
    return (fx, fy), (1.0 if lateral > 0 else -1.0)


def plus_turns_left() -> bool:
    """True when a + arc turns left as seen on the canvas (y down)."""
    (_fx, _fy), plus_side = axes(Pose(0.0, 0.0, 0.0))
    return plus_side < 0  # (-fy, fx) is the right-hand side on a y-down canvas


def first_heading(start: Point, target: Point, snap: bool = True) -> float | None:
    """The heading (degrees, engine convention) from ``start`` towards ``target``,
    snapped to 15 degrees."""
    dx, dy = target[0] - start[0], target[1] - start[1]
    if math.hypot(dx, dy) < 1.0:
        return None
    (_fx, fy), _ = axes(Pose(0.0, 0.0, 90.0))  # heading 90 runs along +y or -y
    heading = math.degrees(math.atan2(dy if fy > 0 else -dy, dx))
    return (snap_step(heading, HEADING_STEP) % 360.0) if snap else heading


def closing_pieces(draft: LaneDraft) -> tuple[Piece, ...]:
    """Pieces that bring the line back onto its start with its start heading:
    an arc of the remaining turn (to ±360 degrees) and a straight before or
    after it, solved so the end meets the start exactly when it can. Empty when
    no such pair fits (the arc would be too tight for its lanes)."""
    if draft.start is None or not draft.pieces:
        return ()
    s = draft.settings
    pose = draft.end_pose()
    turned = sum(p.turn for p in draft.pieces)
    remaining = min((360.0 - turned, -360.0 - turned), key=abs)
    gx, gy = draft.start[0] - pose.x, draft.start[1] - pose.y
    (fx, fy), _side = axes(pose)
    if abs(remaining) < 1e-6:
        ahead = gx * fx + gy * fy
        return (Straight(tidy(ahead)),) if ahead > MIN_STRAIGHT else ()
    if abs(remaining) >= 360.0:
        return ()
    probe = trace(
        LaneLayout(pieces=(Arc(100.0, remaining),), start=(pose.x, pose.y), heading=pose.heading)
    )[-1]
    cx, cy = (probe.x - pose.x) / 100.0, (probe.y - pose.y) / 100.0  # chord of radius 1
    (ex, ey), _ = axes(probe)  # direction after it
    r_min = s.lanes * s.lane_width / 2 + s.lane_width / 4
    options = []
    for first_straight, (ux, uy) in ((True, (fx, fy)), (False, (ex, ey))):
        det = ux * cy - uy * cx
        if abs(det) < 1e-9:
            continue
        length = (gx * cy - gy * cx) / det
        radius = (ux * gy - uy * gx) / det
        if radius >= r_min and length >= -1e-6:
            options.append((length, first_straight, radius))
    if not options:
        return ()
    length, first_straight, radius = min(options)
    arc = Arc(tidy(radius), tidy(remaining))
    if length < MIN_STRAIGHT:
        return (arc,)
    straight = Straight(tidy(length))
    return (straight, arc) if first_straight else (arc, straight)


def _pieces(extra: Piece | tuple[Piece, ...] | None) -> tuple[Piece, ...]:
    if extra is None:
        return ()
    return tuple(extra) if isinstance(extra, tuple) else (extra,)


def build_draft(draft: LaneDraft, extra: Piece | tuple[Piece, ...] | None = None) -> DraftBuild:
    """Build the draft's spaces (with ``extra`` appended, for a live preview)."""
    if draft.start is None:
        return DraftBuild(None, None)
    if not draft.pieces and not _pieces(extra):
        return DraftBuild(None, None, "Click or drag ahead to lay the first straight.")
    layout = draft.layout(extra)
    fit = LoopFit(None)
    if draft.settings.close:
        try:
            fit = fit_loop(layout)
        except LayoutError as exc:
            fit = LoopFit(None, note=_message(exc))
    note = fit.note if fit.layout is not None or not fit.note else f"Open: {fit.note}"
    layout = fit.layout or layout
    try:
        result = build_lanes(layout)
    except LayoutError as exc:
        return DraftBuild(None, layout, _message(exc), note, fit.fitted, fit.miss)
    return DraftBuild(result, layout, None, note, fit.fitted, fit.miss)


def _message(exc: LayoutError) -> str:
    text = getattr(exc, "message", None) or str(exc)
    hint = getattr(exc, "hint", None)
    return f"{text} ({hint})" if hint else text


# -- what Create adds -----------------------------------------------------


def keep_draft(draft: LaneDraft, ids: dict[str, str], sets_racing_line: bool) -> KeptLayout:
    """The draft as a track keeps it, with the track id of each space it built (by the
    builder's own id, ``a1``, ``b7``...); ``sets_racing_line`` when Create set the line."""
    s = draft.settings
    x, y = draft.start or (0.0, 0.0)
    return KeptLayout(
        start=(tidy(x), tidy(y)),
        heading=tidy(draft.heading),
        pieces=tuple(_tidy_piece(p) for p in draft.pieces),
        lanes=s.lanes,
        space_length=tidy(s.space_length),
        lane_width=tidy(s.lane_width),
        stagger=tidy(s.stagger),
        close=s.close,
        racing_line=sets_racing_line,
        renamed=renamed_pairs(ids),
    )


def draft_of(kept: KeptLayout) -> LaneDraft:
    """A fresh draft to edit, with a kept layout's pieces and settings."""
    s = kept.settings
    settings = DraftSettings(
        lanes=s.lanes,
        space_length=s.space_length,
        lane_width=s.lane_width,
        stagger=s.stagger,
        close=s.close,
    )
    return LaneDraft(
        start=kept.start, heading=kept.heading, pieces=list(kept.pieces), settings=settings
    )


def _tidy_piece(piece: Piece) -> Piece:
    if isinstance(piece, Straight):
        return replace(piece, length=tidy(piece.length))
    return replace(piece, radius=tidy(piece.radius), angle=tidy(piece.angle))


@dataclass
class Creation:
    """Everything Create adds to a track, ready for one undoable macro."""

    spaces: list[Space]
    centerline: Centerline | None = None
    grid: list[str] | None = None
    betting: list[Segment] | None = None
    finish: Segment | None = None
    notes: list[str] = field(default_factory=list)
    names: dict[str, str] = field(default_factory=dict)  # builder id -> document id


def free_ids(result: LaneResult, taken: set[str]) -> dict[str, str]:
    """New ids for the built spaces that collide with none in ``taken``: the
    builder's own (a1, b1, ...) when they are all free, else the same letters
    with row numbers after the highest number already used."""
    ids = [sp.id for sp in result.spaces]
    if not taken.intersection(ids):
        return {i: i for i in ids}
    offset = highest_row(taken)
    return {sp.id: f"{sp.id[0]}{sp.row + offset}" for sp in result.spaces}


def plan_creation(
    build: DraftBuild,
    taken: set[str],
    has_centerline: bool,
    has_furniture: bool,
    settings: DraftSettings,
) -> Creation:
    """What Create adds: renamed spaces, the racing line if wanted, grid and lines
    if the track has none (and the settings ask for them)."""
    result = build.result
    if result is None:
        raise LayoutError(build.error or "nothing to create")
    total = len(taken) + len(result.spaces)
    if total > MAX_SPACES:
        raise LayoutError(
            f"the track would have {total:,} spaces, more than a track holds ({MAX_SPACES:,})",
            "shorten the pieces, make the spaces longer or start a new track",
        )
    names = free_ids(result, taken)
    spaces = []
    for sp in result.track_spaces():
        spaces.append(Space(id=names[sp.id], lane=sp.lane, corners=sp.corners))
    creation = Creation(spaces, names=names)
    if not has_centerline or settings.replace_centerline:
        creation.centerline = result.track_centerline()
    if settings.furniture and not has_furniture:
        try:
            creation.grid = [names[g] for g in pick_grid(result)]
            betting, finish = race_lines(result)
        except LayoutError as exc:
            creation.notes.append(f"no betting or finish line placed: {_message(exc)}")
        else:
            creation.betting, creation.finish = betting, finish
    return creation


def race_lines(result: LaneResult) -> tuple[list[Segment], Segment]:
    """The finish line one shared edge before the end of the line (so spaces
    lie beyond it, R-FIN-1) and three betting lines spread between the pole of
    ``pick_grid`` and the finish, each on an edge all lanes share."""
    grid = pick_grid(result)
    pole = max(result.space(g).front for g in grid)
    eps = 1e-6
    ends = [b for b in result.boundaries if pole + eps < b.progress < result.length - eps]
    if len(ends) < 4:
        raise LayoutError(
            f"only {len(ends)} edges after the grid are shared by all lanes; "
            "three betting lines and a finish line need four",
            "staggered lanes share edges only where pieces meet: split a "
            "straight in two, or use no stagger",
        )
    finish = ends[-1]
    between = ends[:-1]
    chosen: list[int] = []
    for f in (0.25, 0.5, 0.75):
        target = pole + f * (finish.progress - pole)
        order = sorted(range(len(between)), key=lambda k: abs(between[k].progress - target))
        chosen.append(next(k for k in order if k not in chosen))
    chosen.sort()
    betting = [_segment(line_across(result, between[k].progress).segment) for k in chosen]
    return betting, _segment((finish.inner, finish.outer))


def _segment(seg) -> Segment:
    (ax, ay), (bx, by) = seg
    return ((tidy(ax), tidy(ay)), (tidy(bx), tidy(by)))


def plan_reapplication(build: DraftBuild, old: KeptLayout, present: set[str]) -> Reapplication:
    """Re-apply's plan for the draft as built (``engine.track.reapply``): its spaces
    matched with those ``old`` made, given the ids ``present`` in the document now."""
    if build.result is None:
        raise LayoutError(build.error or "nothing to create")
    return reapply.plan_reapplication(build.result, old, present)
