"""A person at the terminal in ``trackside play``: sees only what their seat may see,
picks one of the numbered options, and is asked again until the answer is one."""

from __future__ import annotations

from typing import TextIO

from trackside.cli.game_log import LogPrinter
from trackside.engine.bots import Request, SeatView
from trackside.engine.errors import Place, TracksideError
from trackside.engine.game import (
    COLOURS,
    Bet,
    Bid,
    Decision,
    KeepPower,
    Order,
    Path,
    PlayCard,
    Skip,
    SwapPower,
    Wild,
    bid_value,
)
from trackside.engine.game.events import Pending
from trackside.engine.text import ordinal, plural


class Abandoned(TracksideError):
    """The person's input ended before the game did."""

    exit_code = 2


SUB_STEPS = frozenset({"order", "skip", "wild", "path", "bonus"})  # steps within one card


class TerminalSeat:
    """A person answering on a terminal: sees their own view, picks a numbered option.

    The whole situation (hand, power, cars, bets) is printed once for each new decision.
    The later steps of the same card (its rows' order, skips, WILD colours, each car's
    path) print only the question: the log lines just above them say what the card has
    done so far, and nothing else at the table changes within one card.
    """

    kind = "human"

    def __init__(self, printer: LogPrinter, stdin: TextIO, out: TextIO):
        self.printer, self.stdin, self.out = printer, stdin, out
        self.card: int | None = None  # the card whose situation was shown last

    def choose(self, view: SeatView, request: Request) -> Decision:
        """Show the seat's view and the numbered options; re-ask until one is chosen."""
        self.printer.flush()
        for line in self._shown(view, request):
            print(line, file=self.out)
        options = request.options
        for k, option in enumerate(options, 1):
            print(f"  {k:>3}. {describe_option(option, view, request)}", file=self.out)
        chosen = self._answer(request)
        if isinstance(chosen, PlayCard):
            self.card = chosen.card
        return chosen

    def _shown(self, view: SeatView, request: Request) -> list[str]:
        """The question, after the whole situation unless it is a later step of the card
        whose situation was shown last."""
        pending = request.pending
        step = pending.kind in SUB_STEPS and pending.card is not None
        if step and pending.card == self.card:
            return ask(request)
        if step or pending.kind != "bet":  # a bet between two rows keeps the card
            self.card = pending.card if step else None
        return situation(view, request) + ask(request)

    def _answer(self, request: Request) -> Decision:
        options = request.options
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
    """What this seat sees: its hand, powers, the cars and their owners, and the question."""
    return situation(view, request) + ask(request)


def situation(view: SeatView, request: Request) -> list[str]:
    """The seat's hand, the face-up Speed-8 cards, its power, where each car is and whose
    it is, and its bets, under a heading naming the player."""
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
    return lines


def ask(request: Request) -> list[str]:
    """The question of the pending step, and the card it is about."""
    pending = request.pending
    text = ASKS.get(pending.kind, pending.kind)
    power_text = f" with {pending.power}" if pending.power else ""
    if pending.set_aside:
        text = "Second chance: bid on a set-aside car (" + ", ".join(pending.set_aside) + ")"
    lines = [
        text.format(
            car=pending.car,
            power=power_text,
            spaces=_spaces(pending),
            line=(pending.line or 0) + 1,
        )
    ]
    if pending.card is not None and pending.kind in SUB_STEPS:
        lines.append(f"Card: {request.cards[pending.card]}")
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
        return _path(option, view, request)
    if isinstance(option, Bet):
        at = view.positions.get(option.car)
        where = f"at {at}" if at else f"finished {ordinal(view.finished.index(option.car) + 1)}"
        owner = view.owners[option.car]
        who = (
            "yours"
            if owner == request.seat
            else ("unowned" if owner is None else f"Player {owner + 1}'s")
        )
        return f"{option.car} ({where}, {who})"
    return str(option.to_dict())


def _path(option: Path, view: SeatView, request: Request) -> str:
    """A path of a move: from -> to via the spaces entered, and how it ends."""
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
