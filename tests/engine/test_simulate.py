"""``engine/simulate.py``: the statistics of many bot games keep each mean as a tally
(sum, sum of squares, count), and parts played apart add up to exactly the whole run."""

from __future__ import annotations

import dataclasses

from trackside.engine.records import open_track, open_variant
from trackside.engine.simulate import BotRun, Stats, play_games
from trackside.engine.tallies import Tally


def played(run: BotRun, first: int, stop: int) -> Stats:
    """The statistics of games ``first`` to ``stop - 1`` of ``run``."""
    stats = Stats("Standard", ["Quarry Hairpin"], run.players, run.kinds(0), run.seed)
    play_games(run, first, stop, lambda game, _kinds: stats.add(game))
    return stats


def test_every_mean_is_one_tally_and_parts_merge_into_the_whole_run():
    run = BotRun((open_track("quarry-hairpin"),), open_variant("standard"), 4, 9, seed=11)
    whole = played(run, 0, 9)
    first, second = played(run, 0, 4), played(run, 4, 9)
    second.merge(first)  # in either order
    assert dataclasses.replace(second, seconds=0.0) == dataclasses.replace(whole, seconds=0.0)

    means = [whole.cards, whole.stalled, *whole.lines, *whole.winnings]
    assert all(isinstance(tally, Tally) for tally in means)
    assert whole.cards.count == whole.stalled.count == whole.races == 9
    assert [tally.count for tally in whole.winnings] == [9] * 4
    assert all(tally.count <= whole.races for tally in whole.lines)
    for tally in means:
        if tally.count > 1:
            low, high = tally.interval()
            assert low <= tally.mean <= high
    figures = whole.to_dict()
    assert figures["mean_cards_played"] == round(whole.cards.mean, 2)
    assert [line["crossed_in"] for line in figures["betting_lines"]] == [
        tally.count for tally in whole.lines
    ]
