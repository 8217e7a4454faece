"""Editor responsiveness on a large circuit (about 1,000 spaces): prints figures, asserts nothing.

Measures, offscreen: opening the file into the main window, the first full
paint, one nudge of a selected space (command, redraw of the tarmac) and the
background validation that follows an edit.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parent))

from PySide6.QtCore import QSettings, Qt
from PySide6.QtTest import QTest
from validate_large import large_layout

from trackside.engine.track.lanes import build_lanes, make_track
from trackside.engine.track.model import save_track


def timed(label: str, fn) -> float:
    start = time.perf_counter()
    fn()
    took = time.perf_counter() - start
    print(f"{label:<38} {took * 1000:8.0f} ms")
    return took


def main() -> int:
    from trackside.editor.app import make_app
    from trackside.editor.mainwindow import MainWindow

    app = make_app()
    result = build_lanes(large_layout())
    length = result.length
    track = make_track(
        result, "Large", betting=[0.3 * length, 0.55 * length, 0.8 * length], finish=0.95 * length
    )
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "large.yaml"
        save_track(track, path)
        window = MainWindow(
            settings=QSettings(str(Path(tmp) / "s.ini"), QSettings.Format.IniFormat),
            autosave_dir=Path(tmp) / "autosave",
        )
        window.resize(1400, 900)
        window.show()
        print(f"{len(track.spaces)} spaces, {len(track.centerline.points)} racing-line points")
        timed("open into the window", lambda: window.open_file(path, ask=False))
        timed("first full paint (fit to window)", lambda: window.grab())
        window.scene.select_indices([10])
        window.view.setFocus()

        def nudge() -> None:
            QTest.keyClick(window.view, Qt.Key.Key_Right)
            window.scene.flush()
            window.grab()

        timed("nudge one space, redraw", nudge)
        window.issues.run_now()
        timed("validate in the background (wait)", window.issues.wait)
        app.processEvents()
        print(f"{'validator time reported':<38} {window.issues.last_seconds * 1000:8.0f} ms")
        window.doc.undo_stack.clear()
        window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
