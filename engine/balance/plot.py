"""A chart of the grid slots' win shares with their 95% intervals (``simulate --plot``),
and what every plot of the lab shares (``sweep --plot`` too).

Drawn with matplotlib (the ``plot`` extra), headless: no window opens; drawn in
memory and written by ``engine.writer``, so a full disk never leaves half a chart.
"""

from __future__ import annotations

import io
import os
from pathlib import Path
from typing import Any

from trackside.engine.balance.report import SLOTS, BalanceReport
from trackside.engine.errors import Place, TracksideError
from trackside.engine.text import plural
from trackside.engine.writer import check_complete, check_writable, write_bytes

PLOT_FORMATS = (".png", ".svg")


def plot_slots(report: BalanceReport, path: str | os.PathLike[str]) -> None:
    """Write a bar chart of win share per grid slot, the fair share drawn across."""
    target, kind = plot_target(path)
    pyplot = plotting()
    shares = report.slot_shares()
    labels = [
        f"{k + 1}\n{report.grid[k]}" if k < len(report.grid) else str(k + 1) for k in range(SLOTS)
    ]
    values = [100 * share for share, _low, _high in shares]
    below = [100 * (share - low) for share, low, _high in shares]
    above = [100 * (high - share) for share, _low, high in shares]
    figure, axes = pyplot.subplots(figsize=(6.4, 4.0), dpi=120)
    try:
        axes.bar(labels, values, yerr=[below, above], capsize=4, color="#4c8bf5")
        axes.axhline(100 / SLOTS, color="#e5484d", linestyle="--", label="fair share")
        axes.set_xlabel("grid slot (pole = 1) and start space")
        axes.set_ylabel("races won by the car starting there (%)")
        axes.set_title(
            f"{report.track}: {plural(report.games, 'game')}, {report.variant}, "
            f"{report.players} players. Balance {report.balance:.2f}"
        )
        axes.legend()
        figure.tight_layout()
        write_figure(figure, target, kind)
    finally:
        pyplot.close(figure)


def plot_target(path: str | os.PathLike[str]) -> tuple[Path, str]:
    """The file of a plot and its format (png, svg), refused before any drawing when
    the name says no format we draw or the file cannot be written."""
    target = Path(path)
    if target.suffix.lower() not in PLOT_FORMATS:
        raise TracksideError(
            f"cannot tell the plot format from '{target.suffix}'",
            Place(str(target)),
            "use .png or .svg",
        )
    check_writable(target, "--plot")
    return target, target.suffix.lower().lstrip(".")


def plotting() -> Any:
    """matplotlib's pyplot, drawing headless; a clear error when it is not installed."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        from matplotlib import pyplot
    except ImportError:
        raise TracksideError(
            "plotting needs matplotlib, which is not installed",
            Place("--plot"),
            "pip install 'trackside[plot]'",
        ) from None
    return pyplot


def write_figure(figure: Any, target: Path, kind: str) -> None:
    """Draw ``figure`` in memory and write it whole (never half a picture)."""
    drawing = io.BytesIO()
    figure.savefig(drawing, format=kind)
    data = drawing.getvalue()
    check_complete(data, kind, target)
    write_bytes(target, data, "--plot")
