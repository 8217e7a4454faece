"""File > Print… (the system print dialog, the board tiled at true scale), the calibration
sheet, and Open Recent dropping files that are gone; the dialogs answer through prompts."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pixels import grass, pdf_pixels
from PySide6.QtCore import Qt
from tracks_for_tests import LONG_NAME, stadium_files, stadium_track

from trackside.editor.canvas.printing import sheet_space
from trackside.editor.canvas.render import render
from trackside.editor.panels.export import local_paper
from trackside.engine.resources import resolve_track
from trackside.engine.track.transform import map_track, rotation, track_centre

pytestmark = pytest.mark.gui


def pdf_pages(path) -> int:
    return len(re.findall(rb"/Type\s*/Page(?![s\w])", path.read_bytes()))


def test_ctrl_p_prints_the_board_tiled_as_the_pdf_export_tiles_it(
    window, qtbot, tmp_path, stadium_file
):
    window.open_file(stadium_file)
    window.prompts.print_to = str(tmp_path / "printed.pdf")
    qtbot.keyClick(window.view, Qt.Key.Key_P, Qt.KeyboardModifier.ControlModifier)
    assert ("print_setup", "Print the board at true scale") in window.prompts.asked
    printed = tmp_path / "printed.pdf"
    exported = render(window.doc.snapshot(), tmp_path / "tiled.pdf", local_paper())
    assert exported.pages > 1 and pdf_pages(printed) == exported.pages
    assert f"Wrote {exported.pages} pages to {printed}" in window.statusBar().currentMessage()


def test_cancelling_the_print_dialog_prints_nothing(window, tmp_path, stadium_file):
    window.open_file(stadium_file)
    assert window.print_menu.print_board() is False
    assert not list(tmp_path.glob("*.pdf"))


def test_the_calibration_sheet_is_one_page_printed_or_exported(window, tmp_path, stadium_file):
    window.open_file(stadium_file)
    window.prompts.print_to = str(tmp_path / "check.pdf")
    file_menu = window.menuBar().actions()[0].menu()
    action = next(a for a in file_menu.actions() if a.text() == "Print &Calibration Sheet…")
    assert action.shortcut().toString() == "Ctrl+Shift+P"
    action.trigger()
    assert pdf_pages(tmp_path / "check.pdf") == 1
    window.prompts.export_answer = str(tmp_path / "sheet.pdf")
    window.print_menu.act_calibration_pdf.trigger()
    sheet = (tmp_path / "sheet.pdf").read_bytes()
    assert pdf_pages(tmp_path / "sheet.pdf") == 1 and b"print check" in sheet


def test_open_recent_drops_files_that_are_gone_and_says_so(window, tmp_path, stadium_file):
    gone = tmp_path / "gone.yaml"
    gone.write_bytes(stadium_file.read_bytes())
    window.open_file(gone)
    window.open_file(stadium_file)
    gone.unlink()
    window.recent_menu.aboutToShow.emit()
    names = [a.text() for a in window.recent_menu.actions()]
    assert any("stadium.yaml" in n for n in names) and not any("gone.yaml" in n for n in names)
    assert "removed 1 file no longer there: gone.yaml" in window.statusBar().currentMessage()
    assert all("gone" not in f for f in window.recent_files())


def test_the_calibration_sheet_draws_its_space_level_to_be_measured():
    """On a circuit turned 30 degrees its sample space is drawn with its sides along the
    page, so the ruler checks its real sides, as on the circuit drawn straight."""
    straight = stadium_track()
    turned = map_track(straight, rotation(30, track_centre(straight)))
    space = sheet_space(turned)
    assert space is not None
    xs = sorted({round(float(x), 4) for x, _ in space.corners})
    ys = sorted({round(float(y), 4) for _, y in space.corners})
    assert len(xs) == 2 and len(ys) == 2  # every side level or upright
    original = next(sp for sp in straight.spaces if sp.id == space.id)
    sides = sorted(
        (
            max(float(x) for x, _ in original.corners) - min(float(x) for x, _ in original.corners),
            max(float(y) for _, y in original.corners) - min(float(y) for _, y in original.corners),
        ),
        reverse=True,
    )
    assert (xs[1] - xs[0], ys[1] - ys[0]) == pytest.approx(sides, abs=1e-3)


def test_print_offers_a_new_file_named_for_the_track_beside_it(window, tmp_path, stadium_file):
    """Printing to a file offers the track's folder and its name, and a name not yet
    used, so the last print is never written over without a word."""
    window.open_file(stadium_file)
    prompts = window.prompts
    assert window.print_menu.print_board() is False  # the dialog cancelled: nothing written
    first = Path(prompts.print_suggested[-1])
    assert first == tmp_path / "stadium-board.pdf"
    prompts.print_to = str(first)
    assert window.print_menu.print_board() and first.exists()
    prompts.print_to = None
    window.print_menu.print_board()
    second = Path(prompts.print_suggested[-1])
    assert second.parent == tmp_path and second.name.startswith("stadium-board")
    assert second != first and not second.exists()
    window.print_menu.print_calibration()
    assert Path(prompts.print_suggested[-1]) == tmp_path / "stadium-print-check.pdf"


def test_print_of_a_bundled_circuit_offers_the_circuits_folder_not_home(window, tmp_path):
    window.settings.setValue("lastFolder", str(tmp_path))
    window.open_file(resolve_track("harbour-loop"))
    window.print_menu.print_board()
    offered = Path(window.prompts.print_suggested[-1])
    assert offered == tmp_path / "harbour-loop-board.pdf"


def test_a_long_name_prints_on_as_many_pages(window, qtbot, tmp_path):
    """Ctrl+P of a circuit with a 200-character name: the same pages as a short name."""
    printed = []
    for source in stadium_files(tmp_path, ["Stadium", LONG_NAME]):
        window.open_file(source)
        window.prompts.print_to = str(source.with_suffix(".pdf"))
        qtbot.keyClick(window.view, Qt.Key.Key_P, Qt.KeyboardModifier.ControlModifier)
        printed.append(pdf_pages(Path(window.prompts.print_to)))
    assert printed[1] == printed[0] > 1


def _grass_on_pages(path) -> list[int]:
    return [grass(page) for page in pdf_pixels(Path(path))]


def test_print_the_grass_unchecked_prints_and_exports_the_track_on_white(
    make_window, qtbot, tmp_path, stadium_file
):
    """File > Print the Grass, unchecked, leaves the green out of Print… and of the quick
    exports, the same pages; the choice is kept for the next window."""
    window = make_window()
    window.open_file(stadium_file)
    window.prompts.print_to = str(tmp_path / "green.pdf")
    assert window.print_menu.act_grass.isChecked()  # grass unless asked otherwise
    window.print_menu.print_board()
    green = _grass_on_pages(tmp_path / "green.pdf")
    assert len(green) > 1 and all(count > 0 for count in green)
    file_menu = window.menuBar().actions()[0].menu()
    toggle = next(a for a in file_menu.actions() if a.text() == "Print the &Grass")
    toggle.trigger()
    window.prompts.print_to = str(tmp_path / "bare.pdf")
    window.print_menu.act_print.trigger()
    assert _grass_on_pages(tmp_path / "bare.pdf") == [0] * len(green)
    window.prompts.export_answer = str(tmp_path / "quick-a4.pdf")
    assert window.export("pdf", "a4")
    assert set(_grass_on_pages(tmp_path / "quick-a4.pdf")) == {0}
    again = make_window()
    assert not again.print_menu.act_grass.isChecked()
    again.open_file(stadium_file)
    dialog = again.make_export_dialog("a4")
    qtbot.addWidget(dialog)
    assert not dialog.show_grass.isChecked()  # the dialog starts from the same choice
