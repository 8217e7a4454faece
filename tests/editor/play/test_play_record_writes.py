"""Save Game Record… against every way a write fails (a full disk, no permission, a
read-only disk, a folder in the way) and onto the track being edited: the reason is
shown, the earlier file is untouched and no temporary file is left."""

from __future__ import annotations

from pathlib import Path

import pytest
from faults import CAUSES, failing_target, leftovers, untouched
from play_helpers import HARBOUR, bots_setup

pytestmark = pytest.mark.gui

TITLE = "Cannot save the game record"


@pytest.fixture
def playing(window, tmp_path):
    """A game of bots under way on a copy of Harbour Loop open in the editor."""
    track = tmp_path / "harbour.yaml"
    track.write_bytes(HARBOUR.read_bytes())
    assert window.open_file(track, ask=False)
    window.play.bot_ms, window.play.anim_ms = 0, 0
    assert window.play.start(bots_setup(window, "beginner", seed=5, kinds=("random",)))
    return window


@pytest.mark.parametrize("fault", ["ENOSPC", "EACCES", "EROFS", "folder"])
def test_a_failed_record_save_is_shown_and_changes_nothing(playing, tmp_path, monkeypatch, fault):
    folder = tmp_path / "records"
    target = failing_target(monkeypatch, folder, "game.yaml", fault)
    playing.play.record_path_factory = lambda: str(target)
    saved = playing.play.save_record_dialog()
    monkeypatch.undo()
    assert saved is False
    title, text = playing.prompts.titles()[-1][1:3]
    assert title == TITLE and str(target) in text and CAUSES[fault] in text
    assert untouched(target, fault) and leftovers(folder) == []


def test_a_record_over_the_track_being_edited_is_refused(playing):
    track = Path(playing.doc.path)
    before = track.read_bytes()
    playing.play.record_path_factory = lambda: str(track)
    assert playing.play.save_record_dialog() is False
    title, text = playing.prompts.titles()[-1][1:3]
    assert title == TITLE and "names the open track" in text
    assert track.read_bytes() == before


def test_a_record_file_name_too_long_is_shown_cut_in_the_middle(playing, tmp_path):
    name = "r" * 300 + ".yaml"
    playing.play.record_path_factory = lambda: str(tmp_path / name)
    assert playing.play.save_record_dialog() is False
    title, text = playing.prompts.titles()[-1][1:3]
    assert title == TITLE and name not in text and "rrrr…rrrr" in text and len(text) < 250
    assert text.startswith(str(tmp_path / "rrrr")) and "nothing was written" in text
