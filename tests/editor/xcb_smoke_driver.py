"""Run ``trackside edit TRACK`` on the display it is given and drive it as a person
would: delete one space with a click and the Delete key, save with Ctrl+S, quit with
Ctrl+Q. Started by tests/editor/test_xcb_smoke.py in a process of its own, on Qt's
real xcb platform under Xvfb; prints what it did and exits with the editor's status
(3 when the window never came up with the track).

    python xcb_smoke_driver.py TRACK [SCREENSHOT.png]
"""

from __future__ import annotations

import sys

from PySide6.QtCore import QPointF, Qt, QTimer
from PySide6.QtGui import QGuiApplication
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from trackside.cli.main import main
from trackside.editor.app import make_app
from trackside.editor.mainwindow import MainWindow

DEADLINE_MS = 60_000


def editor() -> MainWindow | None:
    """The editor's main window once it shows the track."""
    for widget in QApplication.topLevelWidgets():
        if isinstance(widget, MainWindow) and widget.isVisible() and widget.doc.track.spaces:
            return widget
    return None


def drive(screenshot: str | None) -> None:
    """Wait for the window, then edit, save and quit through its own keys and clicks."""
    window = editor()
    if window is None or window.windowHandle() is None or not window.windowHandle().isExposed():
        QTimer.singleShot(100, lambda: drive(screenshot))
        return
    print(f"platform {QGuiApplication.platformName()}", flush=True)
    # Shortcuts answer in the active window; with no window manager (Xvfb) Qt gives it focus.
    window.activateWindow()
    print(f"active {QTest.qWaitForWindowActive(window, 5000)}", flush=True)
    window.set_tool("select")
    space = window.doc.track.spaces[0]
    xs = [float(x) for x, _ in space.corners]
    ys = [float(y) for _, y in space.corners]
    centre = window.view.mapFromScene(QPointF(sum(xs) / len(xs), sum(ys) / len(ys)))
    viewport = window.view.viewport()
    QTest.mouseClick(viewport, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, centre)
    print(f"selected {window.scene.selected_indices()}", flush=True)
    QTest.keyClick(window.view, Qt.Key.Key_Delete)
    print(f"spaces {len(window.doc.track.spaces)}", flush=True)
    QTest.keyClick(window.view, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    print(f"modified {window.doc.is_modified()}", flush=True)
    if screenshot:
        QTest.qWait(300)
        window.grab().save(screenshot)
    QTest.keyClick(window.view, Qt.Key.Key_Q, Qt.KeyboardModifier.ControlModifier)


def give_up() -> None:
    print("the editor's window never showed the track", flush=True)
    QApplication.exit(3)


if __name__ == "__main__":
    track = sys.argv[1]
    screenshot = sys.argv[2] if len(sys.argv) > 2 else None
    make_app()  # the editor's own application, made first so that the timers can start
    QTimer.singleShot(0, lambda: drive(screenshot))
    QTimer.singleShot(DEADLINE_MS, give_up)
    sys.exit(main(["edit", track]))
