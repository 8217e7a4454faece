"""Words in the right number, for every message that counts something."""

from __future__ import annotations

from trackside.engine.text import plural


def test_one_is_singular_and_every_other_number_plural():
    assert plural(1, "card") == "1 card"
    assert [plural(n, "card") for n in (0, 2, 11)] == ["0 cards", "2 cards", "11 cards"]
    assert plural(1.0, "win", spec="g") == "1 win" and plural(2.5, "win", spec="g") == "2.5 wins"
    assert plural(1200, "legal path", spec=",") == "1,200 legal paths"
    assert plural(1, "bus", "buses") == "1 bus" and plural(3, "bus", "buses") == "3 buses"


def test_the_time_left_is_said_at_the_pace_so_far():
    from trackside.engine.text import time_left

    assert time_left(250, 1000, 10.0) == "30 s"
    assert time_left(100, 1000, 20.0) == "3 min 00 s"
    assert time_left(10, 1000, 1.0) == ""  # too early to say
    assert time_left(0, 1000, 30.0) == "" and time_left(1000, 1000, 30.0) == ""
