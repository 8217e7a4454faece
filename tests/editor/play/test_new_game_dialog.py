"""The New game dialog's messages."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QFileDialog, QPushButton
from repo_paths import TRACKS

from trackside.editor.play.new_game_dialog import NewGameDialog
from trackside.engine.track.model import load_track

pytestmark = pytest.mark.gui


def test_a_variant_file_error_goes_when_another_variant_is_chosen(qtbot, tmp_path, monkeypatch):
    bad = tmp_path / "bad.yaml"
    bad.write_text("format: trackside-variant/1\nname: [\n")
    dialog = NewGameDialog(load_track(TRACKS / "harbour-loop.yaml"), None)
    qtbot.addWidget(dialog)
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(bad), ""))
    button = next(b for b in dialog.findChildren(QPushButton) if b.text() == "Variant file…")
    button.click()
    assert dialog.error.text().startswith("Cannot use bad.yaml")
    dialog.select_variant("world-tour")
    assert dialog.error.text() == ""
