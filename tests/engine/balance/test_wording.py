"""The words every hint and comparison shares."""

from __future__ import annotations

import pytest

from trackside.engine.balance.wording import (
    interval_words,
    percent_range,
    range_digits,
    shown_change,
)


@pytest.mark.parametrize(
    ("before", "after", "digits", "shown"),
    [
        (0.875, 0.784, 2, -0.10),  # 0.88 -> 0.78 reads -0.10 (exactly -0.091)
        (0.104, 0.0749, 2, -0.03),  # 0.10 -> 0.07 reads -0.03 (exactly -0.0291)
        (25.04, 21.46, 1, -3.5),
        (12.0, 12.0, 0, 0.0),
    ],
)
def test_a_change_is_the_difference_of_the_figures_as_shown(before, after, digits, shown):
    change = shown_change(before, after, digits)
    assert change == pytest.approx(shown, abs=1e-9)
    assert change == pytest.approx(round(after, digits) - round(before, digits), abs=1e-9)


def test_a_share_is_shown_with_its_interval_as_it_lies():
    """A Wilson interval is not symmetric about the share: "15% (8-24)", never "15% ± 9",
    which would read as if it reached only 6% and leave a reader to think it below 25%."""
    assert percent_range(0.15, 0.08, 0.244) == "15% (8\u201324)"
    assert percent_range(0.241, 0.223, 0.26, 1) == "24.1% (22.3\u201326.0)"
    assert interval_words(0.095, 0.1224) == "(9.5% to 12.2% at 95%)"


def test_an_end_that_would_read_as_the_share_itself_is_shown_to_a_tenth():
    """A line reached in every one of 1,000 races: its interval starts below 100%, so
    it is not shown as "100% (100-100)", which reads as if nothing were uncertain."""
    assert percent_range(1.0, 0.9962, 1.0) == "100.0% (99.6\u2013100.0)"
    assert percent_range(0.167, 0.162, 0.172) == "16.7% (16.2\u201317.2)"


@pytest.mark.parametrize(
    ("low", "high", "digits"),
    [
        (0.253, 0.33, 1),  # "(25-33)" beside a fair 25% would hide that it leaves it
        (0.17, 0.246, 1),  # ... or that it ends just under it
        (0.26, 0.34, 0),
        (0.18, 0.32, 0),
    ],
)
def test_an_interval_beside_its_fair_share_keeps_a_tenth_where_whole_ones_would_blur_it(
    low, high, digits
):
    assert range_digits(low, high, 0.25) == digits
