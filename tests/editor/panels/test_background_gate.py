"""No picture is opened that would freeze the editor or that Qt cannot hold: a named
pipe (or a folder) as background goes through the same regular-file gate as a track
file, and a picture past Qt's image allocation limit is refused with the limit."""

from __future__ import annotations

import os
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import pytest
from tracks_for_tests import stadium_track

from trackside.engine.track.model import Background, save_track

pytestmark = pytest.mark.gui


RESCUER = """
import errno, os, sys, time
while True:
    try:
        fd = os.open(sys.argv[1], os.O_WRONLY | os.O_NONBLOCK)
    except OSError as exc:
        if exc.errno != errno.ENXIO:  # ENXIO: nobody waits to read, as it should be
            raise
        time.sleep(0.05)
        continue
    print("a reader was stuck", flush=True)
    os.close(fd)
"""


class PipeWatch:
    """Whether anyone opened a named pipe to read it (and so would wait for ever): for
    as long as the block runs, another process looks for waiting readers and lets each
    go, so that a test of code that blocks fails instead of hanging (a thread would not
    do: a reader stuck in Qt may hold Python's lock)."""

    def __init__(self, pipe: Path):
        self.pipe = pipe
        self.reader_was_stuck = False

    def __enter__(self) -> PipeWatch:
        self._process = subprocess.Popen(
            [sys.executable, "-c", RESCUER, str(self.pipe)], stdout=subprocess.PIPE, text=True
        )
        return self

    def __exit__(self, *_exc) -> None:
        self._process.terminate()
        out, _err = self._process.communicate()
        self.reader_was_stuck = "stuck" in out


def pipe_in(folder: Path, name: str = "scan.png") -> Path:
    path = folder / name
    os.mkfifo(path)
    return path


def png_declaring(path: Path, width: int, height: int) -> Path:
    """A PNG whose header declares ``width`` x ``height`` pixels (its data is a stub)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        crc = zlib.crc32(kind + data) & 0xFFFFFFFF
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    stub = zlib.compress(b"\0" * 31)
    path.write_bytes(
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", stub) + chunk(b"IEND", b"")
    )
    return path


def test_importing_a_named_pipe_is_refused_without_opening_it(window, stadium_file, tmp_path):
    assert window.open_file(stadium_file, ask=False)
    pipe = pipe_in(tmp_path)
    with PipeWatch(pipe) as watch:
        assert not window.background.import_image(str(pipe))
    assert not watch.reader_was_stuck
    (problem,) = window.prompts.titles("problems")
    assert problem[1] == "Cannot import background" and "is a named pipe" in problem[2]
    assert window.doc.track.background is None


def test_a_track_whose_background_is_a_named_pipe_opens_without_opening_the_pipe(window, tmp_path):
    track = stadium_track()
    track.background = Background(path="scan.png", at=(0, 0), mm_per_pixel=0.5)
    path = tmp_path / "traced.yaml"
    save_track(track, path)
    pipe = pipe_in(tmp_path)
    with PipeWatch(pipe) as watch:
        assert window.open_file(path, ask=False)
    assert not watch.reader_was_stuck
    assert not window.background.item.isVisible()
    assert "is a named pipe" in window.background.item.problem


def test_a_picture_past_qts_allocation_limit_is_refused_naming_the_limit(
    window, stadium_file, tmp_path
):
    """A PNG declaring 60000 x 60000 pixels was reported as imported and showed nothing."""
    from PySide6.QtGui import QImageReader

    assert window.open_file(stadium_file, ask=False)
    huge = png_declaring(tmp_path / "huge.png", 60_000, 60_000)
    assert not window.background.import_image(str(huge))
    (problem,) = window.prompts.titles("problems")
    assert problem[1] == "Cannot import background"
    assert "60,000 x 60,000 pixels" in problem[2]
    assert f"the {QImageReader.allocationLimit()} MB a picture may take" in problem[2]
    assert window.doc.track.background is None
    assert "imported" not in window.statusBar().currentMessage()
