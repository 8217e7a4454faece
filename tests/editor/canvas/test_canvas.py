"""The canvas: zoom around the cursor, pan, fit, cursor read-out, snapping."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from trackside.editor.canvas.snapping import SnapSettings, snap_point
from trackside.editor.canvas.view import grid_steps
from trackside.engine.track.model import Centerline, Space, Track

pytestmark = pytest.mark.gui


def _wheel(view, pos: QPoint, steps: int) -> None:
    event = QWheelEvent(
        QPointF(pos),
        QPointF(view.viewport().mapToGlobal(pos)),
        QPoint(0, 0),
        QPoint(0, 120 * steps),
        Qt.MouseButton.NoButton,
        Qt.KeyboardModifier.NoModifier,
        Qt.ScrollPhase.NoScrollPhase,
        False,
    )
    QApplication.sendEvent(view.viewport(), event)


def test_wheel_zooms_around_the_cursor(window, stadium_file):
    window.open_file(stadium_file)
    view = window.view
    pos = QPoint(200, 150)
    before = view.mapToScene(pos)
    scale = view.scale_factor()
    _wheel(view, pos, 2)
    assert view.scale_factor() == pytest.approx(scale * 1.44, rel=1e-3)
    after = view.mapToScene(pos)
    assert after.x() == pytest.approx(before.x(), abs=2 / view.scale_factor())
    assert after.y() == pytest.approx(before.y(), abs=2 / view.scale_factor())
    _wheel(view, pos, -2)
    assert view.scale_factor() == pytest.approx(scale, rel=1e-3)
    assert window.zoom_label.text().endswith("%")


def test_fit_shows_the_whole_track(window, stadium_file):
    window.open_file(stadium_file)
    window.view.set_zoom(20)
    window.act_fit.trigger()
    visible = window.view.mapToScene(window.view.viewport().rect()).boundingRect()
    assert visible.contains(window.scene.track_rect())


def test_middle_drag_pans(window, stadium_file):
    window.open_file(stadium_file)
    view = window.view
    view.set_zoom(3)
    vp = view.viewport()
    before = view.mapToScene(vp.rect().center())
    QTest.mousePress(vp, Qt.MouseButton.MiddleButton, pos=QPoint(300, 300))
    QTest.mouseMove(vp, QPoint(340, 320))
    QTest.mouseMove(vp, QPoint(400, 350))
    QTest.mouseRelease(vp, Qt.MouseButton.MiddleButton, pos=QPoint(400, 350))
    after = view.mapToScene(vp.rect().center())
    assert after.x() == pytest.approx(before.x() - 100 / 3, abs=1)
    assert after.y() == pytest.approx(before.y() - 50 / 3, abs=1)
    assert window.doc.undo_stack.count() == 0


def test_space_drag_pans_instead_of_selecting(window, qtbot, stadium_file):
    window.open_file(stadium_file)
    view = window.view
    view.set_zoom(3)
    vp = view.viewport()
    before = view.mapToScene(vp.rect().center())
    QTest.keyPress(view, Qt.Key.Key_Space)
    QTest.mousePress(vp, Qt.MouseButton.LeftButton, pos=QPoint(300, 300))
    QTest.mouseMove(vp, QPoint(360, 300))
    QTest.mouseRelease(vp, Qt.MouseButton.LeftButton, pos=QPoint(360, 300))
    QTest.keyRelease(view, Qt.Key.Key_Space)
    after = view.mapToScene(vp.rect().center())
    assert after.x() == pytest.approx(before.x() - 20, abs=1)
    assert window.scene.selected_indices() == []


def test_status_bar_shows_the_cursor_in_mm(window, qtbot):
    window.view.set_zoom(2)
    window.view.centerOn(0, 0)
    pos = window.view.mapFromScene(QPointF(123, -45))
    QTest.mouseMove(window.view.viewport(), pos)
    qtbot.waitUntil(lambda: "123" in window.cursor_label.text())
    assert "-45" in window.cursor_label.text() or "-44" in window.cursor_label.text()


def test_racing_line_toggles(window, stadium_file):
    window.open_file(stadium_file)
    assert not window.scene.racing_line.isVisible()
    window.act_racing.trigger()
    assert window.scene.racing_line.isVisible()


def test_grid_steps_keep_lines_apart():
    for scale in (0.05, 0.3, 1, 4, 30):
        minor, major = grid_steps(scale)
        assert minor * scale >= 8 or minor == 1000
        assert major == minor * 10


def _square_track() -> Track:
    sq = Space("a", 0, [(0, 0), (30, 0), (30, 20), (0, 20)])
    return Track("t", Centerline(False, [(-50, 50), (100, 50)]), [sq], [], [], ((0, 0), (0, 0)))


def test_snap_prefers_corners_then_edges_then_racing_line_then_grid():
    t = _square_track()
    s = SnapSettings(grid_step=5)
    assert snap_point(t, 29, 1.5, 3, s).kind == "corner"
    hit = snap_point(t, 15, 1.5, 3, s)
    assert (hit.kind, hit.x, hit.y) == ("edge", 15, 0)
    hit = snap_point(t, 12, 51.2, 3, s)
    assert (hit.kind, hit.x, hit.y) == ("racing", 12, 50)
    hit = snap_point(t, 12.6, 38.1, 3, s)
    assert (hit.kind, hit.x, hit.y) == ("grid", 15, 40)
    assert snap_point(t, 29, 1.5, 3, s, exclude={0}).kind == "grid"
    off = SnapSettings(grid=False, corners=False, edges=False, racing_line=False)
    assert snap_point(t, 12.6, 38.1, 3, off).kind == "none"


def test_zoom_to_selection_and_the_space_under_the_pointer(window, qtbot, stadium_file):
    window.open_file(stadium_file)
    t = window.doc.track
    a5 = t.spaces.index(t.space("a5"))
    window.scene.select_indices([a5])
    window.act_zoom_sel.trigger()
    box = window.scene.space_items[a5].sceneBoundingRect()
    visible = window.view.mapToScene(window.view.viewport().rect()).boundingRect()
    assert visible.contains(box) and visible.width() < 4 * max(box.width(), box.height())
    centre = box.center()
    QTest.mouseMove(window.view.viewport(), window.view.mapFromScene(centre))
    qtbot.waitUntil(lambda: window.space_label.text() != "")
    assert window.space_label.text() == "a5 · lane 0 · 2 forward"  # ahead and diagonal


def test_the_space_under_a_still_pointer_is_named_again_after_an_edit(window, qtbot, stadium_file):
    """Deleting the space under the pointer clears its name from the status bar; undo
    brings it back."""
    window.open_file(stadium_file)
    t = window.doc.track
    a5 = t.spaces.index(t.space("a5"))
    window.scene.select_indices([a5])
    window.act_zoom_sel.trigger()
    centre = window.view.mapFromScene(window.scene.space_items[a5].sceneBoundingRect().center())
    QTest.mouseMove(window.view.viewport(), centre + QPoint(3, 3))  # a move, wherever it was
    QTest.mouseMove(window.view.viewport(), centre)
    qtbot.waitUntil(lambda: window.space_label.text().startswith("a5 "))
    window.delete_selection()
    assert window.space_label.text() == ""
    window.doc.undo_stack.undo()
    assert window.space_label.text().startswith("a5 ")


def test_showing_the_grid_again_does_not_snap_to_it_while_snap_is_off(window, stadium_file):
    """View > Snap off turns off every target, the grid included, whatever Show Grid says."""
    from trackside.editor.canvas.interaction import ToolEvent

    window.open_file(stadium_file)
    window.view.set_zoom(4.0)
    off_grid = ToolEvent(
        QPointF(2.2, -300.3), Qt.MouseButton.NoButton, Qt.MouseButton.NoButton,
        Qt.KeyboardModifier.NoModifier,
    )  # fmt: skip
    assert window.scene.snap(off_grid).kind == "grid"
    window.act_snap.setChecked(False)
    window.act_grid.setChecked(False)
    window.act_grid.setChecked(True)
    assert window.scene.snap(off_grid).kind == "none"
    window.act_snap.setChecked(True)
    assert window.scene.snap(off_grid).kind == "grid"
    window.act_grid.setChecked(False)
    assert window.scene.snap(off_grid).kind == "none"
