"""Asking a person one decision: one prompt per kind of decision.

A prompt sets up the table's widgets for the decision due from one seat (the
words above the hand, the hand, the buttons, the lit spaces of the board)
and turns that person's clicks into a decision: a card in the hand (bids and
card plays), a lit space on the board (where a car ends; a second click on a
marked space when paths to one end differ), buttons for the rest (pass,
powers, WILD colours, Tricky order, Strategic skip, bets). The play view
(``play_view.py``) makes one with ``prompt_for`` whenever a person is asked
and applies what it gives back. ``show_cards_read_only`` shows the card in
play and a hand between decisions.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtWidgets import QLabel

from trackside.editor.play.board_view import BoardView
from trackside.editor.play.choice_panel import ChoicePanel
from trackside.editor.play.controller import PlayController
from trackside.editor.play.hand_widget import HandWidget
from trackside.engine.game import (
    COLOURS,
    Bet,
    Bid,
    Card,
    Decision,
    Game,
    KeepPower,
    Order,
    Path,
    PlayCard,
    Skip,
    SwapPower,
    Wild,
)
from trackside.engine.game.cards import bid_value
from trackside.engine.game.preview import card_preview, preview_words
from trackside.engine.text import ordinal, plural

# What each decision asks for, in a few words.
WHAT = {
    "bid": "choose a bid card",
    "keep_power": "choose the power to keep",
    "swap_power": "keep Cunning or swap it",
    "play_card": "play a card",
    "order": "choose the order of the rows (Tricky)",
    "skip": "choose a row to skip (Strategic)",
    "wild": "name the WILD colours",
    "path": "choose where a car ends",
    "bonus": "choose the Determined bonus step",
    "bet": "make a secret bet",
}
Entries = list[tuple[str, str | None, object]]  # button label, car colour or None, payload


def spaces(n: int | None) -> str:
    return plural(n if n is not None else 0, "space")


@dataclass
class Table:
    """The widgets a prompt sets up, and the game they show."""

    prompt: QLabel
    choices: ChoicePanel
    hand: HandWidget
    board: BoardView
    controller: PlayController

    @property
    def race(self) -> Game:
        return self.controller.race

    def card_in_play(self) -> Card:
        """The card being resolved (asked only while one is)."""
        race = self.race
        if race.state.card is None:
            raise RuntimeError("no card is being played")
        return race.card_of(race.state.card)

    def wild_rows(self) -> list[int]:
        """The WILD rows of the card in play still to resolve, top first (named in that order)."""
        card = self.card_in_play()
        return sorted(r for r in self.race.state.row_order if card.rows[r][0] == "wild")


def show_cards_read_only(table: Table, in_play: int | None, lead: str, seat: int | None) -> None:
    """The card in play (titled ``lead``), its rows marked, then ``seat``'s hand."""
    race, controller = table.race, table.controller
    ids = [in_play] if in_play is not None else []
    if seat is not None:
        ids += [k for k in race.state.hands[seat] + race.state.face_up[seat] if k != in_play]
    titles = ([lead] if in_play is not None else []) + (
        [f"{controller.name(seat)}'s hand"] if seat is not None else []
    )
    table.hand.show_cards(
        ", then ".join(titles),
        [race.card_of(k) for k in ids],
        readonly=True,
        notes={in_play: "in play"} if in_play is not None else None,
    )
    if in_play is not None:
        mark_card_in_play(table)


def mark_card_in_play(table: Table, wild_named: tuple[int | str, ...] | None = None) -> None:
    """On the card in play: skipped rows struck, resolved rows dimmed, the row
    moving (or the WILD row being named) ringed, WILD rows in their car's colour
    (``wild_named``: the colours named so far while WILD colours are asked)."""
    race = table.race
    state = race.state
    button = table.hand.buttons.get(state.card) if state.card is not None else None
    if button is None:
        return
    kind = race.pending.kind
    struck = {state.skipped_row} if state.skipped_row is not None else set()
    moving = kind in ("path", "bonus")
    done = set(state.row_order[: max(0, state.rows_started - 1)]) if moving else set()
    current = race.pending.row if moving else None
    named = {r: COLOURS[car] for r, car in state.wild_cars.items()}
    if kind == "wild":
        rows = table.wild_rows()
        chosen = wild_named or ()
        named = dict(zip(rows, map(str, chosen), strict=False))
        current = rows[len(chosen)] if len(chosen) < len(rows) else None
    button.mark_rows(struck, done, current, named)


class Prompt:
    """Asks one seat the decision due; subclasses ask one kind each."""

    kinds: tuple[str, ...] = ()
    shows_card_in_play = True  # beside buttons and board clicks, the card being resolved

    def __init__(self, table: Table, seat: int):
        self.table = table
        self.seat = seat
        self.name = table.controller.name(seat)

    @property
    def race(self) -> Game:
        return self.table.race

    def options(self) -> list[Decision]:
        return self.race.options(self.seat)

    def show(self) -> None:
        """Set up the widgets for the decision."""
        self.ask()
        if self.shows_card_in_play:
            show_cards_read_only(self.table, self.race.state.card, "Card in play", self.seat)

    def ask(self) -> None:
        """Words, cards, buttons or lit spaces for the decision."""
        self.say(f"{self.name}: {WHAT.get(self.race.pending.kind, self.race.pending.kind)}")
        self.table.choices.offer("", [(str(o.to_dict()), None, o) for o in self.options()])

    def say(self, text: str) -> None:
        self.table.prompt.setText(text)

    # What the person's clicks give: a decision, or None while more is to be said.
    def card_clicked(self, card_id: int) -> Decision | None:
        return None

    def chosen(self, payload: object) -> Decision | None:
        return payload if isinstance(payload, Decision) else None

    def space_clicked(self, space_id: str) -> Decision | None:
        return None

    @property
    def choosing_path(self) -> bool:
        """True while a second click must pick one of several paths to one end."""
        return False


class BidPrompt(Prompt):
    """R-AUC-2: a card from the hand (its bid written under it), or Pass; in the
    second chance (R-AUC-8) first the set-aside car."""

    kinds = ("bid",)
    shows_card_in_play = False

    def __init__(self, table: Table, seat: int):
        super().__init__(table, seat)
        self.car: str | None = None  # the set-aside car chosen

    def ask(self) -> None:
        race, table, name, seat = self.race, self.table, self.name, self.seat
        pending = race.pending
        options = self.options()
        hand = [race.card_of(k) for k in race.state.hands[seat]]
        if pending.set_aside and self.car is None:
            cars = sorted(
                {o.car for o in options if isinstance(o, Bid) and o.car}, key=COLOURS.index
            )
            self.say(f"{name}: you have no car yet. Bid on a set-aside car, or pass")
            entries: Entries = [(f"{car} car", car, ("car", car)) for car in cars]
            table.choices.offer("Set-aside cars:", [*entries, ("Pass", None, Bid(seat, None))])
            table.hand.show_cards(f"{name}'s hand", hand, playable=set())
            return
        colour = self.car or pending.car
        if colour is None:  # not an auction
            return
        playable = {
            o.card
            for o in options
            if isinstance(o, Bid) and o.card is not None and (o.car or colour) == colour
        }
        notes = {}
        for card in hand:
            v = bid_value(card, colour, hand)
            notes[card.id] = f"bids {v}" if v is not None else "pass"
        power = f" with {pending.power.title()}" if pending.power else ""
        self.say(
            f"{name}: choose a card to bid on the {colour} car{power} "
            "(secret until everyone has chosen)"
        )
        table.hand.show_cards(f"{name}'s hand", hand, playable, notes)
        if Bid(seat, None) in options:
            table.choices.offer("", [("Pass", None, Bid(seat, None))])

    def card_clicked(self, card_id: int) -> Decision | None:
        return Bid(self.seat, card_id, self.car)

    def chosen(self, payload: object) -> Decision | None:
        if isinstance(payload, tuple) and payload[0] == "car":
            self.car = payload[1]
            self.ask()
            return None
        return super().chosen(payload)


class CardPrompt(Prompt):
    """R-RACE-2: a card from the hand, or a face-up Speed-8 card (two players)."""

    kinds = ("play_card",)
    shows_card_in_play = False

    def ask(self) -> None:
        race, seat, name = self.race, self.seat, self.name
        cards = [race.card_of(k) for k in race.state.hands[seat]]
        notes = {k: "face up" for k in race.state.face_up[seat]}
        cards += [race.card_of(k) for k in race.state.face_up[seat]]
        self.say(f"{name}: play a card" + (" (or a face-up Speed-8 card)" if notes else ""))
        playable = {o.card for o in self.options() if isinstance(o, PlayCard)}
        own = {c for c in COLOURS if race.owner_of(c) == seat}
        previews = {}
        for card_id in playable:
            preview = card_preview(race, card_id)
            previews[card_id] = (preview, preview_words(preview, own))
        self.table.hand.show_cards(f"{name}'s hand", cards, playable, notes, previews=previews)

    def card_clicked(self, card_id: int) -> Decision | None:
        return PlayCard(self.seat, card_id)


class PathPrompt(Prompt):
    """R-MOVE-4/5: a lit space where the car ends; where paths to one end differ,
    a second click on a numbered space (or a button) picks the way. With
    Aggressive the ends only the extra space reaches are marked +1 (R-POW-AGG)."""

    kinds = ("path", "bonus")

    def __init__(self, table: Table, seat: int):
        super().__init__(table, seat)
        self.ambiguous: list[Path] = []

    @property
    def choosing_path(self) -> bool:
        return bool(self.ambiguous)

    def ask(self) -> None:
        race, board, name, seat = self.race, self.table.board, self.name, self.seat
        pending = race.pending
        paths = [o for o in self.options() if isinstance(o, Path)]
        ends = {o.path[-1] for o in paths}
        n = pending.spaces or 0
        extra = {o.path[-1] for o in paths if len(o.path) > n} if pending.extra else set()
        extra -= {o.path[-1] for o in paths if len(o.path) <= n}
        board.set_choices(lit=ends - extra, marked=dict.fromkeys(extra, f"+{pending.extra}"))
        board.mover = pending.car
        board.update()
        whose = race.owner_of(pending.car) if pending.car else None
        cunning = (
            " (Cunning: you move your own car)" if whose == seat and race.state.turn != seat else ""
        )
        step = "its Determined bonus step" if pending.kind == "bonus" else spaces(pending.spaces)
        if pending.extra:
            self.say(
                f"{name}: the {pending.car} car moves {step}, or {spaces(n + pending.extra)} "
                f"with Aggressive (your choice). Click a lit space for {n}, a space marked "
                f"+{pending.extra} to take the extra space"
            )
            return
        self.say(
            f"{name}: the {pending.car} car moves {step}{cunning}. Click a lit space to end there"
        )

    def chosen(self, payload: object) -> Decision | None:
        if isinstance(payload, tuple) and payload[0] == "path":
            return payload[1]
        return super().chosen(payload)

    def space_clicked(self, space_id: str) -> Decision | None:
        if self.ambiguous:
            picked = [p for p in self.ambiguous if space_id in p.path[:-1]]
            if picked and space_id in self.table.board.marked:
                return picked[0]
            return None
        group = [o for o in self.options() if isinstance(o, Path) and o.path[-1] == space_id]
        if len(group) == 1:
            return group[0]
        if group:
            self._offer_paths(group)
        return None

    def _offer_paths(self, group: list[Path]) -> None:
        """Paths to one end that differ in what they cross: mark a space only each
        one enters, for a second click (buttons too, for paths with no such space)."""
        self.ambiguous = group
        marked: dict[str, str] = {}
        entries: Entries = []
        for k, p in enumerate(group, 1):
            others = set().union(*(set(q.path) for q in group if q is not p))
            own = [s for s in p.path[:-1] if s not in others]
            if own:
                marked[own[0]] = str(k)
            entries.append(
                (f"Path {k}: " + " → ".join(p.path) + self._path_note(p), None, ("path", p))
            )
        self.table.board.set_choices(lit={group[0].path[-1]}, marked=marked, trail=[])
        self.say(
            "Several paths end there and they differ (betting lines, Determined, "
            "blocking): click a numbered space to choose the way"
        )
        self.table.choices.offer("", entries)

    def _path_note(self, path: Path) -> str:
        """What a path does that others might not: lines crossed, only rectangles."""
        race = self.race
        move = race.move_of(path)
        if move is None:
            return ""
        notes = [f"crosses line {k + 1}" for k in range(3) if move.crossed >> k & 1]
        if race.pending.extra and len(path.path) > (race.pending.spaces or 0):
            notes.append("Aggressive extra space")  # R-POW-AGG
        if move.rectangular:
            notes.append("only rectangular spaces")
        return f" ({', '.join(notes)})" if notes else ""


class SequencePrompt(Prompt):
    """A Tricky order (R-POW-TRI) or the WILD colours (R-RACE-4), built one
    element at a time from the options."""

    kinds = ("order", "wild")

    def __init__(self, table: Table, seat: int):
        super().__init__(table, seat)
        self.prefix: tuple[int | str, ...] = ()  # the rows or colours chosen so far

    def ask(self) -> None:
        card = self.table.card_in_play()
        n = len(self.prefix)
        fits = [o for o in self.options() if _sequence(o)[:n] == self.prefix]
        entries: Entries
        if self.race.pending.kind == "order":

            def row_label(r: int) -> str:
                c, k = card.rows[r]
                return f"{'WILD' if c == 'wild' else c} {k}"

            nxt = sorted({o.rows[n] for o in fits if isinstance(o, Order)})
            done = ", ".join(row_label(int(r)) for r in self.prefix)
            entries = [(row_label(r), card.rows[r][0], ("seq", r)) for r in nxt]
            if n == 0:
                entries.append(("Printed order", None, ("printed", None)))
            self.say(
                f"{self.name}: Tricky — which row next?" + (f" (so far: {done})" if done else "")
            )
        else:
            rows = self.table.wild_rows()  # skipped WILD rows not counted
            names = sorted({o.colours[n] for o in fits if isinstance(o, Wild)}, key=COLOURS.index)
            entries = [(c, c, ("seq", c)) for c in names]
            which = f" (the {ordinal(n + 1)} of {len(rows)} WILD rows)" if len(rows) > 1 else ""
            spaces_n = card.rows[rows[n]][1] if n < len(rows) else ""
            self.say(f"{self.name}: which car does the WILD {spaces_n} row move?{which}")
            mark_card_in_play(self.table, self.prefix)
        if n:
            entries.append(("Start again", None, ("restart", None)))
        self.table.choices.offer("", entries)

    def show(self) -> None:
        super().show()
        if self.race.pending.kind == "wild":
            mark_card_in_play(self.table, self.prefix)

    def chosen(self, payload: object) -> Decision | None:
        if not isinstance(payload, tuple):
            return super().chosen(payload)
        tag, value = payload
        options = self.options()
        if tag == "printed":
            n = len(self.table.card_in_play().rows)
            return next((o for o in options if _sequence(o) == tuple(range(n))), options[0])
        self.prefix = (*self.prefix, value) if tag == "seq" else ()
        n = len(self.prefix)
        fits = [o for o in options if _sequence(o)[:n] == self.prefix]
        if n and len(fits) == 1:  # complete, or only one way left to complete it
            return fits[0]
        self.ask()
        return None


class BetPrompt(Prompt):
    """R-BET-2: the car to win, secret until scoring."""

    kinds = ("bet",)

    def ask(self) -> None:
        line = (self.race.pending.line or 0) + 1
        self.say(f"{self.name}: bet {line} — which car will win? (secret until scoring)")
        entries: Entries = [(o.car, o.car, o) for o in self.options() if isinstance(o, Bet)]
        self.table.choices.offer("", entries)


class PowerPrompt(Prompt):
    """R-AUC-9: the one power kept; two players: Cunning kept or swapped."""

    kinds = ("keep_power", "swap_power")

    def ask(self) -> None:
        keep = self.race.pending.kind == "keep_power"
        self.say(
            f"{self.name}: "
            + (
                "choose the one power you keep for all your cars"
                if keep
                else "keep Cunning or take a power nobody kept"
            )
        )
        powers = [o for o in self.options() if isinstance(o, (KeepPower, SwapPower))]
        self.table.choices.offer("", [(o.power.title(), None, o) for o in powers])


class SkipPrompt(Prompt):
    """R-POW-STR: one row of the card skipped, or none."""

    kinds = ("skip",)

    def ask(self) -> None:
        card = self.table.card_in_play()
        entries: Entries = []
        for o in self.options():
            if not isinstance(o, Skip):
                continue
            if o.row is None:
                entries.append(("Skip nothing", None, o))
            else:
                c, k = card.rows[o.row]
                entries.append((f"Skip {'WILD' if c == 'wild' else c} {k}", c, o))
        self.say(f"{self.name}: Strategic — you may skip one row of this card")
        self.table.choices.offer("", entries)


PROMPTS: dict[str, type[Prompt]] = {
    kind: cls
    for cls in (
        BidPrompt,
        CardPrompt,
        PathPrompt,
        SequencePrompt,
        BetPrompt,
        PowerPrompt,
        SkipPrompt,
    )
    for kind in cls.kinds
}


def prompt_for(table: Table, seat: int) -> Prompt:
    """The prompt for the decision due now from ``seat``."""
    return PROMPTS.get(table.race.pending.kind, Prompt)(table, seat)


def _sequence(decision: Decision) -> tuple[int | str, ...]:
    """What a person builds one element at a time: a Tricky order's rows, a WILD's colours."""
    if isinstance(decision, Order):
        return decision.rows
    if isinstance(decision, Wild):
        return decision.colours
    return ()
