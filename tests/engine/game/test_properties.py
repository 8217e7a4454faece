"""Invariants over hundreds (ci profile) or thousands (deep profile) of random-bot games.

Checked after every decision: no two cars on one space (R-MOVE-3); cars never
move back (R-MOVE-1/2: distance along the track never decreases; a lap wraps
across the seam); every card is in exactly one place (R-SET-3, R-RACE-2/5:
hands, draw piles, face-up Speed-8 cards, the card being played, discards,
cards out of the game and Speed-8 cards still to be auctioned make up the
deck). After each game: money adds up (R-SCORE-1: winnings = race payouts +
bet payouts - auction prices, seat by seat and in total; R-SCORE table) and
the game's record replays to the same result (through its YAML text for the
hypothesis examples, in memory for the plain loop).
"""

import pytest
from depth import examples, game_count
from hypothesis import given, settings
from hypothesis import strategies as st

from trackside.engine.bots import RandomBot, drive, race_of
from trackside.engine.game import COLOURS, Game, load_variant
from trackside.engine.records import (
    Recorder,
    SeatInfo,
    open_variant,
    parse_record,
    record_text,
    replay,
    summary,
)

pytestmark = pytest.mark.slow  # hundreds of games

VARIANTS = ["standard", "two-player", "beginner", "long-distance", "world-tour"]
TRACKS = ["harbour-loop", "quarry-hairpin"]
IN_TRANSIT = ("order", "skip", "wild", "path", "bonus")


class Watcher:
    """Checks the per-step invariants of a game after every decision."""

    def __init__(self, game):
        self.game = game
        self.race = None
        self.last: list = []

    def __call__(self) -> None:
        race = race_of(self.game)
        if race is not self.race:
            self.race, self.last = race, [None] * 6
        self.check_spaces(race)
        self.check_progress(race)
        self.check_cards(race)

    @staticmethod
    def check_spaces(g: Game) -> None:
        on_track = [p for p in g.state.car_spaces if p != -1]
        assert len(on_track) == len(set(on_track)), "two cars on one space"

    def check_progress(self, g: Game) -> None:
        board = g.board
        for c in range(6):
            here = g.state.car_spaces[c]
            before = self.last[c]
            if here != -1 and before is not None and here != before:
                step = (board.progress[here] - board.progress[before]) % board.length
                assert 0 < step < board.length / 2, f"{COLOURS[c]} moved back"
            if here != -1:
                self.last[c] = here

    @staticmethod
    def check_cards(g: Game) -> None:
        cards = (
            [c for h in g.state.hands for c in h]
            + [c for p in g.state.piles for c in p]
            + [c for f in g.state.face_up for c in f]
            + list(g.state.pile)
            + list(g.state.discard)
            + list(g.state.out_of_game)
        )
        pending = g.pending
        if pending.kind in IN_TRANSIT:
            cards.append(pending.card)
        queued = [car for car in g.state.speed8_queue] + [car for car, _ in g.state.set_aside]
        if pending.kind == "bid" and not pending.set_aside:
            queued.append(COLOURS.index(pending.car))
        cards += [g.deck.speed8(COLOURS[car]) for car in queued]
        assert sorted(cards) == list(range(len(g.cards))), "a card is lost or doubled"


def check_money(game) -> None:
    races = game.games if hasattr(game, "games") else [game]
    for g in races:
        r, v = g.result, g.variant
        for p in range(g.players):
            assert r.scores[p] == r.earnings[p] + r.bet_payouts[p] - r.prices[p]
        assert sum(r.scores) == sum(r.earnings) + sum(r.bet_payouts) - sum(r.prices)
        owned = [i for i, c in enumerate(r.ranking) if g.owner_of(c) is not None]
        assert sum(r.earnings) == sum(v.race_payout[i] for i in owned if i < len(v.race_payout))
        assert sum(r.prices) == sum(g.view(p).prices[p] for p in range(g.players))
        assert not set(r.ranking) & set(r.stalled)
    if hasattr(game, "games"):
        totals = [sum(g.result.scores[p] for g in races) for p in range(game.players)]
        assert list(game.result.scores) == totals


def play(variant: str, track: str, players: int, seed: int) -> Recorder:
    v = open_variant(variant)
    tracks = [] if v.series else [track]
    rec = Recorder.start(
        tracks,
        variant,
        players,
        seed,
        [SeatInfo(f"Player {p + 1}", "random") for p in range(players)],
    )
    watch = Watcher(rec.game)
    watch()

    def apply(decision):
        rec.apply(decision)
        watch()

    drive(rec.game, [RandomBot(f"{seed}:{p}") for p in range(players)], apply=apply)
    assert rec.game.over
    check_money(rec.game)
    return rec


def player_range(variant: str) -> tuple[int, int]:
    v = load_variant(variant)
    return v.min_players, v.max_players


@st.composite
def tables(draw):
    variant = draw(st.sampled_from(VARIANTS))
    low, high = player_range(variant)
    return (
        variant,
        draw(st.sampled_from(TRACKS)),
        draw(st.integers(low, high)),
        draw(st.integers(0, 2**31 - 1)),
    )


@settings(max_examples=examples(25, deep=400))
@given(tables())
def test_invariants_hold_and_records_replay_through_their_text(table):
    variant, track, players, seed = table
    rec = play(variant, track, players, seed)
    record = rec.record()
    again = replay(parse_record(record_text(record), "property.yaml"))
    assert summary(again) == record.result == summary(rec.game)


def test_invariants_over_three_hundred_games_or_two_thousand_when_deep():
    """A plain loop: 300 games (ci profile) or 2000 (deep), a fifth per variant
    (world tours of two races each)."""
    total = game_count(default=300, deep=2000)
    games = 0
    for k, variant in enumerate(VARIANTS):
        low, high = player_range(variant)
        count = total // 10 if variant == "world-tour" else total // 5
        for i in range(count):
            players = low + i % (high - low + 1)
            rec = play(variant, TRACKS[i % 2], players, 10_000 * k + i)
            assert summary(replay(rec.record())) == rec.record().result
            games += 2 if variant == "world-tour" else 1
    assert games == total
