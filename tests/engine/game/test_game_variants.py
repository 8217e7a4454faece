"""Variants as data (R-VAR): the bundled files, inheritance, errors, and each
variant's rules; every variant plays full games to the end."""

import itertools
import json
import random
import re
from pathlib import Path

import pytest
from game_helpers import deal, dealt, finish, play, variant
from game_tracks import board, straight
from repo_paths import ROOT

from trackside.engine.errors import InvalidInput
from trackside.engine.game import (
    COLOURS,
    Board,
    Game,
    Phase,
    PlayCard,
    Series,
    SwapPower,
    bundled_variants,
    load_variant,
)
from trackside.engine.resources import schema_path

BUNDLED = ["standard", "two-player", "beginner", "long-distance", "world-tour"]


def test_bundled_variants_load():
    """R-VAR: the five bundled variants are data files that load and validate."""
    assert sorted(p.stem for p in bundled_variants()) == sorted(BUNDLED)
    for name in BUNDLED:
        assert load_variant(name).name


def test_extends_inherits_and_merges_mappings(tmp_path):
    """R-VAR: 'extends' inherits every key; a mapping merges key by key."""
    (tmp_path / "mine.yaml").write_text(
        "format: trackside-variant/1\nname: Mine\nextends: two-player\nhand: {size: 5}\n"
    )
    (tmp_path / "child.yaml").write_text(
        "format: trackside-variant/1\nname: Child\nextends: mine.yaml\nbetting: false\n"
    )
    v = load_variant(tmp_path / "child.yaml")
    assert (v.hand_mode, v.hand_size, v.speed8, v.betting) == ("private", 5, "face_up", False)
    assert (v.min_players, v.max_players) == (2, 2)


@pytest.mark.parametrize(
    "text, line, fragment",
    [
        ("hand:\n  mode: shared\n", 4, "must be one of 'dealt', 'common', 'private'"),
        ("powers: [aggressive, flying]\n", 3, "flying"),
        ("colour: red\n", 3, "unknown key 'colour'"),  # the key's own line
        ("payouts:\n  race: [1, 2]\n", 4, "needs at least 6 items"),
        ("players: {min: 5, max: 3}\n", 3, "more than players.max"),
        ("hand: {mode: common, size: 9}\n", 3, "need more than the 42 cards"),
        ("finish: distance\nwinner: first_car\n", 4, "no car finishes"),
        ("extends: nowhere\n", 3, "extends nowhere: no such variant"),
    ],
)
def test_bad_variant_file_names_file_line_and_fix(tmp_path, text, line, fragment):
    """R-VAR: a bad variant file gets a clear error naming file, line and fix."""
    path = tmp_path / "bad.yaml"
    path.write_text("format: trackside-variant/1\nname: Bad\n" + text)
    with pytest.raises(InvalidInput) as err:
        load_variant(path)
    message = str(err.value)
    assert fragment in message
    assert message.startswith(f"{path}:") and "(" in message
    assert re.match(rf"{re.escape(str(path))}:{line}\b", message), message


@pytest.mark.parametrize(
    "extends, meant",
    [
        ("standrad", "standard"),
        ("two-playr", "two-player"),
        ("rules/huose.yaml", "rules/house.yaml"),
    ],
)
def test_a_misspelt_extends_is_told_the_variant_it_is_near(tmp_path, extends, meant):
    """R-VAR: an 'extends' naming no variant says which bundled variant, or which file
    beside the one named, it most likely misspells, at the place of the 'extends'."""
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "house.yaml").write_text(
        "format: trackside-variant/1\nname: House\nextends: standard\n"
    )
    path = tmp_path / "mine.yaml"
    path.write_text(f"format: trackside-variant/1\nname: Mine\nextends: {extends}\n")
    with pytest.raises(InvalidInput) as err:
        load_variant(path)
    assert str(err.value).startswith(
        f"{path}:3:10: extends {extends}: no such variant (did you mean {meant}? "
    )


def test_a_problem_in_an_inherited_variant_names_each_file_as_it_was_given(tmp_path, monkeypatch):
    """R-VAR: a variant given by a relative path, and the file it extends, are named in
    messages as they were given (relative), not as the absolute paths they resolve to."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "base.yaml").write_text(
        "format: trackside-variant/1\nname: Base\nextends: standard\nhand: 12\n"
    )
    (tmp_path / "rules" / "mine.yaml").write_text(
        "format: trackside-variant/1\nname: Mine\nextends: base.yaml\n"
    )
    with pytest.raises(InvalidInput) as err:
        load_variant("rules/mine.yaml")
    assert str(err.value).startswith(f"{Path('rules', 'base.yaml')}:4:")


def test_extends_loop_is_refused(tmp_path):
    """R-VAR: 'extends' must not loop."""
    (tmp_path / "a.yaml").write_text("format: trackside-variant/1\nname: A\nextends: b.yaml\n")
    (tmp_path / "b.yaml").write_text("format: trackside-variant/1\nname: B\nextends: a.yaml\n")
    with pytest.raises(InvalidInput, match="loops"):
        load_variant(tmp_path / "a.yaml")


def test_every_schema_key_is_documented():
    """R-VAR: every variant key is documented in docs/variants.md."""
    schema = json.loads(schema_path("variant").read_text())
    doc = (ROOT / "docs" / "variants.md").read_text()
    for key, spec in schema["properties"].items():
        assert f"`{key}" in doc, key
        for sub in spec.get("properties", {}):
            assert f"`{key}.{sub}`" in doc, f"{key}.{sub}"


def test_documented_custom_variants_load_and_play(tmp_path):
    """R-VAR: the docs' custom variants (odds betting, a duel) are new files, not new code."""
    doc = (ROOT / "docs" / "variants.md").read_text()
    blocks = re.findall(r"```yaml\n(format: trackside-variant/1.*?)```", doc, re.S)
    assert len(blocks) >= 3
    for k, text in enumerate(blocks):
        if "series:" in text:
            continue  # names tracks of the reader's own
        path = tmp_path / f"v{k}.yaml"
        path.write_text(text)
        v = load_variant(path)
        g = Game.new(board(), v, v.min_players, k)
        finish(g, random.Random(k))
        assert g.over
    odds = load_variant(tmp_path / "v0.yaml")
    assert odds.bet_payouts == ((8,), (12,), (16,))


@pytest.mark.parametrize(
    "name, players",
    [
        ("standard", 3),
        ("standard", 6),
        ("two-player", 2),
        ("beginner", 4),
        ("beginner", 2),
        ("long-distance", 4),
    ],
)
def test_each_variant_plays_full_games(name, players):
    """R-VAR: each variant plays full games to the end with random choices."""
    v = load_variant(name)
    b = board("ring" if v.finish == "distance" else "straight", v.use_finish)
    for seed in range(15):
        g = Game.new(b, v, players, seed)
        finish(g, random.Random(seed))
        assert g.over and g.phase == Phase.OVER and g.result.winners
    first = Game.new(b, v, players, 0)
    finish(first)
    assert first.over


def test_world_tour_plays_every_track_and_adds_up():
    """R-VAR world tour: one full game per track, winnings added up, highest total wins."""
    v = load_variant("world-tour")
    boards = [board(), Board(straight(rows=60, lines=(10, 20, 30, 50)))]
    s = Series.new(boards, v, 3, seed=4)
    races_seen = set()
    rng = random.Random(4)
    while not s.over:
        races_seen.add(s.race)
        for seat in s.due():
            s.apply(rng.choice(s.options(seat)))
    assert races_seen == {0, 1}
    r = s.result
    assert len(r.races) == 2
    assert r.scores == tuple(sum(x.scores[p] for x in r.races) for p in range(3))
    assert max(r.scores) == r.scores[r.winners[0]]
    assert [e.text for e in s.log if e.kind == "race"][:1] == ["Race 1 of 2: Test straight"]
    again = Series.new(boards, v, 3, seed=4)
    finish(again, random.Random(4))
    assert again.result == r


def test_world_tour_track_list_comes_from_the_variant():
    """R-VAR world tour: the series track list is part of the variant."""
    v = load_variant("world-tour")
    assert len(v.series) >= 2 and all(p.endswith(".yaml") for p in v.series)


def test_beginner_cars_dealt_equally_rest_unowned_speed8_in_hand():
    """R-VAR beginner: no auction; Speed-8 cards dealt at random so everyone has the
    same number, into their owners' hands (ruling); the rest race unowned; no powers."""
    v = load_variant("beginner")
    g = Game.new(board(), v, 4, 8)
    owned = [c for c in COLOURS if g.owner_of(c) is not None]
    assert len(owned) == 4 and sorted(g.owner_of(c) for c in owned) == [0, 1, 2, 3]
    assert g.phase == Phase.RACE and g.state.power == [None] * 4
    for c in owned:
        assert g.deck.speed8(c) in g.state.hands[g.owner_of(c)]
    assert [len(h) for h in g.state.hands] == [4] * 4  # 3 cards + the Speed-8 card
    assert len(g.state.pile) == 42 - 12


def test_beginner_draws_after_each_card_no_bets_first_car_wins():
    """R-VAR beginner: a player draws one after each card played; no betting; the owner
    of the first car to finish wins."""
    v = load_variant("beginner")
    g = Game.new(board(), v, 3, 2)
    top = g.state.pile[0]
    p = g.state.turn
    play(g, g.options(p)[0])
    assert top in g.state.hands[p] and len(g.state.hands[p]) == 3 + 2
    finish(g, random.Random(2))
    assert not any(e.kind == "bet-open" for e in g.log)
    first_owned = next(c for c in g.result.ranking if g.owner_of(c) is not None)
    assert g.result.winners == (g.owner_of(first_owned),)
    assert "owner of the first car to finish" in g.result.sheet[-1]


def test_two_player_speed8_face_up_private_piles_of_seven():
    """R-VAR two players: Speed-8 cards stay face up; after the auction each player
    shuffles their speed cards into a private pile and draws 7."""
    v = load_variant("two-player")
    g = Game.new(board(), v, 2, 5)
    while g.phase != Phase.RACE:
        for seat in g.due():
            g.apply(g.options(seat)[0])
    assert [len(h) for h in g.state.hands] == [7, 7]
    assert [len(p) for p in g.state.piles] == [14, 14]
    for seat in (0, 1):
        owned = [c for c in COLOURS if g.owner_of(c) == seat]
        assert sorted(g.state.face_up[seat]) == sorted(g.deck.speed8(c) for c in owned)
    assert not any(c >= 42 for h in g.state.hands for c in h)
    assert g.view(0).pile_sizes == (14, 14)


def test_two_player_draw_after_hand_card_not_after_speed8():
    """R-VAR two players: a card from hand is replaced from the own pile; a face-up
    Speed-8 card is used once and not replaced."""
    v = load_variant("two-player")
    g = Game.new(board(), v, 2, 5)
    while g.phase != Phase.RACE:
        for seat in g.due():
            g.apply(g.options(seat)[0])
    p = g.state.turn
    top = g.state.piles[p][0]
    play(g, PlayCard(p, g.state.hands[p][0]))
    assert top in g.state.hands[p] and len(g.state.hands[p]) == 7
    while g.phase == Phase.BET:
        for seat in g.due():
            g.apply(g.options(seat)[0])
    q = g.state.turn
    s8 = g.state.face_up[q][0]
    assert PlayCard(q, s8) in g.options(q)
    play(g, PlayCard(q, s8))
    assert s8 not in g.state.face_up[q] and len(g.state.hands[q]) == 7 and s8 in g.state.discard


def test_two_player_cunning_swap_option():
    """R-VAR two players option: the winner of Cunning swaps it for another power."""
    v = variant(min_players=2, hand_mode="private", speed8="face_up", cunning_swap=True)
    hands = [list(range(0, 21)), list(range(21, 42))]
    g = Game.new(
        board(), v, 2, 0, deal(hands, COLOURS, COLOURS, ("cunning", "aggressive", "determined"))
    )
    while g.phase == Phase.AUCTION:
        for seat in g.due():
            opts = g.options(seat)
            g.apply(opts[0] if seat == 0 else opts[-1])
    while g.phase == Phase.POWER and g.pending.kind == "keep_power":
        for seat in g.due():
            g.apply(next((o for o in g.options(seat) if o.power == "cunning"), g.options(seat)[0]))
    if g.pending.kind == "swap_power":
        seat = g.due()[0]
        options = {o.power for o in g.options(seat)}
        assert "cunning" in options and {"strategic", "tricky", "unpredictable"} <= options
        g.apply(SwapPower(seat, "tricky"))
        assert g.state.power[seat] == "tricky"
        assert any("swaps Cunning for tricky" in e.text for e in g.log)
    else:
        pytest.fail("the scripted auction should give Cunning to a player who keeps it")


def test_long_distance_ignores_the_finish_and_plays_every_card():
    """R-VAR long distance: the finish line is ignored; the race goes on, lap after lap,
    until every speed card has been played; the owner of the car furthest ahead wins."""
    v = load_variant("long-distance")
    b = board("ring", use_finish=False)
    g = Game.new(b, v, 3, 6)
    finish(g, random.Random(6))
    assert g.state.finished == [] and not any(g.state.hands) and len(g.state.discard) == 42 + 6
    assert max(g.state.laps) >= 1
    r = g.result
    assert len(r.ranking) == 6 and r.stalled == ()
    dist = {
        c: g.state.laps[i] * b.length + b.geometry.front[g.state.car_spaces[i]]
        for i, c in enumerate(COLOURS)
    }
    ranked = [dist[c] for c in r.ranking]
    assert all(x >= y - b.geometry.tol for x, y in itertools.pairwise(ranked))
    first_owned = next(c for c in r.ranking if g.owner_of(c) is not None)
    assert r.winners == (g.owner_of(first_owned),)


def test_long_distance_ties_go_to_the_more_inside_lane():
    """R-VAR long distance: equal distance: the car in the more inside lane ranks first
    (the ring's rows are square to the racing line, so cars side by side tie)."""
    v = dealt(finish="distance", winner="furthest_car", betting=False)
    b = board("ring", use_finish=False)
    g = Game.new(b, v, 2, 0, deal([[18], [19]], COLOURS, COLOURS))  # green 5, red 5
    finish(g)
    r = g.result
    rows = {c: int(g.position(c)[1:]) + 60 * g.state.laps[i] for i, c in enumerate(COLOURS)}
    lanes = {c: g.position(c)[0] for c in COLOURS}
    assert list(r.ranking) == sorted(COLOURS, key=lambda c: (-rows[c], lanes[c]))
    ties = [(a, b) for a in COLOURS for b in COLOURS if a < b and rows[a] == rows[b]]
    assert ties


def test_long_distance_needs_a_closed_circuit():
    """R-VAR long distance: laps need a closed circuit; an open track is refused."""
    with pytest.raises(InvalidInput, match="not a closed circuit"):
        Game.new(board(), load_variant("long-distance"), 3, 0)


def test_too_few_or_many_players_for_a_variant():
    """R-VAR: a variant states the numbers of players it allows."""
    with pytest.raises(InvalidInput, match="for 2 to 2 players"):
        Game.new(board(), load_variant("two-player"), 3, 0)
    with pytest.raises(InvalidInput, match="for 3 to 6 players"):
        Game.new(board(), load_variant("standard"), 2, 0)


def test_unknown_bundled_variant_name_lists_the_bundled_ones():
    """R-VAR: a misspelt variant name is refused with the names that exist."""
    from trackside.engine.errors import UnreadableInput

    with pytest.raises(UnreadableInput, match="bundled variants: beginner, long-distance"):
        load_variant("standrd")


def test_variant_from_inline_data(tmp_path):
    """R-VAR: a variant given as data (e.g. inline in a record) resolves relative paths
    from a base folder and is checked like a file."""
    from trackside.engine.game.variants import variant_from_data

    (tmp_path / "mini.yaml").write_text("\n".join(f"- [{c}: 2]" for c in COLOURS * 3) + "\n")
    v = variant_from_data(
        {
            "format": "trackside-variant/1",
            "name": "Inline",
            "extends": "two-player",
            "deck": "mini.yaml",
        },
        tmp_path,
    )
    assert v.deck.size == 18 and v.hand_mode == "private" and v.name == "Inline"
    with pytest.raises(InvalidInput, match="unknown key 'colour'"):
        variant_from_data({"format": "trackside-variant/1", "name": "X", "colour": "red"})
