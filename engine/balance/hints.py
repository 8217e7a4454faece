"""What a balance report means for the designer, in plain words that name spaces.

A hint that proposes a change in numbers carries it as a ``Proposal`` (made on a
circuit by ``engine.balance.edits.make_edit``) and says what it should do: the
stall hint's finish line, moved as it says, brings the stalled cars under the
goal in the next run. Changes whose effect the figures cannot foretell (the
grid, a jam) are left to Suggest fixes, which measures them.
"""

from __future__ import annotations

import math

from trackside.engine.balance.edits import (
    Edit,
    Proposal,
    make_edit,
    pole_steps,
    steps_to_line,
    why_not,
)
from trackside.engine.balance.jams import Stretch, jammed_stretches
from trackside.engine.balance.report import SLOTS, BalanceReport
from trackside.engine.balance.rule_hints import rule_hints
from trackside.engine.balance.wording import (
    OVER,
    Hint,
    against_goal,
    amount_range,
    goal_words,
    percent,
    percent_range,
    range_digits,
    tenths,
)
from trackside.engine.game.board import Board
from trackside.engine.intervals import holm, share_p_value, wilson
from trackside.engine.text import listed, plural
from trackside.engine.track.geometry import FINISH, GeometryCache
from trackside.engine.track.model import Track
from trackside.engine.track.movement import FAR
from trackside.engine.track.validate import BET_ROOM_ROWS, validate_track

MIN_GAMES = 30  # fewer games say too little to hint at anything
STALL_NOTICE = 0.10  # races with a stalled car worth a word
# Stalled cars per race a circuit should stay under (the bundled circuits' goal); a
# proposed finish line aims lower, so that the next run, with its own noise, is under.
STALL_GOAL = 0.5
STALL_AIM = 0.4
# Moving the finish line k spaces earlier leaves about as many cars stalled as the run
# had stalled more than FINISH_YIELD * k spaces short: the cars finish sooner, their
# owners drop out sooner and their unplayed cards are lost (R-RACE-5), so each space
# saves far less than a space of the stalled cars' way. Measured with the lab's strong
# bots (benchmarks/finish_yield.py, docs/balance.md): 0.33 to 0.50 on a straight, the
# oval and peanut templates and Quarry Hairpin, each shortened by 4 to 12 spaces
# (greedy bots: 0.25 to 0.50); near the low end, so that the finish moved as proposed
# is far enough.
FINISH_YIELD = 0.35
MAX_FINISH_MOVE = 60  # steps: beyond this, moving the finish is no answer
STUCK_NOTICE = 0.10  # races in which a start slot cannot move on the first round
# What playing first (R-RACE-1: the pole car's owner starts) is worth to the pole, in
# race-win share. Measured on the bundled circuits with four abreast and two behind
# (2,000 greedy games each): three cars start level with the pole there and win about
# their fair 17%, while the pole won 27 to 28%, so its extra 10 to 11.5 points come
# from the first turn, not from where it stands (with the whole grid abreast, as most
# bundled circuits now start, the pole wins 23 to 26%: README). The pole's lead is
# blamed on the grid only beyond the most measured.
FIRST_TURN_EDGE = 0.115
# Rows ahead of the grid whose width decides whether moving the grid back can free a
# car boxed in at the start: a narrowing this close holds the front row up.
ROOM_ROWS = 4
SUGGEST_GRID = (
    "Try moving the grid back from the first corner, or widening the track there; "
    "Suggest fixes measures what moving it back does."
)
# The advice where Suggest fixes cannot move the grid back: moving it back is not
# offered beside the reason it cannot be (where that reason is a finish line right
# behind the grid, the reason itself says to move the finish line earlier first).
WIDEN_CORNER = "Try widening the track at the first corner."


def hints(report: BalanceReport, track: Track | None = None) -> list[Hint]:
    """The findings worth a designer's attention: the circuit's, most serious first,
    then the rules' (``rule_hints``). With the ``track`` played, jams are named as
    stretches of the track."""
    n = report.games
    if n < MIN_GAMES:
        return [
            Hint(
                f"Only {plural(n, 'game')} played: play at least {MIN_GAMES} before reading "
                "anything into the figures.",
                "info",
            )
        ]
    slots = _slots(report, track)
    jams = jammed_stretches(report, track)
    stalls = _stalls(report, track, jams[0] if jams else None)
    found = [*stalls, *slots, *_first_round(report, track), *_first_player(report)]
    found += _lines(report)
    found += _jams(jams, any(h.severity == "warning" for h in stalls))
    if not any(h.severity == "warning" for h in found):
        pole = any(h.severity == "info" for h in slots)  # within what the first turn gives
        why = (
            "the pole's lead is no more than playing first gives, and no other difference "
            "goes beyond chance"
            if pole
            else "no difference between them goes beyond chance"
        )
        found.insert(
            0,
            Hint(
                f"Every grid slot wins about as often as it should over {plural(n, 'game')}: "
                f"{why}.",
                "info",
            ),
        )
    return sorted(found, key=lambda h: h.severity != "warning") + rule_hints(report)


# -- stalls ---------------------------------------------------------------------------


def stalled_after_finish_moved(report: BalanceReport, steps: int) -> float:
    """The stalled cars per race expected with the finish line ``steps`` spaces earlier
    (see FINISH_YIELD); cars that could not reach the finish at all stay stalled."""
    if not report.games:
        return 0.0
    unreachable = report.stalled.total - sum(report.stall_short.values())
    still = sum(n for short, n in report.stall_short.items() if short > FINISH_YIELD * steps)
    return (unreachable + still) / report.games


def finish_move(report: BalanceReport) -> int | None:
    """The fewest spaces to move the finish line earlier for the stalled cars per race
    to come down to STALL_AIM; None when no move up to MAX_FINISH_MOVE does it."""
    for steps in range(1, MAX_FINISH_MOVE + 1):
        if stalled_after_finish_moved(report, steps) <= STALL_AIM:
            return steps
    return None


def finish_move_range(report: BalanceReport) -> tuple[int, int] | None:
    """The fewest spaces to move the finish line earlier for the stalled cars per race
    to come down to STALL_AIM, at the low end and at the high end of what chance leaves
    for them (``stalled_after_bounds``); None when the high end needs more than
    MAX_FINISH_MOVE."""
    ends = []
    for end in (0, 1):
        steps = range(1, MAX_FINISH_MOVE + 1)
        found = (k for k in steps if stalled_after_bounds(report, k)[end] <= STALL_AIM)
        ends.append(next(found, None))
    low, high = ends
    return None if low is None or high is None else (low, high)


def stalled_after_bounds(report: BalanceReport, steps: int) -> tuple[float, float]:
    """A 95% interval of the stalled cars per race expected with the finish line
    ``steps`` spaces earlier: the interval of the stalled cars per race now, its width
    scaled by the square root of the share of them that would be left (a count's
    spread grows as the square root of the count)."""
    after = stalled_after_finish_moved(report, steps)
    mean = report.stalled.mean
    if after <= 0 or mean <= 0:
        return after, after
    low, high = report.stalled.count_interval()
    scale = math.sqrt(after / mean)
    return max(0.0, after - (mean - low) * scale), after + (high - mean) * scale


def _too_long(steps: int, ends: tuple[int, int] | None) -> str:
    """How far too long the circuit is: "about 12 spaces", or with what chance leaves
    for it, "about 9 to 12 spaces"."""
    if ends is None or ends[0] == ends[1]:
        return f"about {plural(steps, 'space')}"
    return f"about {ends[0]} to {plural(ends[1], 'space')}"


def _stalls(
    report: BalanceReport, track: Track | None = None, jam: Stretch | None = None
) -> list[Hint]:
    """The stall hint, over the goal a warning: how far to move the finish, and the
    ``jam`` (the most blocked stretch) that may cause the stalls too."""
    n = report.games
    share = report.races_with_stall / n
    per_race = report.stalled.mean
    low, high = report.stalled.count_interval()
    if share < STALL_NOTICE and per_race <= STALL_GOAL:
        return []
    where = tuple(s for s, _n in report.stall_spaces.most_common(3))
    said = (
        "Cars stall (left short of the finish when the cards run out) in "
        f"{percent(share)} of races: {amount_range(per_race, low, high)} stalled "
        f"cars a race. A circuit should stall fewer than {STALL_GOAL:g} a race: this one is "
        f"{goal_words(low, high, STALL_GOAL, 'that goal')}"
    )
    if stall_standing(report) != OVER:
        return [Hint(said + ".", "info", where)]
    steps = finish_move(report)
    if steps is None:
        return [
            Hint(
                f"{said}. Many stalled cars are too far behind for a shorter race to save "
                f"them: look at where they stall (a jam, a narrow stretch).{_jam_too(jam)}",
                "warning",
                _and_jam(where, jam),
                finding=said,
            )
        ]
    move, near = finish_edit(track, steps) if track is not None else (None, [])
    proposal = Proposal("line", steps) if move is None else move.proposal
    after = stalled_after_finish_moved(report, proposal.steps)
    too_long = _too_long(steps, finish_move_range(report))
    text = (
        f"{said}. The circuit is {too_long} too long for the deck: with the finish line "
        f"{plural(proposal.steps, 'space')} earlier, expect about {after:.2f} stalled cars "
        "a race."
    )
    advice = _lines_along(track, move, near) if move is not None and track is not None else ""
    shown = _and_jam(where, jam)
    return [Hint(text + advice + _jam_too(jam), "warning", shown, proposal, finding=text)]


def _and_jam(where: tuple[str, ...], jam: Stretch | None) -> tuple[str, ...]:
    """The spaces a stall warning shows: where cars stall, and the jam it names."""
    return tuple(dict.fromkeys(where + (jam.spaces if jam is not None else ())))


def _jam_too(jam: Stretch | None) -> str:
    """What the stall hint says of a jam (the most blocked stretch): cars held up there
    use up cards without moving on, so easing it is another way to cut the stalls; ""
    when there is none."""
    if jam is None:
        return ""
    return (
        f" Cars also jam {_jam_where(jam)}, where a move ends blocked {jam.per_race:.1f} "
        "times a race: easing the jam there may cut stalls without shortening the race."
    )


def finish_edit(track: Track, steps: int) -> tuple[Edit | None, list[int]]:
    """The finish line of ``track`` moved ``steps`` spaces earlier as the stall hint
    proposes it: Suggest fixes' own edit (``make_edit``), which moves the betting lines
    along, each keeping its share of the race, where the finish alone would pass one;
    moved along too where the finish alone would leave one nearer it than the validator
    allows (``bet-near-finish``), those lines given beside it. None when no such edit
    can be made."""
    cache = GeometryCache()
    alone = make_edit(track, Proposal("line", steps), cache)
    if alone is None or alone.track.betting_lines != track.betting_lines:
        return alone, []
    near = _near_finish(track, alone.track)
    if not near:
        return alone, []
    return make_edit(track, Proposal("line", steps, along=True), cache) or alone, near


def _near_finish(before: Track, after: Track) -> list[int]:
    """The betting lines ``after`` leaves too near its finish (``bet-near-finish``) where
    ``before`` did not."""

    def near(track: Track) -> set[int]:
        issues = validate_track(track).issues
        return {i.line for i in issues if i.code == "bet-near-finish" and i.line is not None}

    return sorted(near(after) - near(before))


def _lines_along(track: Track, move: Edit, near: list[int]) -> str:
    """What the stall hint says of the betting lines its finish move takes along: why
    (the finish would pass them, or leave ``near`` too near it, ``finish_edit``), and how
    far each moves (the pole's steps to it before and after); "" when none."""
    moved = [k for k in range(FINISH) if move.track.betting_lines[k] != track.betting_lines[k]]
    if not moved:
        return ""
    before, after = pole_steps(track), pole_steps(move.track)
    passed = [k for k in moved if before[k] >= after[FINISH]]
    if passed:
        why = f"would pass betting {_names(passed)}"
    else:
        near = near or moved
        why = f"would leave betting {_names(near)} fewer than {BET_ROOM_ROWS} rows before it"
    by = [f"line {k + 1} by {plural(before[k] - after[k], 'space')}" for k in moved]
    return (
        f" That finish {why}. Move the betting lines earlier too, so each keeps its share "
        f"of the race: {listed(by)}."
    )


def _names(lines: list[int]) -> str:
    """Betting lines by number: "line 3", "lines 2 and 3"."""
    word = "line" if len(lines) == 1 else "lines"
    return f"{word} {listed(str(k + 1) for k in lines)}"


# -- the grid -------------------------------------------------------------------------


def _slots(report: BalanceReport, track: Track | None = None) -> list[Hint]:
    return [hint for _slot, hint in slot_hints(report, track)]


def slots_beyond_chance(report: BalanceReport) -> set[int]:
    """The grid slots (0: the pole) a warning says win more or less than they should:
    the ones the Balance panel marks, so that its colours and its hints agree."""
    return {slot for slot, hint in slot_hints(report) if hint.severity == "warning"}


def slot_hints(report: BalanceReport, track: Track | None = None) -> list[tuple[int, Hint]]:
    """Per grid slot whose share lies outside what chance allows, its hint. A warning
    names a slot only beyond chance with the six slots judged together (``slot_bands``,
    Holm at 5%), so that an even circuit draws no warning in 95% of runs, where six
    plain 95% intervals warned of some slot in about one run in five. A share is given
    with its 95% interval in full (it is not symmetric about the share), so that "more
    than its fair 17%" never sits beside an interval that reaches 17%."""
    out = []
    fair = 1 / SLOTS
    shares = report.slot_shares()
    bands = slot_bands(report)
    warned = holm(
        [
            _outside(wins, report.games, band)
            for wins, band in zip(report.slot_wins, bands, strict=True)
        ]
    )
    rest = bands[1][0]
    grid = suggest_grid(track)
    for k, (share, low, high) in enumerate(shares):
        space = report.grid[k] if k < len(report.grid) else ""
        where = ", ".join(
            (["the pole"] if k == 0 else []) + ([f"start space {space}"] if space else [])
        )
        where = f" ({where})" if where else ""
        spaces = (space,) if space else ()
        said = f"Grid slot {k + 1}{where} wins {percent_range(share, low, high, 1)} of races"
        if k == 0 and low > fair:
            out.append((k, _pole(said, warned[0], fair, spaces, grid)))
        elif not warned[k]:
            continue
        elif low > fair:
            text = f"{said}, more than {_fair(fair)}: the opening favours it. {grid}"
            out.append((k, Hint(text, "warning", spaces)))
        elif k == 0:
            text = (
                f"{said}, less than {_fair(fair)}, although its owner plays first: the "
                f"opening holds it back. {grid}"
            )
            out.append((k, Hint(text, "warning", spaces)))
        else:
            text = (
                f"{said}: too few. The pole wins {tenths(shares[0][0])}; the "
                f"{tenths(1 - shares[0][0])} it leaves, shared evenly, gives each other slot "
                f"{tenths(rest)}. This slot starts at a disadvantage. {grid}"
            )
            out.append((k, Hint(text, "warning", spaces)))
    return out


def _fair(fair: float) -> str:
    """A fair share of races in words: "the fair 16.7% (1 race in 6)"."""
    return f"the fair {tenths(fair)} (1 race in {round(1 / fair)})"


def slot_bands(report: BalanceReport) -> list[tuple[float, float]]:
    """Per grid slot, the win shares no warning is given for: the pole from 1 in 6 up to
    what its first turn gives (R-RACE-1), each other slot from its part of what the
    pole leaves up to 1 in 6."""
    fair = 1 / SLOTS
    rest = (1 - report.slot_shares()[0][0]) / (SLOTS - 1)
    return [(fair, fair + FIRST_TURN_EDGE)] + [(rest, fair)] * (SLOTS - 1)


def _outside(wins: int, games: int, band: tuple[float, float]) -> float:
    """The p-value of a share against the nearer end of its band (1 within it)."""
    share = wins / games if games else 0.0
    if band[0] <= share <= band[1]:
        return 1.0
    return share_p_value(wins, games, band[1] if share > band[1] else band[0])


def suggest_grid(track: Track | None) -> str:
    """What a grid hint advises: moving the grid back, measured by Suggest fixes, where
    Suggest fixes can move the grid of ``track`` back (or when no track is known);
    where it cannot, only what else helps, and why the grid cannot move."""
    # why_not is Suggest fixes' own judgement (make_edit): the hint and the search agree.
    why = why_not(track, Proposal("grid", 1)) if track is not None else ""
    if why:
        return f"{WIDEN_CORNER} Suggest fixes cannot move the grid back here: {why}."
    return SUGGEST_GRID


def _pole(wins: str, blamed: bool, fair: float, spaces: tuple[str, ...], grid: str) -> Hint:
    """The pole wins more than its fair share: say the first turn does that, and blame
    the grid only when ``blamed``: beyond what the turn gives, the slots judged together."""
    first_turn = (
        "the pole car's owner plays first, which alone lifts the pole to winning as much "
        f"as {percent(fair + FIRST_TURN_EDGE)} of races on the bundled circuits"
    )
    if not blamed:
        return Hint(
            f"{wins}, more than {_fair(fair)}. That is expected: {first_turn}. Nothing here "
            "points at the grid.",
            "info",
            spaces,
        )
    return Hint(
        f"{wins}: more than playing first explains. {first_turn[0].upper()}{first_turn[1:]}. "
        f"The rest of its lead comes from the opening. {grid}",
        "warning",
        spaces,
    )


def _grid_steps(track: Track) -> tuple[dict[int, int], list[int]] | None:
    """The spaces of each row (steps to the finish -> spaces that far) and each start
    slot's steps to the finish; None when the grid's spaces are not on the way to the
    finish."""
    geometry = Board.of(track).geometry
    to_finish = steps_to_line(geometry, FINISH)
    rows: dict[int, int] = {}
    for i in range(geometry.n):
        if to_finish[i] < FAR:
            rows[to_finish[i]] = rows.get(to_finish[i], 0) + 1
    steps = [to_finish[geometry.index[s]] for s in track.start_grid if s in geometry.index]
    if not steps or max(steps) >= FAR or len(steps) != len(track.start_grid):
        return None
    return rows, steps


def _room(rows: dict[int, int], steps: list[int]) -> tuple[int, int]:
    """The fewest lanes of the grid's rows, and of the ``ROOM_ROWS`` rows ahead of its
    front row (``_grid_steps``: the spaces of each row, each slot's steps)."""
    front, back = min(steps), max(steps)
    at_grid = min(rows[k] for k in range(front, back + 1) if k in rows)
    ahead = [rows[k] for k in range(front - ROOM_ROWS, front) if k in rows]
    return at_grid, min(ahead, default=at_grid)


def _row(steps: list[int], slot: int) -> int | None:
    """The row of the grid (0: its front row) start slot ``slot`` (0: the pole) stands
    in, counting only rows that hold a slot (``steps``: each slot's steps to the
    finish); None where it is not known."""
    if slot >= len(steps):
        return None
    return sorted(set(steps)).index(steps[slot])


ORDINALS = ("front", "second", "third", "fourth", "fifth", "sixth")
ROOM_AHEAD = "A grid with room ahead of its back row lets every car start racing."


def boxed_in_advice(track: Track | None, slot: int) -> str:
    """What the boxed-in hint of start slot ``slot`` advises. Moving the grid back
    helps unless the track keeps its lanes from the grid to ``ROOM_ROWS`` rows ahead:
    then wherever the grid stands a car behind its front row is boxed in by the
    grid's own cars in front, and a front-row car by the cars that move off before
    it, and only more lanes help. Where the track narrows or widens just ahead, the
    old advice stands (a narrowing holds the front row up; a widening may free it)."""
    found = _grid_steps(track) if track is not None else None
    room = None if found is None else _room(*found)
    row = None if found is None else _row(found[1], slot)
    if room is None or row is None or room[1] != room[0] or room[0] >= SLOTS:
        return f"{ROOM_AHEAD} {suggest_grid(track)}"
    wide = "one lane" if room[0] == 1 else f"{room[0]} lanes"
    head = (
        f"Moving the grid back would not help here: the track is {wide} wide at the grid "
        f"and for {ROOM_ROWS} rows ahead."
    )
    if row == 0:
        return (
            f"{head} This car starts in the grid's front row, with no grid car in front of "
            "it: the cars that move off before it fill the lanes ahead. Only more lanes "
            "ahead of the grid give it room."
        )
    return (
        f"{head} This car starts in the grid's {ORDINALS[min(row, 5)]} row: the grid's own "
        "cars in front of it box it in, wherever the grid stands. Only more lanes at the "
        "grid let more cars start abreast."
    )


def _first_round(report: BalanceReport, track: Track | None) -> list[Hint]:
    """Start slots whose car often cannot move at all on the first round."""
    out = []
    for k, stuck in enumerate(report.first_round_stuck):
        low, high = wilson(stuck, report.games)
        if low <= STUCK_NOTICE:
            continue
        space = report.grid[k] if k < len(report.grid) else ""
        where = f" (start space {space})" if space else ""
        stuck_in = percent_range(stuck / report.games, low, high)
        out.append(
            Hint(
                f"The car starting in grid slot {k + 1}{where} is boxed in at the start. In "
                f"{stuck_in} of races it cannot move on a card of the first round: the cars "
                f"in front of it leave no free space ahead. {boxed_in_advice(track, k)}",
                "warning",
                (space,) if space else (),
            )
        )
    return out


def _first_player(report: BalanceReport) -> list[Hint]:
    fair = 1 / report.players
    share, low, high = report.first_player_share()
    if low > fair or high < fair:
        won = percent_range(share, low, high, range_digits(low, high, fair))
        return [
            Hint(
                f"The player who plays first (the pole car's owner) wins {won} of games, "
                f"against a fair {percent(fair)} (1 game in {report.players}): playing first "
                "matters on this circuit.",
                "info",
            )
        ]
    return []


# -- betting lines --------------------------------------------------------------------

LINE_AIM = 0.95  # races in which a betting line should be reached


def reached_after_line_moved(report: BalanceReport, line: int, steps: int) -> float:
    """The share of races that would reach betting line ``line`` with it ``steps``
    spaces earlier: those that reached it, and those whose leading car ended at most
    that far short of it (moving a betting line changes no car's move)."""
    if not report.games:
        return 0.0
    near = sum(n for short, n in report.line_short[line].items() if short <= steps)
    return (report.line_reached[line] + near) / report.games


def stall_standing(report: BalanceReport) -> str:
    """Where the stalled cars a race stand against ``STALL_GOAL``, by their whole 95%
    interval (``against_goal``): ``UNDER``, ``ABOUT`` or ``OVER``. The one rule for the
    stall hint, Suggest fixes' headline and its ranking."""
    return against_goal(*report.stalled.interval(), STALL_GOAL)


def line_standing(report: BalanceReport, line: int) -> str:
    """Where betting line ``line`` (0: the first) stands against the aim of being
    reached in ``LINE_AIM`` of races, by the whole 95% interval of its races reached
    (``against_goal``, asked of the races that fall short of it): ``UNDER`` when the
    whole interval reaches the aim, ``OVER`` when the whole interval falls short of it
    (the line is missed), else ``ABOUT``. The one rule for the hints, Suggest fixes'
    headline and its ranking."""
    low, high = wilson(report.line_reached[line], report.games)
    return against_goal(1 - high, 1 - low, 1 - LINE_AIM)


def _lines(report: BalanceReport) -> list[Hint]:
    out = []
    for line in range(3):
        if line_standing(report, line) != OVER:
            continue
        reached = report.line_reached[line]
        low, high = wilson(reached, report.games)
        said = (
            f"Betting line {line + 1} is reached in only "
            f"{percent_range(reached / report.games, low, high)} of races; it should be in "
            f"{percent(LINE_AIM)} or more"
        )
        steps = next(
            (
                s
                for s in range(1, MAX_FINISH_MOVE + 1)
                if reached_after_line_moved(report, line, s) >= LINE_AIM
            ),
            None,
        )
        if steps is None:
            out.append(Hint(f"{said}. Move it well earlier.", "warning"))
            continue
        after = reached_after_line_moved(report, line, steps)
        out.append(
            Hint(
                f"{said}. With the line {plural(steps, 'space')} earlier, about "
                f"{percent(after)} of races would reach it.",
                "warning",
                proposal=Proposal("line", steps, line=line),
            )
        )
    return out


# -- jams -----------------------------------------------------------------------------


def _jams(jams: list[Stretch], stall_warning: bool) -> list[Hint]:
    """The jam hints, most blocked first: the first a warning beside a stall warning,
    which names it as a cause of the stalls, the others information."""
    return [
        Hint(_jam_text(s), "warning" if stall_warning and k == 0 else "info", s.shown)
        for k, s in enumerate(jams)
    ]


def _jam_where(stretch: Stretch) -> str:
    """Where a jam is: "at a15", "in the stretch a15 to a20"."""
    first, last = stretch.spaces[0], stretch.spaces[-1]
    return f"at {first}" if first == last else f"in the stretch {first} to {last}"


def _jam_text(stretch: Stretch) -> str:
    """A jam in words, naming where the track is narrowest: the stretch itself, or the
    spaces within or just ahead of it where it narrows."""
    said = (
        f"Cars jam {_jam_where(stretch)}: a move ends blocked there "
        f"{stretch.per_race:.1f} times a race"
    )
    lanes = stretch.lanes
    if lanes is None:
        return f"{said}. The track narrows or jams just ahead of it."
    wide = "one lane" if lanes == 1 else f"{lanes} lanes"
    if stretch.where == "there":
        width = f"The track is {wide} wide there"
    else:
        ahead = ", just ahead" if stretch.where == "ahead" else ""
        width = f"The track narrows to {wide} at {listed(stretch.narrowest)}{ahead}"
    if lanes == 1:
        return f"{said}. {width}: a second lane would let cars pass."
    but = "but" if stretch.where == "there" else "and"
    return (
        f"{said}. {width}, {but} cars queue behind one another: another lane, or a gentler "
        "bend, would ease it."
    )
