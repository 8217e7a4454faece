"""File > Import Background and View > Background: a picture under the spaces, scaled
by two points and a typed distance, faded, hidden, locked, saved with the track."""

from __future__ import annotations

import pytest
from conftest_helpers import click
from PySide6.QtGui import QColor, QImage

pytestmark = pytest.mark.gui


def picture(tmp_path, width=200, height=100):
    path = tmp_path / "scan.png"
    image = QImage(width, height, QImage.Format.Format_RGB32)
    image.fill(QColor("#88aacc"))
    assert image.save(str(path))
    return path


def menu_action(window, menu_text, text):
    menu = next(a.menu() for a in window.menuBar().actions() if a.text() == menu_text)
    found = [a for a in menu.actions() if a.text().replace("&", "") == text]
    for sub in (a.menu() for a in menu.actions() if a.menu()):
        found += [a for a in sub.actions() if a.text().replace("&", "") == text]
    return found[0]


def test_import_shows_the_picture_under_the_track_and_undo_takes_it_away(
    window, qtbot, stadium_file, tmp_path
):
    assert window.open_file(stadium_file, ask=False)
    window.prompts.image_answer = str(picture(tmp_path))
    menu_action(window, "&File", "Import Background…").trigger()
    background = window.doc.track.background
    item = window.background.item
    assert background is not None and item.isVisible()
    assert item.zValue() < window.scene.surface.zValue()
    track = window.scene.track_rect()
    assert item.scene_rect().width() == pytest.approx(track.width(), abs=0.01)
    assert background.path == "scan.png"  # beside the track file: relative
    assert menu_action(window, "&View", "Show Background").isChecked()
    window.doc.undo_stack.undo()
    assert window.doc.track.background is None and not item.isVisible()


def test_two_points_and_a_distance_scale_the_picture(window, qtbot, stadium_file, tmp_path):
    assert window.open_file(stadium_file, ask=False)
    window.background.import_image(str(picture(tmp_path)))
    before = window.doc.track.background.mm_per_pixel
    window.view.set_zoom(1.0)
    window.view.centerOn(100, 0)
    menu_action(window, "&View", "Set Scale from Two Points…").trigger()
    assert window.scene.tool is window.background.picker
    window.prompts.distance_answer = 200.0
    click(qtbot, window, 50, 0)
    click(qtbot, window, 150, 0)
    ((_name, measured),) = window.prompts.titles("distance")[-1:]
    assert measured == pytest.approx(100, abs=1.5)
    after = window.doc.track.background
    assert after.mm_per_pixel == pytest.approx(before * 200 / measured, rel=1e-4)
    assert window.scene.tool is window.tools["select"]  # the tool is given back
    assert window.doc.undo_stack.count() == 2


def test_hide_fade_lock_are_undoable_and_saved_with_the_track(
    make_window, qtbot, stadium_file, tmp_path
):
    window = make_window()
    assert window.open_file(stadium_file, ask=False)
    window.background.import_image(str(picture(tmp_path)))
    menu_action(window, "&View", "Show Background").trigger()
    assert window.doc.track.background.hidden and not window.background.item.isVisible()
    window.prompts.opacity_answer = 0.3
    menu_action(window, "&View", "Opacity…").trigger()
    assert window.background.item.opacity() == pytest.approx(0.3)
    menu_action(window, "&View", "Lock Background").trigger()
    assert not menu_action(window, "&View", "Set Scale from Two Points…").isEnabled()
    assert window.save()
    text = stadium_file.read_text()
    assert "background:" in text and "hidden: true" in text and "locked: true" in text
    other = make_window()
    assert other.open_file(stadium_file, ask=False)
    assert other.doc.track.background == window.doc.track.background
    assert not other.background.item.isVisible()  # hidden, as saved


def test_what_is_no_picture_is_reported(window, qtbot, stadium_file, tmp_path):
    assert window.open_file(stadium_file, ask=False)
    bad = tmp_path / "notes.png"
    bad.write_text("not a picture")
    assert not window.background.import_image(str(bad))
    assert window.prompts.titles()[-1][1] == "Cannot import background"
    assert window.doc.track.background is None


def test_the_background_is_never_printed(window, qtbot, stadium_file, tmp_path):
    """An export draws the track, not the canvas: the picture (a flat blue as wide as
    the track) leaves no trace in it."""
    from dataclasses import replace

    from trackside.editor.canvas.render import render

    assert window.open_file(stadium_file, ask=False)
    window.background.import_image(str(picture(tmp_path)))
    traced, plain = tmp_path / "traced.png", tmp_path / "plain.png"
    track = window.doc.snapshot()
    render(track, traced, dpi=20)
    render(replace(track, background=None), plain, dpi=20)
    a, b = QImage(str(traced)), QImage(str(plain))
    assert a.size() == b.size()
    blue = QColor("#88aacc").rgb()
    pixels = [(x, y) for x in range(0, a.width(), 4) for y in range(0, a.height(), 4)]
    assert not any(a.pixel(x, y) == blue for x, y in pixels)
    differing = sum(a.pixel(x, y) != b.pixel(x, y) for x, y in pixels)
    assert differing <= len(pixels) // 200


def test_a_picture_imported_on_a_new_page_puts_the_start_page_away(window, qtbot, tmp_path):
    assert window.first_run.page.isVisible()
    window.prompts.image_answer = str(picture(tmp_path))
    menu_action(window, "&File", "Import Background…").trigger()
    assert not window.first_run.page.isVisible()
    assert window.background.item.isVisible()
