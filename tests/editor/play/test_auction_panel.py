"""The auction panel groups the log by car; R-AUC-8's second round is its own
entry; R-AUC-7's forced bids for the last car read as shown, not bid."""

from __future__ import annotations

import pytest

from trackside.editor.play.auction_panel import SECOND_ROUND, AuctionPanel, auctions
from trackside.engine.bots import bot_seed, drive, make_bot
from trackside.engine.game import COLOURS, Bid, Board, Deal, Game, Phase, load_variant
from trackside.engine.resources import tracks_dir
from trackside.engine.track.model import load_track


def _auction_log(seed: int, board: Board) -> list:
    game = Game.new(board, load_variant("standard"), 4, seed)
    bots = [make_bot("random", bot_seed(seed, p, "random")) for p in range(4)]
    drive(game, bots, until=lambda: game.phase not in (Phase.AUCTION, Phase.POWER))
    return list(game.log)


def test_second_round_results_are_never_filed_under_a_revealed_car():
    board = Board.of(load_track(tracks_dir() / "harbour-loop.yaml"))
    found = 0
    for seed in range(400):
        log = _auction_log(seed, board)
        if not any(e.data.get("reason") in SECOND_ROUND for e in log if e.kind == "auction"):
            continue
        found += 1
        runs = auctions(log)
        assert [r.car for r in runs if r.car is not None] == [
            e.data["car"] for e in log if e.kind == "reveal"
        ]
        for run in runs:
            reasons = {e.data.get("reason") for e in run.results}
            assert bool(reasons & set(SECOND_ROUND)) <= (run.car is None), (seed, reasons)
        if found == 3:
            break
    assert found, "no seed gave a second round (R-AUC-8)"


def _forced_last_car_log(board: Board) -> tuple[Game, list]:
    """Three players: seat 0 wins three cars, two are set aside, and the last car
    comes up with seats 1 and 2 still without one (R-AUC-7 ruling)."""
    hands = [[12, 0, 4, 13, 18, 24, 30], [3, 1, 5, 14, 19, 25, 31], [9, 2, 6, 15, 20, 26, 32]]
    order = ("blue", "red", "yellow", "black", "green", "orange")
    powers = ("tricky", "cunning", "aggressive", "determined", "strategic", "unpredictable")
    deal = Deal(tuple(map(tuple, hands)), COLOURS, order, powers, ())
    game = Game.new(board, load_variant("standard"), 3, 0, deal)
    for car in order[:5]:
        for seat in game.due():
            bids = [o for o in game.options(seat) if isinstance(o, Bid) and o.card is not None]
            wins = car in order[1:4] and seat == 0
            game.apply(bids[0] if wins else Bid(seat, None))
    return game, list(game.log)


@pytest.mark.gui
def test_forced_bids_for_the_last_car_are_shown_as_shown_not_bid(qtbot):
    """R-AUC-7 ruling: the lowest cards shown for the last car read "shows", and
    the result says why (last car)."""
    board = Board.of(load_track(tracks_dir() / "harbour-loop.yaml"))
    game, log = _forced_last_car_log(board)
    assert game.owner_of("orange") == 2
    panel = AuctionPanel()
    qtbot.addWidget(panel)
    panel.update_from(log, game.card_of, lambda p: f"Seat{p}")
    text = panel.text.text()
    newest = text.split("<hr>")[0].replace("&nbsp;", " ")  # chips never break: &nbsp;
    assert "orange car" in newest
    assert "Seat1 shows <b>2</b>" in newest and "Seat2 shows <b>3</b>" in newest
    assert "(last car, highest bid)" in newest
    assert " bids <b>" not in newest
