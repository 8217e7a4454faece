"""Play mode inside the main window: the board, the table, the hand and the prompts.

``PlayView`` shows one game driven by a ``PlayController``. It renders the
engine's state (only what the seat at the screen may see) and turns a
person's clicks into decisions: a card in the hand (bids and card plays), a
lit space on the board (where a car ends; a second click on a marked space
when paths to one end differ), buttons for the rest (pass, powers, WILD
colours, Tricky order, Strategic skip, bets).
"""

from __future__ import annotations

from PySide6.QtCore import QElapsedTimer, Qt, QTimer, Signal
from PySide6.QtGui import QFont, QFontMetrics
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QSlider,
    QSplitter,
    QStackedWidget,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from trackside.editor.play.auction_panel import AuctionPanel
from trackside.editor.play.board_view import BoardView
from trackside.editor.play.choice_panel import ChoicePanel
from trackside.editor.play.controller import PlayController
from trackside.editor.play.hand_widget import HandWidget
from trackside.editor.play.handover import HandoverScreen
from trackside.editor.play.players_panel import PlayersTable, distance_ranking, owner_marks
from trackside.editor.play.score_sheet import ScoreSheet
from trackside.editor.widgets.elided_label import ElidedLabel
from trackside.engine.game import (
    COLOURS,
    Bet,
    Bid,
    Card,
    Decision,
    Game,
    IllegalDecision,
    KeepPower,
    Order,
    Path,
    PlayCard,
    Series,
    Skip,
    SwapPower,
    Wild,
)
from trackside.engine.game.cards import bid_value
from trackside.engine.text import ordinal, plural

__all__ = ["PlayView"]

LOG_LINES = 500  # the oldest lines go beyond this
# Bots at full speed change the game hundreds of times a second: the table is redrawn
# at most this often (a lone change still shows at once).
REFRESH_MS = 40
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
BOARD, HANDOVER, SHEET = 0, 1, 2


def spaces(n: int | None) -> str:
    return plural(n if n is not None else 0, "space")


class PlayView(QWidget):
    """The whole play mode; ``leave`` asks to go back to editing, ``saveRecord`` to save."""

    leave = Signal()
    takeOver = Signal()  # a replay becomes a live game from the decision reached
    saveRecord = Signal()
    newGame = Signal()

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.controller: PlayController | None = None
        self._prefix: tuple[int | str, ...] = ()  # Tricky order / WILD colours chosen so far
        self._second_car: str | None = None
        self._ambiguous: list[Path] = []
        self._shown_phase = ""
        self._refresh_timer = QTimer(self)
        self._refresh_timer.setSingleShot(True)
        self._refresh_timer.timeout.connect(self.refresh)
        self._since_refresh = QElapsedTimer()
        self._build()

    # -- building -----------------------------------------------------------------
    def _build(self) -> None:
        outer = QVBoxLayout(self)
        outer.setContentsMargins(4, 4, 4, 4)
        outer.addLayout(self._build_bar())
        split = QSplitter(Qt.Orientation.Horizontal)
        self.pages = QStackedWidget()
        self.board = BoardView()
        self.handover = HandoverScreen()
        sheet_page = QWidget()
        sheet_layout = QVBoxLayout(sheet_page)
        self.sheet = ScoreSheet()
        sheet_layout.addWidget(self.sheet, 1)
        buttons = QHBoxLayout()
        self.next_race_button = QPushButton("Start the next race")
        self.show_board_button = QPushButton("Show the board")
        self.sheet_save_button = QPushButton("Save game record…")
        self.sheet_new_button = QPushButton("New game…")
        self.sheet_back_button = QPushButton("Back to editing")
        for b in (
            self.next_race_button,
            self.show_board_button,
            self.sheet_save_button,
            self.sheet_new_button,
            self.sheet_back_button,
        ):
            buttons.addWidget(b)
        sheet_layout.addLayout(buttons)
        self.pages.addWidget(self.board)
        self.pages.addWidget(self.handover)
        self.pages.addWidget(sheet_page)
        split.addWidget(self.pages)
        split.addWidget(self._build_side())
        split.setStretchFactor(0, 4)
        split.setStretchFactor(1, 1)
        split.setSizes([1000, 470])
        outer.addWidget(split, 1)
        self.prompt = QLabel()
        font = QFont(self.font())
        font.setPointSizeF(font.pointSizeF() * 1.2)
        font.setBold(True)
        self.prompt.setFont(font)
        self.prompt.setWordWrap(True)
        # Room for two lines whether or not they are used, so the board keeps its size.
        self.prompt.setFixedHeight(QFontMetrics(font).lineSpacing() * 2 + 4)
        self.prompt.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        outer.addWidget(self.prompt)
        self.choices = ChoicePanel()
        outer.addWidget(self.choices)
        self.hand = HandWidget()
        self.hand.setMinimumHeight(160)
        outer.addWidget(self.hand)
        self.board.spaceClicked.connect(self._space_clicked)
        self.hand.cardClicked.connect(self._card_clicked)
        self.choices.chosen.connect(self._choice)
        self.handover.accepted.connect(self._handover_accepted)
        self.next_race_button.clicked.connect(self._next_race)
        self.show_board_button.clicked.connect(lambda: self.pages.setCurrentIndex(BOARD))
        self.sheet_save_button.clicked.connect(self.saveRecord)
        self.sheet_new_button.clicked.connect(self.newGame)
        self.sheet_back_button.clicked.connect(self.leave)

    def _build_bar(self) -> QHBoxLayout:
        bar = QHBoxLayout()
        self.status = ElidedLabel()
        self.status.setMinimumWidth(120)
        font = QFont(self.font())
        font.setBold(True)
        self.status.setFont(font)
        bar.addWidget(self.status, 1)
        bar.addWidget(QLabel("Bot speed"))
        self.speed = QSlider(Qt.Orientation.Horizontal)
        self.speed.setRange(0, 2000)
        self.speed.setInvertedAppearance(True)  # right is faster: less delay
        self.speed.setFixedWidth(140)
        self.speed.setToolTip("Delay between bot moves (right: faster)")
        self.speed.valueChanged.connect(self._speed_changed)
        bar.addWidget(self.speed)
        self.pause_button = QPushButton("Pause")
        self.pause_button.setCheckable(True)
        self.pause_button.toggled.connect(self._pause_toggled)
        self.step_button = QPushButton("Step")
        self.step_button.setToolTip("While paused: one bot decision")
        self.step_button.clicked.connect(self._step)
        self.save_button = QPushButton("Save record…")
        self.save_button.clicked.connect(self.saveRecord)
        self.take_over_button = QPushButton("Play from here")
        self.take_over_button.setToolTip(
            "Continue this recorded game from the decision "
            "reached: people and bots take their seats"
        )
        self.take_over_button.clicked.connect(self.takeOver)
        self.sheet_button = QPushButton("Score sheet")
        self.sheet_button.setToolTip("The score sheet of the races finished so far")
        self.sheet_button.clicked.connect(lambda: self.pages.setCurrentIndex(SHEET))
        self.back_button = QPushButton("Back to editing")
        self.back_button.clicked.connect(self.leave)
        for b in (
            self.pause_button,
            self.step_button,
            self.take_over_button,
            self.save_button,
            self.sheet_button,
            self.back_button,
        ):
            bar.addWidget(b)
        return bar

    def _build_side(self) -> QWidget:
        side = QWidget()
        layout = QVBoxLayout(side)
        layout.setContentsMargins(0, 0, 0, 0)
        self.players = PlayersTable()
        layout.addWidget(self.players, 2)
        tabs = QTabWidget()
        self.auction = AuctionPanel()
        # A plain text log: appending a line costs the same however long the log is
        # (a word-wrapped list re-laid out every row on each event).
        self.log = QPlainTextEdit()
        self.log.setReadOnly(True)
        self.log.setMaximumBlockCount(LOG_LINES)
        tabs.addTab(self.log, "Log")
        tabs.addTab(self.auction, "Auction")
        self.tabs = tabs
        layout.addWidget(tabs, 3)
        return side

    # -- starting -----------------------------------------------------------------
    def start(self, controller: PlayController) -> None:
        """Show and run the game that ``controller`` drives."""
        if self.controller is not None:
            self.controller.stop()
            self.controller.deleteLater()
        self.controller = c = controller
        c.setParent(self)
        c.changed.connect(self._changed)
        c.asked.connect(self._asked)
        c.handover.connect(self._handover)
        c.logged.connect(self._logged)
        c.moved.connect(self.board.animate)
        c.raceStarted.connect(self._race_started)
        c.finished.connect(self._finished)
        c.failed.connect(self._failed)
        self.board.anim_ms = c.anim_ms
        self.speed.blockSignals(True)
        self.speed.setValue(c.bot_ms)
        self.speed.blockSignals(False)
        self.pause_button.setChecked(c.paused)
        self.pause_button.setText("Resume" if c.paused else "Pause")
        self.log.clear()
        self.board.set_board(c.race.board)
        self._logged(list(c.game.log))
        self.pages.setCurrentIndex(BOARD)
        self.next_race_button.hide()
        self.sheet_button.setEnabled(False)  # a sheet exists once a race has ended
        self.pause_button.setEnabled(True)
        self.step_button.setEnabled(True)
        self.save_button.setEnabled(c.script is None)
        self.take_over_button.setVisible(c.script is not None)
        self.sheet_save_button.setEnabled(c.script is None)
        self._clear_prompt()
        self.hand.setVisible(True)
        self.choices.setVisible(True)
        c.start()

    def _speed_changed(self, value: int) -> None:
        if self.controller:
            self.controller.set_speed(value)

    def _step(self) -> None:
        if self.controller:
            self.controller.step()

    def _pause_toggled(self, on: bool) -> None:
        self.pause_button.setText("Resume" if on else "Pause")
        if self.controller:
            self.controller.set_paused(on)

    @property
    def choosing_path(self) -> bool:
        """True after a click on an end that several differing paths reach:
        the next click (a marked space or a path button) picks one."""
        return bool(self._ambiguous)

    @property
    def showing_sheet(self) -> bool:
        """True while the score sheet is on screen."""
        return self.pages.currentIndex() == SHEET

    @property
    def showing_handover(self) -> bool:
        """True while the hand-over screen hides the table."""
        return self.pages.currentIndex() == HANDOVER

    @property
    def _playing(self) -> PlayController:
        """The controller of the game on screen (asked only while one is)."""
        if self.controller is None:
            raise RuntimeError("no game is on screen")
        return self.controller

    # -- what may be seen ---------------------------------------------------------------
    def private_seat(self) -> int | None:
        """The seat whose hand and bets may be on screen now (hidden information)."""
        controller = self.controller
        if controller is None or controller.handing_to is not None:
            return None
        if controller.script is not None:  # a record hides nothing: show who decides next
            due = controller.race.due()
            return due[0] if due else None
        persons = controller.persons()
        if len(persons) == 1:
            return persons[0]
        return controller.waiting_for

    # -- refreshing ------------------------------------------------------------------------
    def _changed(self) -> None:
        """Redraw now, or once the last redraw is REFRESH_MS old (while the game runs
        on by itself; a paused game, stepped one decision at a time, shows each)."""
        if self._refresh_timer.isActive():
            return
        waited = self._since_refresh.elapsed() if self._since_refresh.isValid() else REFRESH_MS
        if waited >= REFRESH_MS or (self.controller is not None and self.controller.paused):
            self.refresh()
        else:
            self._refresh_timer.start(REFRESH_MS - waited)

    def refresh(self) -> None:
        """Redraw everything from the engine state."""
        self._refresh_timer.stop()
        self._since_refresh.start()
        controller = self.controller
        if controller is None:
            return
        race = controller.race
        if self.board.board is not race.board:
            self.board.set_board(race.board)
        marks = owner_marks(controller.setup.names())
        labels = {car: marks[o] for car in COLOURS if (o := race.owner_of(car)) is not None}
        # The car about to move, or the car up for auction.
        mover = race.pending.car if race.pending.kind in ("path", "bonus", "bid") else None
        if race.over and race.result:
            places = list(race.result.ranking)
        elif race.variant.use_finish:
            places = [COLOURS[k] for k in race.finished]
        else:
            places = distance_ranking(race)
        self.board.places_title = (
            "Ranking by distance" if not race.variant.use_finish else "Winners' places"
        )
        self.board.place_notes = (
            {car: f"lap {race.laps[k] + 1}" for k, car in enumerate(COLOURS)}
            if not race.variant.use_finish
            else {}
        )
        self.board.set_state({car: race.position(car) for car in COLOURS}, labels, places, mover)
        self.players.show_table(race, controller.setup.seats, self.private_seat())
        self.status.setText(self._status_text())
        self.auction.update_from(list(race.log), race.card_of, controller.name)
        self.tabs.setTabVisible(self.tabs.indexOf(self.auction), race.variant.auction)
        phase = race.phase.value
        if phase != self._shown_phase:  # the auction tab during the auction, else the log
            self._shown_phase = phase
            self.tabs.setCurrentWidget(self.auction if phase in ("auction", "power") else self.log)
        if controller.waiting_for is None:
            self._show_private_hand()

    def _status_text(self) -> str:
        controller = self._playing
        race = controller.race
        parts = [race.variant.name]
        if isinstance(controller.game, Series):
            parts.append(
                f"race {controller.game.race + 1} of {len(controller.game.boards)}: "
                f"{race.board.track.name}"
            )
        else:
            parts.append(race.board.track.name)
        if controller.script is not None:
            parts.append(
                f"replay: decision {len(controller.decisions)} of "
                f"{len(controller.decisions) + len(controller.script)}"
            )
        if controller.game.over:
            parts.append("game over")
        elif controller.handing_to is not None:
            parts.append(f"waiting for {controller.name(controller.handing_to)}")
        else:
            due = race.due()
            kind = race.pending.kind
            who = ", ".join(controller.name(s) for s in due)
            parts.append(f"{race.phase.value}: {who} to {WHAT.get(kind, kind)}")
        if controller.paused:
            parts.append("paused")
        return "  ·  ".join(parts)

    def _logged(self, events: list) -> None:
        controller = self._playing
        for e in events:
            self.log.appendPlainText(controller.describe(e))

    # -- asking a person -------------------------------------------------------------
    def _clear_prompt(self) -> None:
        self.prompt.setText("")
        self.choices.clear()
        self.hand.clear()
        self.board.set_choices()
        self._prefix = ()
        self._second_car = None
        self._ambiguous = []

    def _show_private_hand(self) -> None:
        """Between decisions: the hand of the only person at the table, else nothing."""
        controller = self._playing
        seat = self.private_seat()
        race = controller.race
        self.choices.clear()
        self.board.set_choices()
        in_play = (
            race.card
            if race.card is not None and not race.over and controller.handing_to is None
            else None
        )  # a hand-over screen shows no cards
        if (seat is None or race.over) and in_play is None:
            self.hand.clear()
            if controller.script is None and len(controller.persons()) > 1 and not race.over:
                self.hand.show_message("Hands are hidden")
            self.prompt.setText("" if race.over else self._waiting_text())
            return
        # The card being played is face up for all (a bot's included); a hand only for its owner.
        self._show_cards_read_only(in_play, f"{controller.name(race.turn)} plays", seat)
        self.prompt.setText(self._waiting_text())

    def _waiting_text(self) -> str:
        controller = self._playing
        due = controller.race.due()
        if not due:
            return ""
        return "Waiting for " + ", ".join(controller.name(s) for s in due)

    def _task(self, seat: int) -> str:
        """What ``seat`` must do now, in a few words ('move the blue car (Cunning)')."""
        race = self._playing.race
        pending = race.pending
        if pending.kind in ("path", "bonus") and pending.car:
            return f"move the {pending.car} car" + (" (Cunning)" if seat != race.turn else "")
        return WHAT.get(pending.kind, "decide")

    def _handover(self, seat: int) -> None:
        controller = self._playing
        self._clear_prompt()
        self.handover.ask(controller.name(seat), self._task(seat))
        self.pages.setCurrentIndex(HANDOVER)
        self.refresh()

    def _handover_accepted(self) -> None:
        self.pages.setCurrentIndex(BOARD)
        if self.controller:
            self.controller.accept_handover()

    def _asked(self, seat: int) -> None:
        """Set up the widgets for the decision due from ``seat``."""
        if self._refresh_timer.isActive():  # a person sees the table as it is now
            self.refresh()
        controller = self._playing
        race = controller.race
        pending = race.pending
        self._clear_prompt()
        if self.pages.currentIndex() == HANDOVER:
            self.pages.setCurrentIndex(BOARD)
        name = controller.name(seat)
        options = race.options(seat)
        kind = pending.kind
        if kind == "bid":
            self._ask_bid(seat, name, options)
        elif kind == "play_card":
            cards = [race.card_of(k) for k in race.hands[seat]]
            notes = {k: "face up" for k in race.face_up[seat]}
            cards += [race.card_of(k) for k in race.face_up[seat]]
            self.prompt.setText(
                f"{name}: play a card" + (" (or a face-up Speed-8 card)" if notes else "")
            )
            playable = {o.card for o in options if isinstance(o, PlayCard)}
            self.hand.show_cards(f"{name}'s hand", cards, playable, notes)
        elif kind in ("path", "bonus"):
            self._ask_path(seat, name, options, pending)
        elif kind in ("order", "wild"):
            self._ask_sequence(seat, name, options, kind)
        else:
            self._ask_buttons(seat, name, options, kind, pending)
        self._show_card_in_play(seat, kind)

    def _show_card_in_play(self, seat: int, kind: str) -> None:
        """Beside buttons and board clicks, show the seat's hand (read-only), led by
        the card being resolved with its skipped rows struck and done rows dimmed."""
        if kind not in ("bid", "play_card"):
            self._show_cards_read_only(self._playing.race.card, "Card in play", seat)

    def _show_cards_read_only(self, in_play: int | None, lead: str, seat: int | None) -> None:
        """The card in play (titled ``lead``), its rows marked, then ``seat``'s hand."""
        controller = self._playing
        race = controller.race
        ids = [in_play] if in_play is not None else []
        if seat is not None:
            ids += [k for k in race.hands[seat] + race.face_up[seat] if k != in_play]
        titles = ([lead] if in_play is not None else []) + (
            [f"{controller.name(seat)}'s hand"] if seat is not None else []
        )
        self.hand.show_cards(
            ", then ".join(titles),
            [race.card_of(k) for k in ids],
            readonly=True,
            notes={in_play: "in play"} if in_play is not None else None,
        )
        if in_play is not None:
            self._mark_card_in_play()

    def _card_in_play(self) -> Card:
        """The card being resolved (asked only while one is)."""
        race = self._playing.race
        if race.card is None:
            raise RuntimeError("no card is being played")
        return race.card_of(race.card)

    def _wild_rows(self) -> list[int]:
        """The WILD rows of the card in play still to resolve, top first (named in that order)."""
        card = self._card_in_play()
        race = self._playing.race
        return sorted(r for r in race.row_order if card.rows[r][0] == "wild")

    def _mark_card_in_play(self) -> None:
        """On the card in play: skipped rows struck, resolved rows dimmed, the row
        moving (or the WILD row being named) ringed, WILD rows in their car's colour."""
        race = self._playing.race
        button = self.hand.buttons.get(race.card) if race.card is not None else None
        if button is None:
            return
        kind = race.pending.kind
        struck = {race.skipped_row} if race.skipped_row is not None else set()
        moving = kind in ("path", "bonus")
        done = set(race.row_order[: max(0, race.rows_started - 1)]) if moving else set()
        current = race.pending.row if moving else None
        named = {r: COLOURS[car] for r, car in race.wild_cars.items()}
        if kind == "wild":
            rows = self._wild_rows()
            named = dict(zip(rows, map(str, self._prefix), strict=False))
            current = rows[len(self._prefix)] if len(self._prefix) < len(rows) else None
        button.mark_rows(struck, done, current, named)

    def _ask_bid(self, seat: int, name: str, options: list[Decision]) -> None:
        race = self._playing.race
        pending = race.pending
        hand = [race.card_of(k) for k in race.hands[seat]]
        if pending.set_aside and self._second_car is None:
            cars = sorted(
                {o.car for o in options if isinstance(o, Bid) and o.car}, key=COLOURS.index
            )
            self.prompt.setText(f"{name}: you have no car yet. Bid on a set-aside car, or pass")
            self.choices.offer(
                "Set-aside cars:",
                [(f"{car} car", car, ("car", car)) for car in cars]
                + [("Pass", None, Bid(seat, None))],
            )
            self.hand.show_cards(f"{name}'s hand", hand, playable=set())
            return
        colour = self._second_car or pending.car
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
        self.prompt.setText(
            f"{name}: choose a card to bid on the {colour} car{power} "
            "(secret until everyone has chosen)"
        )
        self.hand.show_cards(f"{name}'s hand", hand, playable, notes)
        if Bid(seat, None) in options:
            self.choices.offer("", [("Pass", None, Bid(seat, None))])

    def _ask_path(self, seat: int, name: str, options: list[Decision], pending) -> None:
        race = self._playing.race
        paths = [o for o in options if isinstance(o, Path)]
        ends = {o.path[-1] for o in paths}
        # R-POW-AGG: the ends only the extra space reaches are marked with it.
        n = pending.spaces or 0
        extra = {o.path[-1] for o in paths if len(o.path) > n} if pending.extra else set()
        extra -= {o.path[-1] for o in paths if len(o.path) <= n}
        self.board.set_choices(lit=ends - extra, marked=dict.fromkeys(extra, f"+{pending.extra}"))
        self.board.mover = pending.car
        self.board.update()
        whose = race.owner_of(pending.car)
        cunning = " (Cunning: you move your own car)" if whose == seat and race.turn != seat else ""
        step = "its Determined bonus step" if pending.kind == "bonus" else spaces(pending.spaces)
        if pending.extra:
            self.prompt.setText(
                f"{name}: the {pending.car} car moves {step}, or {spaces(n + pending.extra)} "
                f"with Aggressive (your choice). Click a lit space for {n}, a space marked "
                f"+{pending.extra} to take the extra space"
            )
            return
        self.prompt.setText(
            f"{name}: the {pending.car} car moves {step}{cunning}. Click a lit space to end there"
        )

    def _ask_sequence(self, seat: int, name: str, options: list[Decision], kind: str) -> None:
        """Tricky order or WILD colours: built one element at a time from the options."""
        card = self._card_in_play()
        n = len(self._prefix)
        fits = [o for o in options if _sequence(o)[:n] == self._prefix]
        entries: list[tuple[str, str | None, object]]
        if kind == "order":

            def row_label(r: int) -> str:
                c, k = card.rows[r]
                return f"{'WILD' if c == 'wild' else c} {k}"

            nxt = sorted({o.rows[n] for o in fits if isinstance(o, Order)})
            done = ", ".join(row_label(int(r)) for r in self._prefix)
            entries = [(row_label(r), card.rows[r][0], ("seq", r)) for r in nxt]
            if n == 0:
                entries.append(("Printed order", None, ("printed", None)))
            self.prompt.setText(
                f"{name}: Tricky — which row next?" + (f" (so far: {done})" if done else "")
            )
        else:
            rows = self._wild_rows()  # skipped WILD rows not counted
            names = sorted({o.colours[n] for o in fits if isinstance(o, Wild)}, key=COLOURS.index)
            entries = [(c, c, ("seq", c)) for c in names]
            which = f" (the {ordinal(n + 1)} of {len(rows)} WILD rows)" if len(rows) > 1 else ""
            spaces_n = card.rows[rows[n]][1] if n < len(rows) else ""
            self.prompt.setText(f"{name}: which car does the WILD {spaces_n} row move?{which}")
            self._mark_card_in_play()
        if n:
            entries.append(("Start again", None, ("restart", None)))
        self.choices.offer("", entries)

    def _ask_buttons(
        self, seat: int, name: str, options: list[Decision], kind: str, pending
    ) -> None:
        if kind == "bet":
            line = (pending.line or 0) + 1
            self.prompt.setText(f"{name}: bet {line} — which car will win? (secret until scoring)")
            self.choices.offer("", [(o.car, o.car, o) for o in options if isinstance(o, Bet)])
        elif kind in ("keep_power", "swap_power"):
            self.prompt.setText(
                f"{name}: "
                + (
                    "choose the one power you keep for all your cars"
                    if kind == "keep_power"
                    else "keep Cunning or take a power nobody kept"
                )
            )
            powers = [o for o in options if isinstance(o, (KeepPower, SwapPower))]
            self.choices.offer("", [(o.power.title(), None, o) for o in powers])
        elif kind == "skip":
            card = self._card_in_play()
            entries: list[tuple[str, str | None, object]] = []
            for o in options:
                if not isinstance(o, Skip):
                    continue
                if o.row is None:
                    entries.append(("Skip nothing", None, o))
                else:
                    c, k = card.rows[o.row]
                    entries.append((f"Skip {'WILD' if c == 'wild' else c} {k}", c, o))
            self.prompt.setText(f"{name}: Strategic — you may skip one row of this card")
            self.choices.offer("", entries)
        else:
            self.prompt.setText(f"{name}: {WHAT.get(kind, kind)}")
            self.choices.offer("", [(str(o.to_dict()), None, o) for o in options])

    # -- answers ----------------------------------------------------------------------------
    def decide(self, decision: Decision) -> None:
        """Apply a decision of the person asked (as their clicks do); an illegal one is said."""
        controller = self._playing
        try:
            controller.decide(decision)
        except (IllegalDecision, ValueError) as exc:
            self.prompt.setText(f"Not allowed: {exc}")
            return
        self._clear_prompt()
        self.refresh()

    def _card_clicked(self, card_id: int) -> None:
        controller = self.controller
        if controller is None or controller.waiting_for is None:
            return
        seat = controller.waiting_for
        kind = controller.race.pending.kind
        if kind == "bid":
            car = self._second_car
            self.decide(Bid(seat, card_id, car))
        elif kind == "play_card":
            self.decide(PlayCard(seat, card_id))

    def _choice(self, payload) -> None:
        controller = self.controller
        if controller is None or controller.waiting_for is None:
            return
        seat = controller.waiting_for
        race = controller.race
        if isinstance(payload, Decision):
            self.decide(payload)
            return
        tag, value = payload
        if tag == "car":
            self._second_car = value
            self._ask_bid(seat, controller.name(seat), race.options(seat))
        elif tag == "printed":
            n = len(self._card_in_play().rows)
            self.decide(
                next(
                    (o for o in race.options(seat) if _sequence(o) == tuple(range(n))),
                    race.options(seat)[0],
                )
            )
        elif tag == "path":
            self.decide(value)
        elif tag in ("seq", "restart"):
            self._prefix = (*self._prefix, value) if tag == "seq" else ()
            kind = race.pending.kind
            n = len(self._prefix)
            fits = [o for o in race.options(seat) if _sequence(o)[:n] == self._prefix]
            if n and len(fits) == 1:  # complete, or only one way left to complete it
                self.decide(fits[0])
            else:
                self._ask_sequence(seat, controller.name(seat), race.options(seat), kind)

    def _space_clicked(self, space_id: str) -> None:
        controller = self.controller
        if controller is None or controller.waiting_for is None:
            return
        race = controller.race
        if race.pending.kind not in ("path", "bonus"):
            return
        seat = controller.waiting_for
        if self._ambiguous:
            picked = [p for p in self._ambiguous if space_id in p.path[:-1]]
            if len(picked) >= 1 and space_id in self.board.marked:
                self.decide(picked[0])
            return
        group = [o for o in race.options(seat) if isinstance(o, Path) and o.path[-1] == space_id]
        if not group:
            return
        if len(group) == 1:
            self.decide(group[0])
            return
        self._offer_paths(group)

    def _offer_paths(self, group: list[Path]) -> None:
        """Paths to one end that differ in what they cross: mark a space only each
        one enters, for a second click (buttons too, for paths with no such space)."""
        race = self._playing.race
        self._ambiguous = group
        marked: dict[str, str] = {}
        entries = []
        for k, p in enumerate(group, 1):
            others = set().union(*(set(q.path) for q in group if q is not p))
            own = [s for s in p.path[:-1] if s not in others]
            if own:
                marked[own[0]] = str(k)
            entries.append(
                (f"Path {k}: " + " → ".join(p.path) + self._path_note(race, p), None, ("path", p))
            )
        self.board.set_choices(lit={group[0].path[-1]}, marked=marked, trail=[])
        self.prompt.setText(
            "Several paths end there and they differ (betting lines, Determined, "
            "blocking): click a numbered space to choose the way"
        )
        self.choices.offer("", entries)

    @staticmethod
    def _path_note(race: Game, path: Path) -> str:
        """What a path does that others might not: lines crossed, only rectangles."""
        board = race.board
        position = race.position(path.car)
        if position is None:
            return ""
        start = board.index[position]
        here, mask, rect = start, 0, True
        for sid in path.path:
            b = board.index[sid]
            mask |= board.graph.cross.get((here, b), 0)
            rect = rect and board.geometry.rectangular[b]
            here = b
        notes = [f"crosses line {k + 1}" for k in range(3) if mask >> k & 1]
        if race.pending.extra and len(path.path) > (race.pending.spaces or 0):
            notes.append("Aggressive extra space")  # R-POW-AGG
        if rect:
            notes.append("only rectangular spaces")
        return f" ({', '.join(notes)})" if notes else ""

    # -- ends -------------------------------------------------------------------------------
    def _race_started(self, k: int) -> None:
        controller = self._playing
        self.board.set_board(controller.race.board)
        if not isinstance(controller.game, Series):
            return
        previous = controller.game.games[k - 1]
        self.sheet.show_result(
            controller.game,
            controller.setup.names(),
            f"Race {k} of {len(controller.game.boards)} — {previous.board.track.name}",
            race_index=k - 1,
        )
        self.sheet_button.setEnabled(True)
        if controller.persons():  # people see the sheet between races; bots race on
            self.next_race_button.show()
            self.pages.setCurrentIndex(SHEET)
            controller.hold(True)

    def _next_race(self) -> None:
        self.next_race_button.hide()
        self.pages.setCurrentIndex(BOARD)
        if self.controller:
            self.controller.hold(False)

    def _finished(self) -> None:
        controller = self._playing
        self._clear_prompt()
        self.refresh()
        title = ""
        if isinstance(controller.game, Series):
            races = len(controller.game.boards)
            title = f"Race {races} of {races} — {controller.race.board.track.name}"
        self.sheet.show_result(controller.game, controller.setup.names(), title)
        self.sheet_button.setEnabled(True)
        self.pause_button.setEnabled(False)  # nothing is left to pause or step
        self.step_button.setEnabled(False)
        self.hand.setVisible(False)
        self.choices.setVisible(False)
        self.next_race_button.hide()
        self.pages.setCurrentIndex(SHEET)
        self.prompt.setText("The game is over.")

    def _failed(self, message: str) -> None:
        self.prompt.setText(f"Stopped: {message}")
        self.pause_button.setChecked(True)


def _sequence(decision: Decision) -> tuple[int | str, ...]:
    """What a person builds one element at a time: a Tricky order's rows, a WILD's colours."""
    if isinstance(decision, Order):
        return decision.rows
    if isinstance(decision, Wild):
        return decision.colours
    return ()
