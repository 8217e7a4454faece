"""The lab's bots and the stronger table a verdict is checked against."""

import subprocess
import sys

import pytest

from trackside.engine.balance.players import (
    LAB_BOTS,
    bots_in_words,
    stronger_bots,
    stronger_in_words,
)
from trackside.engine.bots import MAX_SAMPLES, bot_kind_problem, make_bot
from trackside.engine.bots.strong import DEFAULT_SAMPLES, StrongBot


@pytest.mark.parametrize(
    ("bots", "stronger"),
    [
        (("greedy",), ("strong",)),
        (("strong",), (f"strong:{2 * DEFAULT_SAMPLES}",)),
        (("strong:3", "greedy"), ("strong:6", "strong")),
        (("random",), ("random",)),  # players who do not look ahead stay so
        ((f"strong:{MAX_SAMPLES}",), (f"strong:{MAX_SAMPLES}",)),
    ],
)
def test_stronger_bots_search_twice_as_much(bots, stronger):
    assert stronger_bots(bots) == stronger


def test_stronger_bots_are_bots_with_twice_the_deals():
    """Every name ``stronger_bots`` gives is a bot kind, and a strong one draws
    twice the deals (for its bets too) of the bot it replaces."""
    for bots in (LAB_BOTS, ("greedy",), ("strong",), ("strong:5",)):
        for kind, stronger in zip(bots, stronger_bots(bots), strict=True):
            assert bot_kind_problem(stronger) is None
            before, after = make_bot(kind), make_bot(stronger)
            if isinstance(before, StrongBot):
                assert isinstance(after, StrongBot)
                assert after.samples == 2 * before.samples
                assert after.bet_samples == 2 * before.bet_samples


def test_the_lab_ships_with_strong_bots():
    """The lab's default players, read by a fresh process (the tests' own lab plays
    greedy bots, set in tests/conftest.py): the strong bot, whose verdict held with
    twice its search where greedy bots' did not (docs/balance.md)."""
    code = "from trackside.engine.balance.players import LAB_BOTS; print(','.join(LAB_BOTS))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "strong"
    assert LAB_BOTS == ("greedy",)  # this process: tests/conftest.py


@pytest.mark.parametrize(
    ("bots", "plain", "stronger"),
    [
        (("strong",), "strong bots", "stronger bots (strong)"),
        (
            ("strong:2",),
            "strong bots (two deals a decision)",
            "stronger bots (two deals a decision)",
        ),
        (("greedy", "random"), "greedy, random bots", "stronger bots (greedy, random)"),
        (
            ("strong:2", "strong"),
            "strong (two deals a decision), strong bots",
            "stronger bots (strong at two deals a decision, strong)",
        ),
        (
            ("strong:1500",),
            "strong bots (1,500 deals a decision)",
            "stronger bots (1,500 deals a decision)",
        ),
    ],
)
def test_the_editor_names_bots_without_the_settings_jargon(bots, plain, stronger):
    """ "strong:2" is the command line's; the editor says how deep a strong bot searches."""
    assert bots_in_words(bots) == plain
    assert stronger_in_words(bots) == stronger
