"""``trackside suggest --track T [--games G] [--workers N | --cluster ADDRESS]
[--report FIXES.json] [--json]``.

Tries candidate edits of one circuit by simulation (the finish line a few
spaces earlier or later, a betting line moved, the grid moved back, a lane more
or fewer where cars jam), each against the circuit as it is on the same seeds,
and lists them ranked by how much they lessen what the balance hints warn about,
with 95% intervals of paired differences and a noise mark (docs/balance.md,
Suggest fixes). The report is written through ``engine.writer`` and never onto
a file the search reads.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from trackside.cli.simulate import (
    add_bots_option,
    add_seed_option,
    bot_kinds,
    check_game_count,
    say_notes,
    say_timing,
)
from trackside.cli.table import (
    add_table_options,
    check_tracks,
    player_count,
    print_result,
    refuse_outputs_onto_inputs,
    write_report,
)
from trackside.cli.terminal import unescaped
from trackside.cli.where import add_where_options, check_where, games_executor
from trackside.engine.balance.compare import NOISE_LEGEND
from trackside.engine.balance.fix_words import detail_lines, main_line, worse_line
from trackside.engine.balance.fixes import DEFAULT_GAMES, RANKING, FixSearch, try_fixes
from trackside.engine.balance.players import bots_named
from trackside.engine.balance.runner import BalanceRun
from trackside.engine.errors import Place, TracksideError
from trackside.engine.records import open_track, open_variant
from trackside.engine.text import plural
from trackside.engine.writer import check_writable


def add_parser(
    subparsers: argparse._SubParsersAction[argparse.ArgumentParser],
) -> argparse.ArgumentParser:
    """The ``suggest`` subcommand and its options."""
    parser = subparsers.add_parser(
        "suggest",
        help="try candidate fixes of a circuit by simulation and rank them",
        description="Try edits of one circuit (finish line earlier or later, betting lines "
        "moved, the grid moved back, a lane more or fewer where cars jam) on the same seeds "
        "as the circuit as it is, and rank them by how much they lessen what the balance "
        "hints warn about.",
    )
    add_table_options(parser)
    parser.add_argument(
        "--games",
        type=int,
        default=DEFAULT_GAMES,
        metavar="G",
        help=f"games for the circuit and for each candidate (default {DEFAULT_GAMES})",
    )
    add_seed_option(parser)
    add_bots_option(parser)
    add_where_options(parser)
    parser.add_argument("--report", metavar="FIXES.json", help="write the ranked fixes here")
    parser.add_argument("--json", action="store_true", help="print the ranked fixes as JSON")
    return parser


def run(args: argparse.Namespace) -> int:
    """Try the fixes and print them, best first."""
    check_game_count(args.games)
    check_where(args)
    players = player_count(args, None)
    bots = bot_kinds(args.bots, players)
    if len(args.track) != 1:
        raise TracksideError("suggest tries fixes of one circuit", Place("--track"))
    variant = open_variant(args.variant)
    say_notes(variant)
    if variant.series:
        raise TracksideError(
            f"variant {variant.name!r} races a list of tracks",
            Place("--variant"),
            "use a variant raced on one circuit",
        )
    if args.report:
        check_writable(args.report, "--report")
    refuse_outputs_onto_inputs([("--report", args.report)], args.track, args.variant)
    check_tracks(args.track)
    track = open_track(args.track[0])
    run_spec = BalanceRun(track, variant, players, args.games, args.seed, tuple(bots))
    with games_executor(args) as where:
        search = try_fixes(run_spec, workers=where, progress=_progress())
    if sys.stderr.isatty():
        sys.stderr.write("\n")
    say_timing(search.played, search.seconds)
    data = search.to_dict()
    write_report(args.report, data)
    print_result(args, data, "" if args.json else _text(search))
    return 0


def _progress() -> Callable[[int, int, str], None]:
    """Games played so far and what they are for, on stderr when it is a terminal."""
    out = unescaped(sys.stderr)  # the line's own carriage return moves the cursor
    tty = out.isatty()

    def show(done: int, total: int, what: str) -> None:
        if tty:
            out.write(f"\r{done}/{total} games: {what}\033[K")
            out.flush()

    return show


def _text(search: FixSearch) -> str:
    base = search.base
    out = [
        f"{base.track}: {plural(base.games, 'game')} each with {bots_named(base.bots)}, "
        f"seeds {base.seed} to {base.seed + base.games - 1}, the same for every candidate"
        + (" (cancelled)" if search.cancelled else "")
        + ".",
        "",
        f"Fixes. {RANKING} Each fix: what it changes, the figure it changes most, what it "
        "makes worse, then every other figure. In brackets: the 95% interval of the paired "
        "change.",
        NOISE_LEGEND,
    ]
    if not search.trials:
        out.append("  none of the candidate edits makes a valid circuit")
    for rank, trial in enumerate(search.trials, 1):
        out += [f"  {rank}. {trial.edit.text}", f"     {main_line(trial)}"]
        worse = worse_line(trial)
        if worse:
            out.append(f"     {worse}")
        out += [f"       {line}" for line in detail_lines(trial)]
    unclear = search.unclear()
    if unclear:
        out += ["", unclear]
    if search.untried:
        out += ["", "Not tried:", *(f"  {why}" for why in search.untried)]
    return "\n".join(out)
