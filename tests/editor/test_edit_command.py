"""``trackside edit``: the editor from the command line."""
from __future__ import annotations

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

from engine import cli
from engine.commands.edit import default_track

pytestmark = pytest.mark.gui


def test_a_missing_file_is_one_line_and_exit_2(capsys):
    assert cli.main(["edit", "no/such/track.yaml"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no/such/track.yaml: no such file" in err


def test_without_a_file_it_opens_the_bundled_harbour_loop():
    assert default_track().name == "harbour-loop.yaml"


def test_edit_opens_the_window_on_the_track_and_exits_cleanly(qapp, monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))      # autosave folder
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))  # settings
    seen = {}

    def look_and_quit():
        windows = [w for w in QApplication.topLevelWidgets()
                   if type(w).__name__ == "MainWindow" and w.isVisible()]
        seen["titles"] = [w.windowTitle() for w in windows]
        seen["spaces"] = [len(w.doc.track.spaces) for w in windows]
        for w in windows:
            w.close()
        QApplication.quit()

    QTimer.singleShot(300, look_and_quit)
    assert cli.main(["edit", str(default_track())]) == 0
    assert seen["titles"] == ["harbour-loop.yaml[*] — Trackside"]
    assert seen["spaces"][0] > 100
