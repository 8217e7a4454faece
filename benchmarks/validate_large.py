#!/usr/bin/env python3
"""Validation speed on circuits of 100 to 10,000 spaces: each figure, its goal, pass or miss.

The circuits are the ovals of ``editor_large.py`` (the lane builder's three-lane
loop) and the goals those of ``speed_table.py``, saved to a temporary file.
Rows: ``validate_file`` in this process and
the whole ``trackside validate`` process, then the steps inside
``validate_file`` (reading the YAML, the schema check, the geometry, the
checks) to show where the time goes. CPU time (``time.process_time``; the
child's user + system time for the process), best of ``--runs``. Prints
figures and asserts nothing. Run: ``make bench`` or
``python benchmarks/validate_large.py [--sizes 100,1000] [--runs 5]``.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from editor_large import cpu, oval, verdict
from speed_table import GOALS, process_cpu

from trackside.engine.schema import check
from trackside.engine.track.geometry import TrackGeometry
from trackside.engine.track.model import Track, save_track
from trackside.engine.track.validate import validate_file, validate_track
from trackside.engine.yamlio import load_yaml

IN_PROCESS, PROCESS = "validate_file in process", "trackside validate (process)"
# The goal at 10,000 spaces (speed_table's goals stop at 5,000).
GOAL_10K = {IN_PROCESS: 1.2}


def measure(spaces: int, folder: Path, runs: int) -> tuple[int, dict[str, float]]:
    """The figures of one circuit size."""
    track = oval(spaces)
    path = folder / f"oval-{spaces}.yaml"
    save_track(track, path)
    report = validate_file(path)
    if not report.ok:
        raise SystemExit(f"the benchmark circuit has errors: {report.summary()}")
    doc = load_yaml(path)
    loaded = Track.from_dict(doc.data)
    geometry = TrackGeometry(loaded)
    figures = {
        IN_PROCESS: cpu(lambda: validate_file(path), runs),
        PROCESS: min(process_cpu(path) for _ in range(runs)),
        "  read YAML (load_yaml)": cpu(lambda: load_yaml(path), runs),
        "  schema check": cpu(lambda: check("track", doc.data), runs),
        "  geometry (TrackGeometry)": cpu(lambda: TrackGeometry(loaded), runs),
        "  checks (validate_track)": cpu(lambda: validate_track(loaded, geometry=geometry), runs),
    }
    return len(track.spaces), figures


def growth(sizes: list[int], times: list[float]) -> str:
    """The exponent k of time ~ n^k between the two largest sizes."""
    if len(sizes) < 2 or min(times[-2:]) <= 0:
        return ""
    k = math.log(times[-1] / times[-2]) / math.log(sizes[-1] / sizes[-2])
    return f"grows like n^{k:.2f} from {sizes[-2]:,} to {sizes[-1]:,} spaces"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="100,1000,5000,10000")
    parser.add_argument("--runs", type=int, default=5, help="timed runs (the best is shown)")
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")]
    print(
        f"Python {sys.version.split()[0]}, {os.cpu_count()} cores, "
        f"CPU seconds, best of {args.runs} runs"
    )
    counted: list[int] = []
    in_process: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        for size in sizes:
            n, figures = measure(size, Path(tmp), args.runs)
            counted.append(n)
            in_process.append(figures[IN_PROCESS])
            print(f"\n{n:,} spaces")
            for step, value in figures.items():
                mark = verdict(GOALS, step, n, value)
                if n > 7500 and step in GOAL_10K:
                    goal = GOAL_10K[step]
                    mark = f"{'pass' if value <= goal else 'MISS'} (goal {goal * 1000:g} ms)"
                print(f"  {step:<34} {value * 1000:9.1f} ms  {mark}")
    print(f"\nvalidate_file {growth(counted, in_process)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
