"""Check a run's verdict with stronger bots: the same games played by a deeper search,
and one sentence saying whether what the run says still holds.

The run's bots and ``stronger_bots`` of them (``engine/balance/players.py``) play
the same games (game i of both from seed ``seed + i``, dealt as the run is, the same
seats; ``fixes.play_all``, the one game loop), so that the run's bots play again the
very games of the run the designer saw, and each game is kept on its own, so that
every difference is measured game by game.

The verdict holds when the stronger bots leave it as it was: no grid slot's win
share, first-player share or stalled cars per race moved beyond noise, the same
grid slots stand out from their fair share (the slots the hints warn of, the six
judged together), and the same warnings are given. A figure moved beyond noise when the interval
of its paired difference leaves zero; the eight figures are looked at together,
so each interval is at the level that keeps the chance of a false "changed" at
5% for all of them (Bonferroni, 5% / 8 each). When only what stands out or the
warnings differ, no figure having moved beyond noise, the verdict is unclear: a
borderline slot or warning tipped over, and more games would tell.
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from trackside.engine.balance.against import VariantComparison, share_time
from trackside.engine.balance.compare import compare
from trackside.engine.balance.executors import Executor
from trackside.engine.balance.fixes import Played, play_all
from trackside.engine.balance.hints import MIN_GAMES, hints, slots_beyond_chance
from trackside.engine.balance.players import stronger_bots
from trackside.engine.balance.report import SLOTS, BalanceReport
from trackside.engine.balance.runner import BalanceRun
from trackside.engine.balance.wording import shown_change
from trackside.engine.bots import MAX_SAMPLES
from trackside.engine.intervals import ERROR, corrected_z, mean_interval
from trackside.engine.tallies import SHARE_UNIT
from trackside.engine.text import plural
from trackside.engine.track.model import Track

FIGURES = SLOTS + 2  # each slot's share, the first player's share, stalled cars per race
Z = corrected_z(FIGURES)  # a false "changed" at ERROR over all the figures looked at
STALLED = "stalled cars per race"
FIRST = "first player"
# What a verdict can be, as the report's ``verdict.outcome`` says it.
HOLDS, CHANGES, UNCLEAR, TOO_FEW = "holds", "changes", "unclear", "too few games"
MORE_GAMES = "play more games to tell"  # what an unclear verdict asks, unless told how


def slot_name(k: int) -> str:
    """A grid slot as the verdict names it: "pole", "slot 2"..."""
    return "pole" if k == 0 else f"slot {k + 1}"


def _standing(k: int, way: str, when: str = "") -> str:
    """A slot standing out, in words: "the pole now wins more than its fair share"."""
    who = "the pole" if k == 0 else slot_name(k)
    return f"{who} {when}wins {'more' if way == 'above' else 'less'} than its fair share"


def no_stronger(bots: tuple[str, ...]) -> str:
    """Why ``bots`` have no stronger setting to check with ("" when they have)."""
    if stronger_bots(bots) != bots:
        return ""
    if all(kind == "random" for kind in bots):
        return "random bots do not search: there is no deeper setting to check with"
    return (
        f"{', '.join(dict.fromkeys(bots))} bots already search the most deals allowed "
        f"({MAX_SAMPLES:,} a decision)"
    )


@dataclass(frozen=True)
class Moved:
    """One figure with the run's bots and with the stronger ones, and the half-width of
    the interval of the paired difference (at the corrected level)."""

    figure: str
    before: float
    after: float
    half: float
    share: bool  # a share of games (0 to 1), shown in percent

    @property
    def change(self) -> float:
        return self.after - self.before

    @property
    def beyond_noise(self) -> bool:
        return abs(self.change) > self.half

    def text(self) -> str:
        """The figure's move in words, the interval of the change in brackets as every
        interval is shown: "the pole's wins: 27% → 19% of races, -8 points (-11 to -5)",
        "stalled cars: 0.43 → 0.57 a race, +0.14 a race (+0.09 to +0.19)", in the one
        sign style of every change shown (an ASCII "-", as ``change_figure`` writes it)."""
        if self.share:
            digits = 0 if self.half >= 0.01 else 1
            scale, unit = 100.0, " points"
            before, after = 100 * self.before, 100 * self.after
            who = "the first player" if self.figure == FIRST else self.figure
            who = "the pole" if self.figure == slot_name(0) else who
            of = "games" if self.figure == FIRST else "races"
            moved = f"{who}'s wins: {before:.{digits}f}% → {after:.{digits}f}% of {of}"
        else:
            digits, scale, unit = 2, 1.0, " a race"
            before, after = self.before, self.after
            moved = f"stalled cars: {before:.2f} → {after:.2f} a race"
        change = shown_change(before, after, digits)
        low, high = scale * (self.change - self.half), scale * (self.change + self.half)
        interval = f"{low:+.{digits}f} to {high:+.{digits}f}"
        return f"{moved}, {change:+.{digits}f}{unit} ({interval})"


@dataclass(frozen=True)
class Verdict:
    """Whether a run's verdict holds with stronger bots, and what moved if not."""

    bots: tuple[str, ...]  # the stronger bots
    games: int  # paired games
    figures: tuple[Moved, ...]
    out_before: dict[int, str]  # grid slot -> "above" or "below" its fair share
    out_after: dict[int, str]
    warnings_gone: tuple[str, ...]  # given with the run's bots only
    warnings_new: tuple[str, ...]  # given with the stronger bots only

    @property
    def moved(self) -> list[Moved]:
        return [m for m in self.figures if m.beyond_noise]

    @property
    def outcome(self) -> str:
        """``HOLDS``, ``CHANGES``, ``UNCLEAR`` or ``TOO_FEW``."""
        if self.games < MIN_GAMES:
            return TOO_FEW
        if self.moved:
            return CHANGES
        if self.out_before != self.out_after or self.warnings_gone or self.warnings_new:
            return UNCLEAR
        return HOLDS

    @property
    def holds(self) -> bool:
        return self.outcome == HOLDS

    def line(self, bots: str = "", more: str = MORE_GAMES) -> str:
        """The verdict in a few short sentences, the first saying whether it holds,
        naming the stronger bots as ``bots`` (by default by their settings: "stronger
        bots (strong:2)") and saying ``more`` when more games would tell, as a sentence of
        its own."""
        bots = bots or f"stronger bots ({', '.join(dict.fromkeys(self.bots))})"
        same_games = f"the same {plural(self.games, 'game', spec=',')}"
        outcome = self.outcome
        if outcome == TOO_FEW:
            return (
                f"Only {plural(self.games, 'game', spec=',')} played with {bots}: play at "
                f"least {MIN_GAMES} to tell whether the verdict holds."
            )
        if outcome == HOLDS:
            out = ", ".join(_standing(k, way) for k, way in sorted(self.out_before.items()))
            same = f"The same slots stand out ({out})" if out else "No slot stands out with either"
            return (
                f"The verdict holds with {bots}. On {same_games}, no grid slot's wins, "
                f"first player's wins or stalled cars moved beyond noise. {self._noise()}. "
                f"{same}, and the same warnings are given."
            )
        said = ". ".join(f"{one[:1].upper()}{one[1:]}" for one in self._differences())
        if outcome == CHANGES:
            return f"The verdict changes with {bots}. {said}."
        return (
            f"The verdict is unclear with {bots}. {said}. But no figure moved beyond noise "
            f"on {same_games}. {more[:1].upper()}{more[1:]}."
        )

    def _noise(self) -> str:
        """How large a move the games could have shown: the widest interval of a share,
        and that of the stalled cars, in words."""
        shares = [m.half for m in self.figures if m.share]
        stalls = [m.half for m in self.figures if not m.share]
        share = f"{100 * max(shares):.0f} points in a share" if shares else ""
        stalled = f"{max(stalls):.2f} stalled cars a race" if stalls else ""
        either = f"{share}, or {stalled}," if share and stalled else share or stalled
        return f"A move of more than {either} would have shown"

    def _differences(self) -> list[str]:
        out = [m.text() for m in self.moved]
        for k in sorted(self.out_before.keys() | self.out_after.keys()):
            was, now = self.out_before.get(k), self.out_after.get(k)
            if was != now:
                out.append(
                    f"{_standing(k, now, 'now ')}"
                    if now
                    else f"{_standing(k, was or '', 'no longer ')}"
                )
        if self.warnings_gone:
            out.append(f"{plural(len(self.warnings_gone), 'warning')} no longer given")
        if self.warnings_new:
            out.append(f"{plural(len(self.warnings_new), 'new warning')}")
        return out

    def to_dict(self) -> dict[str, Any]:
        """The verdict as plain data (the ``verdict`` of ``simulate --check-deeper``)."""
        return {
            "outcome": self.outcome,
            "holds": self.holds,
            "text": self.line(),
            "bots": list(self.bots),
            "games": self.games,
            "level": round(1 - ERROR / FIGURES, 5),
            "figures": [
                {
                    "figure": m.figure,
                    "before": round(m.before, 4),
                    "after": round(m.after, 4),
                    "change": round(m.change, 4),
                    "half_width": round(m.half, 4) if math.isfinite(m.half) else None,
                    "moved": m.beyond_noise,
                }
                for m in self.figures
            ],
            "stand_out": {
                side: {slot_name(k): way for k, way in sorted(out.items())}
                for side, out in (("a", self.out_before), ("b", self.out_after))
            },
            "warnings": {"only_a": list(self.warnings_gone), "only_b": list(self.warnings_new)},
        }


@dataclass(frozen=True)
class DeeperCheck:
    """Both runs side by side (every figure's change, as two variants are compared) and
    the verdict."""

    comparison: VariantComparison
    verdict: Verdict

    def to_dict(self) -> dict[str, Any]:
        """The comparison's plain data with the stronger bots and the verdict."""
        return self.comparison.to_dict() | {
            "check": "stronger bots",
            "stronger_bots": list(self.verdict.bots),
            "verdict": self.verdict.to_dict(),
        }


def check_deeper(
    run: BalanceRun,
    workers: int | Executor = 1,
    progress: Callable[[int], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> DeeperCheck:
    """Play ``run`` with its bots and with ``stronger_bots`` of them on the same games;
    ``progress(k)`` with the games played by both (2 x games in all), ``cancelled()``
    stops early and keeps the games both played."""
    problem = no_stronger(run.bots)
    if problem:
        raise ValueError(problem)
    began = time.perf_counter()
    # Dealt as the run itself is (the variant is the same), so that the run's bots play
    # the very games the designer's run played and its figures are the run's.
    runs = [run, replace(run, bots=stronger_bots(run.bots))]
    lab, deep = play_all(runs, workers, progress, cancelled)
    before, after = lab.report, deep.report
    before.cancelled = after.cancelled = stopped = before.games < run.games
    seconds = time.perf_counter() - began
    share_time(seconds, before, after)
    comparison = VariantComparison(before, after, compare(before, after), stopped, seconds)
    return DeeperCheck(comparison, judge(lab, deep, runs[1].bots, run.track))


def judge(
    before: Played, after: Played, bots: tuple[str, ...], track: Track | None = None
) -> Verdict:
    """The verdict of ``after`` (played by ``bots``) against ``before`` on the same
    games, game by game."""
    a, b = before.report, after.report
    figures = [
        _paired(slot_name(k), _is(before.winner, k), _is(after.winner, k), True)
        for k in range(SLOTS)
    ]
    figures.append(_paired(FIRST, _firsts(before), _firsts(after), True))
    figures.append(_paired(STALLED, _stalls(before), _stalls(after), False))
    said_before, said_after = _warnings(a, track), _warnings(b, track)
    gone = tuple(text for gist, text in said_before.items() if gist not in said_after)
    new = tuple(text for gist, text in said_after.items() if gist not in said_before)
    return Verdict(
        bots,
        min(a.games, b.games),
        tuple(figures),
        stand_out(a),
        stand_out(b),
        gone,
        new,
    )


def stand_out(report: BalanceReport) -> dict[int, str]:
    """The grid slots the hints warn of (the six judged together, as the panel marks
    them), and which way: "above" or "below" their fair share."""
    shares = report.slot_shares()
    return {
        k: "above" if shares[k][0] > 1 / SLOTS else "below"
        for k in sorted(slots_beyond_chance(report))
    }


def _is(winners: list[int], slot: int) -> list[float]:
    return [1.0 if w == slot else 0.0 for w in winners]


def _firsts(played: Played) -> list[float]:
    return [wins / SHARE_UNIT for wins in played.first]


def _stalls(played: Played) -> list[float]:
    return [float(cars) for cars in played.stalled]


def _paired(figure: str, before: list[float], after: list[float], share: bool) -> Moved:
    """A figure's mean over the games with each set of bots, and the half-width of the
    corrected interval of the mean of the game-by-game differences."""
    n = min(len(before), len(after))
    if not n:
        return Moved(figure, 0.0, 0.0, math.inf, share)
    diffs = [y - x for x, y in zip(before, after, strict=False)]
    low, high = mean_interval(sum(diffs), sum(d * d for d in diffs), n, Z)
    half = (high - low) / 2 if n > 1 else math.inf
    return Moved(figure, sum(before[:n]) / n, sum(after[:n]) / n, half, share)


def _warnings(report: BalanceReport, track: Track | None) -> dict[str, str]:
    """The warnings of a run, each by its gist (``_gist`` of its finding)."""
    found = (h for h in hints(report, track) if h.severity == "warning")
    return {_gist(h.finding or h.text): h.text for h in found}


def _gist(text: str) -> str:
    """A warning without its figures, so that the same finding with other numbers is the
    same warning ("about 9 to 12 spaces" and "about 12 spaces" too); the slot or betting
    line it names stays ("Grid slot 3", "Betting line 2")."""
    numbers = re.sub(r"(?<!slot )(?<![Bb]etting line )(?<![\w.])\d[\d,]*(?:\.\d+)?", "#", text)
    return re.sub(r"# (\w+?)s\b", r"# \1", numbers.replace("# to #", "#"))
