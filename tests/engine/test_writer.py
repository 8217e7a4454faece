"""The one writer of every file: the old content or the new, never half or nothing; a
failure names the file and the cause and leaves nothing behind; leftovers of a killed
save are cleaned up; an output is never one of the inputs."""

from __future__ import annotations

import errno
import os
import stat
import subprocess
import sys

import pytest
from faults import CAUSES, OLD, inject, leftovers
from tracks_for_tests import stadium_track

from trackside.engine.errors import UnwritableOutput, WriteFailed
from trackside.engine.track.model import save_track
from trackside.engine.writer import (
    check_complete,
    check_writable,
    refuse_replacing_inputs,
    remove_leftovers,
    same_file,
    write_bytes,
    write_text,
)
from trackside.engine.writer import (
    leftovers as found_leftovers,
)


def test_writes_and_replaces_keeping_the_permissions(tmp_path):
    path = tmp_path / "t.yaml"
    write_text(path, "a: 1\n")
    assert path.read_text() == "a: 1\n"
    mask = os.umask(0)
    os.umask(mask)
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o666 & ~mask
    os.chmod(path, 0o640)
    write_bytes(path, b"a: 2\n")
    assert path.read_bytes() == b"a: 2\n" and stat.S_IMODE(os.stat(path).st_mode) == 0o640
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize("fault", ["ENOSPC", "EACCES", "EROFS"])
def test_a_failed_write_keeps_the_old_file_and_names_the_cause(tmp_path, monkeypatch, fault):
    path = tmp_path / "board.svg"
    path.write_bytes(OLD)
    inject(monkeypatch, fault, tmp_path)
    with pytest.raises(WriteFailed) as caught:
        write_bytes(path, b"<svg>" + b"x" * 100_000 + b"</svg>")
    monkeypatch.undo()
    error = caught.value
    assert error.exit_code == 2 and error.errno == errno.__dict__[fault]
    assert str(error).startswith(f"{path}: cannot write: {CAUSES[fault]}")
    assert "board.svg is unchanged" in str(error)
    assert isinstance(error, OSError) and error.strerror == CAUSES[fault]
    assert path.read_bytes() == OLD and leftovers(tmp_path) == []


def test_a_write_the_disk_takes_only_part_of_is_a_failure(tmp_path, monkeypatch):
    """A disk that stops taking bytes without an error (write returns 0) is full."""
    path = tmp_path / "r.json"
    path.write_bytes(OLD)
    real = os.write
    monkeypatch.setattr(os, "write", lambda fd, data: real(fd, data[:10]) if len(data) > 10 else 0)
    with pytest.raises(WriteFailed, match="No space left on device"):
        write_text(path, "{}" * 100)
    monkeypatch.undo()
    assert path.read_bytes() == OLD and leftovers(tmp_path) == []


def test_a_new_file_that_fails_says_nothing_was_written(tmp_path, monkeypatch):
    inject(monkeypatch, "ENOSPC", tmp_path)
    with pytest.raises(WriteFailed, match="nothing was written"):
        write_text(tmp_path / "new.yaml", "a: 1\n")
    monkeypatch.undo()
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    "make, words",
    [
        (lambda p: p.mkdir(), "this is a folder, not a file"),
        (lambda p: os.mkfifo(p), "this is a named pipe, not a file"),
        (lambda p: (p.write_bytes(OLD), p.chmod(0o444)), "the file is read-only"),
    ],
)
def test_what_is_no_writable_file_is_refused_before_any_work(tmp_path, make, words):
    path = tmp_path / "out.pdf"
    make(path)
    for attempt in (lambda: check_writable(path, "-o"), lambda: write_text(path, "x")):
        with pytest.raises(WriteFailed, match=words):
            attempt()
    assert leftovers(tmp_path) == []


def test_a_missing_folder_is_named(tmp_path):
    with pytest.raises(WriteFailed, match=r"the folder .*nowhere does not exist"):
        write_text(tmp_path / "nowhere" / "t.yaml", "x")


def test_a_path_through_a_file_names_the_file_and_says_no_folder_can_be_made(tmp_path):
    """It was said to be a missing folder, to be created first: a file holds its place."""
    (tmp_path / "notes.txt").write_text("x")
    for target in (tmp_path / "notes.txt" / "t.yaml", tmp_path / "notes.txt" / "in" / "t.yaml"):
        with pytest.raises(WriteFailed) as caught:
            write_text(target, "x")
        error = caught.value
        assert error.message == f"cannot write: {tmp_path / 'notes.txt'} is a file, not a folder"
        assert error.errno == errno.ENOTDIR and error.fix == "choose another folder"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]


@pytest.mark.parametrize("fault", ["ENOSPC", "EACCES", "EROFS"])
def test_a_failed_write_says_what_to_do_apart_from_what_is_left(tmp_path, monkeypatch, fault):
    """The fix alone lets the editor say what is left in its own words."""
    path = tmp_path / "board.svg"
    inject(monkeypatch, fault, tmp_path)
    with pytest.raises(WriteFailed) as caught:
        write_text(path, "<svg></svg>")
    monkeypatch.undo()
    error = caught.value
    assert error.fix and error.hint == f"{error.fix}; nothing was written"
    assert ("free some space" in error.fix) == (fault == "ENOSPC")


def test_a_full_disk_says_which_way_is_done_in_place_and_which_needs_another_disk(
    tmp_path, monkeypatch
):
    """The ways of a fix are data, so a program need not read the words to tell them."""
    inject(monkeypatch, "ENOSPC", tmp_path)
    with pytest.raises(WriteFailed) as caught:
        write_text(tmp_path / "t.yaml", "x")
    monkeypatch.undo()
    remedy = caught.value.remedy
    assert remedy is not None and str(remedy) == caught.value.fix
    assert [(way.words, way.elsewhere) for way in remedy.ways] == [
        ("free some space", False),
        ("choose another disk", True),
    ]


def test_a_folder_in_the_way_of_a_track_asks_a_file_name_for_the_track(tmp_path):
    (tmp_path / "t.yaml").mkdir()
    with pytest.raises(WriteFailed) as caught:
        save_track(stadium_track(), tmp_path / "t.yaml")
    assert caught.value.fix == "give a file name for the track"


def test_through_a_link_the_file_it_points_to_is_replaced(tmp_path):
    real = tmp_path / "real.yaml"
    real.write_text("old\n")
    link = tmp_path / "link.yaml"
    link.symlink_to(real)
    write_text(link, "new\n")
    assert link.is_symlink() and real.read_text() == "new\n"


def test_leftovers_of_a_killed_write_go_at_the_next_write(tmp_path):
    """A killed save leaves ``.NAME.xxxx.tmp``; one of a process still running stays."""
    path = tmp_path / "t.yaml"
    path.write_text("a: 1\n")
    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        check=True,
        capture_output=True,
        text=True,
    )
    killed = [f".t.yaml.{int(dead.stdout)}-0a1b2c3d.tmp", ".t.yaml.k2j4h5g6.tmp"]
    running = f".t.yaml.{os.getppid()}-9f8e7d6c.tmp"
    other = ".u.yaml.abc.tmp"
    for name in [*killed, running, other]:
        (tmp_path / name).write_text("half")
    assert sorted(p.name for p in found_leftovers(path)) == sorted(killed)
    write_text(path, "a: 2\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([other, running, "t.yaml"])
    assert remove_leftovers(path) == 0


def test_a_write_killed_half_way_leaves_a_leftover_the_next_one_removes(tmp_path):
    """kill -9 in the middle of a write: the old file stays whole, and the temporary
    file it leaves is removed by the next write of that file."""
    path = tmp_path / "big.yaml"
    path.write_text("old: 1\n")
    code = (
        "import os, sys\n"
        "from trackside.engine import writer\n"
        "real = os.write\n"
        "def stop(fd, data):\n"
        "    real(fd, data[:1000]); os.kill(os.getpid(), 9)\n"
        "os.write = stop\n"
        f"writer.write_text({str(path)!r}, 'x: 2\\n' * 100000)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], check=False)
    assert done.returncode == -9
    assert path.read_text() == "old: 1\n" and len(leftovers(tmp_path)) == 1
    write_text(path, "new: 3\n")
    assert path.read_text() == "new: 3\n" and leftovers(tmp_path) == []


def test_same_file_sees_through_paths_and_links(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    track = tmp_path / "t.yaml"
    track.write_text("x")
    os.link(track, tmp_path / "hard.yaml")
    (tmp_path / "soft.yaml").symlink_to(track)
    (tmp_path / "sub").mkdir()
    for other in ("t.yaml", "./t.yaml", "sub/../t.yaml", "hard.yaml", "soft.yaml"):
        assert same_file(other, track), other
    assert not same_file("other.yaml", track)
    assert same_file("new.json", "./new.json")  # not made yet: the same path


def test_an_output_onto_an_input_or_another_output_is_refused(tmp_path):
    track = tmp_path / "t.yaml"
    track.write_text("x")
    with pytest.raises(UnwritableOutput, match="--record names the track"):
        refuse_replacing_inputs([("--record", str(track))], [("the track", str(track))])
    with pytest.raises(UnwritableOutput, match="--report and --plot name the same file"):
        refuse_replacing_inputs([("--report", "a.svg"), ("--plot", "./a.svg")], [])
    refuse_replacing_inputs([("--record", None), ("--report", "r.json")], [("the track", track)])


@pytest.mark.parametrize("kind", ["png", "pdf", "svg"])
def test_a_drawing_that_came_out_empty_or_cut_short_is_refused(tmp_path, kind):
    whole = {
        "png": b"\x89PNG\r\n\x1a\n" + b"x" * 100 + b"\x00\x00\x00\x00IEND\xaeB`\x82",
        "pdf": b"%PDF-1.4\n" + b"x" * 5000 + b"\n%%EOF\n",
        "svg": b"<svg>" + b"x" * 100 + b"</svg>\n",
    }[kind]
    check_complete(whole, kind, tmp_path / f"a.{kind}")
    for broken in (b"", whole[: len(whole) // 2]):
        with pytest.raises(WriteFailed, match=f"the {kind.upper()} came out"):
            check_complete(broken, kind, tmp_path / f"a.{kind}")
