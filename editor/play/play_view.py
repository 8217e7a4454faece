"""Play mode inside the main window: the board, the table, the hand, the hand-over.

``PlayView`` shows one game driven by a ``PlayController``. It lays out the
board, the players' table, the log, the hand and the buttons, renders the
engine's state (only what the seat at the screen may see), hands the screen
over between people, and applies what a person decides: the prompt for each
kind of decision (``decision_prompts.py``) turns their clicks into one. A
person playing against bots may take back their last decision (Take Back,
Ctrl+Z) while no other person has decided since.
"""

from __future__ import annotations

from PySide6.QtCore import QElapsedTimer, QEvent, Qt, QTimer, Signal
from PySide6.QtGui import QFont, QFontMetrics, QKeyEvent, QKeySequence
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
from trackside.editor.play.decision_prompts import (
    WHAT,
    Prompt,
    Table,
    prompt_for,
    show_cards_read_only,
)
from trackside.editor.play.hand_widget import HandWidget
from trackside.editor.play.handover import HandoverScreen
from trackside.editor.play.players_panel import PlayersTable, distance_ranking, owner_marks
from trackside.editor.play.score_sheet import ScoreSheet
from trackside.editor.widgets.elided_label import ElidedLabel
from trackside.engine.game import COLOURS, Decision, IllegalDecision, Series

__all__ = ["PlayView"]

LOG_LINES = 500  # the oldest lines go beyond this
# Bots at full speed change the game hundreds of times a second: the table is redrawn
# at most this often (a lone change still shows at once).
REFRESH_MS = 40
BOARD, HANDOVER, SHEET = 0, 1, 2


class PlayView(QWidget):
    """The whole play mode; ``leave`` asks to go back to editing, ``saveRecord`` to save;
    ``told`` says what the game waits for now, for the window's status bar."""

    leave = Signal()
    takeOver = Signal()  # a replay becomes a live game from the decision reached
    saveRecord = Signal()
    newGame = Signal()
    told = Signal(str)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)  # keys (Ctrl+Z) reach the view
        self.controller: PlayController | None = None
        self._asking: Prompt | None = None  # the prompt of the decision asked now
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
        self.take_back_button = QPushButton("Take Back")
        self.take_back_button.clicked.connect(self.take_back)
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
            self.take_back_button,
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
        # The log follows its newest line, as a chat does, unless scrolled up to read:
        # the text edit alone keeps its place while hidden behind the Auction tab.
        self._log_follows = True
        scroll = self.log.verticalScrollBar()
        scroll.rangeChanged.connect(self._log_range_changed)
        scroll.valueChanged.connect(self._log_scrolled)
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
        c.tookBack.connect(self._took_back)
        self.board.anim_ms = c.anim_ms
        self.speed.blockSignals(True)
        self.speed.setValue(c.bot_ms)
        self.speed.blockSignals(False)
        self.pause_button.setChecked(c.paused)
        self.pause_button.setText("Resume" if c.paused else "Pause")
        self._restart_log()
        self.prompt.setToolTip("")  # the last game's stop message
        self.board.set_board(c.race.board)
        self._logged(list(c.game.log))
        self.pages.setCurrentIndex(BOARD)
        self.next_race_button.hide()
        self.sheet_button.setEnabled(False)  # a sheet exists once a race has ended
        self.pause_button.setEnabled(True)
        self.pause_button.setToolTip(
            "Pause or resume the bots" + (" and the record" if c.script else "")
        )
        self.step_button.setEnabled(True)
        self.step_button.setToolTip(
            "While paused: the record's next decision"
            if c.script
            else "While paused: one bot decision"
        )
        self.save_button.setEnabled(c.script is None)
        self.take_over_button.setVisible(c.script is not None)
        self.take_back_button.setVisible(c.script is None)
        self.sheet_save_button.setEnabled(c.script is None)
        self._clear_prompt()
        self.hand.setVisible(True)
        self.choices.setVisible(True)
        self._show_take_back()
        self.setFocus()  # Ctrl+Z takes back here, not in the hidden editor
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
        return self._asking is not None and self._asking.choosing_path

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
            places = [COLOURS[k] for k in race.state.finished]
        else:
            places = distance_ranking(race)
        self.board.places_title = (
            "Ranking by distance" if not race.variant.use_finish else "Winners' places"
        )
        self.board.place_notes = (
            {car: f"lap {race.state.laps[k] + 1}" for k, car in enumerate(COLOURS)}
            if not race.variant.use_finish
            else {}
        )
        self.board.set_state({car: race.position(car) for car in COLOURS}, labels, places, mover)
        self.players.show_table(race, controller.setup.seats, self.private_seat())
        now = self._now_text()
        self.status.setText(f"{self._where_text()}  ·  {now}")
        self.told.emit(now)
        self.auction.update_from(list(race.log), race.card_of, controller.name)
        self.tabs.setTabVisible(self.tabs.indexOf(self.auction), race.variant.auction)
        phase = race.phase.value
        if phase != self._shown_phase:  # the auction tab during the auction, else the log
            self._shown_phase = phase
            self.tabs.setCurrentWidget(self.auction if phase in ("auction", "power") else self.log)
        if controller.waiting_for is None:
            self._show_private_hand()
        self._show_take_back()

    def _where_text(self) -> str:
        """The variant and the circuit raced: 'Standard  ·  Harbour Loop'."""
        controller = self._playing
        race = controller.race
        if isinstance(controller.game, Series):
            where = (
                f"race {controller.game.race + 1} of {len(controller.game.boards)}: "
                f"{race.board.track.name}"
            )
        else:
            where = race.board.track.name
        return f"{race.variant.name}  ·  {where}"

    def _now_text(self) -> str:
        """What the game waits for: 'race: Ana to play a card', 'game over'."""
        controller = self._playing
        race = controller.race
        parts = []
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

    @property
    def log_follows(self) -> bool:
        """True while the log keeps its newest line in sight (not scrolled up)."""
        return self._log_follows

    def _log_range_changed(self, _low: int, high: int) -> None:
        if self._log_follows:
            self.log.verticalScrollBar().setValue(high)

    def _log_scrolled(self, value: int) -> None:
        self._log_follows = value >= self.log.verticalScrollBar().maximum()

    def _restart_log(self) -> None:
        """An empty log that follows its newest line."""
        self.log.clear()
        self._log_follows = True

    def _logged(self, events: list) -> None:
        controller = self._playing
        for e in events:
            self.log.appendPlainText(controller.describe(e))

    # -- asking a person -------------------------------------------------------------
    def _table(self) -> Table:
        return Table(self.prompt, self.choices, self.hand, self.board, self._playing)

    def _clear_prompt(self) -> None:
        self.prompt.setText("")
        self.choices.clear()
        self.hand.clear()
        self.board.set_choices()
        self._asking = None

    def _show_private_hand(self) -> None:
        """Between decisions: the hand of the only person at the table, else nothing."""
        controller = self._playing
        seat = self.private_seat()
        race = controller.race
        self.choices.clear()
        self.board.set_choices()
        in_play = (
            race.state.card
            if race.state.card is not None and not race.over and controller.handing_to is None
            else None
        )  # a hand-over screen shows no cards
        if (seat is None or race.over) and in_play is None:
            self.hand.clear()
            if controller.script is None and len(controller.persons()) > 1 and not race.over:
                self.hand.show_message("Hands are hidden")
            self.prompt.setText("" if race.over else self._waiting_text())
            return
        # The card being played is face up for all (a bot's included); a hand only for its owner.
        lead = f"{controller.name(race.state.turn)} plays"
        show_cards_read_only(self._table(), in_play, lead, seat)
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
            return f"move the {pending.car} car" + (" (Cunning)" if seat != race.state.turn else "")
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
        self._clear_prompt()
        if self.pages.currentIndex() == HANDOVER:
            self.pages.setCurrentIndex(BOARD)
        self._asking = prompt_for(self._table(), seat)
        self._asking.show()

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

    def _answer(self, decision: Decision | None) -> None:
        if decision is not None:
            self.decide(decision)

    def _card_clicked(self, card_id: int) -> None:
        if self._asking is not None and self._asked_now():
            self._answer(self._asking.card_clicked(card_id))

    def _choice(self, payload: object) -> None:
        if self._asking is not None and self._asked_now():
            self._answer(self._asking.chosen(payload))

    def _space_clicked(self, space_id: str) -> None:
        if self._asking is not None and self._asked_now():
            self._answer(self._asking.space_clicked(space_id))

    def _asked_now(self) -> bool:
        """The prompt on screen is for the decision the controller is waiting for."""
        controller = self.controller
        return (
            controller is not None
            and self._asking is not None
            and controller.waiting_for == self._asking.seat
        )

    # -- taking back -----------------------------------------------------------------------
    def take_back(self) -> None:
        """Take back the last decision of the person at the screen (and the bots'
        replies to it), as the Take Back button and Ctrl+Z do."""
        controller = self.controller
        if controller is None or controller.take_back_problem() is not None:
            return
        controller.take_back()

    def _show_take_back(self) -> None:
        """Take Back is on while it can be done; its tooltip says why not otherwise."""
        controller = self.controller
        problem = "No game" if controller is None else controller.take_back_problem()
        self.take_back_button.setEnabled(problem is None)
        self.take_back_button.setToolTip(
            problem or "Take back your last decision and the bots' replies to it (Ctrl+Z)"
        )

    def _took_back(self) -> None:
        """The game went back: its log, board and table shown again as they are now."""
        controller = self._playing
        self._clear_prompt()
        self._restart_log()
        self._logged(list(controller.game.log))
        self.board.settle()
        self.pages.setCurrentIndex(BOARD)
        self.refresh()

    def event(self, event: QEvent) -> bool:
        # Ctrl+Z while playing is Take Back: claimed before the editor's Undo shortcut.
        if (
            event.type() == QEvent.Type.ShortcutOverride
            and isinstance(event, QKeyEvent)
            and event.matches(QKeySequence.StandardKey.Undo)
        ):
            event.accept()
            return True
        return super().event(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.matches(QKeySequence.StandardKey.Undo):
            self.take_back()
            return
        super().keyPressEvent(event)

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
        """Say why the game stopped: in the prompt (cut to its two lines, whole in its
        tooltip) and in the log."""
        self.refresh()  # now: a redraw still pending would write over the message
        text = f"Stopped: {message}"
        metrics = self.prompt.fontMetrics()
        room = 2 * self.prompt.width() - metrics.horizontalAdvance("M" * 12)  # words wrap
        self.prompt.setText(metrics.elidedText(text, Qt.TextElideMode.ElideRight, room))
        self.prompt.setToolTip(text)
        self.log.appendPlainText(text)
        self.pause_button.setChecked(True)
        self._stopped_buttons()

    def _stopped_buttons(self) -> None:
        """Step and Resume off once play has stopped, saying why and what is left."""
        left = (
            "Play from here continues the game from the decision reached"
            if self._playing.script is not None
            else "Save record… keeps the decisions made so far"
        )
        for button in (self.step_button, self.pause_button):
            button.setEnabled(False)
            button.setToolTip(f"Play has stopped (the reason is above the board): {left}")
        self._show_take_back()
