"""A game of ``trackside play`` stopped on the way (Ctrl-C, or the end of input at a
prompt): with ``--record`` the decisions so far are saved, in a record ``--resume``
continues, and the message says where; without it, the message says nothing was
written."""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import time

import pytest
from repo_paths import ROOT

from trackside.cli.main import main
from trackside.engine.records import load_record, replay
from trackside.engine.resources import tracks_dir

HARBOUR = str(tracks_dir() / "harbour-loop.yaml")
PEOPLE = ["play", "--track", HARBOUR, "--seats", "human,greedy,human", "--seed", "5"]


class Keyboard:
    """A person's answers at the terminal, then Ctrl-C (or the end of input)."""

    def __init__(self, answers: int, then: str = "ctrl-c"):
        self.answers, self.then = answers, then

    def readline(self) -> str:
        if self.answers:
            self.answers -= 1
            return "1\n"
        if self.then == "ctrl-c":
            raise KeyboardInterrupt
        return ""

    def isatty(self) -> bool:
        return False


def play(capsys, monkeypatch, keyboard: Keyboard, *more: str) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", keyboard)
    code = main([*PEOPLE, *more])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def test_ctrl_c_saves_the_decisions_so_far_and_resume_continues(capsys, monkeypatch, tmp_path):
    record = tmp_path / "game.yaml"
    code, _out, err = play(capsys, monkeypatch, Keyboard(5), "--record", str(record))
    assert code == 130
    saved = load_record(record)
    assert saved.result is None and len(saved.decisions) >= 5
    assert err.strip() == (
        f"trackside: interrupted; the game so far ({len(saved.decisions)} decisions) is "
        f"saved to {record} (continue it with: trackside play --resume {record})"
    )
    assert not replay(saved).over  # the decisions replay: a game part-way
    # The people's answers are the first ones: the bots' decisions in between follow.
    monkeypatch.setattr(sys, "stdin", Keyboard(1000, then="end"))
    finished = tmp_path / "finished.yaml"
    code = main(["play", "--resume", str(record), "--record", str(finished)])
    out, _err = capsys.readouterr()
    assert code == 0 and "Winner:" in out
    whole = load_record(finished)
    assert whole.decisions[: len(saved.decisions)] == saved.decisions and whole.result


def test_ctrl_c_without_record_says_nothing_was_written(capsys, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    code, _out, err = play(capsys, monkeypatch, Keyboard(2))
    assert code == 130 and list(tmp_path.iterdir()) == []
    assert err.strip() == (
        "trackside: interrupted; nothing was written (give --record FILE to keep a game "
        "stopped on the way)"
    )


def test_the_end_of_input_at_a_prompt_keeps_the_game_too(capsys, monkeypatch, tmp_path):
    record = tmp_path / "game.yaml"
    code, _out, err = play(capsys, monkeypatch, Keyboard(3, then="end"), "--record", str(record))
    assert code == 2 and "input ended at a prompt: game abandoned; the game so far" in err
    assert f"saved to {record}" in err and len(load_record(record).decisions) >= 3


def test_a_stopped_game_that_cannot_be_saved_says_so(capsys, monkeypatch, tmp_path):
    record = tmp_path / "game.yaml"
    real = os.write

    def full(fd, data):
        if os.readlink(f"/proc/self/fd/{fd}").startswith(str(tmp_path)):
            raise OSError(28, "No space left on device")
        return real(fd, data)

    if not os.path.isdir("/proc/self/fd"):
        pytest.skip("the file behind a descriptor is found through /proc")
    monkeypatch.setattr(os, "write", full)
    code, _out, err = play(capsys, monkeypatch, Keyboard(2), "--record", str(record))
    assert code == 130 and "the game so far could not be saved" in err
    assert "No space left on device" in err and not record.exists()
    assert list(tmp_path.iterdir()) == []


def test_a_real_ctrl_c_at_the_prompt(tmp_path):
    """SIGINT to a real process waiting at a person's prompt."""
    record = tmp_path / "game.yaml"
    game = subprocess.Popen(
        [sys.executable, "-m", "trackside", *PEOPLE, "--record", str(record)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
        preexec_fn=_hears_ctrl_c if os.name == "posix" else None,
    )
    try:
        for _answer in range(2):
            _wait_for(game, b"choose 1-")
            game.stdin.write(b"1\n")
            game.stdin.flush()
        _wait_for(game, b"choose 1-")
        game.send_signal(signal.SIGINT)
        game.wait(timeout=60)  # stdin open till then: the signal, not the input's end, stops it
        _out, err = game.communicate(timeout=60)
    finally:
        if game.poll() is None:
            game.kill()
    assert game.returncode == 130, err
    assert b"interrupted; the game so far" in err and record.exists()
    assert len(load_record(record).decisions) >= 2


def _hears_ctrl_c() -> None:
    """In the child before it starts: SIGINT back to its default. A process that
    starts with SIGINT ignored (as under a CI job started in the background) keeps it
    ignored, Python included, and the game then never hears the Ctrl+C."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _wait_for(process: subprocess.Popen, words: bytes, timeout: float = 60) -> None:
    """Read the process's output until ``words`` appear (a prompt ends without a newline)."""
    seen = b""
    end = time.monotonic() + timeout
    fd = process.stdout.fileno()
    while words not in seen:
        left = end - time.monotonic()
        assert left > 0, f"no {words!r} in the output: {seen[-300:]!r}"
        ready, _, _ = select.select([fd], [], [], left)
        if ready:
            chunk = os.read(fd, 65536)
            assert chunk, f"the game ended: {seen[-300:]!r}"
            seen += chunk
