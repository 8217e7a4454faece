"""File > Export > Export… (editor/panels/export.py): PNG, SVG and true-scale PDF through
editor.canvas.render, with the paper and DPI chosen in the dialog; failures are shown,
never raised."""

from __future__ import annotations

import re

import pytest
from pixels import grass, pdf_pixels, rgb
from PySide6.QtCore import Qt
from PySide6.QtGui import QImage
from tracks_for_tests import LONG_NAME, stadium_files

from trackside.editor.canvas.render import PAPERS
from trackside.editor.panels.export import ExportDialog

pytestmark = pytest.mark.gui

PT_PER_MM = 72 / 25.4


def _media_boxes(path) -> list[tuple[float, float]]:
    """Width and height in mm of every page's MediaBox."""
    data = path.read_bytes()
    assert data.startswith(b"%PDF-")
    number = rb"([-\d.]+)"
    boxes = re.findall(rb"/MediaBox\s*\[\s*" + rb"\s+".join([number] * 4) + rb"\s*\]", data)
    return [
        ((float(x1) - float(x0)) / PT_PER_MM, (float(y1) - float(y0)) / PT_PER_MM)
        for x0, y0, x1, y1 in boxes
    ]


def _dialog(window, qtbot, fmt: str, path, paper: str | None = None, dpi: int | None = None):
    dialog = window.make_export_dialog()
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.format.setCurrentIndex(dialog.format.findData(fmt))
    dialog.path.setText(str(path))
    if paper is not None or fmt == "pdf":
        dialog.paper.setCurrentIndex(dialog.paper.findData(paper))
    if dpi is not None:
        dialog.dpi.setValue(dpi)
    return dialog


def test_the_dialog_is_in_the_file_menu(window):
    assert window.act_export_dialog.shortcut().toString() == "Ctrl+Shift+E"
    file_menu = window.menuBar().actions()[0].menu()
    export_menu = next(
        a.menu()
        for a in file_menu.actions()
        if a.menu() is not None and a.text().replace("&", "") == "Export"
    )
    assert window.act_export_dialog in export_menu.actions()


def test_pdf_on_a3_pages_has_a3_media_boxes(window, qtbot, stadium_file, tmp_path):
    window.open_file(stadium_file)
    target = tmp_path / "stadium-a3.pdf"
    dialog = _dialog(window, qtbot, "pdf", target, "a3")
    assert dialog.paper.isEnabled() and not dialog.dpi.isEnabled()
    qtbot.mouseClick(dialog.export_button, Qt.MouseButton.LeftButton)
    assert dialog.result() == ExportDialog.DialogCode.Accepted
    boxes = _media_boxes(target)
    assert len(boxes) == dialog.result_.pages >= 2
    w, h = PAPERS["a3"]
    for bw, bh in boxes:
        # Qt writes standard page sizes in whole points (A3: 842 x 1191 pt).
        assert sorted((bw, bh)) == [pytest.approx(w, abs=0.5), pytest.approx(h, abs=0.5)]


def test_pdf_at_board_size_is_one_page_of_the_board(window, qtbot, stadium_file, tmp_path):
    window.open_file(stadium_file)
    target = tmp_path / "stadium.pdf"
    dialog = _dialog(window, qtbot, "pdf", target, None)
    assert dialog.export() is not None
    (box,) = _media_boxes(target)
    assert box == pytest.approx(dialog.result_.page_size_mm, abs=0.5)
    assert box[0] > 600  # the 700 mm stadium at true scale


def test_png_size_follows_the_dpi(window, qtbot, stadium_file, tmp_path):
    window.open_file(stadium_file)
    sizes = []
    for dpi in (50, 100):
        target = tmp_path / f"stadium-{dpi}.png"
        dialog = _dialog(window, qtbot, "png", target, dpi=dpi)
        assert not dialog.paper.isEnabled()
        assert dialog.export() is not None
        image = QImage(str(target))
        sizes.append((image.width(), image.height()))
    assert sizes[1][0] == pytest.approx(2 * sizes[0][0], abs=2)
    w_mm = dialog.result_.page_size_mm[0]
    assert sizes[1][0] == pytest.approx(w_mm / 25.4 * 100, abs=2)


def test_the_suffix_follows_the_format(window, qtbot, tmp_path):
    dialog = _dialog(window, qtbot, "pdf", tmp_path / "board.pdf")
    dialog.format.setCurrentIndex(dialog.format.findData("svg"))
    assert dialog.path.text().endswith("board.svg")
    assert dialog.export() is not None
    assert (tmp_path / "board.svg").read_text().lstrip().startswith("<?xml")


def test_errors_are_shown_not_raised(window, qtbot, stadium_file, tmp_path):
    window.open_file(stadium_file)
    dialog = _dialog(window, qtbot, "pdf", tmp_path / "no" / "such" / "dir" / "x.pdf", "a4")
    qtbot.mouseClick(dialog.export_button, Qt.MouseButton.LeftButton)
    assert dialog.isVisible()  # stays open so the path can be fixed
    (asked,) = window.prompts.titles()
    assert asked[1] == "Cannot export" and "x.pdf" in asked[2]
    dialog.path.setText("")
    assert dialog.export() is None
    assert len(window.prompts.titles()) == 2


def test_a_long_name_exports_a_board_as_wide_as_a_short_one(window, qtbot, tmp_path):
    """A 200-character name is wrapped to the board's width in the export."""
    widths = []
    for source in stadium_files(tmp_path, ["Stadium", LONG_NAME]):
        window.open_file(source)
        target = source.with_suffix(".pdf")
        dialog = _dialog(window, qtbot, "pdf", target, None)
        qtbot.mouseClick(dialog.export_button, Qt.MouseButton.LeftButton)
        assert dialog.result() == ExportDialog.DialogCode.Accepted
        (box,) = _media_boxes(target)
        widths.append(box[0])
    assert widths[1] == pytest.approx(widths[0], abs=0.5)


def test_the_dialog_exports_without_the_grass_and_keeps_the_choice(
    window, qtbot, stadium_file, tmp_path
):
    """Unchecking "Print the grass" gives the track alone on white pages, as many as
    with it; the choice becomes File > Print the Grass's."""
    window.open_file(stadium_file)
    counts = {}
    for keep in (True, False):
        target = tmp_path / f"stadium-{keep}.pdf"
        dialog = _dialog(window, qtbot, "pdf", target, "a4")
        assert dialog.show_grass.isChecked() is window.print_menu.grass
        dialog.show_grass.setChecked(keep)
        qtbot.mouseClick(dialog.export_button, Qt.MouseButton.LeftButton)
        assert dialog.result() == ExportDialog.DialogCode.Accepted
        assert window.print_menu.act_grass.isChecked() is keep
        counts[keep] = [grass(page) for page in pdf_pixels(target)]
    assert len(counts[False]) == len(counts[True]) > 1
    assert min(counts[True]) > 0 and set(counts[False]) == {0}
    target = tmp_path / "stadium.png"
    dialog = _dialog(window, qtbot, "png", target, dpi=20)
    assert not dialog.show_grass.isChecked()  # kept from the last export
    assert dialog.export() is not None
    assert grass(rgb(QImage(str(target)))) == 0
