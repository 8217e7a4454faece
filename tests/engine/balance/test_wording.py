"""The words every hint and comparison shares."""

from __future__ import annotations

import pytest

from trackside.engine.balance.wording import (
    amount_range,
    money_range,
    percent_range,
    range_digits,
    shown_change,
)
from trackside.engine.text import money


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
    assert percent_range(0.104, 0.095, 0.1224, 1) == "10.4% (9.5\u201312.2)"  # as hints say it


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


def test_money_is_shown_one_way_everywhere_with_its_interval_as_a_share_is():
    """A car's price in a hint, the car table and a bet's payout read alike: dollars,
    millions, a tenth of a million, the interval's ends in brackets ("$3.4M (3.3-3.5)");
    a designer saw "$3.40M ± 0.08" in a hint beside "3.5 ± 0.2" in the table and
    "2.70 ± 0.08" beside one decimal elsewhere."""
    assert money_range(3.4012, 3.32, 3.48) == "$3.4M (3.3\u20133.5)"
    assert money_range(2.7, 2.62, 2.78) == "$2.7M (2.6\u20132.8)"
    assert money_range(16.93, 16.4, 17.46) == "$16.9M (16.4\u201317.5)"
    # A whole interval that would read as the figure itself keeps a hundredth.
    assert money_range(3.5, 3.46, 3.54) == "$3.50M (3.46\u20133.54)"
    # Winnings may be below nothing: a dash beside a minus sign misreads.
    assert money_range(-1.2, -2.0, -0.4) == "-$1.2M (-2.0 to -0.4)"
    assert money(0.04, signed=True) == "+$0.0M" and money(-0.04) == "$0.0M"
    assert money(-0.61, signed=True) == "-$0.6M"


def test_an_amount_is_shown_with_its_interval_as_a_share_is():
    """Stalled cars, places, cards: "0.37 (0.34-0.40)", the form of a share's interval."""
    assert amount_range(0.37, 0.34, 0.40) == "0.37 (0.34\u20130.40)"
    assert amount_range(3.55, 3.441, 3.659) == "3.55 (3.44\u20133.66)"
    assert amount_range(32.35, 32.2, 32.5, 1) == "32.4 (32.2\u201332.5)"
    assert amount_range(0.5, 0.497, 0.503) == "0.500 (0.497\u20130.503)"
