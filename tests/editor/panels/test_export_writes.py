"""Every file the editor exports or prints to, against every way a write fails: a full
disk, a folder without permission, a read-only disk, a folder in the way, and the open
track's own file as the output. Each time the reason is shown (the file and the cause),
no success is claimed, the earlier file is untouched and no temporary file is left.
A save killed half way leaves a temporary file that opening the track removes."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from faults import CAUSES, OLD, can_mount, failing_target, fill, leftovers, small_disk, untouched
from tracks_for_tests import stadium_track

from trackside.engine.track.model import load_track, save_track

pytestmark = pytest.mark.gui


def export_dialog(window, kind: str, paper: str | None = None):
    def write(target) -> bool:
        dialog = window.make_export_dialog()
        dialog.format.setCurrentIndex(dialog.format.findData(kind))
        dialog.path.setText(str(target))
        dialog.paper.setCurrentIndex(dialog.paper.findData(paper))
        dialog.dpi.setValue(20)
        done = dialog.export() is not None
        dialog.deleteLater()
        return done

    return write


def export_menu(window, kind: str):
    def write(target) -> bool:
        window.prompts.export_answer = str(target)
        return window.export(kind)

    return write


def print_to_file(window):
    def write(target) -> bool:
        window.prompts.print_to = str(target)
        return window.print_menu.print_board()

    return write


def calibration_sheet(window):
    def write(target) -> bool:
        window.prompts.print_to = str(target)
        return window.print_menu.print_calibration()

    return write


def calibration_export(window):
    def write(target) -> bool:
        window.prompts.export_answer = str(target)
        return window.print_menu.export_calibration()

    return write


# Each way the editor writes a file: (the writer, the suffix it writes, the title of its
# problem dialog).
EXPORTS = {
    "Export dialog PNG": (lambda w: export_dialog(w, "png"), ".png", "Cannot export"),
    "Export dialog SVG": (lambda w: export_dialog(w, "svg"), ".svg", "Cannot export"),
    "Export dialog PDF": (lambda w: export_dialog(w, "pdf"), ".pdf", "Cannot export"),
    "Export dialog PDF on A4": (lambda w: export_dialog(w, "pdf", "a4"), ".pdf", "Cannot export"),
    "Export SVG…": (lambda w: export_menu(w, "svg"), ".svg", "Cannot export"),
    "Export PDF at True Scale…": (lambda w: export_menu(w, "pdf"), ".pdf", "Cannot export"),
    "Print to file": (print_to_file, ".pdf", "Cannot print"),
    "Print Calibration Sheet to file": (calibration_sheet, ".pdf", "Cannot print"),
    "Export Calibration Sheet": (calibration_export, ".pdf", "Cannot print"),
}


@pytest.mark.parametrize("fault", ["ENOSPC", "EACCES", "EROFS", "folder"])
@pytest.mark.parametrize("export", list(EXPORTS))
def test_a_failed_export_is_shown_and_changes_nothing(
    window, stadium_file, tmp_path, monkeypatch, export, fault
):
    window.open_file(stadium_file)
    make, suffix, title = EXPORTS[export]
    folder = tmp_path / "out"
    target = failing_target(monkeypatch, folder, f"board{suffix}", fault)
    done = make(window)(target)
    monkeypatch.undo()
    assert done is False
    problems = window.prompts.titles()
    assert problems and problems[-1][1] == title, problems
    text = problems[-1][2]
    assert str(target) in text and CAUSES[fault] in text and "internal error" not in text
    assert untouched(target, fault) and leftovers(folder) == []
    assert "Exported" not in window.statusBar().currentMessage()


@pytest.mark.parametrize("export", list(EXPORTS))
def test_a_file_name_too_long_is_shown_cut_in_the_middle(window, stadium_file, tmp_path, export):
    window.open_file(stadium_file)
    make, suffix, title = EXPORTS[export]
    name = "b" * 300 + suffix
    assert make(window)(tmp_path / name) is False
    problems = window.prompts.titles()
    assert problems[-1][1] == title
    text = problems[-1][2]
    assert name not in text and f"{tmp_path}{os.sep}bbbb" in text and "bbbb…bbbb" in text
    assert f"bbbb{suffix}: " in text
    assert len(text) < 250


@pytest.mark.skipif(not can_mount(), reason="needs root and tmpfs to mount")
@pytest.mark.parametrize("export", list(EXPORTS))
def test_an_export_to_a_real_full_disk_is_shown_and_changes_nothing(
    window, stadium_file, tmp_path, export
):
    window.open_file(stadium_file)
    make, suffix, title = EXPORTS[export]
    with small_disk(tmp_path / "disk") as folder:
        target = folder / f"board{suffix}"
        target.write_bytes(OLD)
        fill(folder)
        before = sorted(p.name for p in folder.iterdir())
        assert make(window)(target) is False
        problems = window.prompts.titles()
        assert problems[-1][1] == title and "No space left on device" in problems[-1][2]
        assert target.read_bytes() == OLD and sorted(p.name for p in folder.iterdir()) == before


@pytest.mark.parametrize("export", list(EXPORTS))
def test_an_export_onto_the_open_track_is_refused(window, tmp_path, export):
    """A track file may have any name: exporting or printing over it would replace it."""
    make, suffix, title = EXPORTS[export]
    track_file = tmp_path / f"circuit{suffix}"
    save_track(stadium_track(), track_file)
    before = track_file.read_bytes()
    assert window.open_file(track_file)
    assert make(window)(track_file) is False
    problems = window.prompts.titles()
    assert problems[-1][1] == title and "names the open track" in problems[-1][2]
    assert track_file.read_bytes() == before


def test_opening_a_track_removes_what_a_killed_save_left(window, stadium_file):
    """kill -9 during a save leaves ``.NAME.xxxx.tmp`` beside the track; the next open of
    the track removes it (a write of a running process is left alone)."""
    code = (
        "import os\n"
        "from trackside.engine import writer\n"
        "real = os.write\n"
        "def stop(fd, data):\n"
        "    real(fd, data[:100]); os.kill(os.getpid(), 9)\n"
        "os.write = stop\n"
        f"writer.write_text({str(stadium_file)!r}, 'half a save\\n' * 1000)\n"
    )
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == -9
    folder = stadium_file.parent
    assert len(leftovers(folder)) == 1
    assert window.open_file(stadium_file)
    assert leftovers(folder) == []
    assert window.doc.track.name == load_track(stadium_file).name


# What the status bar says after a file was written, by each writer.
WROTE = ("Exported", "Wrote")


@pytest.mark.parametrize("export", list(EXPORTS))
def test_a_failed_export_after_one_that_worked_no_longer_claims_a_file(
    window, stadium_file, tmp_path, export
):
    """After an export that wrote its file, one to a folder that does not exist shows
    why in its box, and the status bar stops naming the earlier file: it says that
    nothing was written this time."""
    window.open_file(stadium_file)
    make, suffix, title = EXPORTS[export]
    written = tmp_path / f"board{suffix}"
    assert make(window)(written) is True
    assert written.stat().st_size > 0
    assert any(word in window.statusBar().currentMessage() for word in WROTE)
    missing = tmp_path / "no such folder" / f"board{suffix}"
    assert make(window)(missing) is False
    assert window.prompts.titles()[-1][1] == title
    said = window.statusBar().currentMessage()
    assert said.startswith("Nothing was ") and str(written) not in said, said
    assert not missing.parent.exists()
