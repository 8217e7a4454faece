"""Two variants on the same games: paired deals, every figure's change, a comparison
that stops early keeping only games both variants played."""

from __future__ import annotations

import copy

import pytest

from trackside.engine.balance import BalanceRun
from trackside.engine.balance.against import compare_variants, only_in
from trackside.engine.balance.compare import (
    BALANCE_JUDGED,
    MONEY,
    SHARE,
    Change,
    change_figure,
    change_words,
    compare,
)
from trackside.engine.errors import TracksideError
from trackside.engine.game.setup import paired_deal
from trackside.engine.records import open_track, open_variant


@pytest.fixture(scope="module")
def harbour():
    return open_track("harbour-loop")


@pytest.fixture(scope="module")
def few_powers(tmp_path_factory):
    path = tmp_path_factory.mktemp("variants") / "two-powers.yaml"
    path.write_text(
        "format: trackside-variant/1\nname: Two powers\nextends: standard\n"
        "powers: [tricky, aggressive]\n"
    )
    return open_variant(str(path))


def test_paired_deals_share_what_the_rules_allow(few_powers):
    """R-SET-2..4: the Speed-8 order, the grid and the power order are shared whatever
    the variant; the speed cards are the same order, cut by each hand rule."""
    standard, beginner = open_variant("standard"), open_variant("beginner")
    for seed in range(20):
        full = paired_deal(standard, standard.deck, 4, seed)
        fewer = paired_deal(few_powers, few_powers.deck, 4, seed)
        common = paired_deal(beginner, beginner.deck, 4, seed)
        assert full.grid == fewer.grid == common.grid
        assert full.speed8 == fewer.speed8 == common.speed8
        assert fewer.powers == tuple(p for p in full.powers if p in ("tricky", "aggressive"))
        assert common.powers == ()
        dealt = [card for hand in full.hands for card in hand]
        drawn = [card for hand in common.hands for card in hand] + list(common.pile)
        assert dealt == drawn[: len(dealt)]  # one card order, cut into hands differently
    assert paired_deal(standard, standard.deck, 4, 1) != paired_deal(standard, standard.deck, 4, 2)


def test_a_variant_against_itself_changes_nothing(harbour):
    run = BalanceRun(harbour, open_variant("standard"), 4, 12, seed=4)
    comparison = compare_variants(run, open_variant("standard"))
    assert comparison.before == comparison.after  # the very same games
    assert comparison.changes and all(c.delta == 0 for c in comparison.changes)
    assert not any(c.significant for c in comparison.changes)


def test_a_balance_that_does_not_move_at_its_precision_is_not_a_change(harbour, few_powers):
    """The balance moves beyond noise only with a slot's share, and only by what it
    shows: "-0.00" was once marked a real change beside slot shares that moved."""
    run = BalanceRun(harbour, open_variant("standard"), 4, 16, seed=2)
    before = compare_variants(run, few_powers).before
    before.games, before.slot_wins = 1000, [300, 140, 140, 140, 140, 140]
    after = copy.deepcopy(before)
    after.slot_wins = [140, 300, 140, 140, 140, 140]  # the same shares, moved between slots
    changes = {c.figure: c for c in compare(before, after)}
    assert changes["grid slot 1 win share"].significant
    assert after.balance == before.balance and not changes["balance"].significant
    assert changes["balance"].judged == (
        f"{BALANCE_JUDGED} The shares of grid slots 1 and 2 moved, but the balance is the "
        "same to two decimals."
    )
    after.slot_wins = [500, 100, 100, 100, 100, 100]
    moved = next(c for c in compare(before, after) if c.figure == "balance")
    assert moved.significant and moved.interval is None
    assert moved.judged.endswith(" moved: beyond noise.") and "grid slot" in moved.judged


def test_the_balance_says_how_it_is_judged_without_an_interval(harbour, few_powers):
    """The balance has no interval of its change: its Change says in words how it is
    judged (the slots' shares together) and which slots moved, where the panel's
    tooltip said only "0.91 → 0.86: -0.05"."""
    run = BalanceRun(harbour, open_variant("standard"), 4, 16, seed=2)
    before = compare_variants(run, few_powers).before
    before.games, before.slot_wins = 1000, [200, 160, 160, 160, 160, 160]
    after = copy.deepcopy(before)
    after.slot_wins = [210, 158, 158, 158, 158, 158]
    still = next(c for c in compare(before, after) if c.figure == "balance")
    assert not still.significant
    assert still.judged == f"{BALANCE_JUDGED} No slot's share moved: within noise."
    after.slot_wins = [300, 140, 140, 140, 140, 140]
    moved = next(c for c in compare(before, after) if c.figure == "balance")
    assert moved.judged == f"{BALANCE_JUDGED} Grid slot 1's share moved: beyond noise."
    assert "Holm" in BALANCE_JUDGED and "grid slot" in BALANCE_JUDGED


def test_a_rule_change_shows_in_its_figures_and_nowhere_it_cannot(harbour, few_powers):
    run = BalanceRun(harbour, open_variant("standard"), 4, 16, seed=2)
    comparison = compare_variants(run, few_powers)
    assert comparison.before.games == comparison.after.games == 16
    figures = {c.figure for c in comparison.changes}
    assert "tricky holder wins" in figures and "cunning holder wins" not in figures
    # The same deals: the grid's cars come from the same shuffle in both.
    assert comparison.before.grid == comparison.after.grid
    # The powers only the standard game has are named, not left out without a word.
    only_standard = ("cunning", "determined", "strategic", "unpredictable")
    assert only_in(comparison.before, comparison.after) == {
        "a": [f"the {name} power" for name in only_standard]
    }
    data = comparison.to_dict()
    assert data["format"] == "trackside-comparison/1" and data["paired"]
    assert data["a"]["variant"] == "Standard" and data["b"]["variant"] == "Two powers"
    assert {"figure", "unit", "before", "after", "change", "interval", "noise"} == set(
        data["changes"][0]
    )
    # Each change's 95% interval holds the change and leaves out no change exactly when the
    # change is marked beyond noise (the balance, judged by its slots together, has none).
    for change in comparison.changes:
        if change.interval is None:  # the balance, or a figure of fewer than 2 races
            assert change.figure == "balance" or not change.significant, change
            continue
        low, high = change.interval
        assert low - 1e-12 <= change.delta <= high + 1e-12, change
        assert (low > 0 or high < 0) == change.significant, change
        if change.unit == SHARE:  # a share goes no lower than none, no higher than all
            assert -change.before - 1e-12 <= low and high <= 1 - change.before + 1e-12, change


def test_figures_only_one_variant_has_are_named_not_compared(harbour):
    run = BalanceRun(harbour, open_variant("standard"), 4, 6)
    comparison = compare_variants(run, open_variant("beginner"))
    assert only_in(comparison.before, comparison.after) == {
        "a": ["powers", "auction", "betting", "winner decided by the last betting line"]
    }
    rule_words = ("holder", "bet ", "winner's", "car price", "car return")
    assert not any(word in c.figure for c in comparison.changes for word in rule_words)


def test_a_comparison_gives_the_same_figures_with_worker_processes(harbour, few_powers):
    run = BalanceRun(harbour, open_variant("standard"), 4, 20, seed=8)
    one, two = compare_variants(run, few_powers, 1), compare_variants(run, few_powers, 2)
    assert two.before == one.before and two.after == one.after
    assert two.changes == one.changes
    # Each report's time is its share of the wall time: with two workers the parts'
    # own times added up to more than passed, and the panel said so.
    for comparison in (one, two):
        total = comparison.before.seconds + comparison.after.seconds
        assert total == pytest.approx(comparison.seconds)


def test_a_cancelled_comparison_keeps_only_games_both_variants_played(harbour):
    run = BalanceRun(harbour, open_variant("standard"), 4, 200)
    seen: list[int] = []
    comparison = compare_variants(
        run, open_variant("long-distance"), progress=seen.append, cancelled=lambda: len(seen) >= 3
    )
    assert comparison.cancelled and comparison.before.cancelled
    assert 0 < comparison.before.games == comparison.after.games < 200
    assert seen == sorted(seen)


def test_a_table_the_other_variant_cannot_have_is_refused_before_any_game(harbour):
    run = BalanceRun(harbour, open_variant("standard"), 4, 10)
    with pytest.raises(TracksideError, match="2 to 2 players"):
        compare_variants(run, open_variant("two-player"))


@pytest.mark.parametrize(
    ("change", "cell", "words"),
    [
        (Change("pole", 0.38, 0.314, False, SHARE, (-0.142, 0.01)), "-6.6 pt", "≈ -6.6 points"),
        (Change("bet 3", 1.2, 0.6, True, MONEY, (-0.9, -0.3)), "-$0.6M", "-$0.6M (-$0.9M"),
        (Change("stalls", 0.60, 0.42, True, "", (-0.28, -0.08)), "-0.18", "-0.18 (-0.28"),
    ],
)
def test_a_change_is_written_alike_in_its_cell_and_in_the_command_s_words(change, cell, words):
    """The panel's Change cell and ``simulate --against`` (and the cell's tooltip, in its
    words) write a change from one helper: the same figure, the same ASCII minus."""
    assert change_figure(change, short=True) == cell
    assert change_words(change).startswith(words)


def test_a_money_change_s_interval_is_money_signed_as_the_change_is():
    """Its ends were bare numbers, "+$10.1M (+9.2 to +11.0)": the unit was the change's
    alone, and a reader could take the ends for points or shares."""
    spread = Change("money spread", 2.0, 12.1, True, MONEY, (9.2, 11.04))
    assert change_words(spread) == "+$10.1M (+$9.2M to +$11.0M)"
    straddling = Change("bet 3 payout", 1.2, 1.0, False, MONEY, (-0.46, 0.03))
    assert change_words(straddling) == "≈ -$0.2M (-$0.5M to +$0.0M)"
    just_under = Change("bet 2 payout", 1.0, 1.2, False, MONEY, (-0.04, 0.44))
    assert change_words(just_under) == "≈ +$0.2M (-$0.0M to +$0.4M)"  # it holds none
    stalls = Change("stalls", 0.60, 0.42, True, "", (-0.28, -0.08))
    assert change_words(stalls) == "-0.18 (-0.28 to -0.08)"
