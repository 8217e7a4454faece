"""The race (R-RACE-1..6), movement as the game uses it (R-MOVE) and finishing (R-FIN-1)."""

import itertools

import pytest
from game_helpers import (
    ORDER,
    SPREAD,
    at,
    deal,
    dealt,
    events,
    finish,
    play,
    scenario,
    settle,
    spread,
)
from game_tracks import board

from trackside.engine.game import COLOURS, Game, IllegalDecision, Path, Phase, PlayCard, Wild

RED_6 = 6
ALL_SIX = 0  # red 6 / yellow 5 / black 4 / blue 3 / green 2 / orange 1


def test_pole_owner_plays_first():
    """R-RACE-1: the owner of the car on the pole start space plays first."""
    g = scenario(SPREAD, [[1], [2]], ("yellow", "red", "black", "blue", "green", "orange"))
    assert g.owner_of("red") == 1 and g.phase == Phase.RACE
    assert g.state.turn == 1 and "Player 2 plays first" in events(g, "race")[0].text


def test_unowned_pole_car_next_grid_space_owner_plays_first():
    """R-RACE-1 ruling: pole car unowned: the owner of the car on the next start space."""
    # 4 players get one car each; the last two Speed-8 cars (red, yellow) stay unowned.
    g = scenario(
        SPREAD, [[1], [2], [3], [4]], ("black", "blue", "green", "orange", "red", "yellow")
    )
    assert g.owner_of("red") is None and g.owner_of("yellow") is None
    assert g.owner_of("black") == 0  # black is on the third start space
    assert g.state.turn == 0


def test_turns_pass_to_the_left():
    """R-RACE-1: turns pass in seat order."""
    g = scenario(SPREAD, [[1, 2], [3, 4], [5, 7]], ORDER, betting=False)
    seats = []
    for _ in range(5):
        seats.append(g.state.turn)
        play(g, g.options(g.state.turn)[0])
    assert seats == [0, 1, 2, 0, 1]


def test_rows_resolve_top_to_bottom_and_card_is_discarded():
    """R-RACE-2: one card from hand; rows top to bottom, each moves its car; then
    the card is discarded face up."""
    g = scenario(SPREAD, [[ALL_SIX, 1], [2, 3]], ORDER)
    play(g, PlayCard(0, ALL_SIX))
    moved = [e.data["car"] for e in events(g, "move")]
    assert moved == ["red", "yellow", "black", "blue", "green", "orange"]
    assert [at(g, c) for c in moved] == ["b16", "b25", "b34", "b43", "b52", "b61"]
    assert ALL_SIX in g.state.discard and ALL_SIX not in g.state.hands[0]


def test_card_player_moves_every_car_on_the_card():
    """R-RACE-3: the card player moves every car on it, whoever owns it (paths asked of them)."""
    g = scenario(SPREAD, [[ALL_SIX, 1], [2, 3]], ORDER)
    g.apply(PlayCard(0, ALL_SIX))
    asked = []
    while g.pending.kind == "path":
        asked.append((g.pending.car, tuple(g.due())))
        g.apply(g.options(g.due()[0])[0])
    assert {seat for _, (seat,) in asked} == {0}
    assert {car for car, _ in asked} >= {"yellow", "blue", "orange"}  # P1's cars


def test_wild_row_names_a_car_not_on_the_card():
    """R-RACE-4: a WILD row moves a car of the card player's choice not on the card."""
    g = scenario(SPREAD, [[24, 1], [2, 3]], ORDER)  # WILD 5 / orange 2
    g.apply(PlayCard(0, 24))
    assert g.pending.kind == "wild"
    assert [o.colours for o in g.options(0)] == [(c,) for c in COLOURS if c != "orange"]
    play(g, Wild(0, ("blue",)))
    assert at(g, "blue") == "b45" and at(g, "orange") == "b62"


def test_wild_may_name_a_finished_car_and_then_nothing_moves():
    """R-RACE-4: a finished or blocked car may be chosen; then nothing moves."""
    near = spread(red="b78")
    g = scenario(near, [[RED_6, 24], [2, 3]], ORDER)
    play(g, PlayCard(0, RED_6))
    assert at(g, "red") is None  # finished
    play(g, PlayCard(1, 2))
    play(g, PlayCard(0, 24), Wild(0, ("red",)))
    assert "The red car has finished: nothing moves" in [e.text for e in events(g, "stay")]


def test_two_wild_rows_name_two_different_colours():
    """R-RACE-4: two WILD rows on one card must name two different colours."""
    g = scenario(SPREAD, [[37, 1], [2, 3]], ORDER)  # green 4 / WILD 3 / WILD 1
    g.apply(PlayCard(0, 37))
    opts = g.options(0)
    assert len(opts) == 5 * 4 and all(a != b for a, b in (o.colours for o in opts))
    with pytest.raises(IllegalDecision):
        g.apply(Wild(0, ("red", "red")))


def test_player_whose_cars_all_finished_discards_hand():
    """R-RACE-5: a player whose cars have all finished discards the hand and plays no more."""
    near = spread(red="a78", black="b77", green="c78")
    g = scenario(near, [[ALL_SIX, 1, 3], [2, 4, 5]], ORDER)  # P0: red, black, green
    play(g, PlayCard(0, ALL_SIX))
    assert [COLOURS[c] for c in g.state.finished] == ["red", "black", "green"]
    assert g.state.hands[0] == [] and g.state.retired[0]
    assert any(e.kind == "retire" for e in g.log)
    play(g, PlayCard(1, 2))
    assert g.state.turn == 1  # seat 0 is skipped


def test_player_with_empty_hand_is_skipped():
    """R-RACE-5: a player with an empty hand is skipped (the carless-player ruling is
    tested with the auction's second round). A single card left is played at once."""
    # 4 players, one car each (plus its Speed-8 card in hand); red, yellow unowned.
    back = spread(apart=5)
    g = scenario(
        back,
        [[1], [2, 3], [4, 5], [7, 8]],
        ("black", "blue", "green", "orange", "red", "yellow"),
        betting=False,
    )
    assert g.state.turn == 0
    for seat in (0, 1, 2, 3):
        assert g.state.turn == seat
        play(g, g.options(seat)[0])
    # seat 0's only card (its Speed-8) was played without asking; now seat 1
    assert "Player 1 plays [Speed-8 black 8]" in [e.text for e in events(g, "play")]
    assert g.state.hands[0] == [] and not g.state.retired[0]
    for seat in (1, 2, 3):
        assert g.state.turn == seat
        play(g, g.options(seat)[0])
    # everyone now holds one card, played at once in turn; seat 0 is skipped
    assert g.over
    assert [e.data["seat"] for e in events(g, "play")] == [0, 1, 2, 3, 0, 1, 2, 3, 1, 2, 3]


def test_race_ends_when_no_player_can_play_and_cars_stall():
    """R-RACE-6: the race ends when no player can play; unfinished cars are stalled
    and earn nothing, but their owner still collects bets and other cars' earnings."""
    near = spread(red="b78")
    g = scenario(near, [[RED_6], [2]], ORDER)
    play(g, PlayCard(0, RED_6))
    play(g, PlayCard(1, 2))
    assert not g.over  # the Speed-8 cards dealt with the cars are still in hand
    finish(g)
    assert g.over and not any(g.state.hands)
    r = g.result
    assert r.ranking == ("red",) and set(r.stalled) == set(COLOURS) - {"red"}
    assert r.earnings == (12, 0)
    assert any("Stalled" in line for line in r.sheet)


def test_race_ends_when_every_car_has_finished():
    """R-RACE-6: the race ends when every car has finished."""
    near = {
        "red": "a79",
        "yellow": "b79",
        "black": "c79",
        "blue": "d79",
        "green": "e79",
        "orange": "f79",
    }
    g = scenario(near, [[ALL_SIX, 1, 2], [3, 4, 5]], ORDER, lanes=6)
    play(g, PlayCard(0, ALL_SIX))
    assert g.over and len(g.result.ranking) == 6 and g.result.stalled == ()


def test_moves_go_forward_only():
    """R-MOVE-1, R-MOVE-2: every step goes straight or diagonally ahead, never sideways or back."""
    g = scenario(SPREAD, [[ALL_SIX], [2]], ORDER)
    g.apply(PlayCard(0, ALL_SIX))
    for o in g.options(0):
        rows = [int(s[1:]) for s in (("b10", *o.path))]
        assert all(b == a + 1 for a, b in itertools.pairwise(rows))


def test_occupied_spaces_are_not_entered_but_diagonal_gaps_pass():
    """R-MOVE-3: no entering an occupied space; passing diagonally between two cars
    that stand diagonally adjacent is allowed (only the target matters)."""
    gap = spread(red="a10", yellow="b11", black="a12")
    g = scenario(gap, [[RED_6], [2]], ORDER, lanes=2)
    g.apply(PlayCard(0, RED_6))
    paths = {o.path for o in g.all_paths(0)}
    assert all("b11" not in p and "a12" not in p for p in paths)
    assert ("a11", "b12", "a13", "a14", "a15", "a16") in paths  # squeezes past b11/a12


def test_full_number_unless_blocked():
    """R-MOVE-4: a car moves its full number if it can; it may stop short only where no
    forward space is free."""
    g = scenario(SPREAD, [[RED_6], [2]], ORDER)
    g.apply(PlayCard(0, RED_6))
    assert all(len(o.path) == 6 for o in g.all_paths(0))
    with pytest.raises(IllegalDecision):
        g.apply(Path(0, "red", ("b11", "b12", "b13")))


def test_car_jammed_on_purpose():
    """R-MOVE-4: a player may deliberately choose a path that ends blocked: red could
    go the full 6 through lane c, but stops short on a13 behind yellow and black,
    jamming the lane."""
    jam = spread(yellow="a14", black="b14")
    g = scenario(jam, [[RED_6, 1], [2, 3]], ORDER)
    g.apply(PlayCard(0, RED_6))
    full = [o for o in g.options(0) if len(o.path) == 6]
    short = [o for o in g.options(0) if o.path[-1] == "a13"]
    assert full and short
    g.apply(short[0])
    assert at(g, "red") == "a13"
    red = next(e for e in events(g, "move") if e.data["car"] == "red")
    assert red.data["blocked"] and "(blocked)" in red.text


def test_no_free_forward_space_car_stays():
    """R-MOVE-4: if no move of length at least 1 exists, the car stays."""
    wall = spread(yellow="a11", black="b11", blue="c11")
    g = scenario(wall, [[RED_6, 1], [2, 3]], ORDER)
    g.apply(PlayCard(0, RED_6))
    assert at(g, "red") == "b10"
    assert "The red car cannot move (no free space ahead)" in [e.text for e in events(g, "stay")]


def test_the_path_is_part_of_the_move():
    """R-MOVE-5: distinct paths to one end space are distinct choices when they matter
    (here betting line 1 lies between rows 19 and 20; every path crosses it)."""
    g = scenario(
        spread(red="b15", yellow="b30", black="b32"),
        [[RED_6], [2]],
        ORDER,
    )
    g.apply(PlayCard(0, RED_6))
    assert len(g.all_paths(0)) > len(g.options(0))
    g.apply(Path(0, "red", ("a16", "a17", "b18", "c19", "c20", "b21")))
    assert at(g, "red") == "b21"
    assert any(e.kind == "cross" for e in g.log)


def test_finish_the_moment_a_car_enters_beyond_the_line():
    """R-FIN-1: a car finishes when it enters a space beyond the finish line, however
    much movement it has left; it leaves the track and takes the next place."""
    near = spread(red="b78", yellow="b77")
    g = scenario(near, [[RED_6, 1], [2, 3]], ORDER)
    g.apply(PlayCard(0, RED_6))
    finishing = g.options(0)
    assert all(len(o.path) == 2 for o in finishing)  # b79 then beyond: 4 spaces unused
    play(g)
    assert at(g, "red") is None
    assert "finishes 1st" in events(g, "finish")[0].text
    assert g.position("yellow") is None  # yellow 4 from b77: also finishes, 2nd
    assert [COLOURS[c] for c in g.state.finished] == ["red", "yellow"]


def test_cars_finish_in_crossing_order_within_one_card():
    """R-FIN-1: cars finish in the order they cross, even within one card."""
    near = spread(red="a78", yellow="b78", black="c78")
    g = scenario(near, [[ALL_SIX], [2]], ORDER)
    play(g, PlayCard(0, ALL_SIX))
    assert [COLOURS[c] for c in g.state.finished] == ["red", "yellow", "black"]


def test_finished_car_space_is_freed():
    """R-FIN-1: a finished car leaves the track."""
    near = spread(red="b78", yellow="b76")
    g = scenario(near, [[ALL_SIX], [2]], ORDER)
    play(g, PlayCard(0, ALL_SIX))
    assert g.board.index["b78"] not in g.state.occupied


def test_race_on_a_closed_circuit_with_the_finish_line():
    """R-FIN-1 on a closed circuit: cars finish at the finish line before the seam."""
    v = dealt()
    g = Game.new(
        board("ring"), v, 2, 0, deal([list(range(21)), list(range(21, 42))], COLOURS, COLOURS)
    )
    finish(g)
    assert g.over and len(g.result.ranking) >= 1
    assert all(lap == 0 for lap in g.state.laps)
    settle(g)
