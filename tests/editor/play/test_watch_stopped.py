"""A watched record that stops (a decision the game refuses) stays stopped: Step and
Resume are off and say why, and nothing after the refused decision is applied."""

from __future__ import annotations

import pytest
from play_helpers import HARBOUR, LEFT

from trackside.engine.bots import bot_seed, drive, make_bot
from trackside.engine.game import PlayCard
from trackside.engine.records import Recorder, SeatInfo, save_record

pytestmark = pytest.mark.gui


def _record_with_a_card_played_twice(path):
    """A greedy game whose first card played is there twice in a row: the second is
    refused, and the decision after it would be legal again."""
    seats = [SeatInfo(f"Bot {p + 1}", "greedy") for p in range(3)]
    rec = Recorder.start([str(HARBOUR)], "standard", 3, 7, seats)
    drive(rec.game, [make_bot("greedy", bot_seed(7, p, "greedy")) for p in range(3)], rec.apply)
    record = rec.record()
    first = next(k for k, d in enumerate(record.decisions) if isinstance(d, PlayCard))
    record.decisions.insert(first + 1, record.decisions[first])
    save_record(record, path)
    return first + 1, len(record.decisions)


def test_a_stopped_replay_steps_no_further(qtbot, harbour_window, tmp_path):
    path = tmp_path / "twice.yaml"
    applied, total = _record_with_a_card_played_twice(path)
    window = harbour_window
    assert window.play.watch(path)
    view = window.play.view
    controller = view.controller
    qtbot.mouseClick(view.pause_button, LEFT)  # Resume: run until it stops
    qtbot.waitUntil(lambda: view.prompt.text().startswith("Stopped:"), timeout=60_000)
    assert f"the record's decision {applied + 1} cannot be applied" in view.prompt.toolTip()
    assert len(controller.decisions) == applied
    assert f"replay: decision {applied} of {total}" in view.status.text()
    for button in (view.step_button, view.pause_button):
        assert not button.isEnabled()
        assert "stopped" in button.toolTip() and "Play from here" in button.toolTip()
    assert view.take_over_button.isEnabled()  # the game as it stands goes on from here
    controller.step()  # as a click would, were the button on
    controller.set_paused(False)
    assert controller.idle and controller.paused  # nothing scheduled: nothing more applied
    assert len(controller.decisions) == applied
