"""The lab's bots and the stronger table a verdict is checked against."""

import pytest

from trackside.engine.balance.players import LAB_BOTS, stronger_bots
from trackside.engine.bots import MAX_SAMPLES, bot_kind_problem, make_bot
from trackside.engine.bots.strong import DEFAULT_SAMPLES, StrongBot


@pytest.mark.parametrize(
    ("bots", "stronger"),
    [
        (("greedy",), ("strong",)),
        (("strong",), (f"strong:{2 * DEFAULT_SAMPLES}",)),
        (("strong:3", "greedy"), ("strong:6", "strong")),
        (("random",), ("greedy",)),
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


def test_an_unknown_kind_has_no_stronger_bot():
    with pytest.raises(ValueError, match="unknown bot kind"):
        stronger_bots(("clever",))
