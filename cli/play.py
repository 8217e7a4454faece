"""``trackside play --track T --variant V --players N [--seats ...] [--seed S] [--record FILE]``.

``trackside play --resume RECORD [--cut K] [--seats ...] [--record FILE]``
continues a recorded game (after its first K decisions).

Plays a game in the terminal and prints its log: the auction with reasons,
each card and every move (car, from -> to, the spaces entered), line
crossings, bets (revealed at the end), the finish order and the score sheet.
Seats default to greedy bots; a ``human`` seat is asked on the terminal and
sees only what that player may see. End of input at a prompt abandons the
game (exit 2).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import replace
from typing import TextIO

from trackside.cli.validate import issue_line
from trackside.engine.bots import (
    BOT_KINDS,
    Request,
    SeatView,
    bot_kind_problem,
    bot_seed,
    drive,
    make_bot,
    race_of,
)
from trackside.engine.errors import InvalidInput, Place, TracksideError
from trackside.engine.game import (
    COLOURS,
    Bet,
    Bid,
    Decision,
    Event,
    Game,
    KeepPower,
    Order,
    Path,
    PlayCard,
    Series,
    Skip,
    SwapPower,
    Wild,
    bid_value,
)
from trackside.engine.game.events import Pending
from trackside.engine.records import (
    Recorder,
    SeatInfo,
    cut,
    load_record,
    open_track,
    open_variant,
    save_record,
)
from trackside.engine.resources import resolve_track
from trackside.engine.text import plural
from trackside.engine.track.validate import Issue
from trackside.engine.yamlio import check_writable

SEAT_KINDS = ("human", *tuple(BOT_KINDS))


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
    parser.add_argument("--record", metavar="FILE", help="save the game record to FILE")
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


def add_table_options(parser: argparse.ArgumentParser) -> None:
    """--track, --variant and --players, shared with ``simulate``."""
    parser.add_argument(
        "--track",
        action="append",
        default=[],
        metavar="TRACK",
        help="track file or bundled track name; repeat for a series "
        "(a series variant plays its own list if none is given)",
    )
    parser.add_argument(
        "--variant",
        default="standard",
        metavar="VARIANT",
        help="bundled variant name (standard, two-player, beginner, "
        "long-distance, world-tour) or a variant file (default standard)",
    )
    parser.add_argument(
        "--players",
        type=int,
        metavar="N",
        help="number of players (default: the number of seats, or 4 within the variant's range)",
    )


def check_tracks(refs: list[str]) -> None:
    """Refuse track files with validation errors before playing on them, listing
    the first errors (a track checked here is not checked again by the game)."""
    for ref in refs:
        path = resolve_track(ref)
        try:
            open_track(path)
        except InvalidInput as exc:
            errors = [p for p in exc.problems if isinstance(p, Issue)]
            if not errors:
                raise
            for issue in errors[:5]:
                print(f"trackside: {issue_line(issue)}", file=sys.stderr)
            raise InvalidInput(
                f"the track has {len(errors)} error{'s' if len(errors) != 1 else ''}; fix it first",
                Place(path),
                f"run 'trackside validate {path}'",
            ) from None


def player_count(args: argparse.Namespace, seats: int | None) -> int:
    """--players, or the number of seats, or 4 within the variant's range."""
    variant = open_variant(args.variant)
    n = (
        args.players
        if args.players is not None
        else (seats or min(max(4, variant.min_players), variant.max_players))
    )
    if not variant.min_players <= n <= variant.max_players:
        raise TracksideError(
            f"variant {variant.name!r} is for {variant.min_players} to "
            f"{variant.max_players} players, not {n}",
            Place("--players"),
        )
    return n


def run(args: argparse.Namespace) -> int:
    """Play one game (or series) to the end; 2 if a human's input ends first."""
    if args.cut is not None and not args.resume:
        raise TracksideError("--cut needs --resume RECORD", Place("--cut"))
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
    check_tracks(args.track)
    seats_info = [SeatInfo(f"Player {seat + 1}", k) for seat, k in enumerate(kinds)]
    rec = Recorder.start(args.track, args.variant, players, args.seed, seats_info)
    return _play(rec, kinds, args.seed, args.record)


def _play(rec: Recorder, kinds: list[str], seed: int, record_file: str | None) -> int:
    """Drive a recorded game to the end, printing its log, then the score sheet."""
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

    printer.flush()
    drive(rec.game, seats, apply=apply)
    printer.flush()
    record = rec.record()
    print_score_sheet(rec.game, kinds, sys.stdout, [s.name for s in record.seats])
    if record_file:
        save_record(record, record_file)
        print(f"Record saved to {record_file}")
    return 0


def _resume(args: argparse.Namespace) -> int:
    """Continue a record's game (cut at --cut K) with the seats of the record or --seats."""
    for option in ("track", "players"):
        if getattr(args, option):
            raise TracksideError(
                f"--{option} cannot be given with --resume (the record names it)",
                Place(f"--{option}"),
            )
    record = load_record(args.resume)
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
    rec = Recorder.resume(replace(record, seats=seats))
    print(f"Resuming {args.resume} after {len(record.decisions)} decisions")
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


# -- the log ------------------------------------------------------------------------
class LogPrinter:
    """Prints the game log as it grows, with moves as car, from -> to and path."""

    def __init__(self, game: Game | Series, out: TextIO, kinds: list[str]):
        self.game, self.out, self.kinds = game, out, kinds
        self.race: Game | None = None
        self.seen = 0
        self.where: dict[str, str] = {}

    def flush(self) -> None:
        """Print the events logged since the last call."""
        race = race_of(self.game)
        if race is not self.race:
            self.race, self.seen, self.where = race, 0, {}
            if isinstance(self.game, Series):
                title = f"Race {self.game.race + 1} of {len(self.game.boards)}"
            else:
                title = "Race"
            self._line(
                f"== {title}: {race.board.track.name} ({race.variant.name}, "
                f"{race.players} players: "
                + ", ".join(f"P{seat + 1} {k}" for seat, k in enumerate(self.kinds))
                + ") =="
            )
        for event in race.log[self.seen :]:
            self._event(race, event)
        self.seen = len(race.log)

    def _line(self, text: str) -> None:
        print(text, file=self.out)

    def _event(self, race: Game, event: Event) -> None:
        kind, data = event.kind, event.data
        if kind == "setup":
            grid = race.board.track.start_grid
            self.where = {colour: grid[k] for k, colour in enumerate(data["grid"])}
            self._line(
                "Start grid: " + ", ".join(f"{grid[k]} {c}" for k, c in enumerate(data["grid"]))
            )
        elif kind in ("move", "finish"):
            car, path = data["car"], data["path"]
            start = self.where.get(car, "?")
            if kind == "finish":
                self.where.pop(car, None)
                end = f"finishes {_ordinal(data['place'])}"
            else:
                self.where[car] = path[-1]
                end = path[-1]
            notes = [
                n
                for n, on in (
                    ("blocked", data.get("blocked")),
                    ("Determined bonus", data.get("bonus")),
                )
                if on
            ]
            extra = f" [{', '.join(notes)}]" if notes else ""
            self._line(f"    {car}: {start} -> {end} (via {' '.join(path)}){extra}")
        elif kind == "cross":
            self._line(f"    * {event.text}")
        elif kind == "play":
            self._line(f"  {event.text}")
        elif kind in ("stay", "order", "skip", "wild"):
            self._line(f"    {event.text}")
        elif kind == "score":
            return  # the score sheet is printed as a table at the end
        else:
            self._line(event.text)


def _ordinal(k: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(k, f"{k}th")


# -- the score sheet -------------------------------------------------------------------
def seat_names(players: int, names: Sequence[str] | None = None) -> list[str]:
    """The seats' names (a record's), else 'Player 1', 'Player 2', ..."""
    # A record's names are any text: keep what prints, so none can steer the terminal.
    clean = ["".join(ch for ch in str(n) if ch.isprintable()).strip() for n in names or []]
    return [
        clean[seat] if seat < len(clean) and clean[seat] else f"Player {seat + 1}"
        for seat in range(players)
    ]


def print_score_sheet(
    game: Game | Series, kinds: list[str], out: TextIO, names: Sequence[str] | None = None
) -> None:
    """The finish order and the score sheet of every race as tables, then the winner."""
    races = game.games if isinstance(game, Series) else [game]
    names = seat_names(races[0].players, names)
    for k, race in enumerate(races):
        title = f"Race {k + 1}: " if len(races) > 1 else ""
        for line in race_sheet(race, kinds, names):
            print(f"{title}{line}" if line.startswith("Finish") else line, file=out)
    res = game.result if isinstance(game, Series) else None
    if res is not None:
        print(
            "Series totals: "
            + ", ".join(f"{names[seat]} {s}" for seat, s in enumerate(res.scores)),
            file=out,
        )
        print(winner_line(res.scores, res.winners, names), file=out)


def race_sheet(race: Game, kinds: list[str], names: Sequence[str] | None = None) -> list[str]:
    """Finish order, bets revealed and the score table of one finished race."""
    res = race.result
    if res is None:
        return ["The race is not over."]
    lines = [
        "Finish order: "
        + (", ".join(f"{_ordinal(i + 1)} {c}" for i, c in enumerate(res.ranking)) or "nobody")
    ]
    if res.stalled:
        lines.append("Stalled: " + ", ".join(res.stalled))
    header = [
        "seat",
        "kind",
        "cars",
        "price",
        "bet 1",
        "bet 2",
        "bet 3",
        "race",
        "bets",
        "winnings",
    ]
    rows = [header]
    names = seat_names(race.players, names)
    for seat in range(race.players):
        cars = " ".join(c for c in COLOURS if race.owner_of(c) == seat) or "-"
        bets = [(res.bets[k][seat] or "-") if res.bets else "-" for k in range(3)]
        rows.append(
            [
                names[seat],
                kinds[seat] if seat < len(kinds) else "?",
                cars,
                str(res.prices[seat]),
                *bets,
                str(res.earnings[seat]),
                str(res.bet_payouts[seat]),
                str(res.scores[seat]),
            ]
        )
    widths = [max(len(r[i]) for r in rows) for i in range(len(header))]
    numeric = {3, 7, 8, 9}
    for r in rows:
        lines.append(
            "  ".join(
                cell.rjust(w) if i in numeric else cell.ljust(w)
                for i, (cell, w) in enumerate(zip(r, widths, strict=False))
            ).rstrip()
        )
    lines.append("  (winnings = race payouts + bet payouts - auction prices, in $M)")
    if race.variant.winner == "money" or len(res.winners) != 1:
        lines.append(winner_line(res.scores, res.winners, names))
    else:
        why = {
            "first_car": "owner of the first car to finish",
            "furthest_car": "owner of the car furthest ahead",
        }[race.variant.winner]
        lines.append(f"Winner: {names[res.winners[0]]} ({why})")
    return lines


def winner_line(
    scores: Sequence[int], winners: Sequence[int], names: Sequence[str] | None = None
) -> str:
    """Who won and, on equal winnings, how the tie was broken (R-SCORE-2)."""
    seat = seat_names(len(scores), names)
    top = max(scores)
    tied = [p for p, s in enumerate(scores) if s == top]
    amount = f"{'-' if top < 0 else ''}${abs(top)}M"
    who = " and ".join(seat[p] for p in winners)
    if len(winners) > 1:
        return f"Winners: {who} share the win ({amount} each, best cars placed equally)"
    if len(tied) > 1:
        others = " and ".join(seat[p] for p in tied if p not in winners)
        return (
            f"Winner: {who} with {amount} (tied with {others}; tie broken by the best-placed car)"
        )
    return f"Winner: {who} with {amount}"


# -- a person at the terminal ------------------------------------------------------------
class Abandoned(TracksideError):
    """The person's input ended before the game did."""

    exit_code = 2


class TerminalSeat:
    """A person answering on a terminal: sees their own view, picks a numbered option."""

    kind = "human"

    def __init__(self, printer: LogPrinter, stdin: TextIO, out: TextIO):
        self.printer, self.stdin, self.out = printer, stdin, out

    def choose(self, view: SeatView, request: Request) -> Decision:
        """Show the seat's view and the numbered options; re-ask until one is chosen."""
        self.printer.flush()
        for line in describe_view(view, request):
            print(line, file=self.out)
        options = request.options
        for k, option in enumerate(options, 1):
            print(f"  {k:>3}. {describe_option(option, view, request)}", file=self.out)
        while True:
            print(
                f"Player {request.seat + 1}, choose 1-{len(options)}: ",
                end="",
                file=self.out,
                flush=True,
            )
            line = self.stdin.readline()
            if not line:
                print(file=self.out)
                raise Abandoned("input ended at a prompt: game abandoned", Place("stdin"))
            text = line.strip()
            if not getattr(self.stdin, "isatty", lambda: False)():
                print(text, file=self.out)  # echo piped answers so the log reads well
            if text.isdigit() and 1 <= int(text) <= len(options):
                return options[int(text) - 1]
            print(f"  please type a number from 1 to {len(options)}", file=self.out)


ASKS = {
    "bid": "Bid for the {car} car{power}: choose a card (its {car} row is the bid)",
    "keep_power": "Keep one power",
    "swap_power": "Keep Cunning or swap it",
    "play_card": "Your turn: play a card",
    "order": "Tricky: the order of the rows",
    "skip": "Strategic: skip a row?",
    "wild": "Name the WILD colours",
    "path": "Move the {car} car {spaces}: choose the path",
    "bonus": "Determined bonus step of the {car} car: choose the space",
    "bet": "Bet {line}: which car will win?",
}


def describe_view(view: SeatView, request: Request) -> list[str]:
    """What this seat sees: its hand, powers, the cars and their owners."""
    pending = request.pending
    cards = request.cards
    lines = ["", f"-- Player {request.seat + 1} --"]
    hand = view.hand
    lines.append(
        f"Your hand ({plural(len(hand), 'card')}): "
        + (" ".join(str(cards[c]) for c in hand) or "(empty)")
    )
    if view.face_up:
        lines.append("Face-up Speed-8: " + " ".join(str(cards[c]) for c in view.face_up))
    power = view.powers[request.seat]
    if power:
        lines.append(f"Your power: {power}")
    cars = []
    for c in COLOURS:
        at = view.positions[c] or "finished"
        owner = view.owners[c]
        who = "you" if owner == request.seat else ("-" if owner is None else f"P{owner + 1}")
        cars.append(f"{c} {at} ({who})")
    lines.append("Cars: " + ", ".join(cars))
    bets = [b for b in view.my_bets if b]
    if bets:
        lines.append("Your bets: " + ", ".join(bets))
    text = ASKS.get(pending.kind, pending.kind)
    power_text = f" with {pending.power}" if pending.power else ""
    if pending.set_aside:
        text = "Second chance: bid on a set-aside car (" + ", ".join(pending.set_aside) + ")"
    lines.append(
        text.format(
            car=pending.car,
            power=power_text,
            spaces=_spaces(pending),
            line=(pending.line or 0) + 1,
        )
    )
    if pending.card is not None and pending.kind in ("order", "skip", "wild", "path", "bonus"):
        lines.append(f"Card: {cards[pending.card]}")
    return lines


def _spaces(pending: Pending) -> str:
    """The spaces of a move, with the Aggressive alternative when offered (R-POW-AGG)."""
    n = pending.spaces or 0
    return plural(n, "space") + (f" (Aggressive: or {n + pending.extra})" if pending.extra else "")


def describe_option(option: Decision, view: SeatView, request: Request) -> str:
    """One option in words."""
    cards = request.cards
    if isinstance(option, Bid):
        if option.card is None:
            return "pass"
        hand = [cards[c] for c in view.hand]
        colour = option.car or request.pending.car
        value = bid_value(cards[option.card], colour, hand) if colour else None
        on = f" on the {option.car} car" if option.car else ""
        return f"bid {value}{on} with {cards[option.card]}"
    if isinstance(option, (KeepPower, SwapPower)):
        return f"keep {option.power}"
    if isinstance(option, PlayCard):
        return str(cards[option.card])
    card = request.pending.card
    if isinstance(option, Order) and card is not None:
        rows = cards[card].rows
        return " then ".join(
            f"{'WILD' if c == 'wild' else c} {n}" for c, n in (rows[k] for k in option.rows)
        )
    if isinstance(option, Skip):
        if option.row is None:
            return "skip nothing"
        if card is None:
            return f"skip row {option.row + 1}"
        c, n = cards[card].rows[option.row]
        return f"skip {'WILD' if c == 'wild' else c} {n}"
    if isinstance(option, Wild):
        return "WILD moves " + ", ".join(option.colours)
    if isinstance(option, Path):
        start = view.positions.get(option.car) or "?"
        end = option.path[-1]
        graph = request.board.graph
        index = request.board.index
        note = ""
        if graph.beyond_finish[index[end]] and request.board.use_finish:
            note = " (finishes)"
        elif request.pending.spaces and len(option.path) < request.pending.spaces:
            note = " (ends blocked)"
        elif request.pending.spaces and len(option.path) > request.pending.spaces:
            note = " (Aggressive extra space)"  # R-POW-AGG
        return f"{option.car}: {start} -> {end} via {' '.join(option.path)}{note}"
    if isinstance(option, Bet):
        at = view.positions.get(option.car)
        where = f"at {at}" if at else f"finished {_ordinal(view.finished.index(option.car) + 1)}"
        owner = view.owners[option.car]
        who = (
            "yours"
            if owner == request.seat
            else ("unowned" if owner is None else f"Player {owner + 1}'s")
        )
        return f"{option.car} ({where}, {who})"
    return str(option.to_dict())
