"""``trackside sweep --set KEY=VALUES ... --track T ... --games G [--variant BASE]
[--workers N | --cluster ADDRESS] [--report SWEEP.json [--fresh]] [--plot FILE]``.

Plays the balance lab over a grid of variant values and circuits: every setting
(the product of the ``--set`` values and the tracks) the same games, paired. Every
setting is checked before any game; a table gives one row per setting, the report
(``trackside-sweep/1``, docs/balance.md) holds each setting's balance report, the
plot draws the figures against the swept values. The report is written as each
setting ends, so that the same command continues a stopped sweep; Ctrl-C stops
the games wherever they run and keeps what finished.
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import Any

from trackside.cli.progress import ProgressBar
from trackside.cli.simulate import (
    add_bots_option,
    add_seed_option,
    bot_kinds,
    check_game_count,
    say_notes,
)
from trackside.cli.table import (
    add_table_options,
    check_tracks,
    player_count,
    print_result,
    refuse_outputs_onto_inputs,
    write_report,
)
from trackside.cli.where import add_where_options, check_where, games_executor
from trackside.engine.balance.players import bots_named
from trackside.engine.balance.sweep import Circuit, Sweep, SweepResults, parse_set, run_sweep
from trackside.engine.balance.sweep_figures import sweep_figures
from trackside.engine.balance.variant_keys import deck_files, written
from trackside.engine.balance.wording import DASH
from trackside.engine.errors import Place, TracksideError
from trackside.engine.records import open_variant
from trackside.engine.text import duration, plural
from trackside.engine.writer import check_writable

INTERRUPTED = 130


def add_parser(
    subparsers: argparse._SubParsersAction[argparse.ArgumentParser],
) -> argparse.ArgumentParser:
    """The ``sweep`` subcommand and its options."""
    parser = subparsers.add_parser(
        "sweep",
        help="measure a grid of variant values and circuits by simulation",
        description="Play the same bot games on every setting of a grid of variant values "
        "(--set) and circuits (--track), and show the balance figures of each: a table, "
        "a report and a plot. The report is saved as each setting ends; the same command "
        "again continues a stopped sweep.",
    )
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="KEY=VALUES",
        help="a variant key by its dotted path (hand.size, payouts.race.0) and its values: "
        "a comma list (10,12,14; a list as [9,6,3]) or a range of whole numbers (5..8); "
        "repeat for a grid",
    )
    add_table_options(
        parser, "a circuit (a track file or bundled name); repeat for more: each plays every value"
    )
    parser.add_argument("--games", type=int, required=True, metavar="G", help="games a setting")
    add_seed_option(parser)
    add_bots_option(parser)
    add_where_options(parser)
    parser.add_argument(
        "--report",
        metavar="SWEEP.json",
        help="write the sweep here, setting by setting; a sweep it holds is continued",
    )
    parser.add_argument(
        "--fresh",
        action="store_true",
        help="start again, replacing what --report holds",
    )
    parser.add_argument(
        "--plot", metavar="FILE", help="draw the figures against the swept values (.png, .svg)"
    )
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    return parser


def run(args: argparse.Namespace) -> int:
    """Check every setting, play what is missing, show and write the sweep."""
    sweep = _sweep(args)
    _check_outputs(args, sweep)
    settings = sweep.settings()
    results = SweepResults.fresh(sweep, settings)
    for note in sweep.notes(settings):
        print(f"trackside: note: {note}", file=sys.stderr)
    if args.report and Path(args.report).exists() and not args.fresh:
        results.resume(_saved(args.report), args.report)
        done = results.finished_settings()
        if done:
            rest = "every setting is there" if results.complete else "playing the rest"
            print(
                f"{args.report}: {done} of {plural(len(settings), 'setting')} already "
                f"played; {rest}",
                file=sys.stderr,
            )
    complete = _play(args, results) if not results.complete else True
    data = results.to_dict()
    write_report(args.report, data)
    if args.plot and results.finished_settings():
        from trackside.engine.balance.sweep_plot import plot_sweep

        plot_sweep(data, args.plot)
    print_result(args, data, "" if args.json else _text(results))
    if not complete:
        kept = (
            f"kept in {args.report}: the same command continues"
            if args.report
            else ("nothing was kept (no --report)")
        )
        print(
            f"trackside: stopped after {results.finished_settings()} of "
            f"{plural(len(settings), 'setting')}; {kept}",
            file=sys.stderr,
        )
        return INTERRUPTED
    return 0


def _sweep(args: argparse.Namespace) -> Sweep:
    """The sweep the arguments ask for, every value and circuit checked."""
    check_game_count(args.games)
    check_where(args)
    if args.fresh and not args.report:
        raise TracksideError(
            "--fresh replaces what --report holds", Place("--fresh"), "give --report too"
        )
    if not args.track:
        raise TracksideError(
            "no circuit", Place("--track"), "give one or more --track (a file or a bundled name)"
        )
    twice = [ref for k, ref in enumerate(args.track) if ref in args.track[:k]]
    if twice:
        raise TracksideError(f"{twice[0]} is given twice", Place("--track"))
    players = player_count(args, None)
    bots = bot_kinds(args.bots, players)
    base = open_variant(args.variant)
    say_notes(base)
    axes = tuple(parse_set(text, base) for text in args.set)
    check_tracks(args.track)
    circuits = tuple(Circuit.open(ref) for ref in args.track)
    return Sweep(args.variant, base, axes, circuits, players, args.games, args.seed, tuple(bots))


def _check_outputs(args: argparse.Namespace, sweep: Sweep) -> None:
    """Refuse unusable outputs before any game: a report or plot that cannot be
    written, or would replace an input; a plot of more than two swept keys."""
    decks = [
        ("a deck of --set", path)
        for axis in sweep.axes
        for value in axis.values
        for path in deck_files({axis.key: value})
    ]
    refuse_outputs_onto_inputs(
        [("--report", args.report), ("--plot", args.plot)], args.track, args.variant, read=decks
    )
    if args.report:
        check_writable(args.report, "--report")
    if args.plot:
        from trackside.engine.balance.plot import plot_target, plotting
        from trackside.engine.balance.sweep_plot import plot_problem

        plot_target(args.plot)
        problem = plot_problem(sweep.identity()["keys"])
        if problem:
            raise TracksideError(problem, Place("--plot"), "keep one or two --set with values")
        plotting()  # matplotlib is there before the games are played, not after


def _saved(path: str) -> Any:
    """The report a sweep saved, as data ("" when the file holds no JSON)."""
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return ""


def _play(args: argparse.Namespace, results: SweepResults) -> bool:
    """Play what the settings miss, saving each as it ends; False when stopped."""
    missing = sum(args.games - r.games for r in results.results)
    bar = ProgressBar(missing)
    count = len(results.settings)

    def progress(done: int, _total: int) -> None:
        bar.update(done, note=f"{results.finished_settings()} of {count} settings")

    def finished(_k: int) -> None:
        write_report(args.report, results.to_dict())

    began = time.perf_counter()
    with _stop_on_interrupt() as stopped, games_executor(args) as where:
        try:
            complete = run_sweep(
                results.settings, results.results, where, progress, stopped, finished
            )
        finally:
            results.seconds += time.perf_counter() - began
            bar.end()
    spent = time.perf_counter() - began
    played = missing - sum(args.games - r.games for r in results.results)
    rate = f" ({played / spent:.1f} games/s)" if spent > 0 else ""
    print(
        f"played {plural(played, 'game')} in {duration(spent)}{rate}, {where_words(args)}",
        file=sys.stderr,
    )
    return complete


def where_words(args: argparse.Namespace) -> str:
    """Where the games ran, in words."""
    if args.cluster:
        return f"on the Dask cluster at {args.cluster}"
    return "in this process" if args.workers == 1 else f"in {args.workers} processes"


@contextmanager
def _stop_on_interrupt() -> Iterator[Callable[[], bool]]:
    """While the block runs, Ctrl-C asks the sweep to stop (the games still out are
    stopped, what finished is kept); a second Ctrl-C interrupts at once."""
    asked: list[bool] = []

    def ask(_signum: int, _frame: FrameType | None) -> None:
        if asked:
            raise KeyboardInterrupt
        asked.append(True)

    try:
        previous = signal.signal(signal.SIGINT, ask)
    except ValueError:  # not the main thread: Ctrl-C stays as it is
        yield lambda: False
        return
    try:
        yield lambda: bool(asked)
    finally:
        signal.signal(signal.SIGINT, previous)


def _text(results: SweepResults) -> str:
    """The table: one row per setting, its values, circuit, games and figures."""
    sweep = results.sweep
    reports = [r.report.to_dict() if r.games else None for r in results.results]
    figures = sweep_figures(reports)
    heads = [axis.key.text for axis in sweep.axes]
    heads += ["track"] if len(sweep.circuits) > 1 else []
    heads += ["games", *(f.name for f in figures)]
    rows = []
    for setting, result, report in zip(results.settings, results.results, reports, strict=True):
        row = [written(v) for v in setting.values]
        row += [sweep.circuits[setting.circuit].ref] if len(sweep.circuits) > 1 else []
        row += [f"{result.games:,}", *(f.cell(report) for f in figures)]
        rows.append(row)
    widths = [max(len(h), *(len(r[k]) for r in rows)) for k, h in enumerate(heads)]
    lines = [
        f"{sweep.base.name}, {sweep.players} players, {bots_named(list(sweep.bots))}, "
        f"seeds {sweep.seed} to {sweep.seed + sweep.games - 1} for every setting; "
        f"95% intervals in brackets, {DASH} where a report has no such figure:",
        "",
        "  ".join(h.ljust(w) for h, w in zip(heads, widths, strict=True)).rstrip(),
    ]
    lines += ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in rows]
    return "\n".join(lines)
