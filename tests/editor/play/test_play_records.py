"""Game records in play mode: a saved record replays to the same sheet (world tours too),
a watched record can be played on from any decision, and records are offered sensible
names and places."""

from __future__ import annotations

import re

import pytest
from play_helpers import HARBOUR, LEFT, bots_setup, play_out
from PySide6.QtCore import Qt

from trackside.editor.play.setup import Seat
from trackside.engine import records

pytestmark = pytest.mark.slow  # whole games through the widgets


def test_saved_record_replays_to_the_same_sheet(qtbot, harbour_window, tmp_path):
    window = harbour_window
    setup = bots_setup(window, "standard", seed=11)
    setup.seats[0] = Seat("Ana", "random")
    c = play_out(qtbot, window, setup)
    sheet = window.play.view.sheet.text()
    path = tmp_path / "game.yaml"
    window.play.record_path_factory = lambda: str(path)
    qtbot.mouseClick(window.play.view.sheet_save_button, Qt.MouseButton.LeftButton)
    assert path.exists()
    rec = records.load_record(path)
    assert [s.name for s in rec.seats] == setup.names()
    assert len(rec.decisions) == len(c.decisions)
    assert records.replay(rec).result.scores == c.race.result.scores
    # Watching it in the app: decision by decision to the same final sheet.
    assert window.play.watch(path)
    view = window.play.view
    c2 = view.controller
    assert c2.script is not None and not view.showing_sheet
    assert c2.paused and view.pause_button.text() == "Resume", "a replay starts still"
    qtbot.mouseClick(view.step_button, LEFT)
    qtbot.waitUntil(lambda: len(c2.decisions) == 1, timeout=10_000)
    assert c2.decisions[0] == rec.decisions[0]
    qtbot.mouseClick(view.pause_button, LEFT)
    qtbot.waitUntil(lambda: view.showing_sheet, timeout=120_000)
    assert view.sheet.text() == sheet


def test_world_tour_record_with_two_circuits_replays(qtbot, harbour_window, tmp_path):
    window = harbour_window
    setup = bots_setup(window, "world-tour", seed=4, kinds=("random",))
    play_out(qtbot, window, setup)
    sheet = window.play.view.sheet.text()
    path = tmp_path / "tour.yaml"
    window.play.record_path_factory = lambda: str(path)
    assert window.play.save_record_dialog()
    assert window.play.watch(path)
    view = window.play.view
    qtbot.mouseClick(view.pause_button, LEFT)
    qtbot.waitUntil(lambda: view.showing_sheet, timeout=120_000)
    assert view.sheet.text() == sheet


def test_a_watched_record_can_be_played_on_from_any_decision(qtbot, harbour_window, tmp_path):
    window = harbour_window
    setup = bots_setup(window, "beginner", seed=5, kinds=("random", "greedy"))
    c = play_out(qtbot, window, setup)
    path = tmp_path / "game.yaml"
    window.play.record_path_factory = lambda: str(path)
    assert window.play.save_record_dialog()
    assert window.play.watch(path)
    view = window.play.view
    assert view.take_over_button.isVisible()
    for _ in range(30):
        qtbot.mouseClick(view.step_button, LEFT)
    qtbot.waitUntil(lambda: len(view.controller.decisions) == 30, timeout=10_000)
    qtbot.mouseClick(view.take_over_button, LEFT)
    live = view.controller
    assert live.script is None and not view.take_over_button.isVisible()
    assert live.decisions[:30] == c.decisions[:30]
    qtbot.waitUntil(lambda: view.showing_sheet, timeout=120_000)
    # The bots are seeded afresh, so the rest may differ; the record stays replayable.
    again = tmp_path / "again.yaml"
    window.play.record_path_factory = lambda: str(again)
    assert window.play.save_record_dialog()
    assert records.replay(records.load_record(again)).result.scores == live.race.result.scores


def test_a_record_is_offered_a_name_that_tells_games_apart(qtbot, harbour_window):
    from trackside.editor.play.mode import record_name

    window = harbour_window
    window.play.start(bots_setup(window, "standard", seed=17))
    assert record_name(window.play.view.controller) == "harbour-loop-standard-seed-17.yaml"


def test_records_are_never_offered_a_place_among_the_bundled_circuits(
    qtbot, harbour_window, tmp_path
):
    from trackside.engine.resources import tracks_dir

    window = harbour_window
    assert window.doc.path == str(HARBOUR)
    play_out(qtbot, window, bots_setup(window, "standard"))
    folder = window.play.record_folder()
    assert folder.resolve() != tracks_dir().resolve()
    window.play.record_path_factory = lambda: str(tmp_path / "game.yaml")
    assert window.play.save_record_dialog()
    assert window.play.record_folder() == tmp_path  # remembered for next time


def test_watching_a_record_whose_circuit_changed_says_so(qtbot, window, tmp_path):
    """A record names its saved circuit by path with a fingerprint: once the file's
    betting line moves, watching says the circuit changed, at once and where it stops."""
    from dataclasses import replace

    from trackside.engine.balance.edits import Proposal, make_edit
    from trackside.engine.track.model import load_track
    from trackside.engine.writer import write_text

    coast = tmp_path / "coast.yaml"
    coast.write_text(HARBOUR.read_text())
    assert window.open_file(str(coast), ask=False)
    window.play.bot_ms, window.play.anim_ms = 0, 0
    play_out(qtbot, window, replace(bots_setup(window, "standard", seed=11), track_files=[coast]))
    path = tmp_path / "game.yaml"
    window.play.record_path_factory = lambda: str(path)
    assert window.play.save_record_dialog()
    assert "tracks: [coast.yaml]" in path.read_text()
    assert "  coast.yaml: sha256:" in path.read_text()
    edit = make_edit(load_track(coast), Proposal("line", 3, line=1))
    write_text(coast, edit.track.to_yaml(), "the track")

    assert window.play.watch(path)
    changed = "coast.yaml has changed since this game was recorded"
    assert changed in window.statusBar().currentMessage()
    view = window.play.view
    qtbot.mouseClick(view.pause_button, LEFT)
    qtbot.waitUntil(lambda: view.prompt.text().startswith("Stopped:"), timeout=120_000)
    shown = f"replay: decision {len(view.controller.decisions)} of "
    qtbot.waitUntil(lambda: shown in view.status.text() and "paused" in view.status.text())
    text = view.prompt.text()  # the last redraw left the message in place
    assert text.startswith(f"Stopped: {changed}")
    whole = view.prompt.toolTip()
    assert re.search(r"the record's decision \d+ cannot be applied: ", whole)
    assert "To watch it to the end, put the circuit back as it was" in whole
    assert whole in view.log.toPlainText()
