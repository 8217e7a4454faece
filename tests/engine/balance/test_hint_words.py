"""Every hint and verdict of the balance lab reads for a hobby designer: short sentences,
each figure with its unit, intervals in brackets as the tables show them, never a "±".

A new designer could not parse "less than the 16.2% each slot behind the pole wins when
they share what the pole leaves evenly" and read "$3.40M ± 0.08" beside "3.5 ± 0.2"."""

from __future__ import annotations

import re

import pytest
from tracks_for_tests import narrow_loop, straight_track

from trackside.engine.balance import BalanceReport, BalanceRun, hints, run_balance
from trackside.engine.balance.deeper import Moved, Verdict
from trackside.engine.balance.edits import Proposal, make_edit
from trackside.engine.balance.fixes import FixSearch, Measured, Trial
from trackside.engine.records import open_track, open_variant
from trackside.engine.tallies import Tally

MOST_WORDS = 30  # in one sentence
# What may follow a measured figure (a number with decimals): its unit, after the
# interval in brackets if it has one, or an arrow to the figure it became.
UNITS = ("%", "M", " stalled cars", " cars a race", " a race", " times a race", " points")
SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")
BRACKETS = re.compile(r"\([^()]*\)")


def _runs() -> list[tuple[BalanceReport, object]]:
    """Runs of circuits that draw most hints: a narrow loop (stalls, a grid slot too
    low and one too high, a blocked back row, a jam, powers, cheap cars), a straight
    made too long, Quarry Hairpin as bundled."""
    standard = open_variant("standard")
    tracks = [
        narrow_loop(),
        straight_track(rows=60, lanes=3, finish=56),
        open_track("quarry-hairpin"),
    ]
    return [
        (run_balance(BalanceRun(track, standard, 4, 400, 0, ("greedy",))), track)
        for track in tracks
    ]


def _made_up() -> list[BalanceReport]:
    """Reports that draw the rest: a pole beyond its first turn, another slot too high,
    a betting line reached too seldom, too few games."""
    out = []
    for games, wins, reached in (
        (400, [180, 50, 50, 50, 40, 30], [400, 400, 300]),
        (400, [70, 60, 130, 60, 40, 40], [400] * 3),
        (12, [2, 2, 2, 2, 2, 2], [12, 12, 12]),
    ):
        report = BalanceReport("oval", "standard", 4, ["greedy"] * 4, games=games)
        report.slot_wins = wins
        report.seat_wins = [60 * games // 4] * 4
        report.first_wins = 60 * games // 4
        report.line_reached = reached
        report.line_short[2].update({1: 60, 3: 30})
        report.grid = ["a4", "b4", "c4", "d4", "a3", "b3"]
        out.append(report)
    return out


def _verdicts() -> list[str]:
    """Check with Stronger Bots' line: holds, changes, unclear."""
    pole = Moved("pole", 0.30, 0.15, 0.05, True)
    still = Moved("slot 2", 0.15, 0.16, 0.05, True)
    stalls = Moved("stalled cars per race", 0.43, 0.57, 0.05, False)
    calm = Moved("stalled cars per race", 0.43, 0.44, 0.05, False)
    return [
        Verdict(("strong:2",), 200, (still, calm), {0: "above"}, {0: "above"}, (), ()).line(),
        Verdict(("strong:2",), 200, (pole, stalls), {}, {3: "above"}, ("x",), ()).line(),
        Verdict(("strong:2",), 200, (still, calm), {5: "below"}, {}, (), ("y",)).line(),
    ]


def _fix_headlines() -> list[str]:
    """Suggest fixes' headline when no fix is clearly better, or one part of one is."""
    base = BalanceReport("q", "standard", 4, ["strong"], games=200)
    base.stalled = Tally(120, 120, 200)  # 0.60 stalled cars a race: over the goal
    about = BalanceReport("q", "standard", 4, ["strong"], games=200)
    about.stalled = Tally(92, 124, 200)  # 0.46 (0.37-0.55): about at the goal
    edit = make_edit(open_track("quarry-hairpin"), Proposal("line", 4))
    same = Measured(1, 1, 0, 0)
    total = Measured(1.0, 0.9, -0.5, 0.3)
    stalls = Measured(0.6, 0.35, -0.35, -0.14)
    parts = {"stall problems": Measured(0.2, 0.0, -0.3, -0.1), "stalled": stalls}
    noisy = Trial(edit, 200, total, same, same, same, base)
    clear = Trial(edit, 200, total, same, stalls, same, base, parts)
    cut = Trial(edit, 200, total, same, Measured(0.46, 0.22, -0.31, -0.17), same, about)
    near = BalanceReport("q", "standard", 4, ["strong"], games=200)
    near.line_reached = [200, 200, 192]  # 96% (92-98): about at the aim of 95%
    none = Trial(edit, 200, Measured(0, 0, 0, 0), same, same, same, near)
    return [
        FixSearch(base, [noisy, clear]).unclear(),
        FixSearch(base, [noisy]).unclear(),
        FixSearch(about, [cut]).unclear(),
        FixSearch(about, [noisy]).unclear(),
        FixSearch(near, [none]).unclear(),
    ]


@pytest.fixture(scope="module")
def texts() -> list[str]:
    found = [h.text for report, track in _runs() for h in hints(report, track)]
    found += [h.text for report in _made_up() for h in hints(report)]
    return found + _verdicts() + _fix_headlines()


def test_the_texts_looked_at_hold_each_kind_of_finding(texts):
    """Every hint of a circuit, a power's and the auction's and the betting's commonest,
    the verdict's three outcomes and Suggest fixes' headlines."""
    for start in (
        "Cars stall",
        "Grid slot 1 (the pole",
        "The car starting in grid slot",
        "The player who plays first",
        "Betting line 3",
        "Cars jam",
        "Cars are cheap",
        "Bets weigh",
        "Only 12 games",
        "The verdict holds",
        "The verdict changes",
        "The verdict is unclear",
        'Fix 2, "Finish line',
        "No fix makes the circuit better",
    ):
        assert any(text.startswith(start) for text in texts), start
    assert any(" is worth more than the other powers" in text for text in texts)
    assert any(" of races: too few. The pole wins " in text for text in texts)
    assert any(", more than the fair 16.7% (1 race in 6): the opening" in text for text in texts)


def test_every_sentence_is_short(texts):
    for text in texts:
        for sentence in SENTENCE_END.split(text):
            assert len(sentence.split()) <= MOST_WORDS, sentence


def test_every_interval_is_in_brackets_never_a_plus_or_minus(texts):
    assert not [text for text in texts if "±" in text]


def test_every_figure_says_its_unit(texts):
    """A measured figure is followed by its unit (after its interval in brackets, or
    after the figure it became: "0.60 → 0.42 stalled cars a race"); money carries "$" and
    "M"; only the balance, a number from 0 to 1, has none."""
    for text in texts:
        plain = BRACKETS.sub("()", text)
        for figure in re.finditer(r"(?<![\w.$])[+\u2212-]?\d+\.\d+", plain):
            before, after = plain[: figure.start()], plain[figure.end() :]
            if before.endswith(("Balance ", "balance ")):
                continue
            after = re.sub(r"^ \(\)", "", after)
            if after.startswith(" \u2192 "):
                continue  # the figure it became says the unit
            assert after.startswith(UNITS), (figure.group(), text)
