"""The lap start on the canvas: its marker, dragging it, and Set Lap Start Here from the
right-click menu and the Edit menu's shortcut; each is one undo step."""

from __future__ import annotations

import pytest
from conftest_helpers import centre, choose, click, drag, right_click_menu, view_point
from PySide6.QtCore import QPoint, QPointF, Qt

from trackside.engine.track.geometry import TrackGeometry

pytestmark = pytest.mark.gui


def lap_start_at(window) -> float:
    """How far along the file's racing line the document's lap start is now (the old
    line's progress of the new first point)."""
    x, y = window.doc.track.centerline.points[0]
    return window.old_geometry.progress(float(x), float(y))


@pytest.fixture
def stadium(window, stadium_file):
    window.open_file(stadium_file)
    window.old_geometry = TrackGeometry(window.doc.track.copy())
    window.view.fit_to_view()
    return window


def test_the_marker_lies_across_the_track_at_the_first_point(stadium):
    marker = stadium.scene.lap_start
    assert marker.isVisible()
    (ax, ay), (bx, by) = marker.ends
    x0, _ = (float(v) for v in stadium.doc.track.centerline.points[0])
    assert ax == pytest.approx(x0, abs=0.01) and bx == pytest.approx(x0, abs=0.01)
    assert abs(by - ay) == pytest.approx(90.0, abs=0.5)  # three 30 mm lanes
    assert "where a lap" in marker.toolTip()


def test_set_lap_start_here_from_the_right_click_menu(stadium, qtbot):
    g = stadium.old_geometry
    b12 = stadium.doc.track.space("b12")
    x, y = centre(b12)
    rear_x = x - 5  # nearer its rear edge (driving +x on the lower straight)
    menu = right_click_menu(qtbot, stadium, rear_x, y)
    choose(qtbot, menu, "Set Lap Start Here")
    assert lap_start_at(stadium) == pytest.approx(g.rear[g.index["b12"]], abs=0.01)
    assert stadium.doc.undo_stack.count() == 1
    assert stadium.doc.undo_stack.undoText() == "Set lap start at b12"
    first = QPointF(*(float(v) for v in stadium.doc.track.centerline.points[0]))
    qtbot.waitUntil(lambda: stadium.scene.lap_start.hit(first, 0.01))  # within 0.06 mm
    assert not any(TrackGeometry(stadium.doc.track).straddles_seam)
    stadium.doc.undo_stack.undo()
    assert lap_start_at(stadium) == pytest.approx(0.0, abs=0.01)


def test_dragging_the_marker_moves_the_lap_start_to_a_space_edge(stadium, qtbot):
    g = stadium.old_geometry
    (ax, ay), (bx, by) = stadium.scene.lap_start.ends
    mid = ((ax + bx) / 2, (ay + by) / 2 + 10)
    a5 = g.index["b5"]
    x, y = centre(stadium.doc.track.space("b5"))
    drag(stadium, mid, (x + 3, y))  # nearer b5's front edge
    assert lap_start_at(stadium) == pytest.approx(g.front[a5], abs=0.01)
    assert stadium.doc.undo_stack.undoText() == "Move lap start"
    assert stadium.doc.undo_stack.count() == 1
    assert stadium.doc.track.spaces == stadium.old_geometry.track.spaces  # only the line


def test_the_edit_menu_shortcut_uses_the_selected_space(stadium, qtbot):
    g = stadium.old_geometry
    x, y = centre(stadium.doc.track.space("c20"))
    click(qtbot, stadium, x, y)
    qtbot.mouseMove(stadium.view.viewport(), QPoint(-50, -50))
    qtbot.keyClick(
        stadium.view,
        Qt.Key.Key_L,
        Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier,
    )
    c20 = g.index["c20"]
    assert lap_start_at(stadium) in (
        pytest.approx(g.rear[c20], abs=0.01),
        pytest.approx(g.front[c20], abs=0.01),
    )
    assert stadium.doc.undo_stack.count() == 1


def test_a_click_on_the_marker_selects_the_space_under_it(stadium, qtbot):
    (ax, ay), (_bx, by) = stadium.scene.lap_start.ends
    x, y = ax + 0.5, ay + 0.1 * (by - ay)  # on the bar, just inside the first space
    under = stadium.scene.space_at(QPointF(x, y))
    assert under is not None and stadium.doc.track.spaces[under].id in ("a1", "c1")
    click(qtbot, stadium, x, y)
    assert stadium.scene.selected_indices() == [under]
    assert stadium.doc.undo_stack.count() == 0


def test_the_pointer_shows_the_marker_can_be_dragged(stadium, qtbot):
    (ax, ay), (bx, by) = stadium.scene.lap_start.ends
    vp = stadium.view.viewport()
    qtbot.mouseMove(vp, view_point(stadium, (ax + bx) / 2, (ay + by) / 2 + 10))
    assert vp.cursor().shape() == Qt.CursorShape.SizeAllCursor
    qtbot.mouseMove(vp, view_point(stadium, (ax + bx) / 2 + 20, (ay + by) / 2 + 10))
    assert vp.cursor().shape() == Qt.CursorShape.ArrowCursor


@pytest.mark.parametrize("zoom", [0.15, 1.0, 6.0])
def test_the_lap_start_tag_lies_off_the_track_at_any_zoom(stadium, zoom):
    """The tag keeps its size on screen; zoomed out it lay across the lanes it names
    the start of. It lies just beyond the marker's outer end, off every space."""
    from PySide6.QtGui import QPolygonF

    stadium.view.set_zoom(zoom)
    view, tag = stadium.view, stadium.scene.lap_start.label
    on_screen = QPolygonF(tag.deviceTransform(view.viewportTransform()).mapRect(tag.boundingRect()))
    for space in stadium.doc.track.spaces:
        shape = QPolygonF([QPointF(float(x), float(y)) for x, y in space.corners])
        assert not on_screen.intersects(view.viewportTransform().map(shape)), space.id
