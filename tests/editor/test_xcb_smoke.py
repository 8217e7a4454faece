"""The editor on Qt's real xcb platform, the one a Linux desktop uses: the other GUI
tests run offscreen, so only this one loads the platform plugin and the system
libraries it needs (a library missing here is missing for people too).

It starts its own Xvfb on a free display, runs ``trackside edit`` on a copy of a
bundled circuit in a process of its own (tests/editor/xcb_smoke_driver.py), which
deletes a space with a click and the Delete key, saves with Ctrl+S and quits with
Ctrl+Q; then the file must hold one space fewer. Skipped, saying why, where Xvfb
is not installed (``.ci/run`` installs it, and sets TRACKSIDE_REQUIRE_XCB so
that there it fails instead).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from trackside.engine.resources import resolve_track
from trackside.engine.track.model import load_track

pytestmark = [
    pytest.mark.slow,
    pytest.mark.xcb,
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="xcb is Linux's platform"),
]
NO_XVFB = (
    "Xvfb is not installed: the smoke test of the editor on Qt's real xcb platform "
    "needs it (apt-get install xvfb xauth; .ci/run installs it)"
)

DRIVER = Path(__file__).with_name("xcb_smoke_driver.py")


@pytest.fixture
def display():
    """A display of its own: Xvfb picks a free number and tells it on a pipe. Without
    Xvfb the test is skipped, or fails where TRACKSIDE_REQUIRE_XCB is set (.ci/run)."""
    if shutil.which("Xvfb") is None:
        if os.environ.get("TRACKSIDE_REQUIRE_XCB"):
            pytest.fail(NO_XVFB)
        pytest.skip(NO_XVFB)
    read, write = os.pipe()
    server = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write), "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
        pass_fds=(write,),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    os.close(write)
    with os.fdopen(read) as told:
        number = told.readline().strip()
    try:
        assert number, "Xvfb did not start"
        yield f":{number}"
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_the_editor_opens_edits_saves_and_quits_on_xcb(display, tmp_path):
    track = tmp_path / "harbour-loop.yaml"
    shutil.copy(resolve_track("harbour-loop"), track)
    before = len(load_track(track).spaces)
    home = tmp_path / "home"  # settings, autosaves and earlier saves stay in here
    env = {
        **os.environ,
        "DISPLAY": display,
        "QT_QPA_PLATFORM": "xcb",
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "XDG_DATA_HOME": str(home / ".local" / "share"),
        "XDG_CACHE_HOME": str(home / ".cache"),
    }
    done = subprocess.run(
        [sys.executable, str(DRIVER), str(track)],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    said = done.stdout + done.stderr
    assert done.returncode == 0, said
    assert "platform xcb" in done.stdout, said
    assert "modified False" in done.stdout, said  # saved
    assert len(load_track(track).spaces) == before - 1
