"""The public API: decisions as data, refusals, views, copies, replays and invariants."""

import dataclasses
import functools
import operator
import random

import pytest
from game_helpers import STANDARD, finish
from game_tracks import board
from repo_paths import ROOT

from trackside.engine.errors import InvalidInput, TracksideError
from trackside.engine.game import (
    COLOURS,
    DECISION_TYPES,
    Bet,
    Bid,
    Game,
    IllegalDecision,
    KeepPower,
    Order,
    Path,
    Phase,
    PlayCard,
    Skip,
    SwapPower,
    Wild,
    decision_from_dict,
    load_variant,
)
from trackside.engine.game.decisions import FIELD_KINDS


def record(seed, players=4, variant=STANDARD, kind="straight"):
    """Play a random game, returning it and every decision applied (a record)."""
    g = Game.new(board(kind, variant.use_finish), variant, players, seed)
    rng = random.Random(seed)
    decisions = []
    while not g.over:
        for seat in g.due():
            d = rng.choice(g.options(seat))
            decisions.append(d.to_dict())
            g.apply(d)
    return g, decisions


@pytest.mark.parametrize(
    "decision",
    [
        Bid(0, 3),
        Bid(1, None),
        Bid(2, 5, "red"),
        KeepPower(0, "tricky"),
        SwapPower(1, "aggressive"),
        PlayCard(2, 7),
        Order(0, (2, 0, 1)),
        Skip(1, None),
        Skip(1, 2),
        Wild(0, ("red", "blue")),
        Path(3, "green", ("a1", "b2")),
        Bet(0, "black"),
    ],
)
def test_decisions_round_trip_through_plain_dicts(decision):
    """Decisions are plain, immutable data that records can store."""
    data = decision.to_dict()
    assert data["type"] in DECISION_TYPES and data["player"] == decision.player
    assert all(isinstance(v, (int, str, list, type(None))) for v in data.values())
    assert decision_from_dict(data) == decision
    with pytest.raises(AttributeError):
        decision.player = 9  # frozen


def test_bad_decision_data_is_refused():
    with pytest.raises(InvalidInput, match="'type' must be one of"):
        decision_from_dict({"type": "teleport", "player": 0})
    with pytest.raises(InvalidInput):
        decision_from_dict({"type": "bid", "player": 0, "colour": "red"})


def test_seed_plus_decisions_replay_exactly():
    """R-SET-5: a seed and the list of decisions reproduce a game exactly."""
    g, decisions = record(17)
    again = Game.new(board(), STANDARD, 4, 17)
    for data in decisions:
        again.apply(decision_from_dict(data))
    assert again.over and again.result == g.result
    assert [e.text for e in again.log] == [e.text for e in g.log]


def test_a_replay_can_be_cut_and_continued():
    """A game can stop at any decision and go on from there (records can be cut)."""
    g, decisions = record(3)
    cut = Game.new(board(), STANDARD, 4, 3)
    for data in decisions[: len(decisions) // 2]:
        cut.apply(decision_from_dict(data))
    branch = cut.copy()
    for data in decisions[len(decisions) // 2 :]:
        cut.apply(decision_from_dict(data))
    assert cut.result == g.result
    finish(branch)
    assert branch.over


def test_illegal_decisions_are_refused_clearly():
    """Applying an illegal decision raises IllegalDecision (a TracksideError)."""
    g = Game.new(board(), STANDARD, 3, 1)
    assert issubclass(IllegalDecision, TracksideError)
    with pytest.raises(IllegalDecision, match="a bid decision is due from seat 0, not play_card"):
        g.apply(PlayCard(0, g.state.hands[0][0]))
    with pytest.raises(IllegalDecision, match="seat 5 has no decision due"):
        g.apply(Bid(5, None))
    assert not g.is_legal(Bid(0, g.state.hands[1][0]))
    finish(g)
    with pytest.raises(IllegalDecision, match="game is over"):
        g.apply(Bet(0, "red"))


def test_views_hide_other_hands_and_bets():
    """Per-player views hide others' hands and, until scoring, others' bets."""
    g = Game.new(board(), STANDARD, 3, 2)
    v = g.view(1)
    assert v.hand == tuple(g.state.hands[1]) and v.hand_sizes == tuple(
        len(h) for h in g.state.hands
    )
    assert not any(set(g.state.hands[0]) & set(getattr(v, f)) for f in ("hand",))
    rng = random.Random(2)
    while g.phase != Phase.BET and not g.over:
        for seat in g.due():
            g.apply(rng.choice(g.options(seat)))
    assert g.phase == Phase.BET
    first, *others = g.due()
    g.apply(Bet(first, COLOURS[first]))
    # R-BET-2: a seat sees its own choice at once; the others do not see it.
    assert COLOURS[first] in g.view(first).my_bets
    assert all(COLOURS[first] not in g.view(s).my_bets for s in others)
    for seat in others:
        g.apply(Bet(seat, COLOURS[seat]))
    line = next(k for k in range(3) if g.state.bets[k][0] is not None)
    for s in range(3):
        mine = g.view(s).my_bets
        assert mine[line] == COLOURS[s]
        # no other seat's choice appears anywhere in this view's public fields
        assert all(e.kind != "bet" or COLOURS[(s + 1) % 3] not in e.text for e in g.log)


def test_copy_is_independent():
    """copy() gives an independent state sharing only immutable parts."""
    g = Game.new(board(), STANDARD, 4, 5)
    c = g.copy()
    finish(c)
    assert c.over and not g.over
    assert g.phase == Phase.AUCTION and all(p != -1 for p in g.state.car_spaces)
    assert c.board is g.board
    finish(g)
    assert g.result == c.result


def test_every_concrete_path_is_accepted():
    """A person may choose any concrete legal path, not only one per outcome."""
    g = Game.new(board(), STANDARD, 3, 6)
    rng = random.Random(6)
    checked = 0
    while not g.over and checked < 20:
        for seat in g.due():
            if g.pending.kind in ("path", "bonus"):
                paths = g.all_paths(seat)
                assert set(g.options(seat)) <= set(paths)
                for p in paths:
                    assert g.is_legal(p)
                g.apply(rng.choice(paths))
                checked += 1
            else:
                g.apply(rng.choice(g.options(seat)))
    assert checked


def test_single_option_steps_are_never_asked():
    """A step with exactly one legal option is applied automatically."""
    for seed in range(5):
        g = Game.new(board(), STANDARD, 4, seed)
        rng = random.Random(seed)
        while not g.over:
            for seat in g.due():
                opts = g.options(seat)
                assert len(opts) >= 2
                g.apply(rng.choice(opts))


def test_pending_describes_the_question():
    g = Game.new(board(), STANDARD, 3, 0)
    p = g.pending
    assert p.kind == "bid" and p.car in COLOURS and p.players == (0, 1, 2)
    assert p.power in load_variant("standard").powers


@pytest.mark.parametrize(
    "name, players, kind",
    [
        ("standard", 4, "straight"),
        ("two-player", 2, "straight"),
        ("beginner", 5, "straight"),
        ("long-distance", 3, "ring"),
    ],
)
def test_invariants_over_random_games(name, players, kind):
    """Invariants over random games: no two cars on a space; cars never move back; every
    card is in exactly one place; money adds up; each game replays to the same result."""
    v = load_variant(name)
    b = board(kind, v.use_finish)
    for seed in range(40):
        g = Game.new(b, v, players, seed)
        rng = random.Random(seed)
        decisions = []
        last = {c: None for c in range(6)}
        while not g.over:
            for seat in g.due():
                d = rng.choice(g.options(seat))
                decisions.append(d)
                g.apply(d)
            on_track = [p for p in g.state.car_spaces if p != -1]
            assert len(on_track) == len(set(on_track)) and set(on_track) == g.state.occupied
            for c in range(6):
                here = g.state.car_spaces[c]
                if here != -1 and last[c] is not None:
                    ahead = g.state.laps[c] * b.length + b.progress[here]
                    assert ahead >= last[c] - 1e-9
                last[c] = (g.state.laps[c] * b.length + b.progress[here]) if here != -1 else last[c]
            cards = (
                functools.reduce(operator.iadd, g.state.hands, [])
                + functools.reduce(operator.iadd, g.state.piles, [])
                + functools.reduce(operator.iadd, g.state.face_up, [])
                + g.state.pile
                + g.state.discard
                + g.state.out_of_game
            )
            if g.phase == Phase.RACE and g.pending.kind in (
                "path",
                "bonus",
                "wild",
                "order",
                "skip",
            ):
                cards.append(g.state.card)
            assert sorted(cards) == list(range(42 + 6)) or g.phase == Phase.AUCTION
        r = g.result
        for p in range(players):
            assert r.scores[p] == r.earnings[p] + r.bet_payouts[p] - r.prices[p]
        assert sum(r.earnings) == sum(
            v.race_payout[i] for i, c in enumerate(r.ranking) if g.owner_of(c) is not None
        )
        again = Game.new(b, v, players, seed)
        for d in decisions:
            again.apply(d)
        assert again.result == r


def test_copies_draw_the_same_random_numbers_independently():
    """R-SET-5: a copy continues the same random source without disturbing the original."""
    hands = [[24, 18, 20], [27, 19, 21], [22, 23, 30]]  # seats 0 and 1 tie on black
    from game_helpers import deal

    order = ("black", *tuple(c for c in COLOURS if c != "black"))
    for seed in range(6):
        g = Game.new(board(), STANDARD, 3, seed, deal(hands, COLOURS, order))
        c = g.copy()
        for game in (c, g):
            game.apply(Bid(0, 24))
            game.apply(Bid(1, 27))
            game.apply(Bid(2, None))
        assert c.owner_of("black") == g.owner_of("black")
        assert c.state.rng is not g.state.rng


def test_module_docstring_example_plays_a_game_to_the_end(monkeypatch, capsys):
    """The example in engine.game's docstring runs as written."""
    import textwrap

    from trackside.engine import game

    doc = game.__doc__
    code = doc[doc.index("::\n") + 3 : doc.index("A world tour")]
    monkeypatch.chdir(ROOT)
    exec(textwrap.dedent(code), {})
    out = capsys.readouterr().out
    assert "Winner: Player" in out and "Up for auction" in out


def test_quiet_games_play_the_same_game():
    """log=False skips routine events only: same result, auction and score sheet kept."""
    for seed in range(5):
        loud, decisions = record(seed)
        quiet = Game.new(board(), STANDARD, 4, seed, log=False)
        for data in decisions:
            quiet.apply(decision_from_dict(data))
        assert quiet.result == loud.result
        kinds = {e.kind for e in quiet.log}
        assert "move" not in kinds and "play" not in kinds
        assert {"bids", "auction", "score"} <= kinds
        assert loud.copy(log=False).state.logging is False and loud.copy().state.logging is True


@pytest.mark.parametrize(
    "junk",
    [
        {"type": "order", "player": 0, "rows": ["a", 1]},
        {"type": "order", "player": 0, "rows": 5},
        {"type": "path", "player": 0, "car": "red", "path": [1, 2]},
        {"type": "path", "player": 0, "car": "red", "path": "a1"},
        {"type": "bid", "player": 0, "card": "twelve"},
        {"type": "bet", "player": 0, "car": ["red"]},
        {"type": "play_card", "player": "zero", "card": 1},
    ],
)
def test_junk_decisions_from_records_are_refused_cleanly(junk):
    """A hostile or broken record cannot crash the engine: a value of the wrong
    type is refused as it is read (InvalidInput, naming the field), anything
    else read is refused when applied (IllegalDecision)."""
    g = Game.new(board(), STANDARD, 3, 1)
    rng = random.Random(1)
    for _ in range(400):
        if g.over:
            break
        seat = g.due()[0]
        data = {**junk, "player": seat} if junk["player"] == 0 else junk
        try:
            d = decision_from_dict(data)
        except InvalidInput as refused:
            assert " must be " in str(refused)
        else:
            with pytest.raises(IllegalDecision):
                g.apply(d)
        for seat in g.due():
            g.apply(rng.choice(g.options(seat)))


def test_every_field_of_a_decision_has_its_type_checked_when_read():
    for cls in DECISION_TYPES.values():
        for f in dataclasses.fields(cls):
            assert str(f.type) in FIELD_KINDS, f"{cls.__name__}.{f.name}: {f.type}"
    with pytest.raises(InvalidInput, match="card must be a whole number or null"):
        decision_from_dict({"type": "bid", "player": 0, "card": "twelve"})
    with pytest.raises(InvalidInput, match="player must be a whole number"):
        decision_from_dict({"type": "play_card", "player": True, "card": 1})
    assert decision_from_dict({"type": "order", "player": 1, "rows": [2, 0]}).rows == (2, 0)
