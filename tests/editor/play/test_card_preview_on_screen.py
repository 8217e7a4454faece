"""A card in a person's hand tells, while the pointer or the keyboard is on it, what
it would do if played now: a line in the status bar and the tooltip, and marks on its
rows; one click still plays it."""

from __future__ import annotations

import random

import pytest
from PySide6.QtCore import Qt
from repo_paths import TRACKS

from trackside.editor.play.controller import PlayController
from trackside.editor.play.setup import GameSetup, Seat, make_bots
from trackside.engine.game import Board, Game, PlayCard, load_variant
from trackside.engine.game.preview import card_preview
from trackside.engine.track.model import load_track

pytestmark = pytest.mark.gui


def blocked_top_row(game: Game) -> int | None:
    """A card of the seat to play whose top car has no free space ahead, if any."""
    if game.pending.kind != "play_card":
        return None
    for option in game.options(game.due()[0]):
        if isinstance(option, PlayCard) and card_preview(game, option.card).rows[0].blocked:
            return option.card
    return None


def test_hovering_a_card_says_what_it_would_do_and_a_click_plays_it(qtbot, window):
    track = load_track(TRACKS / "quarry-hairpin.yaml")
    variant = load_variant("standard")
    game, rng = Game.new(Board(track, variant.use_finish), variant, 4, 0), random.Random(0)
    while blocked_top_row(game) is None:
        for seat in game.due():
            game.apply(rng.choice(game.options(seat)))
    card = blocked_top_row(game)
    (seat,) = game.due()
    seats = [Seat("Ana") if k == seat else Seat(f"Bot {k + 1}", "random") for k in range(4)]
    setup = GameSetup(variant, "standard", seats, 0, [track], [None])
    controller = PlayController(game, setup, make_bots(setup), bot_ms=0, anim_ms=0)
    window.play.enter()
    window.play.view.start(controller)
    qtbot.waitUntil(lambda: controller.waiting_for == seat, timeout=10_000)
    button = window.play.view.hand.buttons[card]
    colour = game.card_of(card).rows[0][0]
    mine = " (yours)" if game.owner_of(colour) == seat else ""
    said = f"{colour}{mine} cannot move (no free space ahead)"
    assert said in button.statusTip() and said in button.toolTip()
    assert button.row_marks()[0] == "blocked"
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    button.setFocus()  # the keyboard on the card (the pointer shows the same line)
    qtbot.waitUntil(lambda: said in window.statusBar().currentMessage())
    free = [b for b in window.play.view.hand.buttons.values() if b.isEnabled()]
    assert all(b.statusTip().startswith("If played now") for b in free)
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert PlayCard(seat, card) in controller.decisions  # one click, as before
