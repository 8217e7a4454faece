"""The first steps: the start page over a new, empty circuit, New from Template, and the
tour of the tools, driven by clicks and keys."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from trackside.editor.tools import TOOLS
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
    total = len(tour.pages)
    assert tour is not None and tour.isVisible() and tour.counter.text() == f"1 of {total}"
    for _ in range(total + 1):
        qtbot.mouseClick(tour.next, Qt.MouseButton.LeftButton)
    assert tour.counter.text() == f"{total} of {total}" and not tour.next.isEnabled()
    assert "Print" in tour.title.text()
    qtbot.mouseClick(tour.back, Qt.MouseButton.LeftButton)
    assert tour.counter.text() == f"{total - 1} of {total}"
    tour.close()


def test_each_tool_has_a_tour_page_with_what_it_does_its_key_a_tip_and_its_icon(window):
    """The tour takes the tools one by one (a single table of them was sparse): each
    page says what the tool does, its key, how to use it and one tip, beside its icon."""
    tour = window.first_run.show_tour()
    titles = [page.title for page in tour.pages]
    for tool in TOOLS:
        assert tool.purpose and tool.tip, tool.label
        tour.show_page(titles.index(f"{tool.label} ({tool.shortcut})"))
        text = tour.text.text()
        assert tool.purpose in text and tool.tip in text and f"<b>Key:</b> {tool.shortcut}" in text
        assert tour.picture.isVisible() and not tour.picture.pixmap().isNull()
    for k, page in enumerate(tour.pages):
        tour.show_page(k)
        assert "<b>Tip:</b>" in page.text, page.title
    tour.show_page(0)
    assert not tour.picture.isVisible()  # a page not about one tool has no icon
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
    assert viewport.geometry().contains(page.geometry())


def test_the_start_page_after_new_from_a_zoomed_scrolled_view_sits_as_the_first(
    window, qtbot, stadium_file
):
    page, viewport = window.first_run.page, window.view.viewport()
    first = page.geometry()
    window.open_file(stadium_file)
    window.view.set_zoom(0.35)
    window.view.centerOn(-3000, 2500)
    QApplication.processEvents()
    qtbot.keyClick(window.view, Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier)
    QApplication.processEvents()
    assert page.isVisible()
    assert page.geometry() == first
    assert window.view.viewport().geometry().contains(page.geometry())  # nothing cut off
    # Scrolling shifts the canvas's pixels and the viewport's children (accelerated
    # scrolling); the card is not one of them, so no scroll can carry it off.
    viewport.scroll(-250, 287)
    QApplication.processEvents()
    assert page.geometry() == first


def press_escape_where_the_keys_go(qtbot) -> None:
    """Escape as a person presses it: to the focus widget of the active window."""
    target = QApplication.focusWidget() or QApplication.activeWindow()
    assert target is not None
    qtbot.keyClick(target, Qt.Key.Key_Escape)


def test_escape_closes_the_tour_opened_or_brought_back(window, qtbot):
    """The tour takes the keys when it opens, and when Help > Tour brings it back over
    the window while it is open behind, so Escape closes it, as it closes every other
    small window."""
    shortcut = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    qtbot.keyClick(window.view, Qt.Key.Key_T, shortcut)
    tour = window.first_run.tour
    assert tour is not None
    qtbot.waitUntil(tour.isActiveWindow)
    window.activateWindow()  # back to the canvas, the tour left open
    qtbot.waitUntil(window.isActiveWindow)
    qtbot.keyClick(window.view, Qt.Key.Key_T, shortcut)
    qtbot.waitUntil(tour.isActiveWindow)
    press_escape_where_the_keys_go(qtbot)
    qtbot.waitUntil(lambda: not tour.isVisible())
