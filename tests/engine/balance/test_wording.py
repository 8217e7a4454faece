"""The words every hint and comparison shares."""

from __future__ import annotations

import pytest

from trackside.engine.balance.wording import shown_change


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
