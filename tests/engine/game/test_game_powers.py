"""The six powers (R-POW), with the rulebook's examples as scripted games."""

import pytest
from game_helpers import ORDER, SPREAD, at, events, play, scenario, spread

from trackside.engine.game import IllegalDecision, Order, Path, PlayCard, Skip, Wild

RED_6 = 6  # red 6 / yellow 4 / black 2 / blue 1 (rulebook example card)
BLUE_6_WILD = 12  # blue 6 / orange 4 / WILD 2 / yellow 1 (rulebook example card)
WILD_5_ORANGE = 24  # WILD 5 / orange 2
YELLOW_6 = 7  # yellow 6 / black 4 / blue 2 / orange 1


def lane_b(first: int, last: int) -> tuple[str, ...]:
    return tuple(f"b{k}" for k in range(first, last + 1))


def longest(game, seat):
    """Path policy: the longest path offered (the Aggressive extra space taken)."""
    return max(game.options(seat), key=lambda o: (len(o.path), o.path[-1][0] == "b"))


def test_aggressive_example_top_row_own_car_moves_one_more():
    """R-POW-AGG: the rulebook example: red 6 on top of a card played by red's
    Aggressive owner may move red 7 (taken here); the other rows move as printed."""
    g = scenario(SPREAD, [[RED_6, 0], [1, 2]], ORDER, powers=("aggressive",))
    assert g.state.power[0] == "aggressive"
    g.apply(PlayCard(0, RED_6))
    assert (g.pending.kind, g.pending.car, g.pending.spaces, g.pending.extra) == (
        "path",
        "red",
        6,
        1,
    )
    assert {len(o.path) for o in g.options(0)} == {6, 7}
    play(g, Path(0, "red", lane_b(11, 17)))
    assert at(g, "red") == "b17"
    assert "(Aggressive extra space)" in events(g, "move")[0].text
    assert (at(g, "yellow"), at(g, "black"), at(g, "blue")) == ("b24", "b32", "b41")


def test_aggressive_extra_space_may_be_declined():
    """R-POW-AGG: the owner *can* move 7: a 6-space path is as legal, and the log
    says the extra space was declined."""
    g = scenario(SPREAD, [[RED_6, 0], [1, 2]], ORDER, powers=("aggressive",))
    play(g, PlayCard(0, RED_6), Path(0, "red", lane_b(11, 16)))
    assert at(g, "red") == "b16"
    assert "(Aggressive extra declined)" in events(g, "move")[0].text


def test_aggressive_any_concrete_path_of_either_length_is_legal():
    """R-POW-AGG with R-MOVE-4: every concrete path of 6 or 7 spaces is legal,
    none of 8, and ``all_paths`` lists both lengths."""
    g = scenario(SPREAD, [[RED_6, 0], [1, 2]], ORDER, powers=("aggressive",))
    g.apply(PlayCard(0, RED_6))
    lengths = {len(p.path) for p in g.all_paths(0)}
    assert lengths == {6, 7}
    assert g.is_legal(Path(0, "red", ("a11", *lane_b(12, 17))))
    assert not g.is_legal(Path(0, "red", lane_b(11, 18)))
    assert not g.is_legal(Path(0, "red", lane_b(11, 15)))  # stopping short while free


def test_aggressive_not_asked_when_the_extra_space_cannot_be_taken():
    """R-POW-AGG ruling: no question when the 7th space is taken by a car (one
    lane, black on a17): red moves its 6 without any decision asked."""
    road = {**SINGLE_FILE, "black": "a17"}
    g = scenario(road, [[RED_6, 0], [1, 2]], ORDER, powers=("aggressive",), lanes=1)
    g.apply(PlayCard(0, RED_6))
    assert at(g, "red") == "a16"
    assert not any("Aggressive" in e.text for e in g.log)
    assert not (g.pending.kind == "path" and g.pending.car == "red")


def test_aggressive_asked_on_one_lane_with_free_road():
    """R-POW-AGG: on one lane with the road free, the only question is 6 or 7."""
    g = scenario(SINGLE_FILE, [[RED_6, 0], [1, 2]], ORDER, powers=("aggressive",), lanes=1)
    g.apply(PlayCard(0, RED_6))
    assert g.pending.extra == 1
    assert sorted(o.path[-1] for o in g.options(0)) == ["a16", "a17"]


def test_aggressive_not_with_a_wild_top_row_even_naming_own_car():
    """R-POW-AGG: no bonus when the top row is WILD, even naming your own car."""
    g = scenario(SPREAD, [[WILD_5_ORANGE, 0], [1, 2]], ORDER, powers=("aggressive",))
    play(g, PlayCard(0, WILD_5_ORANGE), Wild(0, ("red",)))
    assert at(g, "red") == "b15"


def test_aggressive_not_when_top_row_is_a_rival_car():
    """R-POW-AGG: only the printed top row, and only the player's own car."""
    g = scenario(SPREAD, [[YELLOW_6, 0], [1, 2]], ORDER, powers=("aggressive",))
    play(g, PlayCard(0, YELLOW_6))
    assert at(g, "yellow") == "b26" and at(g, "black") == "b34"


def test_aggressive_bonus_is_a_variant_parameter():
    """R-DECK / R-POW-AGG: the extra spaces come from the variant (bonuses.aggressive)."""
    g = scenario(SPREAD, [[RED_6, 0], [1, 2]], ORDER, powers=("aggressive",), aggressive_bonus=2)
    g.apply(PlayCard(0, RED_6))
    assert g.pending.extra == 2 and {len(o.path) for o in g.options(0)} == {6, 8}
    play(g, policy=longest)
    assert at(g, "red") == "b18"


# Tricky: a one-lane road where red stands right in front of yellow.
SINGLE_FILE = {
    "red": "a10",
    "yellow": "a9",
    "black": "a30",
    "blue": "a40",
    "green": "a50",
    "orange": "a60",
}


def test_tricky_example_rows_in_any_order():
    """R-POW-TRI: printed order moves red 6 then yellow 4 (yellow follows);
    resolved yellow first, yellow is stuck behind red and stays."""
    printed = scenario(SINGLE_FILE, [[RED_6, 0], [1, 2]], ORDER, powers=("tricky",), lanes=1)
    play(printed, PlayCard(0, RED_6), Order(0, (0, 1, 2, 3)))
    assert (at(printed, "red"), at(printed, "yellow")) == ("a16", "a13")

    tricky = scenario(SINGLE_FILE, [[RED_6, 0], [1, 2]], ORDER, powers=("tricky",), lanes=1)
    assert tricky.pending.kind == "play_card"
    tricky.apply(PlayCard(0, RED_6))
    assert tricky.pending.kind == "order" and len(tricky.options(0)) == 24
    play(tricky, Order(0, (1, 0, 3, 2)))
    assert (at(tricky, "red"), at(tricky, "yellow")) == ("a16", "a9")
    assert any("cannot move" in e.text for e in events(tricky, "stay"))
    assert any("order 2, 1, 4, 3" in e.text for e in events(tricky, "order"))


def test_without_tricky_the_order_is_never_asked():
    """R-RACE-2: rows resolve top to bottom; only Tricky changes that."""
    g = scenario(SINGLE_FILE, [[RED_6, 0], [1, 2]], ORDER, powers=("strategic",), lanes=1)
    g.apply(PlayCard(0, RED_6))
    assert g.pending.kind == "skip"
    with pytest.raises(IllegalDecision):
        g.apply(Order(0, (1, 0, 2, 3)))


def test_strategic_example_skip_one_row():
    """R-POW-STR: the card player may skip one row (here the rival yellow car's)."""
    g = scenario(SPREAD, [[RED_6, 0], [1, 2]], ORDER, powers=("strategic",))
    g.apply(PlayCard(0, RED_6))
    assert [o.row for o in g.options(0)] == [None, 0, 1, 2, 3]
    play(g, Skip(0, 1))
    assert at(g, "yellow") == "b20"
    assert (at(g, "red"), at(g, "black"), at(g, "blue")) == ("b16", "b32", "b41")


def test_strategic_may_skip_nothing():
    """R-POW-STR: skipping is optional."""
    g = scenario(SPREAD, [[RED_6, 0], [1, 2]], ORDER, powers=("strategic",))
    play(g, PlayCard(0, RED_6), Skip(0, None))
    assert at(g, "yellow") == "b24"


def test_unpredictable_example_wild_may_name_a_colour_on_the_card():
    """R-POW-UNP: blue 6 / orange 4 / WILD 2 / yellow 1: WILD may name blue."""
    g = scenario(SPREAD, [[BLUE_6_WILD, 0], [1, 2]], ORDER, powers=("unpredictable",))
    g.apply(PlayCard(0, BLUE_6_WILD))
    assert {o.colours[0] for o in g.options(0)} == set(ORDER)
    play(g, Wild(0, ("blue",)))
    assert at(g, "blue") == "b48"  # 6 + 2


def test_without_unpredictable_wild_names_only_colours_not_on_the_card():
    """R-RACE-4: the WILD row names a car whose colour is not on the card."""
    g = scenario(SPREAD, [[BLUE_6_WILD, 0], [1, 2]], ORDER)
    g.apply(PlayCard(0, BLUE_6_WILD))
    assert {o.colours[0] for o in g.options(0)} == {"red", "black", "green"}
    with pytest.raises(IllegalDecision):
        g.apply(Wild(0, ("blue",)))


def test_unpredictable_two_wild_rows_still_name_two_colours():
    """R-POW-UNP / R-RACE-4: two WILD rows name two different colours."""
    g = scenario(SPREAD, [[36, 0], [1, 2]], ORDER, powers=("unpredictable",))  # yellow 4/W3/W1
    g.apply(PlayCard(0, 36))
    opts = g.options(0)
    assert all(len(set(o.colours)) == 2 for o in opts)
    assert len(opts) == 6 * 5
    with pytest.raises(IllegalDecision):
        g.apply(Wild(0, ("red", "red")))


def test_cunning_owner_chooses_paths_on_other_players_turns():
    """R-POW-CUN: P1 (Cunning) owns yellow; when P0 plays a card moving yellow,
    P1 chooses yellow's path; P0 still chose the card."""
    # P0: red, black, green (no power); P1: yellow (Cunning), blue, orange.
    g = scenario(SPREAD, [[RED_6, 0], [1, 2]], ORDER, powers=("strategic", "cunning"))
    assert g.state.power == ["strategic", "cunning"]
    g.apply(PlayCard(0, RED_6))
    g.apply(Skip(0, None))
    assert g.pending.car == "red" and g.due() == [0]
    while g.pending.kind == "path" and g.pending.car != "yellow":
        g.apply(g.options(g.due()[0])[0])
    assert g.pending.car == "yellow" and g.due() == [1]
    with pytest.raises(IllegalDecision):
        g.apply(Path(0, "yellow", ("c21", "c22", "c23", "c24")))
    g.apply(Path(1, "yellow", ("c21", "c22", "c23", "c24")))
    assert at(g, "yellow") == "c24"


def test_cunning_owner_chooses_own_cars_paths_too():
    """R-POW-CUN: whenever the Cunning owner's cars move, on any turn, including its own."""
    g = scenario(SPREAD, [[1, 0], [YELLOW_6, 2]], ORDER, powers=("strategic", "cunning"))
    # P0 owns red (pole) so P0 plays first; play a card then let P1 play yellow 6.
    play(g, PlayCard(0, 0), Skip(0, None))
    assert g.pending.kind == "play_card" and g.due() == [1]
    g.apply(PlayCard(1, YELLOW_6))
    assert g.pending.car == "yellow" and g.due() == [1]


def test_determined_bonus_after_a_move_over_rectangles():
    """R-POW-DET: regular movement entered only rectangular spaces: 1 more space,
    before the next row; the bonus is a further path choice when several
    free forward spaces exist (here three)."""
    g = scenario(SPREAD, [[RED_6, 0], [1, 2]], ORDER, powers=("determined",))
    g.apply(PlayCard(0, RED_6))
    g.apply(Path(0, "red", tuple(f"b{r}" for r in range(11, 17))))
    assert g.pending.kind == "bonus" and g.pending.car == "red"
    assert sorted(o.path for o in g.options(0)) == [("a17",), ("b17",), ("c17",)]
    g.apply(Path(0, "red", ("c17",)))
    assert at(g, "red") == "c17"
    assert any("Determined bonus" in e.text for e in events(g, "move"))
    # the next row (yellow) is resolved after the bonus
    assert g.pending.car == "yellow"


def test_determined_no_bonus_when_blocked():
    """R-POW-DET ruling: a car that stopped short (blocked) gets no bonus."""
    wall = spread(yellow="a14", black="b14", blue="c14")
    g = scenario(wall, [[RED_6, 0], [1, 2]], ORDER, powers=("determined",))
    play(g, PlayCard(0, RED_6))
    assert at(g, "red") in ("a13", "b13", "c13")
    red = [e for e in events(g, "move") if e.data["car"] == "red"]
    assert len(red) == 1 and red[0].data["blocked"] and not red[0].data["bonus"]


def test_determined_bonus_needs_a_free_space():
    """R-POW-DET: the bonus is an ordinary forward step and needs a free space."""
    wall = spread(yellow="a17", black="b17", blue="c17")
    g = scenario(wall, [[RED_6, 0], [1, 2]], ORDER, powers=("determined",))
    play(g, PlayCard(0, RED_6))
    assert at(g, "red") == "b16"
    assert any("cannot move its bonus step" in e.text for e in events(g, "stay"))


def test_determined_no_bonus_on_non_rectangular_spaces():
    """R-POW-DET: wedge spaces of a ring are not rectangular: no bonus."""
    from game_helpers import deal, dealt
    from game_tracks import board

    from trackside.engine.game import Game

    v = dealt()
    g = Game.new(
        board("ring"),
        v,
        2,
        0,
        deal(
            [[RED_6, 0], [1, 2]],
            ORDER,
            ORDER,
            ("determined",),
        ),
    )
    play(g, PlayCard(0, RED_6))
    assert not any("bonus" in e.text for e in g.log)


def test_power_applies_to_all_of_the_owners_cars():
    """R-POW: Aggressive applies to every car of its owner (P0 owns red and black)."""
    g = scenario(SPREAD, [[8, 0], [1, 2]], ORDER, powers=("aggressive",))  # black 6 / blue 4 ...
    play(g, PlayCard(0, 8), policy=longest)
    assert at(g, "black") == "b37"


def test_tricky_orders_only_rows_that_still_move_something():
    """R-POW-TRI: rows of finished cars move nothing, so only the others are ordered."""
    near = spread(red="b78")
    g = scenario(near, [[RED_6, 0], [1, 2]], ORDER, powers=("tricky",))
    play(g, PlayCard(0, RED_6), Order(0, (0, 1, 2, 3)))
    assert at(g, "red") is None
    play(g, PlayCard(1, 1))
    while g.phase.value == "bet":
        for seat in g.due():
            g.apply(g.options(seat)[0])
    g.apply(PlayCard(0, 0))  # red 6 / yellow 5 / black 4 / blue 3 / green 2 / orange 1
    opts = g.options(0)
    assert len(opts) == 120 and all(o.rows[-1] == 0 for o in opts)
    assert g.is_legal(Order(0, (0, 1, 2, 3, 4, 5)))  # any order may still be given


def test_pending_names_the_row_being_resolved():
    """R-POW-TRI: in Tricky order, each path step says which printed row it resolves."""
    g = scenario(SPREAD, [[RED_6, 0], [1, 2]], ORDER, powers=("tricky",))
    g.apply(PlayCard(0, RED_6))
    g.apply(Order(0, (3, 2, 1, 0)))
    seen = []
    while g.pending.kind == "path":
        seen.append((g.pending.row, g.pending.car))
        g.apply(g.options(0)[0])
    assert seen == [(3, "blue"), (2, "black"), (1, "yellow"), (0, "red")]
