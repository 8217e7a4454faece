"""The auction (R-AUC-1..9) with explicit deals, the rulebook's tie example included."""

import pytest
from game_helpers import STANDARD, deal, events, finish
from game_tracks import board

from trackside.engine.game import COLOURS, Bid, Game, IllegalDecision, KeepPower, Phase, bid_value

CARDS = STANDARD.deck.cards
BLUE_FIRST = ("blue", "red", "yellow", "black", "green", "orange")


def new(
    hands,
    speed8=COLOURS,
    powers=("aggressive", "cunning", "determined", "strategic", "tricky", "unpredictable"),
    seed=0,
    variant=STANDARD,
):
    return Game.new(board(), variant, len(hands), seed, deal(hands, COLOURS, speed8, powers))


def bids(game, plan: dict):
    """Apply one secret bid per due seat: plan[seat] is a card id or None (pass)."""
    for seat, card in plan.items():
        game.apply(Bid(seat, card))


def run_auction(game, winners: dict):
    """Drive the auction: for each car, the planned winner bids its best card and the
    others pass; a car planned as None is passed by everyone."""
    while game.phase == Phase.AUCTION and game.pending.car in winners:
        car = game.pending.car
        for seat in game.due():
            opts = game.options(seat)
            if winners.get(car) == seat:
                best = max(
                    (o for o in opts if o.card is not None),
                    key=lambda o: bid_value(
                        CARDS[o.card], car, [CARDS[c] for c in game.state.hands[seat]]
                    ),
                )
                game.apply(best)
            else:
                passes = [o for o in opts if o.card is None]
                game.apply(passes[0] if passes else opts[-1])


HANDS = [[12, 0, 4, 13, 18, 24, 30], [3, 1, 5, 14, 19, 25, 31], [9, 2, 6, 15, 20, 26, 32]]


def test_car_and_power_revealed_together():
    """R-AUC-1: the top Speed-8 card and the top power card are up together."""
    g = new(
        HANDS,
        BLUE_FIRST,
        ("tricky", "cunning", "aggressive", "determined", "strategic", "unpredictable"),
    )
    assert g.phase == Phase.AUCTION
    assert (g.pending.car, g.pending.power) == ("blue", "tricky")
    assert events(g, "reveal")[0].text == "Up for auction: the blue car with tricky"
    assert sorted(g.due()) == [0, 1, 2]


def test_bids_are_secret_until_all_revealed():
    """R-AUC-2: every eligible player chooses a card secretly; all revealed at once."""
    g = new(HANDS, BLUE_FIRST)
    g.apply(Bid(0, 12))
    assert g.due() == [1, 2]
    assert not events(g, "bids")
    assert g.view(1).hand == tuple(HANDS[1])
    with pytest.raises(IllegalDecision):
        g.apply(Bid(0, 0))  # seat 0 has already bid
    g.apply(Bid(1, None))
    g.apply(Bid(2, 9))
    (reveal,) = events(g, "bids")
    assert "Player 1 bids 6" in reveal.text and "Player 2 passes" in reveal.text


def test_auction_example_two_sixes_split_by_the_card_with_more_rows():
    """R-AUC-3 (rulebook example): blue 6 on a 4-row card against blue 6 on a
    6-row card: the card with more rows wins."""
    g = new(HANDS, BLUE_FIRST)
    bids(g, {0: 12, 1: 3, 2: None})
    assert g.owner_of("blue") == 1
    assert "card with more rows" in events(g, "auction")[0].text
    assert g.state.prices[1] == [(COLOURS.index("blue"), 6)]


def test_tie_then_the_card_without_wild_wins():
    """R-AUC-3: same value and rows: the card without a WILD row wins."""
    g = new(HANDS, BLUE_FIRST)
    bids(g, {0: 12, 1: None, 2: 9})
    assert g.owner_of("blue") == 2
    assert "without a WILD row" in events(g, "auction")[0].text


def test_full_tie_decided_by_the_seeded_random_source_and_logged():
    """R-AUC-3, R-SET-5: a full tie is decided by the game's random source and logged."""
    hands = [[24, 18, 20], [27, 19, 21], [22, 23, 30]]  # seats 0 and 1 hold no black card
    winners = set()
    for seed in range(12):
        g = new(hands, ("black", *tuple(c for c in COLOURS if c != "black")), seed=seed)
        bids(g, {0: 24, 1: 27, 2: None})
        assert "decided at random" in events(g, "auction")[0].text
        winners.add(g.owner_of("black"))
        again = new(hands, ("black", *tuple(c for c in COLOURS if c != "black")), seed=seed)
        bids(again, {0: 24, 1: 27, 2: None})
        assert again.owner_of("black") == g.owner_of("black")
    assert winners == {0, 1}


def test_bid_value_rules():
    """R-AUC-2: a card bids its row of the colour; without it, a pass; a bidder with
    no card of the colour bids the WILD row (the higher of two), or, with no WILD
    card either, the lowest number on the card."""
    hand = [CARDS[i] for i in (0, 18, 24)]
    assert bid_value(CARDS[0], "blue", hand) == 3
    assert bid_value(CARDS[18], "blue", hand) is None
    no_black = [CARDS[i] for i in (18, 24, 37)]
    assert bid_value(CARDS[24], "black", no_black) == 5
    assert bid_value(CARDS[37], "black", no_black) == 3  # two WILD rows: the higher
    assert bid_value(CARDS[18], "black", no_black) is None  # holds WILD cards
    plain = [CARDS[i] for i in (18, 30)]
    assert bid_value(CARDS[30], "black", plain) == 1
    assert bid_value(CARDS[18], "black", plain) == 5


def test_bidder_without_the_colour_may_still_pass():
    """R-AUC-2 ruling: a bidder holding no card of the colour may still declare a pass."""
    hands = [[18, 30], [22, 0], [2, 8]]
    g = new(hands, ("black", *tuple(c for c in COLOURS if c != "black")))
    assert Bid(0, None) in g.options(0)
    assert {o.card for o in g.options(0)} == {18, 30, None}
    # a bidder whose every card has black must bid
    assert Bid(2, None) not in g.options(2)
    with pytest.raises(IllegalDecision):
        g.apply(Bid(2, None))


def test_pass_by_playing_a_card_without_the_colour():
    """R-AUC-2: a card without the auctioned colour is a pass (here seat 1)."""
    g = new(HANDS, BLUE_FIRST)
    assert g.is_legal(Bid(1, 14))  # yellow 6 / red 4 / WILD 2 / black 1: no blue
    bids(g, {0: 12, 1: 14, 2: None})
    assert "Player 2 passes" in events(g, "bids")[0].text
    assert g.owner_of("blue") == 0


def test_winner_takes_speed8_into_hand_and_power_face_up():
    """R-AUC-4, R-AUC-5: the winner records the price, takes the Speed-8 card into
    hand and the power face up; every bid card goes back to its hand."""
    g = new(
        HANDS,
        BLUE_FIRST,
        ("tricky", "cunning", "aggressive", "determined", "strategic", "unpredictable"),
    )
    bids(g, {0: 12, 1: 3, 2: 9})
    s8 = STANDARD.deck.speed8("blue")
    assert g.state.hands[1] == HANDS[1] + [s8]
    assert g.state.hands[0] == HANDS[0] and g.state.hands[2] == HANDS[2]
    assert g.state.held_powers[1] == ["tricky"]
    assert sum(p for _, p in g.state.prices[1]) == 6
    assert g.view(0).held_powers[1] == ("tricky",)


def test_next_car_until_all_six_are_done():
    """R-AUC-6: the next car and power are revealed until all six cars are done."""
    g = Game.new(board(), STANDARD, 4, 3)
    reveals = []
    while g.phase == Phase.AUCTION:
        if g.pending.car and (not reveals or reveals[-1] != g.pending.car):
            reveals.append(g.pending.car)
        for seat in g.due():
            g.apply(g.options(seat)[0])
    assert sorted(c for c in COLOURS if g.owner_of(c) is not None) == sorted(COLOURS)
    assert len(events(g, "reveal")) == 6


def test_only_carless_players_bid_when_cars_left_equal_them_and_last_car_is_taken():
    """R-AUC-7: with as many cars left as players without one, only they bid; the
    last player without a car takes the last car at the lowest price in hand."""
    g = Game.new(board(), STANDARD, 3, 11)
    order = list(g.deal.speed8)
    run_auction(g, {order[0]: 0, order[1]: 0, order[2]: 0, order[3]: 0})
    assert g.pending.car == order[4]
    assert sorted(g.due()) == [1, 2]
    before = {s: list(g.state.hands[s]) for s in (1, 2)}
    run_auction(g, {order[4]: 1})
    assert g.owner_of(order[4]) == 1
    assert g.owner_of(order[5]) == 2
    last = order[5]
    hand = [CARDS[c] for c in before[2]]
    values = [v for c in hand if (v := bid_value(c, last, hand)) is not None]
    assert sum(p for _, p in g.state.prices[2]) == min(values)
    assert "without bidding" in events(g, "auction")[-1].text


def last_car_for_two(last: str):
    """Three players (HANDS): the first car is set aside, seat 0 wins the next
    three, seats 1 and 2 pass on the fifth, and ``last`` comes up last with
    seats 1 and 2 still without a car."""
    order = [c for c in ("blue", "red", "yellow", "black", "orange", "green") if c != last]
    g = new(HANDS, (*order, last))
    run_auction(g, {order[0]: None, order[1]: 0, order[2]: 0, order[3]: 0, order[4]: None})
    return g, order


def test_last_car_for_two_players_goes_to_the_higher_lowest_card():
    """R-AUC-7 ruling, R-AUC-8: when the last car comes up and two players have no
    car, nobody is asked: each shows their lowest card for it (seat 1 orange 2,
    seat 2 orange 3), the higher wins at that price, and the other goes on to
    the set-aside cars."""
    g, order = last_car_for_two("orange")
    assert g.owner_of("orange") == 2
    assert g.state.prices[2] == [(COLOURS.index("orange"), 3)]
    shown = events(g, "bids")[-1]
    assert shown.data["forced"] is True
    assert shown.data["bids"] == {1: (2, 1), 2: (3, 2)}
    assert events(g, "auction")[-1].data["reason"] == "last car, highest bid"
    # R-AUC-8: seat 1 is the only one asked next, about the set-aside cars
    assert g.pending.kind == "bid" and g.due() == [1]
    assert set(g.pending.set_aside) == {order[0], order[4]}


def test_last_car_for_two_players_tie_goes_to_the_card_with_more_rows():
    """R-AUC-7 ruling with R-AUC-3: both lowest cards bid green 1; seat 1's card
    has six rows, seat 2's four (the four-row one is shown, as it ranks above
    seat 2's three-row green 1 under R-AUC-3), so seat 1 takes the car for $1M."""
    g, order = last_car_for_two("green")
    shown = events(g, "bids")[-1].data["bids"]
    assert shown == {1: (1, 5), 2: (1, 15)}
    assert g.owner_of("green") == 1
    assert events(g, "auction")[-1].data["reason"] == "last car, tied bid, card with more rows"
    assert g.due() == [2] and set(g.pending.set_aside) == {order[0], order[4]}


def test_no_free_bid_is_asked_for_the_last_car():
    """R-AUC-7 ruling: a bid for the last car, once forced, is no longer a decision."""
    g, _ = last_car_for_two("orange")
    with pytest.raises(IllegalDecision):
        g.apply(Bid(2, 26))  # a free bid on the last car is not due


def test_set_aside_cars_and_the_second_round():
    """R-AUC-8: a car nobody bids on is set aside; after the sixth car each player
    still without one, in seat order, may bid on one set-aside car; a car passed
    on again stays unowned and still races. (R-AUC-7 ruling: the last car goes
    to one of the three players without a car by their lowest cards.)"""
    g = Game.new(board(), STANDARD, 3, 5)
    order = list(g.deal.speed8)
    run_auction(g, dict.fromkeys(order[:5]))
    passed = [e.data["car"] for e in events(g, "auction") if e.data.get("reason") == "no bids"]
    assert passed == order[:5]
    (winner,) = [s for s in range(3) if g.owner_of(order[5]) == s]
    first, second = [s for s in range(3) if s != winner]
    assert g.pending.kind == "bid" and g.due() == [first]
    assert set(g.pending.set_aside) == set(order[:5])
    take = next(o for o in g.options(first) if o.card is not None)
    g.apply(take)
    assert g.owner_of(take.car) == first
    assert g.due() == [second]
    g.apply(Bid(second, None))
    unowned = [c for c in COLOURS if g.owner_of(c) is None]
    assert len(unowned) == 4
    assert sum(1 for e in events(g, "auction") if "stays unowned" in e.text) == 4
    assert all(g.owner_of(c) != second for c in COLOURS)
    finish(g)
    assert g.over
    # R-RACE-5 ruling: a seat that owns no car still plays while holding cards
    assert any(e.kind == "play" and e.data["seat"] == second for e in g.log)
    assert any(e.data.get("car") in unowned for e in events(g, "move"))  # unowned cars race


def test_player_with_several_powers_keeps_one():
    """R-AUC-9: a player with more than one power card keeps one (their choice)."""
    g = Game.new(board(), STANDARD, 3, 2)
    order = list(g.deal.speed8)
    powers = list(g.deal.powers)
    run_auction(g, {order[0]: 0, order[1]: 0, order[2]: 0, order[3]: 1})
    # order[4] goes to seat 2 (forced), order[5] to whoever: drive to the power phase
    while g.phase == Phase.AUCTION:
        for seat in g.due():
            g.apply(g.options(seat)[0])
    assert g.phase == Phase.POWER
    assert 0 in g.due()
    assert [o.power for o in g.options(0)] == g.state.held_powers[0]
    assert set(powers[:3]) <= set(g.state.held_powers[0])
    g.apply(KeepPower(0, powers[1]))
    while g.phase == Phase.POWER:
        for seat in g.due():
            g.apply(g.options(seat)[0])
    assert g.state.power[0] == powers[1]
    assert f"Player 1 keeps {powers[1]}" in events(g, "power")[0].text


def test_illegal_bid_is_refused_with_a_clear_error():
    """R-AUC-2: only a card from the bidder's own hand may be bid."""
    g = new(HANDS, BLUE_FIRST)
    with pytest.raises(IllegalDecision, match="not a legal option"):
        g.apply(Bid(0, 3))  # seat 1's card
    with pytest.raises(IllegalDecision, match="a bid decision is due"):
        g.apply(KeepPower(0, "tricky"))


def test_hand_bids_agree_with_bid_value():
    """R-AUC-2: the one-pass bid values equal the card-by-card rule for any hand."""
    import random

    from trackside.engine.game.cards import hand_bids

    rng = random.Random(0)
    for _ in range(500):
        hand = [CARDS[i] for i in rng.sample(range(48), rng.randrange(1, 12))]
        colour = rng.choice(COLOURS)
        assert hand_bids(colour, hand) == [bid_value(c, colour, hand) for c in hand]
