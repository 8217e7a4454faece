#!/usr/bin/env python3
"""The editor's rows of the speed table: open, edit, repaint, issues, hover, snap, drag.

Opens circuits of 100 to 10,000 spaces in the real main window (offscreen Qt) and
prints each step, its goal and pass or miss; asserts nothing. Figures are CPU
time, best of a few runs: of the UI thread (``time.thread_time``) where the work
is split with a worker thread (the tarmac, the validator) and what matters is
how long the window stays busy, of the whole process (``time.process_time``)
elsewhere. Memory is what the process holds once the opened track is shown,
its tarmac built and its first check done. A drag is a scripted press, moves
and release on the canvas (as qtbot sends them); its frame time is the UI
thread's CPU from one pointer move to the repaint it causes, mean and worst.
``benchmarks/speed_table.py`` prints these rows with the validation rows.
Run: ``python benchmarks/editor_large.py [--sizes 1000,5000]``.
"""

from __future__ import annotations

import argparse
import math
import os
import resource
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from trackside.engine.track.lanes import Arc, LaneLayout, Straight, build_lanes, make_track
from trackside.engine.track.model import Track, save_track

SPACE_MM, LANES = 40.0, 3
FRAME = 1 / 60  # 60 frames a second
DRAG_MOVES = 30
# Goals per step at 1,000 and at 5,000 spaces (seconds, MiB for memory); None: no goal.
Goals = dict[str, tuple[float | None, float | None]]
GOALS: Goals = {
    "open file to first paint": (0.4, 1.5),
    "memory after open (MiB)": (150, 250),
    "one edit to repaint": (0.016, 0.033),
    "repaint the whole board": (0.016, 0.033),
    "one edit to issues updated": (0.1, 0.3),
    "hover a space (movement hints)": (0.001, 0.002),
    "snap one point": (0.0005, 0.0005),
    "drag a space: frame time, mean": (FRAME, FRAME),
    "drag a space: frame time, worst": (None, None),
    "drag a corner: frame time, mean": (FRAME, FRAME),
    "drag a corner: frame time, worst": (None, None),
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


def resident_mib() -> float:
    """The memory the process holds now (resident set), MiB; the peak where not on Linux."""
    try:
        pages = int(Path("/proc/self/statm").read_text().split()[1])
    except (OSError, IndexError, ValueError):
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def measure(spaces: int, folder: Path) -> dict[str, float]:
    """Every editor step of the table for one circuit size."""
    from PySide6.QtCore import QCoreApplication, QPointF, QSettings, Qt
    from PySide6.QtTest import QTest

    from trackside.editor.app import make_app
    from trackside.editor.canvas.interaction import ToolEvent
    from trackside.editor.mainwindow import MainWindow

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

    # The UI thread's own CPU time: the tarmac is built on a worker meanwhile.
    out["open file to first paint"] = cpu(open_and_paint, 1, clock=time.thread_time)
    settle(window)
    out["memory after open (MiB)"] = resident_mib()
    middle = len(track.spaces) // 2
    window.scene.select_indices([middle])
    window.view.setFocus()

    def edit_and_repaint() -> None:
        QTest.keyClick(window.view, Qt.Key.Key_Right)
        QCoreApplication.processEvents()  # the command, the redraw of what it touched

    out["one edit to repaint"] = cpu(edit_and_repaint, clock=time.thread_time)
    window.scene.flush()
    out["repaint the whole board"] = cpu(lambda: window.view.viewport().repaint())

    def edit_to_issues() -> tuple[float, float]:
        """The UI thread's CPU from the edit to the list shown, and the check's own."""
        began = time.thread_time()
        QTest.keyClick(window.view, Qt.Key.Key_Left)
        window.issues.run_now()
        _wait_issues(window)
        return time.thread_time() - began, window.issues.last_cpu

    # The tarmac is rebuilt on its own worker meanwhile: it is not counted here.
    ui, check = min((edit_to_issues() for _ in range(3)), key=sum)
    out["one edit to issues updated"] = ui + check
    out["  of which on the UI thread"] = ui
    settle(window)  # the tarmac and check of the edits above: not in the middle of a hover
    window.set_tool("moves")
    hovered = iter(track.spaces[len(track.spaces) // 3 :])

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
        tool.mouse_move(event_over(next(hovered)))
        QCoreApplication.processEvents()

    out["hover a space (movement hints)"] = cpu(hover_once, 5)
    window.set_tool("select")
    hover = event_over(track.spaces[7])
    out["snap one point"] = cpu(lambda: window.scene.snap(hover, show=False), 20)
    out.update(_drag_frames(window, track, "select", "drag a space"))
    out.update(_drag_frames(window, track, "corners", "drag a corner"))
    window.doc.undo_stack.clear()
    window.close()
    return out


def settle(window) -> None:
    """Let the tarmac and the issues list catch up with the last edit."""
    from PySide6.QtCore import QCoreApplication

    window.scene.flush()
    _wait_issues(window)
    QCoreApplication.processEvents()


def _wait_issues(window) -> None:
    from PySide6.QtCore import QCoreApplication

    while window.issues.busy:  # the check starts a moment after the edit, then runs
        window.issues.wait()
        QCoreApplication.processEvents()


def _drag_frames(window, track: Track, tool: str, label: str) -> dict[str, float]:
    """Mean and worst UI-thread CPU per pointer move of a scripted drag, repaint included."""
    from PySide6.QtCore import QCoreApplication, QPoint, QPointF, Qt
    from PySide6.QtTest import QTest

    window.set_tool(tool)
    viewport = window.view.viewport()
    space = track.spaces[len(track.spaces) // 4]
    if tool == "corners":
        window.scene.select_indices([len(track.spaces) // 4])
        x, y = (float(v) for v in space.corners[0])
    else:
        xs, ys = zip(*space.corners, strict=True)
        x, y = sum(xs) / len(xs), sum(ys) / len(ys)
    window.view.centerOn(QPointF(x, y))
    QCoreApplication.processEvents()
    start = window.view.mapFromScene(QPointF(x, y))
    QTest.mouseMove(viewport, start)
    QTest.mousePress(viewport, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, start)
    QCoreApplication.processEvents()
    frames = []
    for k in range(1, DRAG_MOVES + 1):
        at = start + QPoint(3 * k, 2 * k)
        began = time.thread_time()
        QTest.mouseMove(viewport, at)
        QCoreApplication.processEvents()  # the repaint of the moved space
        frames.append(time.thread_time() - began)
    QTest.mouseRelease(viewport, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, at)
    QCoreApplication.processEvents()
    window.doc.undo_stack.undo()
    settle(window)
    window.set_tool("select")
    return {
        f"{label}: frame time, mean": statistics.fmean(frames),
        f"{label}: frame time, worst": max(frames),
    }


def verdict(goals: Goals, step: str, spaces: float, value: float) -> str:
    """'pass', 'MISS' or '' (no goal at this size)."""
    pair = goals.get(step)
    if pair is None:
        return ""
    goal = pair[0] if spaces <= 1500 else pair[1] if spaces <= 7500 else None
    if goal is None:
        return ""
    shown = f"{goal:g} MiB" if "MiB" in step else f"{round(goal * 1000, 1):g} ms"
    return f"{'pass' if value <= goal else 'MISS'} (goal {shown})"


def row(goals: Goals, step: str, size: int, value: float) -> str:
    """One printed line of the table."""
    shown = f"{value:8.0f} MiB" if "MiB" in step else f"{value * 1000:9.2f} ms"
    return f"  {step:<34} {shown}  {verdict(goals, step, size, value)}"


def print_table(
    description: str,
    measure_size: Callable[[int, Path], dict[str, float]],
    goals: Goals,
    argv: list[str] | None = None,
) -> int:
    """Parse ``--sizes``, measure each size and print its rows with goals and verdicts."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--sizes", default="100,1000,5000,10000")
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")]
    print(f"Python {sys.version.split()[0]}, {os.cpu_count()} cores, CPU seconds, best of runs")
    with tempfile.TemporaryDirectory() as tmp:
        for size in sizes:
            figures = measure_size(size, Path(tmp))
            print(f"\n{int(figures.pop('spaces'))} spaces")
            for step, value in figures.items():
                print(row(goals, step, size, value))
    return 0


def main(argv: list[str] | None = None) -> int:
    return print_table(__doc__.splitlines()[0], measure, GOALS, argv)


if __name__ == "__main__":
    sys.exit(main())
