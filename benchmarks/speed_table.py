#!/usr/bin/env python3
"""The editor-speed table: each step on circuits of 100 to 10,000 spaces, its goal, pass or miss.

Prints figures and asserts nothing. CPU time of this process (``time.process_time``),
best of a few runs, offscreen Qt; the whole-process ``trackside validate`` is timed
in a child process (user + system CPU). Run: ``make bench`` or
``python benchmarks/speed_table.py [--sizes 100,1000]``.
"""

from __future__ import annotations

import argparse
import math
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from trackside.engine.track.lanes import Arc, LaneLayout, Straight, build_lanes, make_track
from trackside.engine.track.model import Track, save_track

SPACE_MM, LANES = 40.0, 3
# Goals per step at 1,000 and at 5,000 spaces (seconds); None: no goal at that size.
GOALS: dict[str, tuple[float | None, float | None]] = {
    "open file to first paint": (0.4, 1.5),
    "one edit to repaint": (0.016, 0.033),
    "repaint the whole board": (0.016, 0.033),
    "one edit to issues updated": (0.1, 0.3),
    "hover a space (movement hints)": (0.001, 0.002),
    "snap one point": (0.0005, 0.0005),
    "validate_file in process": (0.12, 0.6),
    "trackside validate (process)": (0.35, 0.9),
}


def oval(spaces: int) -> Track:
    """A closed three-lane oval of about ``spaces`` spaces."""
    perimeter = spaces * SPACE_MM / LANES
    radius = max(120.0, min(600.0, perimeter / 8))
    straight = max(SPACE_MM * 2, (perimeter - 2 * math.pi * radius) / 2)
    pieces = (Straight(straight), Arc(radius, 180), Straight(straight), Arc(radius, 180))
    layout = LaneLayout(
        pieces=pieces, closed=True, lanes=LANES, space_length=SPACE_MM, lane_width=SPACE_MM
    )
    result = build_lanes(layout)
    length = result.length
    return make_track(
        result,
        f"Oval {spaces}",
        betting=[0.3 * length, 0.55 * length, 0.8 * length],
        finish=0.95 * length,
    )


def cpu(
    fn: Callable[[], object], runs: int = 3, clock: Callable[[], float] = time.process_time
) -> float:
    """The least CPU time of ``runs`` calls (of the process, or of ``clock``)."""
    best = math.inf
    for _ in range(runs):
        start = clock()
        fn()
        best = min(best, clock() - start)
    return best


def measure(spaces: int, folder: Path) -> dict[str, float]:
    """Every step of the table for one circuit size."""
    from PySide6.QtCore import QCoreApplication, QPointF, QSettings, Qt
    from PySide6.QtTest import QTest

    from trackside.editor.app import make_app
    from trackside.editor.canvas.interaction import ToolEvent
    from trackside.editor.mainwindow import MainWindow
    from trackside.engine.track.validate import validate_file

    make_app()
    track = oval(spaces)
    path = folder / f"oval-{spaces}.yaml"
    save_track(track, path)
    out: dict[str, float] = {"spaces": float(len(track.spaces))}
    window = MainWindow(
        settings=QSettings(str(folder / "s.ini"), QSettings.Format.IniFormat),
        autosave_dir=folder / "autosave",
    )
    window.resize(1400, 900)
    window.show()

    def open_and_paint() -> None:
        window.open_file(path, ask=False)
        window.grab()

    out["open file to first paint"] = cpu(open_and_paint, 1)
    out["memory after open (MiB)"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    window.issues.wait()
    window.scene.select_indices([len(track.spaces) // 2])
    window.view.setFocus()

    def edit_and_repaint() -> None:
        QTest.keyClick(window.view, Qt.Key.Key_Right)
        QCoreApplication.processEvents()  # the command, the redraw of what it touched

    # The UI thread's own CPU time: the tarmac is rebuilt on a worker meanwhile.
    out["one edit to repaint"] = cpu(edit_and_repaint, clock=time.thread_time)
    window.scene.flush()
    out["repaint the whole board"] = cpu(lambda: window.view.viewport().repaint())

    def edit_to_issues() -> None:
        QTest.keyClick(window.view, Qt.Key.Key_Left)
        window.issues.run_now()
        window.issues.wait()

    out["one edit to issues updated"] = cpu(edit_to_issues)
    window.set_tool("moves")
    spaces = iter(track.spaces[len(track.spaces) // 3 :])

    def event_over(target: object) -> ToolEvent:
        xs, ys = zip(*target.corners, strict=True)  # type: ignore[attr-defined]
        point = QPointF(sum(xs) / len(xs), sum(ys) / len(ys))
        return ToolEvent(
            point,
            Qt.MouseButton.NoButton,
            Qt.MouseButton.NoButton,
            Qt.KeyboardModifier.NoModifier,
        )

    tool = window.tool

    def hover_once() -> None:  # a new space each time: nothing cached from the last
        tool.mouse_move(event_over(next(spaces)))
        QCoreApplication.processEvents()

    out["hover a space (movement hints)"] = cpu(hover_once, 5)
    window.set_tool("select")
    hover = event_over(track.spaces[7])
    out["snap one point"] = cpu(lambda: window.scene.snap(hover, show=False), 20)
    out["validate_file in process"] = cpu(lambda: validate_file(path))
    out["trackside validate (process)"] = process_cpu(path)
    window.doc.undo_stack.clear()
    window.close()
    return out


def process_cpu(path: Path) -> float:
    """CPU time (user + system) of one ``trackside validate`` process on ``path``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(
        [sys.executable, "-m", "trackside", "validate", str(path)],
        capture_output=True,
        check=False,
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def verdict(step: str, spaces: float, value: float) -> str:
    """'pass', 'MISS' or '' (no goal at this size)."""
    goals = GOALS.get(step)
    if goals is None:
        return ""
    goal = goals[0] if spaces <= 1500 else goals[1] if spaces <= 7500 else None
    if goal is None:
        return ""
    return f"{'pass' if value <= goal else 'MISS'} (goal {goal * 1000:g} ms)"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="100,1000,5000,10000")
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")]
    print(f"Python {sys.version.split()[0]}, {os.cpu_count()} cores, CPU seconds, best of runs")
    with tempfile.TemporaryDirectory() as tmp:
        for size in sizes:
            figures = measure(size, Path(tmp))
            print(f"\n{int(figures.pop('spaces'))} spaces")
            for step, value in figures.items():
                shown = f"{value:8.0f} MiB" if "MiB" in step else f"{value * 1000:9.1f} ms"
                print(f"  {step:<34} {shown}  {verdict(step, size, value)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
