"""Betting (R-BET-1..5) and scoring (R-SCORE-1..2), with the rulebook's scoring
example 11 + 13 - 9 = 15 as a scripted game with an explicit deal."""

import pytest
from game_helpers import ORDER, deal, events, finish, play, scenario, settle, spread, variant
from game_tracks import straight

from trackside.engine.game import COLOURS, Bet, Bid, Board, Game, IllegalDecision, Phase, PlayCard

NO_POWERS = variant(powers=())
SHORT = Board(
    straight(rows=8, lanes=6, lines=(1, 2, 3, 5), grid=["a0", "b0", "c0", "d0", "e0", "f0"])
)
GRID = ("yellow", "red", "black", "blue", "green", "orange")  # yellow on pole (a0)
SPEED8 = ("yellow", "green", "red", "black", "blue", "orange")
HANDS = [[0, 10, 18, 20, 23], [2, 19, 21, 22, 9], [5, 31, 32, 33, 26]]
# seat: card bid per car (None = pass); the winners pay 5 (yellow) + 4 (green) for seat 0
BIDS = {
    "yellow": {0: 0, 1: None, 2: None},
    "green": {0: 10, 1: None, 2: None},
    "red": {0: None, 1: 19, 2: None},
    "black": {0: None, 1: None, 2: 31},
    "blue": {0: None, 1: 9, 2: None},
    "orange": {0: None, 1: None, 2: 32},
}


def scoring_example(bets_for_seat_0=("yellow", "yellow", "red")) -> Game:
    g = Game.new(SHORT, NO_POWERS, 3, 0, deal(HANDS, GRID, SPEED8))
    for car in SPEED8:
        assert g.pending.car == car
        for seat, card in BIDS[car].items():
            g.apply(Bid(seat, card))
    assert g.phase == Phase.RACE and g.state.turn == 0
    play(g, PlayCard(0, 0))  # red 6 / yellow 5 / black 4 / blue 3 / green 2 / orange 1
    return g


def test_scoring_example_11_plus_13_minus_9_is_15():
    """R-SCORE-1 (rulebook example): cars finished 2nd and 5th earn 9 + 2 = 11; bets
    earn 6 + 4 + 3 = 13; the cars cost 5 + 4 = 9; winnings 11 + 13 - 9 = 15."""
    g = scoring_example()
    assert [COLOURS[c] for c in g.state.finished] == ["red", "yellow"]
    for line in range(3):  # R-BET-3: three lines first crossed by one card
        assert g.phase == Phase.BET and g.pending.line == line
        g.apply(Bet(0, ("yellow", "yellow", "red")[line]))
        g.apply(Bet(1, "black"))
        g.apply(Bet(2, "orange"))
    play(g, PlayCard(1, 2))  # black 6 / blue 5 / green 4 / orange 3 / red 2 / yellow 1
    assert g.state.retired[0]  # R-RACE-5: yellow and green have finished
    play(g, PlayCard(2, 5))  # orange 6 ...
    assert g.over
    r = g.result
    assert r.ranking == ("red", "yellow", "black", "blue", "green", "orange")
    assert (r.earnings[0], r.bet_payouts[0], r.prices[0], r.scores[0]) == (11, 13, 9, 15)
    assert "Player 1 (green, yellow): cars 11 + bets 13 - prices 9 = 15" in r.sheet
    assert r.bets[0] == ("yellow", "black", "orange")
    assert g.view(1).all_bets == r.bets  # revealed at scoring


def test_bet_made_after_the_whole_card_in_line_order():
    """R-BET-1, R-BET-2, R-BET-3: the first crossing of a line (here by a finishing car)
    opens a bet after the whole card; several lines: one bet per line, in order."""
    g = scoring_example()
    kinds = [e.kind for e in g.log]
    last_move = max(i for i, k in enumerate(kinds) if k in ("move", "finish"))
    assert kinds.index("bet-open") > last_move
    crossed = [e.data["line"] for e in events(g, "cross")]
    assert crossed == [0, 1, 2]
    assert g.phase == Phase.BET and sorted(g.due()) == [0, 1, 2]
    assert [o.car for o in g.options(0)] == list(COLOURS)  # any car, finished or not


def test_bets_are_secret_until_scoring():
    """R-BET-2: choices are revealed only at scoring; a view hides others' bets."""
    g = scoring_example()
    g.apply(Bet(0, "yellow"))
    assert g.view(0).my_bets[0] == "yellow"  # a seat sees its own choice at once ...
    assert g.view(1).my_bets[0] is None  # ... and nobody else's
    assert g.view(0).bets_made == ()  # the bet is made when everyone has chosen
    g.apply(Bet(1, "black"))
    g.apply(Bet(2, "orange"))
    assert g.view(0).my_bets[0] == "yellow"
    assert g.view(1).my_bets[0] == "black"
    assert all("yellow" not in e.text for e in events(g, "bet"))
    assert g.view(1).bets_made == (0,) and g.view(1).all_bets == ()
    with pytest.raises(IllegalDecision):
        g.apply(Bet(0, "purple"))


def test_same_car_may_be_bet_on_more_than_once():
    """R-BET-4: a player may bet on the same car more than once."""
    g = scoring_example()
    for _line in range(3):
        for seat in range(3):
            g.apply(Bet(seat, "yellow"))
    assert [g.state.bets[k][0] for k in range(3)] == [COLOURS.index("yellow")] * 3


def test_bet_payouts_and_bets_never_made():
    """R-BET-5: a bet pays by the table if its car finishes 1st to 3rd; a bet that never
    took place (the race ended first) pays nothing."""
    g = scenario(
        {
            "red": "b78",
            "yellow": "b17",
            "black": "b22",
            "blue": "b24",
            "green": "b26",
            "orange": "b28",
        },
        [[6], [2]],
        ORDER,
    )
    play(g, PlayCard(0, 6))  # red 6: red crosses only the finish line; yellow 4 crosses line 1
    assert g.phase == Phase.BET and g.pending.line == 0
    g.apply(Bet(0, "red"))
    g.apply(Bet(1, "blue"))
    finish(g)
    r = g.result
    assert r.ranking[0] == "red"
    assert r.bets[1] == (None, None) and r.bets[2] == (None, None)
    assert r.bet_payouts == (9, 0)


def test_betting_off_means_no_bets():
    """R-VAR beginner / betting switch: with betting off, crossings open no bet."""
    g = Game.new(SHORT, variant(powers=(), betting=False), 3, 0, deal(HANDS, GRID, SPEED8))
    for car in SPEED8:
        for seat, card in BIDS[car].items():
            g.apply(Bid(seat, card))
    play(g, PlayCard(0, 0))
    assert g.phase == Phase.RACE and not events(g, "bet-open")
    assert len(events(g, "cross")) == 3


def test_money_tie_goes_to_the_best_placed_car():
    """R-SCORE-2: equal winnings: the tied player whose best car finished highest wins."""
    g = scenario(
        spread(red="b78"),
        [[6], [2]],
        ORDER,
        race_payout=(0,) * 6,
        betting=False,
    )
    finish(g)
    assert g.result.scores == (0, 0)
    assert g.result.winners == (0,) and g.result.winner == 0


def test_still_tied_players_share_the_win():
    """R-SCORE-2 ruling: still tied, they share the win."""
    g = scenario(
        spread(apart=5),
        [[6], [2]],
        ORDER,
        betting=False,
    )
    finish(g)
    assert g.result.ranking == () and g.result.winners == (0, 1)
    assert g.result.winner is None
    assert "(highest winnings, shared)" in g.result.sheet[-1]


def test_stalled_owner_still_collects_bets():
    """R-RACE-6 / R-SCORE-1: a stalled car earns nothing; its owner still collects bets."""
    g = scoring_example()
    for _line in range(3):
        g.apply(Bet(0, "yellow"))
        g.apply(Bet(1, "yellow"))
        g.apply(Bet(2, "red"))
    settle(g)
    finish(g)
    r = g.result
    assert r.bet_payouts[2] == 9 + 6 + 3
    assert r.scores == tuple(r.earnings[p] + r.bet_payouts[p] - r.prices[p] for p in range(3))
