"""The auction panel groups the log by car; R-AUC-8's second round is its own entry."""

from __future__ import annotations

from trackside.editor.play.auction_panel import SECOND_ROUND, auctions
from trackside.engine.bots import bot_seed, drive, make_bot
from trackside.engine.game import Board, Game, Phase, load_variant
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
