#!/usr/bin/env python3
"""The speed table: each step on circuits of 100 to 10,000 spaces, its goal, pass or miss.

The editor's rows come from ``benchmarks/editor_large.py`` (where they are
explained); the validation rows are timed here: ``validate_file`` in this
process and the whole-process ``trackside validate`` in a child process (user +
system CPU). Prints figures and asserts nothing; CPU time, best of a few runs,
offscreen Qt. Run: ``make bench`` or ``python benchmarks/speed_table.py [--sizes 100,1000]``.
"""

from __future__ import annotations

import resource
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import editor_large
from editor_large import cpu, oval

from trackside.engine.track.model import save_track

GOALS: editor_large.Goals = {
    **editor_large.GOALS,
    "validate_file in process": (0.12, 0.6),
    "trackside validate (process)": (0.35, 0.9),
}


def measure(spaces: int, folder: Path) -> dict[str, float]:
    """Every step of the table for one circuit size."""
    from trackside.engine.track.validate import validate_file

    out = editor_large.measure(spaces, folder)
    path = folder / f"oval-{spaces}.yaml"
    save_track(oval(spaces), path)
    out["validate_file in process"] = cpu(lambda: validate_file(path))
    out["trackside validate (process)"] = process_cpu(path)
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


def main(argv: list[str] | None = None) -> int:
    return editor_large.print_table(__doc__.splitlines()[0], measure, GOALS, argv)


if __name__ == "__main__":
    sys.exit(main())
