"""``trackside edit``: the editor from the command line."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from trackside.engine import cli
from trackside.engine.commands.edit import default_track

pytestmark = pytest.mark.gui


def test_a_missing_file_is_one_line_and_exit_2(capsys):
    assert cli.main(["edit", "no/such/track.yaml"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no/such/track.yaml: no such file" in err


def test_without_a_file_it_opens_the_bundled_harbour_loop():
    assert default_track().name == "harbour-loop.yaml"


@pytest.mark.slow
def test_edit_starts_the_editor_on_the_track_without_complaint(tmp_path):
    """A real ``trackside edit`` process (offscreen): it starts, stays up and prints nothing.

    It runs in its own process: a QApplication that has run its event loop once
    cannot serve the rest of the test session.
    """
    env = dict(
        os.environ,
        QT_QPA_PLATFORM="offscreen",
        XDG_DATA_HOME=str(tmp_path / "data"),
        XDG_CONFIG_HOME=str(tmp_path / "config"),
    )
    proc = subprocess.Popen(
        [sys.executable, "-m", "trackside", "edit", str(default_track())],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        with pytest.raises(subprocess.TimeoutExpired):
            proc.wait(timeout=4)
    finally:
        proc.terminate()
        out, err = proc.communicate(timeout=10)
    noise = [line for line in err.splitlines() if "propagateSizeHints" not in line]
    assert noise == [] and out == ""
