"""A sweep's figures drawn against what it swept (``sweep --plot``), from its report
(``trackside-sweep/1``): one panel per figure (``sweep_figures``), with its 95%
intervals as error bars.

- one key swept: the figure against the key's values, a line per circuit;
- circuits alone: the figure per circuit;
- two keys swept: a heat map per figure (and per circuit), the first key down,
  the second across, each cell written with its value; the colours span at
  least a 95% interval, so that cells apart by chance alone look alike (a
  figure without intervals, the balance of a report from before its interval
  was written, spans only its values).

A sweep of more keys has no plot (``plot_problem`` says so before any game).
"""

from __future__ import annotations

import math
import os
import textwrap
from collections.abc import Mapping, Sequence
from typing import Any

from trackside.engine.balance.plot import plot_target, plotting, write_figure
from trackside.engine.balance.sweep_figures import Estimate, Figure, sweep_figures
from trackside.engine.balance.variant_keys import written
from trackside.engine.text import plural

PANEL_COLUMNS = 3
LABEL_WIDTH = 14  # characters of a value's line on an axis
CIRCUIT_COLOURS = ("#4c8bf5", "#e5484d", "#30a46c", "#f5a524", "#8e4ec6", "#12a594")


def swept_keys(keys: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The keys of a sweep that take more than one value (its axes)."""
    return [key for key in keys if len(key["values"]) > 1]


def plot_problem(keys: Sequence[Mapping[str, Any]]) -> str:
    """Why a sweep of these keys cannot be plotted ("" when it can)."""
    swept = swept_keys(keys)
    if len(swept) > 2:
        names = ", ".join(str(key["key"]) for key in swept)
        return f"a plot shows one or two swept keys; this sweep has {len(swept)} ({names})"
    return ""


def plot_sweep(data: Mapping[str, Any], path: str | os.PathLike[str]) -> None:
    """Draw the sweep in ``data`` (its report) to ``path`` (.png or .svg)."""
    target, kind = plot_target(path)
    pyplot = plotting()
    sweep = data["sweep"]
    keys, tracks = sweep["keys"], [t["ref"] for t in sweep["tracks"]]
    reports = {_where(s["values"], s["track"]): s["report"] for s in data["settings"]}
    figures = [
        f for f in sweep_figures(reports.values()) if any(f.estimate(r) for r in reports.values())
    ]
    swept = swept_keys(keys)
    fixed = {str(k["key"]): k["values"][0] for k in keys if len(k["values"]) == 1}
    heat = len(swept) == 2
    panels = [(f, t) for f in figures for t in tracks] if heat else [(f, "") for f in figures]
    columns = min(PANEL_COLUMNS, max(1, len(panels)))
    rows = max(1, math.ceil(len(panels) / columns))
    figure, grid = pyplot.subplots(
        rows, columns, figsize=(4.6 * columns, 3.4 * rows + 0.6), dpi=110, squeeze=False
    )
    try:
        for k, cell in enumerate(grid.flat):
            if k >= len(panels):
                cell.set_visible(False)
                continue
            shown, track = panels[k]
            if heat:
                _heat_map(figure, cell, shown, swept, fixed, track, reports, sweep["games"])
            else:
                _lines(cell, shown, swept, fixed, tracks, reports, sweep["games"])
        figure.suptitle(_title(data, fixed))
        figure.tight_layout()
        write_figure(figure, target, kind)
    finally:
        pyplot.close(figure)


def _where(values: Mapping[str, Any], track: str) -> tuple[str, ...]:
    return (*sorted(f"{k}={written(v)}" for k, v in values.items()), track)


def _title(data: Mapping[str, Any], fixed: Mapping[str, Any]) -> str:
    sweep = data["sweep"]
    held = ", ".join(f"{k}={written(v)}" for k, v in fixed.items())
    title = (
        f"{sweep['variant']['name']}{f' ({held})' if held else ''}: "
        f"{plural(sweep['games'], 'game')} a setting, seeds from {sweep['seed']}, "
        f"{sweep['players']} players, {', '.join(dict.fromkeys(sweep['bots']))} bots"
    )
    short = sum(1 for s in data["settings"] if _short(s["report"], sweep["games"]))
    if short:
        title += (
            f"\nstopped early: {plural(short, 'setting')} of {len(data['settings'])} "
            "played fewer games (marked *, their intervals wider)"
        )
    return title


def _short(report: Mapping[str, Any] | None, games: int) -> bool:
    """Whether a setting's report holds fewer games than the sweep asks (it stopped)."""
    return report is None or report["games"] < games


def _lines(
    cell: Any,
    shown: Figure,
    swept: Sequence[Mapping[str, Any]],
    fixed: Mapping[str, Any],
    tracks: Sequence[str],
    reports: Mapping[tuple[str, ...], Any],
    games: int,
) -> None:
    """The figure against the swept key (or per circuit), a line per circuit; a point
    of fewer games than ``games`` (a stopped sweep) is marked *."""
    if swept:
        name, values = str(swept[0]["key"]), list(swept[0]["values"])
        numeric = all(_is_number(v) for v in values)
        xs = [float(v) for v in values] if numeric else list(range(len(values)))
        for c, track in enumerate(tracks):
            chosen = [reports.get(_where({**fixed, name: v}, track)) for v in values]
            found = [shown.estimate(report) for report in chosen]
            _errorbars(cell, xs, found, shown, track if len(tracks) > 1 else "", c)
            _stars(cell, xs, found, shown, [_short(r, games) for r in chosen])
        if not numeric:
            cell.set_xticks(xs, [_label(v) for v in values], rotation=30, ha="right")
        cell.set_xlabel(name)
        if len(tracks) > 1:
            cell.legend(fontsize="small")
    else:
        xs = list(range(len(tracks)))
        found = [shown.estimate(reports.get(_where(fixed, t))) for t in tracks]
        _errorbars(cell, xs, found, shown, "", 0)
        cell.set_xticks(xs, tracks, rotation=30, ha="right")
        cell.set_xlabel("circuit")
    cell.set_title(shown.name, fontsize="medium")
    if shown.form == "share":
        cell.set_ylabel("%")
    cell.grid(True, alpha=0.3)


def _stars(
    cell: Any,
    xs: Sequence[float],
    found: Sequence[Estimate | None],
    shown: Figure,
    short: Sequence[bool],
) -> None:
    scale = 100.0 if shown.form == "share" else 1.0
    for x, estimate, is_short in zip(xs, found, short, strict=True):
        if estimate is not None and is_short:
            cell.annotate(
                "*",
                (x, scale * estimate.value),
                textcoords="offset points",
                xytext=(5, 5),
                fontsize="large",
            )


def _errorbars(
    cell: Any,
    xs: Sequence[float],
    found: Sequence[Estimate | None],
    shown: Figure,
    label: str,
    colour: int,
) -> None:
    scale = 100.0 if shown.form == "share" else 1.0
    points = [(x, e) for x, e in zip(xs, found, strict=True) if e is not None]
    if not points:
        return
    x = [p[0] for p in points]
    y = [scale * p[1].value for p in points]
    below = [scale * (e.value - e.low) if e.low is not None else 0.0 for _x, e in points]
    above = [scale * (e.high - e.value) if e.high is not None else 0.0 for _x, e in points]
    cell.errorbar(
        x,
        y,
        yerr=[below, above],
        marker="o",
        capsize=3,
        color=CIRCUIT_COLOURS[colour % len(CIRCUIT_COLOURS)],
        label=label or None,
    )


def _heat_map(
    figure: Any,
    cell: Any,
    shown: Figure,
    swept: Sequence[Mapping[str, Any]],
    fixed: Mapping[str, Any],
    track: str,
    reports: Mapping[tuple[str, ...], Any],
    games: int,
) -> None:
    """The figure over two swept keys: the first down, the second across; a cell of
    fewer games than ``games`` (a stopped sweep) is marked *."""
    (down, down_values), (across, across_values) = (
        (str(k["key"]), list(k["values"])) for k in swept
    )
    scale = 100.0 if shown.form == "share" else 1.0
    grid: list[list[float]] = []
    widths: list[float] = []  # of the intervals
    marks: list[list[str]] = []
    for a in down_values:
        row = []
        marks.append([])
        for b in across_values:
            report = reports.get(_where({**fixed, down: a, across: b}, track))
            found = shown.estimate(report)
            marks[-1].append("*" if _short(report, games) else "")
            row.append(scale * found.value if found else math.nan)
            if found and found.low is not None and found.high is not None:
                widths.append(scale * (found.high - found.low))
        grid.append(row)
    image = cell.imshow(grid, cmap="viridis", aspect="auto", **_colour_span(grid, widths))
    figure.colorbar(image, ax=cell, label="%" if shown.form == "share" else None)
    digits = 1 if shown.form == "share" else shown.digits
    finite = [v for row in grid for v in row if not math.isnan(v)]
    middle = (min(finite) + max(finite)) / 2 if finite else 0.0
    for i, row in enumerate(grid):
        for j, value in enumerate(row):
            if not math.isnan(value):
                cell.text(
                    j,
                    i,
                    f"{value:.{digits}f}{marks[i][j]}",
                    ha="center",
                    va="center",
                    fontsize="small",
                    color="black" if value > middle else "white",
                )
    cell.set_xticks(range(len(across_values)), [_label(v) for v in across_values])
    cell.set_yticks(range(len(down_values)), [_label(v) for v in down_values])
    cell.set_xlabel(across)
    cell.set_ylabel(down)
    cell.set_title(f"{shown.name}, {track}", fontsize="medium")


def _colour_span(grid: list[list[float]], widths: list[float]) -> dict[str, float]:
    """The values the colours span: at least the width of a 95% interval (the middle
    one), so that cells apart by no more than chance look alike."""
    finite = [v for row in grid for v in row if not math.isnan(v)]
    if not finite:
        return {}
    low, high = min(finite), max(finite)
    least = sorted(widths)[len(widths) // 2] if widths else 0.0
    if high - low >= least:
        return {}
    middle = (low + high) / 2
    return {"vmin": middle - least / 2, "vmax": middle + least / 2}


def _label(value: object) -> str:
    """A value on an axis, long ones (lists) over a few lines."""
    return textwrap.fill(written(value), LABEL_WIDTH, break_long_words=False)


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)
