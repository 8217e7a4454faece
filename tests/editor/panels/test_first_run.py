"""The first steps: the start page over a new, empty circuit, New from Template, and the
tour of the tools, driven by clicks and keys."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from trackside.engine.track.validate import validate_track

pytestmark = pytest.mark.gui


def test_a_new_circuit_offers_templates_and_a_click_starts_from_one(window, qtbot, stadium_file):
    window.open_file(stadium_file)
    page = window.first_run.page
    assert not page.isVisible()
    qtbot.keyClick(window.view, Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier)
    assert page.isVisible() and not window.view.show_empty_hint
    qtbot.mouseClick(page.buttons["Oval"], Qt.MouseButton.LeftButton)
    track = window.doc.track
    assert track.name == "Oval" and len(track.spaces) > 100 and window.doc.path is None
    assert window.doc.is_modified() and validate_track(track).issues == []
    assert not page.isVisible() and window.view.show_empty_hint


def test_blank_or_a_drawing_tool_puts_the_start_page_away(window, qtbot):
    page = window.first_run.page
    assert page.isVisible()  # a window without a file starts on a new circuit
    qtbot.mouseClick(page.buttons["Blank"], Qt.MouseButton.LeftButton)
    assert not page.isVisible()
    window.new_blank()
    assert page.isVisible()
    qtbot.keyClick(window.view, Qt.Key.Key_L)
    assert window.tool.name == "lanes" and not page.isVisible()


def test_file_new_from_template_and_a_bundled_circuit_from_the_page(window, qtbot):
    file_menu = window.menuBar().actions()[0].menu()
    templates = next(a.menu() for a in file_menu.actions() if a.text() == "New from &Template")
    next(a for a in templates.actions() if a.text() == "Peanut").trigger()
    assert window.doc.track.name == "Peanut"
    window.new_blank()
    qtbot.mouseClick(window.first_run.page.buttons["Harbour Loop"], Qt.MouseButton.LeftButton)
    assert window.doc.track.name == "Harbour Loop (copy)"


def test_the_tour_pages_forward_and_back(window, qtbot):
    qtbot.keyClick(
        window.view,
        Qt.Key.Key_T,
        Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier,
    )
    tour = window.first_run.tour
    assert tour is not None and tour.isVisible() and tour.counter.text() == "1 of 5"
    for _ in range(6):
        qtbot.mouseClick(tour.next, Qt.MouseButton.LeftButton)
    assert tour.counter.text() == "5 of 5" and not tour.next.isEnabled()
    assert "Print" in tour.title.text()
    qtbot.mouseClick(tour.back, Qt.MouseButton.LeftButton)
    assert tour.counter.text() == "4 of 5"
    tour.show_page(1)
    assert "Lanes" in tour.text.text() and "Finish line" in tour.text.text()
    tour.close()


def test_the_start_page_stays_in_the_middle_when_the_canvas_scrolls(window, qtbot):
    """The editor fits the view as it opens, which scrolls the canvas: the card must not
    scroll away with it (it sat half off the window after ``trackside edit``)."""
    page, viewport = window.first_run.page, window.view.viewport()
    assert page.isVisible()
    placed = page.geometry()
    window.view.horizontalScrollBar().setValue(window.view.horizontalScrollBar().value() + 300)
    window.view.verticalScrollBar().setValue(window.view.verticalScrollBar().value() + 200)
    window.view.fit_to_view()
    QApplication.processEvents()
    assert page.geometry() == placed
    assert viewport.rect().contains(page.geometry())
