"""Words in the right number, for every message that counts something."""

from __future__ import annotations

from trackside.engine.text import ESTIMATING, Pace, duration, elided, plural


def test_one_is_singular_and_every_other_number_plural():
    assert plural(1, "card") == "1 card"
    assert [plural(n, "card") for n in (0, 2, 11)] == ["0 cards", "2 cards", "11 cards"]
    assert plural(1.0, "win", spec="g") == "1 win" and plural(2.5, "win", spec="g") == "2.5 wins"
    assert plural(1200, "legal path", spec=",") == "1,200 legal paths"
    assert plural(1, "bus", "buses") == "1 bus" and plural(3, "bus", "buses") == "3 buses"


class FakeClock:
    """A clock a test sets: ``clock.now = 12.5``."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


# Two workers on busy cores playing tasks of 10 games: 7 s before the first task comes
# in (the workers starting up, then 4 s of play), the other worker's a moment later,
# then 20 games every 4 s: 5 games a second. (seconds, games played)
TWO_WORKERS = [(7.0, 10), (7.3, 20), (11.0, 30), (11.3, 40), (15.0, 50), (15.3, 60)]
RATE = 5.0  # games a second


def test_the_time_left_is_told_from_the_games_once_they_come_in():
    """Counted from the start, the first report (10 games in 7 s) said 990 games at 0.7 s
    each: 11 min 33 s, over three times the 3 min 18 s the rest takes. Counted from
    the first games reported, it says "estimating" until 2 s and 3 games more have come
    in, then within a third of the truth, and nearer as the games come in."""
    clock = FakeClock()
    pace = Pace(1000, clock)
    assert pace.left(0) == ESTIMATING
    said = []
    for when, done in TWO_WORKERS:
        clock.now = when
        said.append(pace.left(done))
    assert said[:2] == [ESTIMATING, ESTIMATING]
    for (_when, done), left in zip(TWO_WORKERS[2:], said[2:], strict=True):
        truth = (1000 - done) / RATE
        assert left in {duration(s) for s in range(round(0.7 * truth), round(1.05 * truth))}
    assert said[2] == duration(970 / RATE)  # 20 games in the 4 s since the first: exact
    assert pace.left(1000) == ""


def test_a_long_start_then_a_steady_stream_is_told_at_the_stream_s_pace():
    """One worker: 20 s before the first game comes in, then one every 0.1 s. From the
    start, 30 games in 22.9 s said about 63 min for 4,970 games; from the first game, 8
    min 17 s, the pace they come in at."""
    clock = FakeClock()
    pace = Pace(5000, clock)
    for game in range(1, 31):
        clock.now = 20 + 0.1 * (game - 1)
        left = pace.left(game)
    assert left == duration(4970 * 0.1)


def test_a_long_text_is_cut_in_the_middle_to_its_limit():
    name = "a" * 150 + "z" * 150 + ".yaml"
    short = elided(name, 80)
    assert len(short) == 80 and short.startswith("a" * 40) and short.endswith("z" * 34 + ".yaml")
    assert short.count("…") == 1 and elided("short.yaml", 80) == "short.yaml"
