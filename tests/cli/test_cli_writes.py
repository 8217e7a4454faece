"""Every command that writes, against every way a write fails: a full disk, a folder
without permission, a read-only disk, a folder in the way, and the output naming one
of the inputs. Each time: exit code 2, one clear line naming the file and the cause
(never "internal error"), the earlier file untouched and no temporary file left.

The faults are made at the operating system's calls (``tests/faults.py``); the full
and read-only disks are also real, on a small tmpfs, where the tests may mount one."""

from __future__ import annotations

import os

import pytest
from faults import CAUSES, OLD, can_mount, failing_target, fill, leftovers, read_only, small_disk
from faults import untouched as kept
from repo_paths import FIXTURES

from trackside.cli.main import main
from trackside.engine.resources import tracks_dir

HARBOUR = str(tracks_dir() / "harbour-loop.yaml")
STRAIGHT = str(FIXTURES / "valid-straight.yaml")
SWEPT = ["--set", "payouts.race.0=10,12"]

# Each command that writes: its arguments, OUT standing for the file it writes.
WRITERS = {
    "render png": ["render", STRAIGHT, "-o", "OUT", "--dpi", "20"],
    "render svg": ["render", STRAIGHT, "-o", "OUT"],
    "render pdf": ["render", STRAIGHT, "-o", "OUT"],
    "render pdf --paper": ["render", STRAIGHT, "-o", "OUT", "--paper", "a4"],
    "simulate --report": ["simulate", "--track", HARBOUR, "--games", "2", "--report", "OUT"],
    "simulate --plot png": ["simulate", "--track", HARBOUR, "--games", "2", "--plot", "OUT"],
    "simulate --plot svg": ["simulate", "--track", HARBOUR, "--games", "2", "--plot", "OUT"],
    "play --record": ["play", "--track", HARBOUR, "--seed", "3", "--record", "OUT"],
    "suggest --report": ["suggest", "--track", HARBOUR, "--games", "2", "--report", "OUT"],
    # --fresh: the earlier file is no sweep to continue, and is to be replaced.
    "sweep --report": ["sweep", "--track", HARBOUR, "--games", "2", "--report", "OUT", "--fresh"],
    "sweep --plot png": ["sweep", *SWEPT, "--track", HARBOUR, "--games", "2", "--plot", "OUT"],
    "sweep --plot svg": ["sweep", *SWEPT, "--track", HARBOUR, "--games", "2", "--plot", "OUT"],
}
SUFFIX = {
    "render png": ".png",
    "render svg": ".svg",
    "render pdf": ".pdf",
    "render pdf --paper": ".pdf",
    "simulate --report": ".json",
    "simulate --plot png": ".png",
    "simulate --plot svg": ".svg",
    "play --record": ".yaml",
    "suggest --report": ".json",
    "sweep --report": ".json",
    "sweep --plot png": ".png",
    "sweep --plot svg": ".svg",
}


def run(capsys, argv: list[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def argv_for(writer: str, target) -> list[str]:
    return [str(target) if a == "OUT" else a for a in WRITERS[writer]]


def refused_clearly(code: int, err: str, target, cause: str) -> None:
    lines = err.strip().splitlines()
    assert code == 2, err
    assert "internal error" not in err
    assert lines and lines[-1].startswith(f"trackside: {target}: ")
    assert cause in lines[-1], lines[-1]


@pytest.mark.parametrize("fault", ["ENOSPC", "EACCES", "EROFS", "folder"])
@pytest.mark.parametrize("writer", list(WRITERS))
def test_a_failed_write_is_said_and_changes_nothing(capsys, tmp_path, monkeypatch, writer, fault):
    folder = tmp_path / "out"
    target = failing_target(monkeypatch, folder, f"result{SUFFIX[writer]}", fault)
    code, _out, err = run(capsys, argv_for(writer, target))
    monkeypatch.undo()
    refused_clearly(code, err, target, CAUSES[fault])
    assert kept(target, fault) and leftovers(folder) == []
    if fault in ("ENOSPC", "EACCES", "EROFS"):
        assert "unchanged" in err


# -- the output is one of the inputs ----------------------------------------------------
def track_copy(tmp_path, name: str = "t.yaml"):
    path = tmp_path / name
    path.write_bytes((tracks_dir() / "harbour-loop.yaml").read_bytes())
    return path


@pytest.mark.parametrize("spelling", ["t.yaml", "./t.yaml", "link.yaml", "hard.yaml"])
@pytest.mark.parametrize(
    "command", ["play --record", "simulate --report", "suggest --report", "sweep --report"]
)
def test_an_output_onto_the_track_is_refused_before_any_game(
    capsys, tmp_path, monkeypatch, command, spelling
):
    monkeypatch.chdir(tmp_path)
    track = track_copy(tmp_path)
    (tmp_path / "link.yaml").symlink_to(track)
    os.link(track, tmp_path / "hard.yaml")
    before = track.read_bytes()
    option = command.split()[1]
    code, out, err = run(
        capsys,
        [command.split()[0], "--track", "t.yaml", "--games", "1", option, spelling]
        if not command.startswith("play")
        else ["play", "--track", "t.yaml", option, spelling],
    )
    assert code == 2 and track.read_bytes() == before
    assert f"{option} names the track" in err and err.count("\n") == 1
    assert "Winner" not in out and "games" not in err  # refused before any game


def test_render_onto_its_own_track_or_heat_report_is_refused(capsys, tmp_path):
    track = track_copy(tmp_path, "t.svg")  # a track file may be named anything
    code, _, err = run(capsys, ["render", str(track), "-o", str(track)])
    assert code == 2 and "--output names the track" in err
    report = tmp_path / "heat.svg"
    report.write_bytes(OLD)
    code, _, err = run(capsys, ["render", str(track), "--heatmap", str(report), "-o", str(report)])
    assert code == 2 and "--output names the balance report" in err
    assert report.read_bytes() == OLD and track.read_bytes().startswith(b"format:")


def test_simulate_refuses_a_plot_onto_the_track_and_two_outputs_on_one_file(capsys, tmp_path):
    track = track_copy(tmp_path, "t.svg")
    code, _, err = run(
        capsys, ["simulate", "--track", str(track), "--games", "1", "--plot", str(track)]
    )
    assert code == 2 and "--plot names the track" in err
    code, _, err = run(
        capsys,
        [
            "simulate",
            "--track",
            HARBOUR,
            "--games",
            "1",
            "--report",
            str(tmp_path / "a.svg"),
            "--plot",
            str(tmp_path / "a.svg"),
        ],
    )
    assert code == 2 and "--report and --plot name the same file" in err
    assert not (tmp_path / "a.svg").exists()


def test_outputs_never_replace_the_variant_nor_what_it_extends(capsys, tmp_path):
    parent = tmp_path / "parent.yaml"
    parent.write_text("format: trackside-variant/1\nname: Parent\nextends: standard\n")
    child = tmp_path / "child.yaml"
    child.write_text("format: trackside-variant/1\nname: Child\nextends: parent.yaml\n")
    for output in (child, parent):
        before = output.read_bytes()
        for argv in (
            ["play", "--track", HARBOUR, "--variant", str(child), "--record", str(output)],
            [
                "simulate",
                "--track",
                HARBOUR,
                "--variant",
                str(child),
                "--games",
                "1",
                "--report",
                str(output),
            ],
            ["suggest", "--track", HARBOUR, "--variant", str(child), "--report", str(output)],
            [
                *("sweep", "--track", HARBOUR, "--variant", str(child), "--games", "1"),
                *("--report", str(output)),
            ],
        ):
            code, _, err = run(capsys, argv)
            assert code == 2 and "names the variant" in err and output.read_bytes() == before


def test_a_resumed_game_never_replaces_its_record_nor_its_track(capsys, tmp_path):
    track = track_copy(tmp_path)
    record = tmp_path / "r.yaml"
    assert run(capsys, ["play", "--track", str(track), "--record", str(record)])[0] == 0
    before = record.read_bytes(), track.read_bytes()
    for output, words in ((record, "the record resumed"), (track, "the track")):
        code, _, err = run(capsys, ["play", "--resume", str(record), "--record", str(output)])
        assert code == 2 and f"--record names {words}" in err
    assert (record.read_bytes(), track.read_bytes()) == before


# -- real disks --------------------------------------------------------------------------
needs_mount = pytest.mark.skipif(not can_mount(), reason="needs root and tmpfs to mount")


@needs_mount
@pytest.mark.parametrize("writer", list(WRITERS))
@pytest.mark.parametrize("disk", ["full", "read-only"])
def test_on_a_real_full_or_read_only_disk(capsys, tmp_path, writer, disk):
    with small_disk(tmp_path / "disk") as folder:
        target = folder / f"result{SUFFIX[writer]}"
        target.write_bytes(OLD)
        if disk == "full":
            fill(folder)
        else:
            read_only(folder)
        before = sorted(p.name for p in folder.iterdir())
        code, _out, err = run(capsys, argv_for(writer, target))
        cause = CAUSES["ENOSPC" if disk == "full" else "EROFS"]
        refused_clearly(code, err, target, cause)
        assert target.read_bytes() == OLD
        assert sorted(p.name for p in folder.iterdir()) == before


@pytest.mark.skipif(os.name != "posix" or os.geteuid() != 0, reason="making a device needs root")
def test_a_device_is_never_replaced_by_an_output(capsys, tmp_path):
    """As root, renaming a file over /dev/null would replace the device: a device (or a
    named pipe) where the output goes is refused."""
    import stat

    device = tmp_path / "null.png"
    os.mknod(device, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    code, _, err = run(capsys, ["render", STRAIGHT, "-o", str(device), "--dpi", "10"])
    assert code == 2 and "this is a device, not a file" in err
    assert stat.S_ISCHR(os.stat(device).st_mode)


def _folder_that_takes_no_files() -> str | None:
    """A folder that is there but where making a file fails as if it were not (Linux's
    /proc), or None where this system has none."""
    try:
        fd = os.open("/proc/trackside-probe", os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    except FileNotFoundError:
        return "/proc" if os.path.isdir("/proc") else None
    except OSError:
        return None
    os.close(fd)
    os.unlink("/proc/trackside-probe")
    return None


def test_a_folder_that_is_there_but_takes_no_files_is_not_said_to_be_missing(capsys):
    folder = _folder_that_takes_no_files()
    if folder is None:
        pytest.skip("no folder here that exists yet refuses new files as missing (Linux /proc)")
    target = f"{folder}/board.png"
    code, _out, err = run(capsys, ["render", STRAIGHT, "-o", target, "--dpi", "20"])
    refused_clearly(code, err, target, "cannot write")
    assert "create the folder" not in err
    assert f"the folder {folder} does not take new files (choose another folder;" in err
