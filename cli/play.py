"""``trackside play --track T --variant V --players N [--seats ...] [--seed S] [--record FILE]``.

``trackside play --resume RECORD [--cut K] [--seats ...] [--record FILE]``
continues a recorded game (after its first K decisions).

Plays a game in the terminal and prints its log (``cli.game_log``), then the score
sheet (``cli.score_text``). Seats default to greedy bots; a ``human`` seat is asked
on the terminal (``cli.terminal_seat``) and sees only what that player may see.
Ctrl-C, or the end of input at a prompt, stops the game: with ``--record`` the
decisions so far are saved (a record ``--resume`` continues), and the message says
where, or that nothing was written. ``--record`` never replaces a file the game
reads (a track, the variant, the record resumed); with ``--embed`` the record holds
the circuits themselves rather than their file names.
"""

from __future__ import annotations

import argparse
import signal
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

from trackside.cli.game_log import LogPrinter
from trackside.cli.score_text import print_score_sheet
from trackside.cli.table import (
    add_table_options,
    check_tracks,
    player_count,
    refuse_outputs_onto_inputs,
)
from trackside.cli.terminal_seat import Abandoned, TerminalSeat
from trackside.engine.bots import BOT_KINDS, bot_kind_problem, bot_seed, drive, make_bot
from trackside.engine.errors import Place, TracksideError
from trackside.engine.game import Decision
from trackside.engine.records import (
    Recorder,
    SeatInfo,
    cut,
    load_record,
    save_record,
)
from trackside.engine.text import plural
from trackside.engine.writer import check_writable

SEAT_KINDS = ("human", *tuple(BOT_KINDS))
INTERRUPTED = 130  # the exit code of a command stopped by Ctrl-C (128 + SIGINT)


def add_parser(
    subparsers: argparse._SubParsersAction[argparse.ArgumentParser],
) -> argparse.ArgumentParser:
    """The ``play`` subcommand and its options."""
    parser = subparsers.add_parser(
        "play",
        help="play a game in the terminal against bots",
        description="Play a Downforce game in the terminal and print its log. Seats default "
        "to greedy bots; a 'human' seat is asked on the terminal.",
    )
    add_table_options(parser)
    parser.add_argument(
        "--seats",
        metavar="KIND,...",
        help=f"who sits where, in seat order: {', '.join(SEAT_KINDS)} "
        "(missing seats are greedy bots)",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the set-up (default 0)")
    parser.add_argument(
        "--record",
        metavar="FILE",
        help="save the game record to FILE (if the game is stopped, its decisions so far)",
    )
    parser.add_argument(
        "--embed",
        action="store_true",
        help="with --record: keep the circuits themselves in the record, not their file "
        "names, so that it replays whatever becomes of the track files",
    )
    parser.add_argument(
        "--resume",
        metavar="RECORD",
        help="continue the game of a record (tracks, variant, players and seed "
        "come from it; seats too unless --seats is given)",
    )
    parser.add_argument(
        "--cut",
        type=int,
        metavar="K",
        help="with --resume: keep only the record's first K decisions",
    )
    return parser


def run(args: argparse.Namespace) -> int:
    """Play one game (or series) to the end; 2 if a human's input ends first, 130 if
    stopped with Ctrl-C."""
    if args.cut is not None and not args.resume:
        raise TracksideError("--cut needs --resume RECORD", Place("--cut"))
    if args.embed and not args.record:
        raise TracksideError("--embed needs --record FILE", Place("--embed"))
    if args.record:
        check_writable(args.record, "--record")
    if args.resume:
        return _resume(args)
    kinds = _seat_kinds(args.seats)
    players = player_count(args, len(kinds) if kinds else None)
    if len(kinds) > players:
        raise TracksideError(
            f"{plural(len(kinds), 'seat')} for {players} players",
            Place("--seats"),
            "give at most one seat per player",
        )
    kinds += ["greedy"] * (players - len(kinds))
    refuse_outputs_onto_inputs([("--record", args.record)], args.track, args.variant)
    check_tracks(args.track)
    seats_info = [SeatInfo(f"Player {seat + 1}", k) for seat, k in enumerate(kinds)]
    rec = Recorder.start(args.track, args.variant, players, args.seed, seats_info, embed=args.embed)
    return _play(rec, kinds, args.seed, args.record)


def _resume(args: argparse.Namespace) -> int:
    """Continue a record's game (cut at --cut K) with the seats of the record or --seats."""
    for option in ("track", "players"):
        if getattr(args, option):
            raise TracksideError(
                f"--{option} cannot be given with --resume (the record names it)",
                Place(f"--{option}"),
            )
    record = load_record(args.resume)
    refuse_outputs_onto_inputs(
        [("--record", args.record)],
        record.tracks,
        record.variant,
        str(Path(args.resume).parent),
        [("the record resumed", args.resume)],
    )
    if args.cut is not None:
        if not 0 <= args.cut <= len(record.decisions):
            raise TracksideError(
                f"cannot cut at decision {args.cut}",
                Place("--cut"),
                f"{args.resume} has decisions 0 to {len(record.decisions)}",
            )
        record = cut(record, args.cut)
    kinds = (
        _seat_kinds(args.seats)
        if args.seats
        else [s.kind if s.kind in SEAT_KINDS else "greedy" for s in record.seats]
    )
    if len(kinds) != record.players:
        raise TracksideError(
            f"{plural(len(kinds), 'seat')} for the record's {record.players} players",
            Place("--seats"),
            "give one seat per player",
        )
    seats = [SeatInfo(s.name, k) for s, k in zip(record.seats, kinds, strict=False)]
    rec = Recorder.resume(replace(record, seats=seats), embed=args.embed)
    if rec.changed:
        print(
            f"trackside: note: {args.resume}: {rec.changed}; the game goes on as they are now",
            file=sys.stderr,
        )
    print(f"Resuming {args.resume} after {plural(len(record.decisions), 'decision')}")
    return _play(rec, kinds, record.seed, args.record)


def _seat_kinds(text: str | None) -> list[str]:
    if not text:
        return []
    kinds = [k.strip().lower() for k in text.split(",")]
    for k in kinds:
        if k not in SEAT_KINDS and bot_kind_problem(k):
            raise TracksideError(
                f"unknown seat kind {k!r}", Place("--seats"), f"use {', '.join(SEAT_KINDS)}"
            )
    return kinds


def _play(rec: Recorder, kinds: list[str], seed: int, record_file: str | None) -> int:
    """Drive a recorded game to the end, printing its log, then the score sheet; a game
    stopped on the way keeps its decisions so far (``_stopped``)."""
    printer = LogPrinter(rec.game, sys.stdout, kinds)
    seats = [
        TerminalSeat(printer, sys.stdin, sys.stdout)
        if k == "human"
        else make_bot(k, bot_seed(seed, seat, k))
        for seat, k in enumerate(kinds)
    ]

    def apply(decision: Decision) -> None:
        rec.apply(decision)
        printer.flush()

    try:
        printer.flush()
        drive(rec.game, seats, apply=apply)
    except (KeyboardInterrupt, Abandoned) as stop:
        return _stopped(rec, record_file, stop)
    printer.flush()
    record = rec.record()
    print_score_sheet(rec.game, kinds, sys.stdout, [s.name for s in record.seats])
    if record_file:
        save_record(record, record_file)
        print(f"Record saved to {record_file}")
    return 0


def _stopped(rec: Recorder, record_file: str | None, stop: KeyboardInterrupt | Abandoned) -> int:
    """Save the decisions so far to ``record_file`` (if given) and say where, or say that
    nothing was written; the exit code of the stop."""
    print(file=sys.stdout, flush=True)  # end the line a prompt may have left open
    why = "interrupted" if isinstance(stop, KeyboardInterrupt) else stop.message
    code = INTERRUPTED if isinstance(stop, KeyboardInterrupt) else stop.exit_code
    if not record_file:
        print(
            f"trackside: {why}; nothing was written (give --record FILE to keep a game "
            "stopped on the way)",
            file=sys.stderr,
        )
        return code
    record = rec.record()
    try:
        with _no_interruption():
            save_record(record, record_file)
    except TracksideError as exc:
        print(f"trackside: {why}; the game so far could not be saved: {exc}", file=sys.stderr)
        return code
    print(
        f"trackside: {why}; the game so far ({plural(len(record.decisions), 'decision')}) "
        f"is saved to {record_file} (continue it with: trackside play --resume {record_file})",
        file=sys.stderr,
    )
    return code


@contextmanager
def _no_interruption() -> Iterator[None]:
    """Ctrl-C is ignored while the block runs (where signals can be set: the main thread)."""
    try:
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:  # not the main thread
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
