"""Pointer helpers for the editor tests: click, drag and wait on the real canvas; and
what the tests of the tools compare.

They live here, not in a conftest: several conftest modules share that name, so
which one ``import conftest`` finds depends on what pytest collected first.
"""

from __future__ import annotations

from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QContextMenuEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QMenu

from trackside.engine.track.lanes import LaneLayout, build_lanes


def view_point(window, x: float, y: float) -> QPoint:
    """The viewport pixel showing scene point (x, y) mm."""
    return window.view.mapFromScene(QPointF(x, y))


def click(
    qtbot, window, x, y, modifier=Qt.KeyboardModifier.NoModifier, button=Qt.MouseButton.LeftButton
):
    """Click the canvas at (x, y) mm."""
    qtbot.mouseClick(window.view.viewport(), button, modifier, view_point(window, x, y))


def hover(window, x: float, y: float) -> None:
    """Move the pointer over the canvas to (x, y) mm, no button down."""
    QTest.mouseMove(window.view.viewport(), view_point(window, x, y))


def drag(window, start, end, modifier=Qt.KeyboardModifier.NoModifier, steps=5):
    """Drag with the left button from ``start`` to ``end`` (mm) in a few moves."""
    vp = window.view.viewport()
    a, b = view_point(window, *start), view_point(window, *end)
    QTest.mousePress(vp, Qt.MouseButton.LeftButton, modifier, a)
    for k in range(1, steps + 1):
        p = QPoint(
            round(a.x() + (b.x() - a.x()) * k / steps), round(a.y() + (b.y() - a.y()) * k / steps)
        )
        QTest.mouseMove(vp, p)
    QTest.mouseRelease(vp, Qt.MouseButton.LeftButton, modifier, b)


def scale_background(qtbot, window, distance: float | None) -> None:
    """Set the background's scale from two points: click (50, 0) and (150, 0) mm on the
    canvas, answering that they are ``distance`` mm apart on the board."""
    window.view.set_zoom(1.0)
    window.view.centerOn(100, 0)
    window.background.start_scaling()
    window.prompts.distance_answer = distance
    click(qtbot, window, 50, 0)
    click(qtbot, window, 150, 0)


def wait_issues(qtbot, window):
    """Let the debounced background check finish and show its result."""
    qtbot.waitUntil(lambda: not window.issues.busy, timeout=10_000)


def right_click_menu(qtbot, window, x, y) -> QMenu:
    """Right-click the canvas at (x, y) mm and return the menu that pops up."""
    vp = window.view.viewport()
    at = view_point(window, x, y)
    qtbot.mouseClick(vp, Qt.MouseButton.RightButton, pos=at)
    # A real right-click also sends the context menu event (QTest goes round the window).
    QApplication.sendEvent(
        vp, QContextMenuEvent(QContextMenuEvent.Reason.Mouse, at, vp.mapToGlobal(at))
    )
    qtbot.waitUntil(lambda: isinstance(QApplication.activePopupWidget(), QMenu))
    menu = QApplication.activePopupWidget()
    assert isinstance(menu, QMenu)
    return menu


def choose(qtbot, menu: QMenu, text: str) -> None:
    """Click the entry of ``menu`` whose text (without &) is ``text``."""
    action = next(a for a in menu.actions() if a.text().replace("&", "") == text)
    qtbot.mouseClick(menu, Qt.MouseButton.LeftButton, pos=menu.actionGeometry(action).center())


def discard_scene(scene) -> None:
    """Delete a scene made without a window now, its tarmac's worker done, rather than
    whenever the garbage collector gets to it: collected as a cycle, its items lose
    their attributes before Qt is done asking them (that crashed a test process)."""
    import shiboken6

    scene.flush()
    shiboken6.delete(scene)


def centre(space) -> tuple[float, float]:
    """The mean of a space's corners, in mm."""
    xs = [float(x) for x, _ in space.corners]
    ys = [float(y) for _, y in space.corners]
    return sum(xs) / len(xs), sum(ys) / len(ys)


def built_as(spaces, layout: LaneLayout) -> bool:
    """True when ``spaces`` are, id for id, the spaces the engine's lane builder makes of
    ``layout`` (same lanes, same corners)."""
    expected = build_lanes(layout).track_spaces()
    return [(s.id, s.lane, s.corners) for s in spaces] == [
        (s.id, s.lane, s.corners) for s in expected
    ]
