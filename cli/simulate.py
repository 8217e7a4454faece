"""``trackside simulate --track T --variant V --players N --games G [--seed S] [--bots ...]
[--workers N | --cluster ADDRESS] [--json]``.

Plays many bot games and reports, as text or JSON (``games``, ``seconds``,
``seats``, ``grid_slots``, ``mean_cards_played``, ``stalled_per_race``,
``betting_lines``, ``blocked_spaces``; see ``engine.simulate``): wins and mean
winnings by seat, wins by start-grid slot, mean cards played, stalled cars,
when each betting line is first crossed and where cars end blocked. A
progress bar goes to stderr when it is a terminal, else one final line.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from trackside.cli import check_deeper
from trackside.cli.comparison_text import circuits_text, comparison_text
from trackside.cli.progress import ProgressBar
from trackside.cli.simulate_text import stats_text
from trackside.cli.table import (
    add_table_options,
    check_tracks,
    player_count,
    print_result,
    refuse_outputs_onto_inputs,
    write_report,
)
from trackside.cli.where import add_where_options, check_where, games_executor
from trackside.engine.balance.players import LAB_BOTS, bots_named
from trackside.engine.balance.runner import BalanceRun
from trackside.engine.balance.wording import balance_range, hints_text
from trackside.engine.bots import BOT_KINDS, bot_kind_problem
from trackside.engine.errors import Place, TracksideError, UnreadableInput
from trackside.engine.game.variants import variant_path
from trackside.engine.records import game_inputs, open_track, open_variant
from trackside.engine.resources import resolve_track
from trackside.engine.simulate import simulate
from trackside.engine.text import plural
from trackside.engine.yamlio import KIND_NAMES, declared_kind

if TYPE_CHECKING:
    from trackside.engine.game import Variant
    from trackside.engine.track.model import Track

MAX_GAMES = 1_000_000
DEFAULT_MAX_GAMES = 10_000  # the cap of --until-clear
HOW_MANY = (
    "give --games G for a fixed number of games, or --until-clear to stop when the answer "
    "is clear, after at most --max-games N games"
)


def add_parser(
    subparsers: argparse._SubParsersAction[argparse.ArgumentParser],
) -> argparse.ArgumentParser:
    """The ``simulate`` subcommand and its options."""
    parser = subparsers.add_parser(
        "simulate",
        help="play many bot games and report statistics",
        description="Play many games between bots and report wins by seat and grid slot, "
        "cards played, stalled cars, betting-line timing and blocked spaces.",
    )
    add_table_options(parser)
    parser.add_argument("--games", type=int, metavar="G", help="how many games to play")
    parser.add_argument(
        "--until-clear",
        action="store_true",
        help="play until every grid slot's share is known to ±3 points or a slot is shown "
        "outside its fair share (docs/balance.md), at most --max-games games",
    )
    parser.add_argument(
        "--max-games",
        type=int,
        default=DEFAULT_MAX_GAMES,
        metavar="N",
        help=f"the cap of --until-clear (default {DEFAULT_MAX_GAMES:,})",
    )
    add_seed_option(parser)
    add_bots_option(parser)
    parser.add_argument("--json", action="store_true", help="print the statistics as JSON")
    add_where_options(parser)
    parser.add_argument(
        "--report",
        metavar="FILE.json",
        help="write the balance report (docs/balance.md) of one circuit to this file",
    )
    parser.add_argument(
        "--against",
        metavar="VARIANT|TRACK",
        help="compare with another variant (bundled name or file) or another circuit (a "
        "track file, such as an older version of --track): both play the same games, seeds "
        "and deals (paired), and every figure's change is shown with a noise mark",
    )
    check_deeper.add_option(parser)
    parser.add_argument(
        "--plot",
        metavar="FILE",
        help="draw the grid slots' win shares as .png or .svg (needs matplotlib)",
    )
    return parser


def run(args: argparse.Namespace) -> int:
    """Simulate and print the report."""
    _check_games(args)
    players = player_count(args, None)
    bots = bot_kinds(args.bots, players)
    variant = open_variant(args.variant)
    say_notes(variant)
    refs = list(args.track) or list(variant.series)
    if not refs:
        raise TracksideError(
            f"variant {variant.name!r} has no track list",
            Place("--track"),
            "give a track with --track",
        )
    _check_outputs(args)
    if args.check_deeper:
        check_deeper.refuse_combinations(args, len(refs) == 1 and not variant.series, bots)
    other = _against_what(args, variant, players)
    refuse_outputs_onto_inputs(
        [("--report", args.report), ("--plot", args.plot)],
        args.track,
        args.variant,
        read=_against_inputs(args.against, other),
    )
    check_tracks(args.track)
    tracks = [open_track(r) for r in refs]
    if isinstance(other, str):
        check_tracks([other])
    bar = _Progress(args.max_games if args.until_clear else args.games)
    if args.check_deeper:
        run = BalanceRun(tracks[0], variant, players, args.games, args.seed, tuple(bots))
        return check_deeper.run_check(args, run, bar)
    if other is not None and len(tracks) == 1 and not variant.series:
        run = BalanceRun(tracks[0], variant, players, args.games, args.seed, tuple(bots))
        if isinstance(other, str):
            return _against_track(args, run, other, bar)
        return _against(args, run, other, bar)
    if len(tracks) == 1 and not variant.series:
        return _one_circuit(args, tracks[0], refs[0], variant, players, bots, bar)
    if (
        args.report
        or args.plot
        or args.workers > 1
        or args.cluster
        or args.until_clear
        or other is not None
    ):
        raise TracksideError(
            "--report, --plot, --workers, --cluster, --until-clear and --against measure "
            "one circuit, raced once per game",
            Place("--track"),
            "give one --track and a variant without a track list",
        )
    stats = simulate(tracks, variant, players, args.games, args.seed, bots, progress=bar.update)
    bar.done(stats.seconds)
    print_result(args, stats.to_dict(), stats_text(stats))
    return 0


def _against_what(args: argparse.Namespace, variant: Variant, players: int) -> Variant | str | None:
    """What --against names: a variant, checked (raced once per game, at this table), or
    the file of a track (the circuit compared with); either with a fixed number of
    games and no plot."""
    if not args.against:
        return None
    track = _track_file(args.against)
    pair = "the two circuits" if track else "the two variants"
    check_deeper.refuse_with_pairs("--against", pair, args)
    if track:
        return track
    other = open_variant(args.against)
    say_notes(other)
    if other.series:
        raise TracksideError(
            f"variant {other.name!r} has a track list: it is not raced once per game",
            Place("--against"),
            "compare variants raced on one circuit",
        )
    if not other.min_players <= players <= other.max_players:
        raise TracksideError(
            f"variant {other.name!r} is for {other.min_players} to {other.max_players} "
            f"players, not {players}; {variant.name!r} is for {variant.min_players} to "
            f"{variant.max_players}",
            Place("--players"),
            "give a number of players both variants allow",
        )
    return other


def _track_file(ref: str) -> str | None:
    """The track file --against names (a path or a bundled circuit's name), None for a
    variant; refused when it is a Trackside file of another kind (a record, a report)."""
    path = variant_path(ref)
    if not path.exists():
        path = Path(resolve_track(ref))
    kind = declared_kind(path)
    if kind == "track":
        return str(path)
    if kind is None or kind == "variant":
        return None  # a variant, or what the variant reader words the problem of
    named = KIND_NAMES.get(kind, f"a Trackside {kind} file")
    raise UnreadableInput(
        f"this is {named}, not a variant or a track file",
        Place(str(path)),
        "give --against a variant (bundled or a file) or a track file to compare with",
    )


def _against_inputs(ref: str | None, other: Variant | str | None) -> list[tuple[str, str]]:
    """The files --against reads, which no output may replace."""
    if isinstance(other, str):
        return [("the track of --against", other)]
    return game_inputs((), ref) if ref else []


def _against_track(args: argparse.Namespace, run: BalanceRun, path: str, bar: _Progress) -> int:
    """The circuit of --track against the one of --against (in the file ``path``) on the
    same games: every figure's change, the report of both."""
    from trackside.engine.balance.against import compare_runs

    old = open_track(path)
    names = _circuit_names((old, run.track), (args.against, args.track[0]))
    bar.total = 2 * run.games
    # The circuit of --against is the one compared with: every change is from it.
    runs = (
        dataclasses.replace(run, track=old, track_name=names[0]),
        dataclasses.replace(run, track_name=names[1]),
    )
    with games_executor(args) as where:
        comparison = compare_runs(runs, where, progress=bar.update)
    bar.done(comparison.seconds, 2 * comparison.before.games)
    data = comparison.to_dict()
    write_report(args.report, data)
    text = "" if args.json else circuits_text(comparison, (old, run.track))
    print_result(args, data, text)
    return 0


def _circuit_names(tracks: tuple[Track, Track], refs: tuple[str, str]) -> tuple[str, str]:
    """What each circuit compared is called: its name, or its file's where both have one
    name (two versions of a circuit), or the file as given where both files are named
    alike in two folders."""
    for names in (
        (tracks[0].name, tracks[1].name),
        (Path(refs[0]).name, Path(refs[1]).name),
    ):
        if names[0] != names[1]:
            return names
    return refs


def _against(args: argparse.Namespace, run: BalanceRun, other: Variant, bar: _Progress) -> int:
    """Two variants on the same games: every figure's change, the report of both."""
    from trackside.engine.balance.against import compare_variants

    bar.total = 2 * run.games
    # The variant of --against is the one compared with: every change is from it.
    reference = dataclasses.replace(run, variant=other)
    with games_executor(args) as where:
        comparison = compare_variants(reference, run.variant, where, progress=bar.update)
    bar.done(comparison.seconds, 2 * comparison.before.games)
    data = comparison.to_dict()
    write_report(args.report, data)
    print_result(args, data, "" if args.json else comparison_text(comparison, run.track))
    return 0


def add_seed_option(parser: argparse.ArgumentParser) -> None:
    """--seed, shared with ``suggest`` and ``sweep``: game i from seed + i."""
    parser.add_argument(
        "--seed",
        type=int,
        default=0,
        help="seed of the first game; game i uses seed + i (default 0)",
    )


def add_bots_option(parser: argparse.ArgumentParser) -> None:
    """--bots, shared with ``suggest``: the lab's bots unless told otherwise."""
    parser.add_argument(
        "--bots",
        default=",".join(LAB_BOTS),
        metavar="KIND,...",
        help=f"bot kind per seat ({', '.join(BOT_KINDS)}; strong:N searches N deals "
        f"a decision), cycled over the seats (default {','.join(LAB_BOTS)}: the lab's bots)",
    )


def bot_kinds(text: str, players: int) -> list[str]:
    """The bot kinds of --bots, each checked, at most one per player."""
    bots = [b.strip().lower() for b in text.split(",")]
    for b in bots:
        problem = bot_kind_problem(b)
        if problem:
            raise TracksideError(
                problem, Place("--bots"), f"use {', '.join(BOT_KINDS)} or strong:N"
            )
    if len(bots) > players:
        raise TracksideError(f"{plural(len(bots), 'bot')} for {players} players", Place("--bots"))
    return bots


def _check_games(args: argparse.Namespace) -> None:
    """Exactly one of --games and --until-clear, with a count in range."""
    if args.until_clear and args.games is not None:
        raise TracksideError("--games and --until-clear cannot be given together", hint=HOW_MANY)
    if not args.until_clear and args.games is None:
        raise TracksideError("the number of games is not given", Place("--games"), HOW_MANY)
    flag, count = ("--max-games", args.max_games) if args.until_clear else ("--games", args.games)
    check_game_count(count, flag)


def check_game_count(count: int, flag: str = "--games") -> None:
    """Refuse a number of games out of range (shared with ``suggest`` and ``sweep``)."""
    if not 1 <= count <= MAX_GAMES:
        raise TracksideError(f"cannot play {count} games; give 1 to {MAX_GAMES:,}", Place(flag))


def _check_outputs(args: argparse.Namespace) -> None:
    """Refuse unusable output options before any game is played."""
    from trackside.engine.writer import check_writable

    check_where(args)
    if args.report:
        check_writable(args.report, "--report")
    if args.plot:
        from trackside.engine.balance.plot import PLOT_FORMATS

        if not args.plot.lower().endswith(PLOT_FORMATS):
            raise TracksideError(
                "cannot tell the plot format from the file name",
                Place(args.plot),
                "use .png or .svg",
            )
        check_writable(args.plot, "--plot")


def _one_circuit(
    args: argparse.Namespace,
    track: Track,
    ref: str,
    variant: Variant,
    players: int,
    bots: list[str],
    bar: _Progress,
) -> int:
    """One circuit: the statistics, the balance figure and hints, the report and plot."""
    from trackside.engine.balance import BalanceRun, hints
    from trackside.engine.balance.runner import run_totals
    from trackside.engine.balance.sequential import run_until_clear

    games = args.max_games if args.until_clear else args.games
    run = BalanceRun(track, variant, players, games, args.seed, tuple(bots), rotate=False)
    with games_executor(args) as where:
        if args.until_clear:
            totals = run_until_clear(run, where, progress=bar.update)
        else:
            totals = run_totals(run, where, progress=bar.update)
    bar.done(totals.stats.seconds, totals.report.games)
    report, found = totals.report, hints(totals.report, track)
    if args.report:
        write_report(args.report, report.to_dict())
    if args.plot:
        from trackside.engine.balance.plot import plot_slots

        plot_slots(report, args.plot)
    data = totals.stats.to_dict() | {
        "balance": round(report.balance, 4),
        "balance_interval": [round(end, 4) for end in report.balance_interval()],
        "answer": report.answer or None,
        "rules": report.rules.figures(report.money_spread, report.players),
        "hints": [
            {"text": h.text, "severity": h.severity, "spaces": h.spaces, "about": h.about}
            for h in found
        ],
    }
    text = stats_text(totals.stats)
    if report.answer:
        text += f"\n\nStopped at {plural(report.games, 'game')}: {report.answer}."
    text += f"\n\nBalance {balance_range(report)} with {bots_named(report.bots)} "
    text += "(1 = every grid slot wins as often).\n" + "\n".join(hints_text(found))
    print_result(args, data, text)
    return 0


class _Progress(ProgressBar):
    """The bar while games are played, and one line on stderr at the end."""

    def done(self, seconds: float, games: int | None = None) -> None:
        self.end()
        say_timing(self.total if games is None else games, seconds)


def say_notes(variant: Variant) -> None:
    """What a variant file sets that its rules never use, on stderr, before any game."""
    for note in variant.notes:
        sys.stderr.write(f"trackside: note: {variant.source}: {note}\n")


def say_timing(played: int, seconds: float) -> None:
    """The games played and how long they took, on stderr (every command that plays)."""
    rate = f" ({played / seconds:.1f} games/s)" if seconds > 0 else ""
    sys.stderr.write(f"simulated {plural(played, 'game')} in {seconds:.2f} s{rate}\n")
