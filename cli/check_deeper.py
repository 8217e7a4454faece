"""``trackside simulate --check-deeper``: the run's bots and stronger ones on the same
games, every figure's change, and one line saying whether the verdict holds
(``engine/balance/deeper.py``)."""

from __future__ import annotations

import argparse
from typing import Protocol

from trackside.cli.comparison_text import change_lines, hint_lines
from trackside.cli.table import print_result, write_report
from trackside.cli.where import games_executor
from trackside.engine.balance.deeper import DeeperCheck, check_deeper, no_stronger
from trackside.engine.balance.players import bots_named
from trackside.engine.balance.runner import BalanceRun
from trackside.engine.errors import Place, TracksideError
from trackside.engine.text import plural

FLAG = "--check-deeper"


class Progress(Protocol):
    """The progress bar of ``simulate``."""

    total: int

    def update(self, k: int, waiting: str = "") -> None: ...

    def done(self, seconds: float, games: int | None = None) -> None: ...


def add_option(parser: argparse.ArgumentParser) -> None:
    """The --check-deeper flag of ``simulate``."""
    parser.add_argument(
        FLAG,
        action="store_true",
        help="play the same games again with stronger bots (a search twice as deep; "
        "docs/balance.md) and say in one line whether the verdict holds",
    )


def refuse_combinations(args: argparse.Namespace, one_circuit: bool, bots: list[str]) -> None:
    """Refuse what a check with stronger bots cannot do, before any game is played."""
    if args.against:
        raise TracksideError(
            f"{FLAG} and --against cannot be given together: one compares two sets of bots, "
            "the other two variants or two circuits",
            Place("--against"),
            f"run simulate once with {FLAG} and once with --against",
        )
    refuse_with_pairs(FLAG, "the two sets of bots", args)
    if not one_circuit:
        raise TracksideError(
            f"{FLAG} checks one circuit, raced once per game",
            Place("--track"),
            "give one --track and a variant without a track list",
        )
    problem = no_stronger(tuple(bots))
    if problem:
        raise TracksideError(problem, Place("--bots"), "give greedy or strong bots")


def refuse_with_pairs(flag: str, pair: str, args: argparse.Namespace) -> None:
    """Refuse, for ``flag`` that plays the same games twice (``pair``: the two sets of
    bots, the two variants), what only a single run does: stop when its answer is clear,
    plot."""
    if args.until_clear:
        raise TracksideError(
            f"{flag} pairs {pair} game by game over a fixed number of games, and "
            "--until-clear stops a single run when its answer is clear",
            Place("--until-clear"),
            "give --games G instead of --until-clear",
        )
    if args.plot:
        raise TracksideError(
            f"a plot draws the grid slots of a single run, and {flag} makes one for each of {pair}",
            Place("--plot"),
            f"draw the plot from a run without {flag}",
        )


def run_check(args: argparse.Namespace, run: BalanceRun, bar: Progress) -> int:
    """Both sets of bots on the same games: the figures, the hints, the verdict's line."""
    bar.total = 2 * run.games
    with games_executor(args) as where:
        check = check_deeper(run, where, progress=bar.update)
    bar.done(check.comparison.seconds, 2 * check.comparison.before.games)
    data = check.to_dict()
    write_report(args.report, data)
    print_result(args, data, "" if args.json else check_text(check, run))
    return 0


def check_text(check: DeeperCheck, run: BalanceRun) -> str:
    """The figures with both sets of bots side by side, what each says, then the verdict."""
    comparison = check.comparison
    a, b = comparison.before, comparison.after
    names = (", ".join(dict.fromkeys(a.bots)), ", ".join(dict.fromkeys(b.bots)))
    out = [
        f"{a.variant} on {a.track}: {plural(a.games, 'game', spec=',')} with {a.players} "
        f"players, played by {bots_named(a.bots)} and again by stronger bots ({names[1]}), "
        f"paired (game i of both from seed {a.seed} + i, dealt alike, the same seats)"
        + (" (cancelled)" if comparison.cancelled else ""),
        "",
        *change_lines(comparison, names),
        *hint_lines([(bots_named(a.bots), a, run.track), (bots_named(b.bots), b, run.track)]),
        "",
        check.verdict.line(),
    ]
    return "\n".join(out)
