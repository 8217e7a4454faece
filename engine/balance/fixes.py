"""Suggest fixes: try candidate edits of a circuit by simulation and rank them.

Each candidate (``candidate_edits``: the finish line a few spaces earlier or
later, a betting line moved, the grid moved back; ``lane_fixes``: a lane more or
fewer where cars jam, on a circuit that keeps its lane layouts) plays the very
games the circuit as it is plays: game i of both from seed ``seed + i``, with the
same bots in the same seats (common random numbers). The difference a candidate
makes is then measured game by game, and its 95% interval comes from resampling
the games, both circuits' games together (a paired bootstrap), so that the luck
of the deal cancels out of it. A change whose interval holds zero is marked as
noise.

Each circuit is judged by its ``problems``: how far its stalled cars per race are
above the goal, how far each grid slot's share lies outside its fair band, and
how far each betting line is from being reached in 95% of races; the same
things the hints warn about. The candidates are ranked (``ranked``) in the order
their words bear out: first those that lessen the problems beyond noise, then those
whose figure shown first is better beyond noise, a gain the circuit needs, and
nothing worse beyond noise (``clear_gain``), then the rest.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from trackside.engine.balance.compare import NOISE_MARK
from trackside.engine.balance.edits import (
    STAY,
    Edit,
    Proposal,
    line_shares,
    make_edit,
    why_not,
)
from trackside.engine.balance.executors import Executor, executor_for
from trackside.engine.balance.hints import (
    LINE_AIM,
    STALL_GOAL,
    hints,
    line_standing,
    stall_standing,
)
from trackside.engine.balance.jams import jammed_stretches
from trackside.engine.balance.lane_fixes import lane_fixes
from trackside.engine.balance.report import SLOTS, BalanceReport
from trackside.engine.balance.runner import BalanceRun, paired_parts
from trackside.engine.balance.sequential import fair_band
from trackside.engine.balance.wording import (
    ABOUT,
    UNDER,
    amount_range,
    goal_words,
    percent,
    percent_range,
    shown_change,
)
from trackside.engine.game import Game, Series
from trackside.engine.intervals import wilson
from trackside.engine.simulate import play_games
from trackside.engine.text import listed, plural
from trackside.engine.track.geometry import FINISH, LINE_NAMES, GeometryCache
from trackside.engine.track.model import Track
from trackside.engine.track.validate import ERROR, WARNING, Issue, validate_track

FORMAT = "trackside-fixes/2"
DEFAULT_GAMES = 200  # games per circuit when none are asked for
RESAMPLES = 1000  # paired bootstrap resamples behind every interval
FINISH_STEPS = (2, 4)  # the finish line tried this many spaces earlier, and later by the first
GRID_ROWS = (1, 2)  # the grid tried this many rows further back
# A betting line whose share of the race a finish move changes by more than this is
# out of proportion: the fix is tried also with the lines moved along (docs/balance.md).
ALONG_NOTICE = 0.05
SLOT_POINTS = 100 / SLOTS  # points of a share in a fair share (the grid's problem unit)
STALL_GOAL_WORDS = f"the goal of {STALL_GOAL:g} a race"  # the stall goal, as the headline names it
# How the list is ordered, said above it in the panel and on the command line.
RANKING = (
    "Best first. The problem score adds up stalls over the goal, grid slots outside "
    "their fair share and betting lines not reached. First come the fixes that lower it "
    "beyond noise, the biggest drop first. Next come those whose first figure is better "
    "beyond noise, with nothing worse, the surest first. Such a gain counts only where the "
    "circuit needs it: not for stalls already under the goal. Then the rest."
)
# The parts of a circuit's problems (``_judged``), as a fix's row names them.
PARTS = (
    ("stalls", "stall problems"),
    ("grid slots", "slot problems"),
    ("betting lines", "line problems"),
)


@dataclass
class Played:
    """The games of one circuit: their report, and per game what a fix is judged by."""

    report: BalanceReport
    winner: list[int] = field(default_factory=list)  # the winning car's grid slot, -1: none
    stalled: list[int] = field(default_factory=list)  # stalled cars
    first: list[int] = field(default_factory=list)  # the first player's wins, in sixtieths
    lines: list[int] = field(default_factory=list)  # betting lines reached, one bit each

    def add(self, one: BalanceReport) -> None:
        """Count one game, given as the report of that game alone."""
        self.report.merge(one)
        self.winner.append(next((k for k, w in enumerate(one.slot_wins) if w), -1))
        self.stalled.append(one.stalled.total)
        self.first.append(one.first_wins)
        self.lines.append(sum(1 << k for k in range(3) if one.line_reached[k]))

    def extend(self, other: Played) -> None:
        """Add the next games (a later part of the same run)."""
        self.report.merge(other.report)
        self.winner += other.winner
        self.stalled += other.stalled
        self.first += other.first
        self.lines += other.lines


@dataclass(frozen=True)
class Measured:
    """One figure on the circuit as it is and with the fix, and the 95% interval of the
    difference (after minus before) from the paired games."""

    before: float
    after: float
    low: float
    high: float

    @property
    def change(self) -> float:
        return self.after - self.before

    @property
    def noise(self) -> bool:
        """True when the interval holds no change: chance alone may explain it."""
        return self.low <= 0 <= self.high


@dataclass(frozen=True)
class Trial:
    """A candidate edit and what it did, game for game against the circuit as it is."""

    edit: Edit
    games: int
    problems: Measured  # the problem score (``_judged``): lower is better
    balance: Measured
    stalled: Measured  # stalled cars per race
    spread: Measured  # points by which the worst grid slot lies outside its fair band
    report: BalanceReport  # every figure of the fixed circuit
    # Every figure measured (``_judged``): the above, each part of the problems, each
    # slot's share and each betting line's races reached.
    figures: dict[str, Measured] = field(default_factory=dict)

    def parts(self) -> list[tuple[str, Measured]]:
        """The problem score part by part (stalls, grid slots, betting lines), each
        before and with the fix like every figure: a clear fall in one part and a rise
        within noise in another read apart, where their sum may be within noise."""
        out = []
        for name, key in PARTS:
            m = self.figures.get(key)
            if m is not None and (m.before or m.after):
                out.append((name, m))
        return out

    def lowers_problems(self) -> bool:
        """True when the fix lowers the problem score beyond noise."""
        return self.problems.change < 0 and not self.problems.noise

    def worse(self) -> list[str]:
        """What the fix makes worse, in words: a validation warning the circuit had not
        (``Edit.warnings``), and beyond noise a slot's share further from its fair share,
        more stalled cars, a betting line reached less often, a lower balance."""
        out = [f"adds a warning: {capital(warning)}" for warning in self.edit.warnings]
        f = self.figures
        for slot in range(SLOTS):
            m = f.get(f"slot {slot}")
            if m is not None and not m.noise and _outside(slot, m.after) > _outside(slot, m.before):
                out.append(f"slot {slot + 1} wins {100 * m.after:.0f}%, was {100 * m.before:.0f}%")
        stalled = f.get("stalled")
        if stalled is not None and not stalled.noise and stalled.change > 0:
            out.append(f"{stalled.after:.2f} stalled cars a race, were {stalled.before:.2f}")
        for k in range(3):
            m = f.get(f"line {k}")
            if m is not None and not m.noise and m.change < 0 and m.after < LINE_AIM:
                out.append(
                    f"betting line {k + 1} reached in {100 * m.after:.0f}% of races, "
                    f"was {100 * m.before:.0f}%"
                )
        balance = f.get("balance")
        if balance is not None and not balance.noise and balance.change < 0:
            out.append(f"balance {balance.after:.2f}, was {balance.before:.2f}")
        return out

    def _proposal_dict(self) -> dict[str, Any]:
        """The change in numbers; a lane fix names its layout and piece too."""
        proposal = self.edit.proposal
        out: dict[str, Any] = {
            "kind": proposal.kind,
            "steps": proposal.steps,
            "line": proposal.line,
            "along": proposal.along,
        }
        if proposal.kind == "lanes":
            out.update(layout=proposal.layout, piece=proposal.piece)
        return out

    def to_dict(self) -> dict[str, Any]:
        """The trial as plain data (``trackside suggest --report``)."""
        return {
            "fix": self.edit.text,
            "proposal": self._proposal_dict(),
            "spaces": list(self.edit.spaces),
            "warnings": list(self.edit.warnings),
            "games": self.games,
            **{
                name: _measured_dict(getattr(self, name))
                for name in ("problems", "balance", "stalled", "spread")
            },
            "parts": {name: _measured_dict(m) for name, m in self.parts()},
            "worse": self.worse(),
            "report": self.report.to_dict(),
        }


@dataclass(frozen=True)
class FixSearch:
    """The circuit as it is and every candidate tried, best first."""

    base: BalanceReport
    trials: list[Trial]
    cancelled: bool = False
    seconds: float = 0.0  # how long the search took, its games all told
    track: Track | None = field(default=None, compare=False)  # the circuit tried
    untried: list[str] = field(default_factory=list)  # kinds of fix not tried, and why
    played: int = 0  # games played all told: the circuit's and every candidate's

    def unclear(self) -> str:
        """What to make of a search where no fix lessens the problems beyond noise
        (so the first of the list is first by chance, or only by a gain in one part):
        "" when one does."""
        if self.cancelled or not self.trials:
            return ""
        if any(t.lowers_problems() for t in self.trials):
            return ""
        games = plural(self.base.games, "game")
        surest = self._surest_part()
        if surest is not None:
            return surest
        stalls = self._stalls()
        seen = any(t.problems.before for t in self.trials)  # a problem at its figure
        lines_reached = all(line_standing(self.base, k) == UNDER for k in range(3))
        if not seen and stalls != ABOUT and lines_reached:
            return (  # the circuit's own problems, none of them
                f"In {games} the circuit has none of the problems a fix could take away: no "
                "stalls over the goal, no grid slot outside its fair share, no betting line "
                "missed."
            )
        return (
            f"No fix makes the circuit better beyond noise in {games}, so the order of the "
            "list is chance. Play more games to tell the fixes apart, or keep the circuit as "
            "it is."
            + (self._stalls_said() if stalls == ABOUT else self._stalls_not_counted())
            + ("" if seen else self._lines_said(range(3)))
        )

    def _stalls(self) -> str:
        """Where the circuit's stalls stand against the goal (``stall_standing``)."""
        return stall_standing(self.base)

    def _stalls_said(self) -> str:
        """The circuit's stalls against the goal, as a sentence."""
        low, high = self.base.stalled.count_interval()
        said = amount_range(self.base.stalled.mean, low, high)
        standing = goal_words(low, high, STALL_GOAL, STALL_GOAL_WORDS)
        return f" The stalls, {said} a race, are {standing}."

    def _lines_said(self, lines: Iterable[int]) -> str:
        """One sentence on the betting lines of ``lines`` whose 95% interval of races
        reached holds the aim (``line_standing``: neither reached nor missed), so that no
        text claims a line reached or missed that chance leaves on either side of the
        aim; "" when there is none."""
        about = [k for k in lines if line_standing(self.base, k) == ABOUT]
        if not about:
            return ""
        n = self.base.games
        shares = [
            percent_range(self.base.line_reached[k] / n, *wilson(self.base.line_reached[k], n))
            for k in about
        ]
        names = listed(str(k + 1) for k in about)
        if len(about) == 1:
            said = f"Betting line {names} is reached in {shares[0]}"
        elif len(set(shares)) == 1:
            said = f"Betting lines {names} are each reached in {shares[0]}"
        else:
            said = f"Betting lines {names} are reached in {listed(shares)}"
        return (
            f" {said} of races: about at the aim of {percent(LINE_AIM)}, and more games would tell."
        )

    def _stalls_not_counted(self) -> str:
        """A sentence for a stall cut beyond noise that makes nothing better: the
        stalls were under the goal already, their whole interval, so it is no gain (else
        the headline reads as if it had not seen the cut listed below it). It names the
        fix that cuts them most, and says so when others cut them too."""
        cuts = [
            (rank, trial)
            for rank, trial in enumerate(self.trials, 1)
            if trial.stalled.change < 0 and not trial.stalled.noise
        ]
        if not cuts or self._stalls() != UNDER:
            return ""
        rank, trial = min(cuts, key=lambda cut: (cut[1].stalled.change, cut[0]))
        m = trial.stalled
        most = " most" if len(cuts) > 1 else ""
        return (
            f" Fix {rank} cuts the stalls{most} beyond noise ({m.before:.2f} → {m.after:.2f} "
            f"stalled cars a race), but they were already under {STALL_GOAL_WORDS}, the whole of "
            "their 95% interval: that is not needed."
        )

    def _surest_part(self) -> str | None:
        """When no fix lessens the problems all told beyond noise, the first fix of the
        list with a clear gain (``clear_gain``): a clear cut in stalls is not lost in
        the noise of six slot shares added to it."""
        found = [
            (rank, trial)
            for rank, trial in enumerate(self.trials, 1)
            if clear_gain(trial, self.base) is not None
        ]
        if not found:
            return None
        rank, trial = found[0]
        name = main_part(trial)
        figure = part_figure(trial, name)
        about = self._stalls_said() if name == "stalls" and self._stalls() == ABOUT else ""
        if name == "betting lines":
            about = self._lines_said([_betting_line(trial)[0]])
        return (
            f'Fix {rank}, "{trial.edit.text}", {PART_WORDS[name]} beyond noise: '
            f"{figure.said}. That is {figure.change}, and it makes nothing worse beyond "
            "noise: try it."
            f"{about} Taken all together, no fix's gain is beyond noise in "
            f"{plural(self.base.games, 'game')}, so the rest of the order is partly chance: "
            "play more games to tell the fixes apart."
        )

    def to_dict(self) -> dict[str, Any]:
        """The search as plain data (``trackside suggest --report``)."""
        return {
            "format": FORMAT,
            "track": self.base.track,
            "games": self.base.games,
            "seed": self.base.seed,
            "bots": self.base.bots,
            "cancelled": self.cancelled,
            "seconds": round(self.seconds, 3),
            "played": self.played,
            "base": self.base.to_dict(),
            "fixes": [trial.to_dict() for trial in self.trials],
            "untried": list(self.untried),
            "unclear": self.unclear(),
        }


# A part of the problems (``PARTS``) as a sentence names what a fix lessens of it.
PART_WORDS = {
    "stalls": "cuts the stalls",
    "grid slots": "brings the grid slots nearer their fair share",
    "betting lines": "has the betting lines reached more often",
}


def main_part(trial: Trial) -> str:
    """The part of the problems whose figure tells most about ``trial``: the one it
    changes most beyond noise; when none, what the fix is made for (a finish line or
    a lane: the stalls; a betting line: the betting lines; the grid: the grid slots).
    One of "stalls", "grid slots" or "betting lines"."""
    clear = [(name, m) for name, m in trial.parts() if not m.noise]
    if clear:
        part = max(clear, key=lambda one: abs(one[1].change))[0]
        if part != "betting lines" or line_figures(trial):
            return part
    proposal = trial.edit.proposal
    if proposal.kind == "grid":
        return "grid slots"
    if proposal.kind == "line" and proposal.line != FINISH and line_figures(trial):
        return "betting lines"
    return "stalls"


def part_gain(trial: Trial, part: str) -> Measured:
    """What ``trial`` changes of one part of the problems, judged by the figure shown
    for it (``part_figure``), in the problem score's units (positive is better):
    stalled cars in goals, races reached in aims, points outside the fair share in fair
    shares. Not that part of the score, which stops counting at the goal: a cut from
    0.53 to 0.30 stalled cars a race, beyond noise, would there be a cut of 0.03 over
    the goal of 0.5, within noise."""
    if part == "betting lines" and line_figures(trial):
        m, aim = _betting_line(trial)[1], LINE_AIM
        return Measured(m.before / aim, m.after / aim, m.low / aim, m.high / aim)
    if part == "stalls":
        m, scale = trial.stalled, 1 / STALL_GOAL
    elif "slot problems" in trial.figures:
        m, scale = trial.figures["slot problems"], 1.0
    else:
        m, scale = trial.spread, 1 / SLOT_POINTS
    return Measured(scale * m.after, scale * m.before, -scale * m.high, -scale * m.low)


def clear_gain(trial: Trial, base: BalanceReport) -> Measured | None:
    """The gain of ``trial`` in its figure shown first (``main_part``, ``part_gain``)
    when it is beyond noise, the fix makes nothing worse (``Trial.worse``: no warning
    added, nothing worse beyond noise), and the circuit
    needs it: a cut in stalls, or a betting line reached more often, is no gain where
    the circuit's own figure was within the goal by its whole 95% interval
    (``against_goal``). None otherwise."""
    part = main_part(trial)
    gain = part_gain(trial, part)
    if gain.noise or gain.change <= 0 or trial.worse():
        return None
    if part == "stalls" and stall_standing(base) == UNDER:
        return None
    if (
        part == "betting lines"
        and base.games
        and line_standing(base, _betting_line(trial)[0]) == UNDER
    ):
        return None
    return gain


def ranked(trials: Sequence[Trial], base: BalanceReport) -> list[Trial]:
    """``trials`` best first, in the order their words bear out (``RANKING``): those that
    lower the problem score beyond noise, by how far; then those with a clear gain
    (``clear_gain``), the surest first (the low end of its interval); then the rest,
    by how far they lower the problem score."""

    def key(trial: Trial) -> tuple[int, float]:
        fall = trial.problems.change  # negative: the score lowered
        if trial.lowers_problems():
            return 0, fall
        gain = clear_gain(trial, base)
        return (1, -gain.low) if gain is not None else (2, fall)

    return sorted(trials, key=key)


@dataclass(frozen=True)
class Figure:
    """One figure of a fix in words: what it is with both values and its unit, and the
    change with its unit and interval."""

    said: str  # "stalled cars 0.60 → 0.42 a race"
    change: str  # "-0.18 a race (-0.28 to -0.08)"
    noise: bool

    def line(self) -> str:
        """The figure as a line of its own, the noise mark last when within noise."""
        mark = f" {NOISE_MARK}" if self.noise else ""
        return f"{capital(self.said)}: {self.change}{mark}"


def part_figure(trial: Trial, part: str) -> Figure:
    """The figure of one part of the problems, before and after the fix."""
    if part == "grid slots" and "slot problems" in trial.figures:
        m = trial.figures["slot problems"]  # in fair shares: shown in points of a share
        before, after = SLOT_POINTS * m.before, SLOT_POINTS * m.after
        said = f"grid slots {before:.1f} → {after:.1f} points outside their fair share, all told"
        return Figure(said, change_words(m, 1, " points", SLOT_POINTS), m.noise)
    if part in ("grid slots", "worst slot"):
        m = trial.spread
        said = f"the worst grid slot {m.before:.1f} → {m.after:.1f} points outside its fair share"
        return Figure(said, change_words(m, 1, " points"), m.noise)
    if part == "betting lines":
        k, m = _betting_line(trial)
        before, after = 100 * m.before, 100 * m.after
        said = f"betting line {k + 1} reached in {before:.0f}% → {after:.0f}% of races"
        return Figure(said, change_words(m, 0, " points", 100), m.noise)
    m = trial.stalled
    said = f"stalled cars {m.before:.2f} → {m.after:.2f} a race"
    return Figure(said, change_words(m, 2, " a race"), m.noise)


def change_words(m: Measured, digits: int, unit: str = "", scale: float = 1.0) -> str:
    """A change with its unit and its 95% interval: "-0.18 a race (-0.28 to -0.08)",
    the difference of the figures as shown."""
    shown = shown_change(scale * m.before, scale * m.after, digits)
    low, high = scale * m.low, scale * m.high
    return f"{shown:+.{digits}f}{unit} ({low:+.{digits}f} to {high:+.{digits}f})"


def line_figures(trial: Trial) -> dict[int, Measured]:
    """Per betting line measured, its share of races reached before and after the fix."""
    return {k: trial.figures[f"line {k}"] for k in range(3) if f"line {k}" in trial.figures}


def _betting_line(trial: Trial) -> tuple[int, Measured]:
    """The betting line a fix is about: the one it moves, else the one whose races
    reached changed most."""
    lines = line_figures(trial)
    proposal = trial.edit.proposal
    if proposal.kind == "line" and proposal.line in lines:
        return proposal.line, lines[proposal.line]
    k = max(lines, key=lambda line: abs(lines[line].change))
    return k, lines[k]


def capital(text: str) -> str:
    """``text`` with its first letter a capital."""
    return text[:1].upper() + text[1:]


def _measured_dict(m: Measured) -> dict[str, Any]:
    return {
        "before": round(m.before, 4),
        "after": round(m.after, 4),
        "change": round(m.change, 4),
        "interval": [round(m.low, 4), round(m.high, 4)],
        "noise": m.noise,
    }


# -- candidates -----------------------------------------------------------------------


def candidate_proposals(report: BalanceReport | None, track: Track | None = None) -> list[Proposal]:
    """The changes worth trying on a circuit, given what a run of it said: the finish
    earlier and later (and as far as the stall hint says), the betting lines the hints
    name, the grid further back."""
    proposals = [Proposal("line", steps) for steps in FINISH_STEPS]
    proposals.append(Proposal("line", -FINISH_STEPS[0]))
    proposals += [Proposal("grid", rows) for rows in GRID_ROWS]
    if report is not None and report.games:
        proposals += [h.proposal for h in hints(report, track) if h.proposal is not None]
    return list(dict.fromkeys(proposals))


def candidate_edits(track: Track, proposals: Sequence[Proposal]) -> list[Edit]:
    """The proposals that can be made on ``track`` as valid circuits, each circuit once.
    A finish moved earlier that leaves a betting line out of proportion (its share of
    the race changed by more than ``ALONG_NOTICE``) is tried also with the betting
    lines moved along, each keeping its share: both are measured, side by side."""
    cache = GeometryCache()
    shares = line_shares(track, cache)
    edits: list[Edit] = []
    for proposal in proposals:
        edit = make_edit(track, proposal, cache)
        if edit is None:
            continue
        made = [edit]
        if _out_of_proportion(edit, shares, cache):
            along = make_edit(track, replace(proposal, along=True), cache)
            if along is not None:  # both tried: each says what it does with the lines
                made = [replace(edit, text=edit.text + STAY), along]
        for one in made:
            if not any(_same_circuit(one.track, e.track) for e in edits):
                edits.append(one)
    return edits


def _out_of_proportion(edit: Edit, shares: list[float], cache: GeometryCache) -> bool:
    p = edit.proposal
    if p.kind != "line" or p.line != FINISH or p.steps <= 0 or p.along or not shares:
        return False
    after = line_shares(edit.track, cache)
    return bool(after) and max(abs(a - b) for a, b in zip(after, shares, strict=True)) > (
        ALONG_NOTICE
    )


def untried(track: Track, proposals: Sequence[Proposal], edits: Sequence[Edit]) -> list[str]:
    """Each kind of fix among ``proposals`` (a line moved earlier, or later; the grid
    moved back) of which no edit could be made, with why, as a sentence."""
    made = {_kind(e.proposal) for e in edits}
    out: dict[tuple[str, int, bool], str] = {}
    cache = GeometryCache()
    for proposal in proposals:
        kind = _kind(proposal)
        if kind not in made and kind not in out:
            out[kind] = f"{_kind_words(proposal)}: {why_not(track, proposal, cache)}."
    return list(out.values())


def _kind(proposal: Proposal) -> tuple[str, int, bool]:
    return proposal.kind, proposal.line, proposal.steps > 0


def _kind_words(proposal: Proposal) -> str:
    if proposal.kind == "grid":
        return "The grid cannot move back"
    name = LINE_NAMES[proposal.line]
    way = "earlier" if proposal.steps > 0 else "later"
    return f"The {name} cannot move {way}"


def _lanes_untried(track: Track, jams: Sequence[Sequence[str]], tried: int) -> list[str]:
    """Why no lane was added or taken away where cars jam, if there are jams."""
    if not jams or tried:
        return []
    if not track.lane_layouts:
        why = "the circuit keeps no lane layout to change (lanes made with the Lanes tool do)"
    else:
        why = "no lane more or fewer in the kept lane layouts there makes a valid circuit"
    return [f"A lane more or fewer where cars jam: {why}."]


def with_new_warnings(track: Track, edits: Sequence[Edit]) -> tuple[list[Edit], list[str]]:
    """The edits checked by the track validator against ``track``: each that makes a
    valid circuit, with the warnings it brings that ``track`` has not (``Edit.warnings``),
    and a sentence for each that does not, with its first error (it is not offered)."""
    known = {_issue_key(issue) for issue in validate_track(track).issues}
    kept: list[Edit] = []
    refused: list[str] = []
    for edit in edits:
        issues = validate_track(edit.track).issues
        error = next((i.message for i in issues if i.severity == ERROR), None)
        if error is not None:
            refused.append(f"{capital(edit.text)}: not tried, it makes an error: {error}.")
            continue
        new = [i.message for i in issues if i.severity == WARNING and _issue_key(i) not in known]
        kept.append(replace(edit, warnings=tuple(dict.fromkeys(new))))
    return kept, refused


def _issue_key(issue: Issue) -> tuple[str, int | None, tuple[str, ...]]:
    """What tells one issue from another across an edit: its code, line and spaces (its
    words may give a count that changes, "2 rows" where it said "3 rows")."""
    return issue.code, issue.line, tuple(sorted(issue.spaces))


def _same_circuit(a: Track, b: Track) -> bool:
    return (
        a.finish_line == b.finish_line
        and a.betting_lines == b.betting_lines
        and a.start_grid == b.start_grid
        and a.spaces == b.spaces
    )


# -- playing --------------------------------------------------------------------------


def play_part(run: BalanceRun, first: int, stop: int) -> Played:
    """Games ``first`` to ``stop - 1`` of ``run``, played by the one game loop
    (``engine.simulate.play_games``) and each counted on its own (a worker's task)."""
    played = Played(run.empty_report())
    began = time.perf_counter()

    def count(game: Game | Series, kinds: list[str]) -> None:
        assert isinstance(game, Game)  # a balance run races once per game
        one = run.empty_report()
        one.add_game(game, kinds)
        played.add(one)

    play_games(run.bot_run, first, stop, count)
    played.report.seconds = time.perf_counter() - began
    return played


def play_all(
    runs: Sequence[BalanceRun],
    workers: int | Executor = 1,
    progress: Callable[[int], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> list[Played]:
    """Every game of every run, in worker processes if asked; ``progress(k)`` with the
    games played so far, ``cancelled()`` stops early (then every run stops at the same
    number of games, so that they stay paired)."""
    out = []
    for run, parts in zip(
        runs, paired_parts(play_part, runs, workers, progress, cancelled), strict=True
    ):
        played = Played(run.empty_report())
        for part in parts:
            played.extend(part)
        out.append(played)
    return out


# -- measuring ------------------------------------------------------------------------


def try_fixes(
    run: BalanceRun,
    report: BalanceReport | None = None,
    workers: int | Executor = 1,
    progress: Callable[[int, int, str], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> FixSearch:
    """Play ``run`` and each candidate edit of its circuit (chosen from ``report``, an
    earlier run of it, or from this run's own games when None), and rank the candidates
    by how much they lessen the circuit's problems. ``progress(done, total, what)`` as
    games finish."""
    with executor_for(workers) as executor:  # one set of worker processes for both steps
        return _try_fixes(run, report, executor, progress, cancelled)


def _try_fixes(
    run: BalanceRun,
    report: BalanceReport | None,
    workers: Executor,
    progress: Callable[[int, int, str], None] | None,
    cancelled: Callable[[], bool] | None,
) -> FixSearch:
    began = time.perf_counter()
    given = report is not None
    if report is None:
        report = _played_alone(run, workers, progress, cancelled)
        if cancelled and cancelled():
            seconds = time.perf_counter() - began
            return FixSearch(report, [], True, seconds, run.track, played=report.games)
    proposals = candidate_proposals(report, run.track)
    edits = candidate_edits(run.track, proposals)
    left = untried(run.track, proposals, edits)
    jams = [stretch.spaces for stretch in jammed_stretches(report, run.track)]
    lane_edits = [fix.edit for fix in lane_fixes(run.track, jams)]
    edits += lane_edits
    left += _lanes_untried(run.track, jams, len(lane_edits))
    edits, invalid = with_new_warnings(run.track, edits)
    left += invalid
    runs = [run, *(replace(run, track=e.track) for e in edits)]
    total = sum(r.games for r in runs)
    what = f"{len(edits)} candidate fixes and the circuit as it is"

    def step(done: int) -> None:
        if progress:
            progress(done, total, what)

    chosen_from = 0 if given else report.games  # games played to choose the candidates
    base, *tried = play_all(runs, workers, step, cancelled)
    stopped = bool(cancelled and cancelled())
    base.report.cancelled = stopped
    pairs = zip(edits, tried, strict=True)
    trials = [_trial(e, base, played, run.seed) for e, played in pairs] if base.winner else []
    trials = ranked(trials, base.report)
    seconds = time.perf_counter() - began
    played = chosen_from + base.report.games * len(runs)
    return FixSearch(base.report, trials, stopped, seconds, run.track, left, played)


def _played_alone(
    run: BalanceRun,
    workers: Executor,
    progress: Callable[[int, int, str], None] | None,
    cancelled: Callable[[], bool] | None,
) -> BalanceReport:
    def step(done: int) -> None:
        if progress:
            progress(done, run.games, "the circuit as it is, to choose candidates")

    (played,) = play_all([run], workers, step, cancelled)
    return played.report


def _trial(edit: Edit, base: Played, fixed: Played, seed: int) -> Trial:
    """The paired differences of one candidate against the circuit as it is (at least
    one game each)."""
    n = len(base.winner)
    rng = np.random.default_rng(seed)
    weights = rng.multinomial(n, np.full(n, 1 / n), size=RESAMPLES)
    figures_before = _figures(base, weights)
    figures_after = _figures(fixed, weights)
    measured = {}
    for name in figures_before:
        whole_before, samples_before = figures_before[name]
        whole_after, samples_after = figures_after[name]
        low, high = np.percentile(samples_after - samples_before, [2.5, 97.5])
        measured[name] = Measured(whole_before, whole_after, float(low), float(high))
    return Trial(
        edit,
        n,
        measured["problems"],
        measured["balance"],
        measured["stalled"],
        measured["spread"],
        fixed.report,
        measured,
    )


def _figures(played: Played, weights: np.ndarray) -> dict[str, tuple[float, np.ndarray]]:
    """Each figure a fix is judged by, for all the games and for each resample
    (``weights``: how often each game is drawn in each resample)."""
    n = len(played.winner)
    winner = np.array(played.winner, dtype=int)
    wins = np.zeros((n, SLOTS))
    for slot in range(SLOTS):
        wins[:, slot] = winner == slot
    stalled = np.array(played.stalled, dtype=float)
    lines = np.array(played.lines, dtype=int)
    reached = np.stack([(lines >> k) & 1 for k in range(3)], axis=1).astype(float)
    everything = np.ones((1, n))
    out = {}
    for key, w in (("whole", everything), ("resampled", weights.astype(float))):
        count = w.sum(axis=1, keepdims=True)
        shares = (w @ wins) / count
        stall = (w @ stalled) / count[:, 0]
        reach = (w @ reached) / count
        figures = _judged(shares, stall, reach)
        for name, values in figures.items():
            if key == "whole":
                out[name] = (float(values[0]), np.zeros(0))
            else:
                out[name] = (out[name][0], values)
    return out


def _judged(shares: np.ndarray, stall: np.ndarray, reach: np.ndarray) -> dict[str, np.ndarray]:
    """Per sample of games: the balance, stalled cars per race, the worst slot's points
    outside its fair band, each slot's share, each betting line's races reached, and
    the problems (see the module's docstring), all told and part by part."""
    bands = np.array([fair_band(slot) for slot in range(SLOTS)])
    outside = np.maximum(0, np.maximum(bands[:, 0] - shares, shares - bands[:, 1]))
    parts = {
        "stall problems": np.maximum(0, stall - STALL_GOAL) / STALL_GOAL,
        "slot problems": outside.sum(axis=1) * SLOTS,
        "line problems": np.maximum(0, LINE_AIM - reach).sum(axis=1) / LINE_AIM,
    }
    return {
        "balance": 1 - (shares.max(axis=1) - shares.min(axis=1)),
        "stalled": stall,
        "spread": 100 * outside.max(axis=1),
        "problems": sum(parts.values(), np.zeros(len(stall))),
        **parts,
        **{f"slot {k}": shares[:, k] for k in range(SLOTS)},
        **{f"line {k}": reach[:, k] for k in range(3)},
    }


def _outside(slot: int, share: float) -> float:
    """How far ``share`` lies outside the slot's fair band."""
    low, high = fair_band(slot)
    return max(0.0, low - share, share - high)
