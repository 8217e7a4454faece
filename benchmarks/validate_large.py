#!/usr/bin/env python3
"""Benchmark: load and validate a circuit of about 1,000 spaces.

Builds a closed circuit with the lane builder (three lanes, widening to four
and narrowing to two, straights, sweeping curves and S-bends), saves it to a
temporary file and prints the best of several runs, on one core, of:
loading the file, building its geometry, and validating it.
Target: validation under 0.3 s.

Run from the repository root: ``python benchmarks/validate_large.py``.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from trackside.engine.track.geometry import TrackGeometry
from trackside.engine.track.lanes import (
    Arc,
    LaneLayout,
    Straight,
    build_lanes,
    close_loop,
    make_track,
)
from trackside.engine.track.model import load_track, save_track
from trackside.engine.track.validate import validate_file, validate_track


def esses(count: int, lanes: int) -> list:
    """A wavy straight: S-bends that leave the heading unchanged."""
    out: list = []
    for _ in range(count):
        out += [
            Straight(400, lanes=lanes),
            Arc(500, 25, lanes=lanes),
            Arc(500, -50, lanes=lanes),
            Arc(500, 25, lanes=lanes),
        ]
    return out


def large_layout() -> LaneLayout:
    """A closed loop of about 1,000 spaces (anticlockwise, 40 mm spaces)."""
    pieces = [Straight(1000, lanes=3)]  # 0: fitted by close_loop
    pieces += esses(3, 3)
    pieces += [Arc(400, 90, lanes=3), Straight(600, lanes=4)]  # 14: fitted
    pieces += [Arc(400, 90, lanes=4)]
    pieces += esses(3, 3)
    pieces += [
        Straight(1000, lanes=3),
        Straight(400, lanes=2),
        Arc(400, 90, lanes=3),
        Straight(600, lanes=3),
        Arc(400, 90, lanes=3),
        Straight(400, lanes=3),
    ]
    layout = LaneLayout(pieces=tuple(pieces), closed=True, lanes=3, space_length=40, lane_width=40)
    return close_loop(layout, (0, 14))


def best_of(runs: int, fn) -> float:
    """The fastest of ``runs`` timed calls of ``fn``."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--runs", type=int, default=5, help="timed runs of each step (best is shown)"
    )
    args = parser.parse_args(argv)
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})

    start = time.perf_counter()
    result = build_lanes(large_layout())
    build_s = time.perf_counter() - start
    track = make_track(
        result,
        "Benchmark Ring",
        betting=[result.length * f for f in (0.25, 0.5, 0.75)],
        finish=result.length - 200,
        author="Trackside benchmark",
    )
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "large.yaml"
        save_track(track, path)
        size = path.stat().st_size
        loaded = load_track(path)
        report = validate_file(path)
        load_s = best_of(args.runs, lambda: load_track(path))
        geometry_s = best_of(args.runs, lambda: TrackGeometry(loaded))
        checks_s = best_of(args.runs, lambda: validate_track(loaded))
        file_s = best_of(args.runs, lambda: validate_file(path))

    print(
        f"circuit: {len(track.spaces)} spaces, {result.rows} rows, "
        f"{len(track.centerline.points)} centerline points, lap {result.length / 1000:.1f} m, "
        f"file {size / 1024:.0f} KiB"
    )
    print(
        f"report: {report.errors} errors, {report.warnings} warnings "
        f"({', '.join(sorted(set(report.codes()))) or 'none'})"
    )
    print(f"lane builder:                 {build_s:.3f} s (one run)")
    print(f"load (read, parse, schema):   {load_s:.3f} s")
    print(f"geometry (TrackGeometry):     {geometry_s:.3f} s")
    print(f"validation (validate_track):  {checks_s:.3f} s  (includes geometry; target < 0.3 s)")
    print(f"validate_file (load + check): {file_s:.3f} s")
    print(f"best of {args.runs} runs on one core")
    return 0 if report.errors == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
