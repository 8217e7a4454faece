"""Leaving a game in progress (Back to editing, Shift+F5, F5, closing the window)
asks first, through the real question box: save its record, leave, or stay. The
status bar in play mode says what the game waits for, not the editing tool's
hint, and the Log tab follows its newest line unless scrolled up."""

from __future__ import annotations

import pytest
from play_helpers import HARBOUR, LEFT, bots_setup, play_out
from PySide6.QtCore import QThreadPool, QTimer
from PySide6.QtWidgets import QApplication, QLabel, QMessageBox

from trackside.editor.panels.prompts import Prompts
from trackside.editor.play.setup import GameSetup, Seat
from trackside.engine.game import load_variant
from trackside.engine.records import load_record, replay

pytestmark = pytest.mark.slow  # games played through the widgets


@pytest.fixture
def asking_window(make_window):
    """Harbour Loop in a window whose questions are the real boxes; bots at once.
    A test ends out of its game: the window is closed before fixtures end."""
    prompts = Prompts()
    window = make_window(prompts)
    prompts.parent = window
    assert window.open_file(HARBOUR, ask=False)
    window.play.bot_ms, window.play.anim_ms = 0, 0
    return window


def answering(button: str, tries: int = 1000) -> list[str]:
    """Click ``button`` in the next question box; its title and text are returned.
    Looked for every 10 ms, ``tries`` times at most: a box that never comes fails the
    test (pytest-qt reports what a timer raised) rather than a later one being
    clicked by a look left running."""
    seen: list[str] = []

    def answer(left: int) -> None:
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox):
            if left <= 1:
                raise AssertionError(f"no question box to answer {button!r} came")
            QTimer.singleShot(10, lambda: answer(left - 1))
            return
        seen.extend([box.windowTitle(), box.text()])
        next(b for b in box.buttons() if b.text().replace("&", "") == button).click()

    QTimer.singleShot(0, lambda: answer(tries))
    return seen


def start_with_a_person(window):
    """Ana and three greedy bots in the standard game, started."""
    seats = [Seat("Ana")] + [Seat(f"Bot {k}", "greedy") for k in (1, 2, 3)]
    track = window.doc.snapshot()
    setup = GameSetup(load_variant("standard"), "standard", seats, 5, [track], [None])
    assert window.play.start(setup)
    return window.play.view


def decide(qtbot, view) -> None:
    """Wait until Ana is asked, take her first option, and wait until she is asked again."""
    c = view.controller
    qtbot.waitUntil(lambda: c.waiting_for == 0, timeout=60_000)
    count = len(c.decisions)
    view.decide(c.race.options(0)[0])
    qtbot.waitUntil(lambda: c.waiting_for == 0 and len(c.decisions) > count, timeout=60_000)


def test_back_to_editing_mid_game_asks_and_staying_keeps_the_game(qtbot, asking_window):
    view = start_with_a_person(asking_window)
    decide(qtbot, view)
    c = view.controller
    seen = answering("Stay in the Game")
    qtbot.mouseClick(view.back_button, LEFT)
    assert seen[0] == "Leave this game?"
    assert "going back to editing" in seen[1]
    assert asking_window.play.active and view.controller is c
    decide(qtbot, view)  # the game goes on
    assert asking_window.play.act_save_record.isEnabled()
    seen = answering("Leave Without Saving")
    asking_window.play.act_leave.trigger()  # Shift+F5 asks the same
    assert seen[0] == "Leave this game?"
    assert not asking_window.play.active


def test_save_record_on_the_way_out_keeps_the_game_to_watch(qtbot, asking_window, tmp_path):
    view = start_with_a_person(asking_window)
    decide(qtbot, view)
    c = view.controller
    path = tmp_path / "left.yaml"
    asking_window.play.record_path_factory = lambda: str(path)
    seen = answering("Save Record…")
    qtbot.mouseClick(view.back_button, LEFT)
    assert seen and not asking_window.play.active
    assert replay(load_record(path)).history == c.game.history
    assert str(path) in asking_window.message_label.text()
    # A cancelled file dialog stays in the game.
    view = start_with_a_person(asking_window)
    decide(qtbot, view)
    asking_window.play.record_path_factory = lambda: ""
    answering("Save Record…")
    qtbot.mouseClick(view.back_button, LEFT)
    assert asking_window.play.active
    answering("Leave Without Saving")
    qtbot.mouseClick(view.back_button, LEFT)
    assert not asking_window.play.active


def test_closing_the_window_mid_game_asks(qtbot, asking_window):
    view = start_with_a_person(asking_window)
    decide(qtbot, view)
    seen = answering("Stay in the Game")
    assert not asking_window.close()
    assert "closing the window" in seen[1]
    assert asking_window.isVisible() and asking_window.play.active
    decide(qtbot, view)
    answering("Leave Without Saving")
    assert asking_window.close()


def test_no_question_without_a_game_to_lose(qtbot, harbour_window, tmp_path):
    """A finished game, a game whose record is saved, a game with no decision yet:
    each is left at once."""
    prompts = harbour_window.prompts
    play_out(qtbot, harbour_window, bots_setup(harbour_window, "standard"))
    qtbot.mouseClick(harbour_window.play.view.sheet_back_button, LEFT)
    assert not harbour_window.play.active
    view = start_with_a_person(harbour_window)
    assert harbour_window.play.leave()  # Ana is asked first: nothing decided yet
    view = start_with_a_person(harbour_window)
    decide(qtbot, view)
    harbour_window.play.record_path_factory = lambda: str(tmp_path / "kept.yaml")
    qtbot.mouseClick(view.save_button, LEFT)
    qtbot.mouseClick(view.back_button, LEFT)
    assert not harbour_window.play.active
    # A record watched, then played from where it stands: the record holds it.
    assert harbour_window.play.watch(tmp_path / "kept.yaml")
    watched = view.controller
    for count in (1, 2):
        qtbot.mouseClick(view.step_button, LEFT)
        qtbot.waitUntil(lambda n=count: len(watched.decisions) == n)
    qtbot.mouseClick(view.take_over_button, LEFT)
    assert view.controller is not watched and len(view.controller.decisions) == 2
    qtbot.mouseClick(view.back_button, LEFT)
    assert not harbour_window.play.active
    assert prompts.titles("leave_game") == []


def test_a_new_game_mid_game_asks_first(qtbot, harbour_window):
    prompts = harbour_window.prompts
    view = start_with_a_person(harbour_window)
    decide(qtbot, view)
    prompts.leave_answer = "stay"
    offered = []
    harbour_window.play.dialog_factory = lambda: offered.append(1)
    harbour_window.play.act_play.trigger()
    assert prompts.titles("leave_game") == [("leave_game", "starting a new game")]
    assert offered == [] and harbour_window.play.active
    decide(qtbot, view)  # the game was not held for good


def shown_in_status_bar(window) -> list[str]:
    return [w.text() for w in window.statusBar().findChildren(QLabel) if w.isVisible()]


def test_status_bar_says_the_game_in_play_and_the_tool_hint_in_editing(qtbot, harbour_window):
    hint = harbour_window.tool.hint
    assert hint in shown_in_status_bar(harbour_window)
    view = start_with_a_person(harbour_window)
    qtbot.waitUntil(lambda: view.controller.waiting_for == 0, timeout=60_000)
    shown = " | ".join(shown_in_status_bar(harbour_window))
    assert hint not in shown
    assert "Ana" in shown and "to choose a bid card" in shown and "Shift+F5" in shown
    for label in (harbour_window.zoom_label, harbour_window.counts_label):
        assert not label.isVisible()
    assert harbour_window.play.leave()
    assert hint in shown_in_status_bar(harbour_window)
    assert harbour_window.zoom_label.isVisible() and harbour_window.counts_label.isVisible()


def test_the_log_follows_its_newest_line_unless_scrolled_up(qtbot, harbour_window):
    """Behind the Auction tab during the auction, then in front for the race: the
    newest line is in sight; scrolled up, it stays where the reader is."""
    view = start_with_a_person(harbour_window)
    c = view.controller
    scroll = view.log.verticalScrollBar()
    while c.race.phase.value in ("auction", "power"):
        decide(qtbot, view)
    qtbot.waitUntil(lambda: view.tabs.currentWidget() is view.log)
    qtbot.waitUntil(lambda: scroll.maximum() > 0)
    assert scroll.value() == scroll.maximum()
    bottom = view.log.cursorForPosition(view.log.viewport().rect().bottomLeft())
    assert bottom.block().blockNumber() == view.log.document().lastBlock().blockNumber()
    scroll.setValue(0)  # the reader scrolls up
    lines = view.log.blockCount()
    decide(qtbot, view)
    qtbot.waitUntil(lambda: view.log.blockCount() > lines)
    assert scroll.value() == 0 and not view.log_follows
    scroll.setValue(scroll.maximum())  # and back down: it follows again
    lines = view.log.blockCount()
    decide(qtbot, view)
    qtbot.waitUntil(lambda: view.log.blockCount() > lines)
    assert scroll.value() == scroll.maximum() and view.log_follows


def test_answering_gives_up_when_no_box_comes(qtbot):
    """It looked for a box forever, and would click one a later step opened."""
    with qtbot.capture_exceptions() as raised:
        seen = answering("Stay in the Game", tries=3)
        qtbot.waitUntil(lambda: bool(raised))
    assert seen == []
    assert "no question box" in str(raised[0][1])


class HeldGameDialog:
    """A New Game dialog that lets the event loop run (bot answers delivered) while
    it is up, notes how many decisions the game made meanwhile, and is cancelled."""

    def __init__(self, controller, made: list[tuple[int, bool]], record=None):
        self.c, self.made, self.record = controller, made, record

    def exec(self) -> bool:
        before = len(self.c.decisions)
        for _round in range(20):  # bounded, not a sleep: each round a bot could answer
            QThreadPool.globalInstance().waitForDone()
            QApplication.processEvents()
        # The record saved on the way out (if any) is still the game's.
        kept = self.record is None or (
            replay(load_record(self.record)).history == self.c.game.history
        )
        self.made.append((len(self.c.decisions) - before, kept))
        return False


@pytest.mark.parametrize("answer", ["leave", "save"])
def test_a_new_game_cancelled_after_leaving_goes_on_from_where_it_was_held(
    qtbot, harbour_window, tmp_path, answer
):
    """The bots went on playing behind the New Game dialog (a record just saved out
    of date) though the question said the game would end."""
    play = harbour_window.play
    play.bot_ms, play.anim_ms = 0, 0
    assert play.start(bots_setup(harbour_window, "standard"))
    c = play.view.controller
    qtbot.waitUntil(lambda: len(c.decisions) >= 3, timeout=60_000)
    harbour_window.prompts.leave_answer = answer
    record = tmp_path / "kept.yaml" if answer == "save" else None
    play.record_path_factory = lambda: str(record)
    made: list[tuple[int, bool]] = []
    play.dialog_factory = lambda: HeldGameDialog(c, made, record)
    play.act_play.trigger()
    assert made == [(0, True)]  # no bot decision while the dialog was up
    assert play.view.controller is c and play.active
    count = len(c.decisions)
    qtbot.waitUntil(lambda: len(c.decisions) > count, timeout=60_000)  # and it goes on
