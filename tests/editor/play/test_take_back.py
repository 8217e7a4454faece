"""Take Back (the button and Ctrl+Z) in the real board view: a person's own last
decision against bots, with the bots' replies after it, while no other person
has decided since; otherwise the button is off and its tooltip says why."""

from __future__ import annotations

import pytest
from play_helpers import LEFT
from PySide6.QtCore import Qt

from trackside.editor.document.commands import SetMeta
from trackside.editor.play.records_io import to_record
from trackside.editor.play.setup import GameSetup, Seat
from trackside.engine.game import load_variant
from trackside.engine.records import replay

pytestmark = pytest.mark.slow  # games played through the widgets


def start(window, seats: list[Seat], seed: int = 5):
    v = load_variant("standard")
    setup = GameSetup(v, "standard", seats, seed, [window.doc.snapshot()], [None])
    assert window.play.start(setup)
    return window.play.view


def asked(qtbot, view, seat: int) -> None:
    """Wait until ``seat`` is asked (its hand-over accepted on the way)."""
    c = view.controller

    def ready() -> bool:
        if view.showing_handover and c.handing_to == seat:
            qtbot.mouseClick(view.handover.button, LEFT)
        return c.waiting_for == seat

    qtbot.waitUntil(ready, timeout=60_000)


def answer(view) -> None:
    """The person asked takes the first option, as the prompt's clicks would give it."""
    c = view.controller
    view.decide(c.race.options(c.waiting_for)[0])


def shown(view) -> tuple:
    """What the game and the screen hold: decisions, log, the log pane, the hand."""
    c = view.controller
    return (
        c.game.history,
        [e.text for e in c.game.log],
        view.log.toPlainText(),
        sorted(view.hand.buttons),
        view.prompt.text(),
    )


def test_take_back_undoes_the_persons_decision_and_the_bots_replies(qtbot, harbour_window):
    """The button, then Ctrl+Z: each time the game, its log, the log pane and the
    hand are as they were when the person was asked, and the person is asked again."""
    doc = harbour_window.doc
    doc.undo_stack.push(SetMeta(doc, "author", "Ana"))  # an edit Ctrl+Z must not undo here
    seats = [Seat("Ana"), Seat("Bot 1", "greedy"), Seat("Bot 2", "greedy"), Seat("Bot 3", "greedy")]
    view = start(harbour_window, seats)
    c = view.controller
    asked(qtbot, view, 0)
    assert not view.take_back_button.isEnabled()
    assert "no decision to take back" in view.take_back_button.toolTip()
    takes: list[tuple] = []
    while len(takes) < 2:
        before = shown(view)
        count = len(c.decisions)
        answer(view)
        asked(qtbot, view, 0)
        if any(d.player != 0 for d in c.decisions[count:]):  # bots replied in between
            takes.append(before)
        else:
            takes.clear()  # only takes in a row, each answered by bots
    assert view.take_back_button.isEnabled()
    assert "Ctrl+Z" in view.take_back_button.toolTip()
    qtbot.mouseClick(view.take_back_button, LEFT)
    qtbot.waitUntil(lambda: c.waiting_for == 0)
    assert shown(view) == takes[1]
    harbour_window.show()
    harbour_window.activateWindow()
    qtbot.waitUntil(harbour_window.isActiveWindow)  # the editor's shortcuts are live
    view.setFocus()
    qtbot.keyClick(view, "z", qtbot_modifier())
    qtbot.waitUntil(lambda: c.waiting_for == 0 and c.game.history == takes[0][0])
    assert shown(view) == takes[0]
    assert replay(to_record(c)).history == c.game.history  # the record says the same
    assert doc.undo_stack.index() == 1 and doc.track.author == "Ana"  # the edit stays


def qtbot_modifier() -> Qt.KeyboardModifier:
    return Qt.KeyboardModifier.ControlModifier


def test_take_back_is_off_once_another_person_has_decided(qtbot, harbour_window):
    """Two people and bots: Ben may take back his own bid; Ana, after Ben has
    decided, may not, and the tooltip names Ben."""
    seats = [Seat("Ana"), Seat("Ben"), Seat("Bot 1", "greedy"), Seat("Bot 2", "greedy")]
    view = start(harbour_window, seats)
    c = view.controller
    asked(qtbot, view, 0)
    answer(view)  # Ana's secret bid
    asked(qtbot, view, 1)
    answer(view)  # Ben's
    while True:  # Ben answers until Ana is asked again
        qtbot.waitUntil(lambda: c.waiting_for is not None or view.showing_handover, timeout=60_000)
        if view.showing_handover:
            if c.handing_to == 0:
                assert view.take_back_button.isEnabled()  # Ben's last decision is his
            qtbot.mouseClick(view.handover.button, LEFT)
            continue
        if c.waiting_for == 0:
            break
        answer(view)
    assert not view.take_back_button.isEnabled()
    assert view.take_back_button.toolTip() == "Ben has decided since your last decision"
    history = c.game.history
    view.setFocus()
    qtbot.keyClick(view, "z", qtbot_modifier())
    assert c.game.history == history  # Ctrl+Z does nothing then


def test_take_back_is_off_at_the_end_and_hidden_while_watching(qtbot, harbour_window, tmp_path):
    """Bots only: nobody's to take back; at the end the game is over."""
    seats = [Seat(f"Bot {k}", "greedy") for k in range(4)]
    view = start(harbour_window, seats)
    assert view.take_back_button.isVisible() or not view.isVisible()
    assert not view.take_back_button.isEnabled()
    qtbot.waitUntil(lambda: view.showing_sheet, timeout=120_000)
    assert view.take_back_button.toolTip() == "The game is over"
    path = tmp_path / "game.yaml"
    harbour_window.play.record_path_factory = lambda: str(path)
    assert harbour_window.play.save_record_dialog()
    assert harbour_window.play.watch(path)
    assert view.take_back_button.isHidden()
