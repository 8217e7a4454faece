"""Set-up (R-SET-1..5) and the deck as data (R-DECK)."""

from collections import Counter

import pytest
from game_helpers import STANDARD, deal, finish
from game_tracks import board, straight

from trackside.engine.errors import InvalidInput
from trackside.engine.game import (
    COLOURS,
    POWERS,
    WILD,
    Deal,
    Deck,
    Game,
    load_deck,
    load_variant,
)

DECK = STANDARD.deck


def test_standard_deck_is_balanced():
    """R-DECK: 42 cards; every colour on 19 cards for 65 spaces, tops 6 cards;
    6 cards topped by WILD, 6 with two WILD rows; 1 to 6 rows, no colour twice."""
    regular = DECK.cards[: DECK.size]
    assert DECK.size == 42 and len(DECK.cards) == 48
    for colour in COLOURS:
        on = [c for c in regular if c.number(colour) is not None]
        assert len(on) == 19
        assert sum(c.number(colour) for c in on) == 65
        assert sum(1 for c in regular if c.rows[0][0] == colour) == 6
    assert sum(1 for c in regular if c.rows[0][0] == WILD) == 6
    assert sum(1 for c in regular if c.wild_rows == 2) == 6
    for card in regular:
        colours = [c for c, _ in card.rows if c != WILD]
        assert 1 <= len(card.rows) <= 6 and len(colours) == len(set(colours))


def test_a_card_number_is_the_first_row_of_that_colour():
    """R-DECK: a card's number for a colour is its row of that colour; a card
    with two WILD rows gives the upper one for ``wild``; no row gives None."""
    card = Deck.from_rows([[("wild", 2), ("red", 6), ("wild", 5)]]).cards[0]
    assert card.number("red") == 6
    assert card.number("wild") == 2
    assert card.number("blue") is None


def test_rulebook_example_cards_are_in_the_deck():
    """R-DECK: red 6 / yellow 4 / black 2 / blue 1 and blue 6 / orange 4 / WILD 2 / yellow 1."""
    rows = {c.rows for c in DECK.cards}
    assert (("red", 6), ("yellow", 4), ("black", 2), ("blue", 1)) in rows
    assert (("blue", 6), ("orange", 4), ("wild", 2), ("yellow", 1)) in rows


def test_speed8_cards_follow_the_deck():
    """R-DECK: one Speed-8 card per colour, a single row of 8."""
    for colour in COLOURS:
        card = DECK.cards[DECK.speed8(colour)]
        assert card.speed8 and card.rows == ((colour, 8),)


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("- [red: 6, red: 2]\n", "appears twice"),
        ("- [red: 10]\n", "out of range"),
        ("- [purple: 3]\n", "purple"),
        ("- [red: 1, blue: 1, green: 1, black: 1, orange: 1, yellow: 1, wild: 1]\n", "at most 6"),
    ],
)
def test_bad_deck_file_names_file_line_and_fix(tmp_path, text, fragment):
    """R-DECK: a deck is valid when every card has 1 to 6 rows of 1 to 9 spaces and no
    colour twice; a bad one is refused with file, line and a hint."""
    path = tmp_path / "deck.yaml"
    path.write_text("# my box\n" + text)
    with pytest.raises(InvalidInput) as err:
        load_deck(path)
    message = str(err.value)
    assert f"{path}:2" in message and fragment in message and "rows" in message


def test_a_variant_may_name_another_deck(tmp_path):
    """R-DECK: a player can type in their own deck and play with it."""
    (tmp_path / "mini.yaml").write_text(
        "\n".join(f"- [{c}: 3, wild: 2]" for c in COLOURS * 2) + "\n"
    )
    (tmp_path / "mine.yaml").write_text(
        "format: trackside-variant/1\nname: Mini\nextends: standard\ndeck: mini.yaml\n"
    )
    v = load_variant(tmp_path / "mine.yaml")
    assert v.deck.size == 12
    g = Game.new(board(), v, 3, 1)
    assert [len(h) for h in g.state.hands] == [4, 4, 4]
    finish(g)
    assert g.over


def test_the_chosen_track_is_the_board():
    """R-SET-1: one track is chosen; the cars start on its grid."""
    track = straight(rows=50, lines=(10, 20, 30, 40))
    g = Game.new(track, STANDARD, 3, 0)
    assert g.board.track is track
    assert sorted(g.position(c) for c in COLOURS) == sorted(track.start_grid)


def test_speed8_and_power_decks_shuffled_separately():
    """R-SET-2: the Speed-8 deck and the power deck are shuffled separately."""
    orders = {
        (
            Game.new(board(), STANDARD, 4, s).deal.speed8,
            Game.new(board(), STANDARD, 4, s).deal.powers,
        )
        for s in range(20)
    }
    assert len({o[0] for o in orders}) > 10 and len({o[1] for o in orders}) > 10
    for s8, pw in orders:
        assert sorted(s8) == sorted(COLOURS) and sorted(pw) == sorted(POWERS)


@pytest.mark.parametrize("players, each, unseen", [(3, 14, 0), (4, 10, 2), (5, 8, 2), (6, 7, 0)])
def test_cards_dealt_equally_rest_unseen(players, each, unseen):
    """R-SET-3: 42 cards dealt equally; what cannot be dealt equally leaves unseen."""
    g = Game.new(board(), STANDARD, players, 9)
    assert [len(h) for h in g.deal.hands] == [each] * players
    assert len(g.state.out_of_game) == unseen
    dealt_cards = [c for h in g.deal.hands for c in h] + g.state.out_of_game
    assert sorted(dealt_cards) == list(range(42))


def test_cars_placed_at_random_on_the_start_spaces():
    """R-SET-4: the six cars are placed at random on the six start spaces."""
    grids = {Game.new(board(), STANDARD, 3, s).deal.grid for s in range(20)}
    assert len(grids) > 10
    g = Game.new(board(), STANDARD, 3, 4)
    track = g.board.track
    for slot, colour in enumerate(g.deal.grid):
        assert g.position(colour) == track.start_grid[slot]


def test_seed_and_decisions_reproduce_a_game():
    """R-SET-5: the same seed and decisions give the same game; another seed another."""

    def game_log(seed):
        g = Game.new(board(), STANDARD, 4, seed)
        finish(g)
        return [e.text for e in g.log], g.result

    a, b, c = game_log(21), game_log(21), game_log(22)
    assert a == b
    assert a != c


def test_explicit_deal_replaces_the_seeded_setup():
    """R-SET-5: an explicit deal (hands, grid, Speed-8 and power order) replaces the shuffles."""
    hands = [list(range(0, 14)), list(range(14, 28)), list(range(28, 42))]
    grid = ("orange", "red", "green", "blue", "black", "yellow")
    d = deal(hands, grid, ("red", *COLOURS[:5]), ("cunning", "tricky"))
    g = Game.new(board(), STANDARD, 3, 99, d)
    assert g.state.hands == hands and g.deal.grid == grid
    assert g.pending.car == "red" and g.pending.power == "cunning"
    assert Deal.from_dict(d.to_dict()) == d


@pytest.mark.parametrize(
    "bad, fragment",
    [
        (dict(hands=[[0, 1], [1, 2], [3]]), "dealt twice"),
        (dict(hands=[[0], [1]]), "2 hands for 3 players"),
        (dict(hands=[[0], [1], [99]]), "not in the deck"),
        (dict(hands=[[0], [1], [2]], grid=("red",) * 6), "six colours"),
        (dict(hands=[[0], [1], [2]], powers=("flying",)), "powers"),
    ],
)
def test_bad_explicit_deal_is_refused(bad, fragment):
    """R-SET-5: a deal that cannot be played is refused with a clear message."""
    args = dict(grid=COLOURS)
    args.update(bad)
    with pytest.raises(InvalidInput, match=fragment):
        Game.new(board(), STANDARD, 3, 0, deal(**args))


def test_deal_uses_every_card_once():
    """R-SET-3: no card is in two hands; the unseen cards are none of the dealt ones."""
    g = Game.new(board(), STANDARD, 5, 3)
    counts = Counter(c for h in g.state.hands for c in h)
    assert max(counts.values()) == 1 and not set(counts) & set(g.state.out_of_game)
