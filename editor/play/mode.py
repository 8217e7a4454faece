"""Play mode in the main window: the Play menu (F5), the switch between the
editing canvas and the board view, and game records."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Protocol, runtime_checkable

from PySide6.QtCore import QObject, QSettings, Qt, Signal
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QApplication,
    QFileDialog,
    QMainWindow,
    QSizePolicy,
    QStackedWidget,
)

from trackside.editor.document.failed_writes import failure_line
from trackside.editor.document.files import is_bundled, start_folder
from trackside.editor.document.track_document import TrackDocument
from trackside.editor.play.controller import PlayController
from trackside.editor.play.play_view import PlayView
from trackside.editor.play.setup import GameSetup, Seat, bot_kinds, build_game, make_bots
from trackside.editor.widgets.elided_label import ElidedLabel
from trackside.engine.errors import TracksideError
from trackside.engine.game import Decision
from trackside.engine.track.model import Track
from trackside.engine.track.validate import validate_track

RECORD_FILTER = "Game records (*.yaml *.yml);;All files (*)"


class Problems(Protocol):
    """Where problems are shown to the user (the editor's prompts)."""

    def problems(self, title: str, text: str, details: list[str]) -> None: ...

    def leave_game(self, doing: str) -> str: ...


@runtime_checkable
class PlayHost(Protocol):
    """What play mode uses of the editor's main window besides QMainWindow itself."""

    settings: QSettings
    doc: TrackDocument
    prompts: Problems


def record_name(controller: PlayController) -> str:
    """A default file name that tells records apart: 'harbour-loop-standard-seed-7.yaml'."""
    setup = controller.setup
    track = setup.tracks[0].name if setup.tracks else "game"
    stem = "-".join(f"{track} {setup.variant.name} seed {setup.seed}".lower().split())
    return "".join(ch for ch in stem if ch.isalnum() or ch == "-") + ".yaml"


class PlayMode(QObject):
    """Owns the play view and its actions; ``window.play`` holds it. ``switched`` says
    when the board view comes (True) or goes (False), for the editor's status bar."""

    switched = Signal(bool)

    def __init__(self, window: QMainWindow):
        if not isinstance(window, PlayHost):
            raise TypeError("play mode needs the editor's main window (settings, doc, prompts)")
        super().__init__(window)
        self.window = window
        self.view = PlayView()
        self.stack = QStackedWidget()
        canvas = window.takeCentralWidget()
        if canvas is None:
            raise ValueError("play mode switches with the editing canvas: the window has none")
        self.stack.addWidget(canvas)
        self.stack.addWidget(self.view)
        window.setCentralWidget(self.stack)
        # Only the page shown counts for the window's minimum size: the play view's
        # buttons must not stop the editor from fitting a small screen.
        self.stack.currentChanged.connect(self._size_to_page)
        self._size_to_page()
        self.bot_ms, self.anim_ms = self._remembered_speed(), 90
        self._hidden: list = []
        self._in_front: list = []  # the docks whose tab was in front before play
        self.dialog_factory = None  # tests may replace the New game dialog
        self.record_path_factory = None
        self._checked: Track | None = None  # the last circuit found free of errors
        # The game whose record was saved last, and its decisions then.
        self._saved: tuple[PlayController, list[Decision]] | None = None
        self._saved_path = ""
        # The game's words in the status bar, where the editing tool's hint is.
        self.status_label = ElidedLabel()
        self.status_label.setMinimumWidth(200)
        self.status_label.setAutoFillBackground(True)  # as the tool hint: cheap repaints
        self.status_label.hide()
        window.statusBar().addWidget(self.status_label, 1)
        self._build_actions()
        self.view.leave.connect(self.leave)
        self.view.newGame.connect(self.new_game)
        self.view.saveRecord.connect(self.save_record_dialog)
        self.view.takeOver.connect(self.take_over)
        self.view.speed.valueChanged.connect(self._remember_speed)
        self.view.told.connect(self._tell)

    # -- remembered choices ----------------------------------------------------------
    def _remembered_speed(self) -> int:
        try:
            return max(0, int(str(self.window.settings.value("play/botMs", 600))))
        except (TypeError, ValueError):
            return 600

    def _remember_speed(self, value: int) -> None:
        self.bot_ms = value
        self.window.settings.setValue("play/botMs", value)

    def remembered_choices(self) -> dict:
        """The New game dialog's choices of the last game started (empty the first time)."""
        try:
            data = json.loads(str(self.window.settings.value("play/newGame", "{}")))
        except ValueError:
            return {}
        return data if isinstance(data, dict) else {}

    def _build_actions(self) -> None:
        w = self.window
        self.act_play = QAction("&New Game…", w)
        self.act_play.setShortcut(QKeySequence(Qt.Key.Key_F5))
        self.act_play.setStatusTip("Play a game on this circuit, with people and bots")
        self.act_play.triggered.connect(lambda _c=False: self.new_game())
        self.act_open_record = QAction("&Watch Game Record…", w)
        self.act_open_record.setStatusTip("Open a game record and watch it step by step")
        self.act_open_record.triggered.connect(lambda _c=False: self.open_record_dialog())
        self.act_save_record = QAction("&Save Game Record…", w)
        self.act_save_record.triggered.connect(lambda _c=False: self.save_record_dialog())
        self.act_leave = QAction("&Back to Editing", w)
        self.act_leave.setShortcut(QKeySequence("Shift+F5"))
        self.act_leave.triggered.connect(lambda _c=False: self.leave())
        self._update_actions()

    def menu_actions(self) -> list[QAction | None]:
        """The Play menu in order, None for a separator; the main window places it."""
        return [self.act_play, self.act_open_record, self.act_save_record, None, self.act_leave]

    def _update_actions(self) -> None:
        playing = self.active
        self.act_leave.setEnabled(playing)
        self.act_save_record.setEnabled(
            playing and self.view.controller is not None and self.view.controller.script is None
        )

    @property
    def active(self) -> bool:
        """True while the board view is shown instead of the editing canvas."""
        return self.stack.currentWidget() is self.view

    # -- starting games -----------------------------------------------------------
    def new_game(self) -> bool:
        """Ask for a game on the edited circuit and start it (False when refused; a
        game in progress asks first, and goes on when none is started)."""
        with self.ending("starting a new game") as agreed:
            return agreed and self._new_game()

    def _new_game(self) -> bool:
        from trackside.editor.play.new_game_dialog import NewGameDialog

        doc = self.window.doc
        track = doc.snapshot()
        if self._refuse(track.name or doc.display_name, track):
            return False
        self._checked = track
        # A circuit changed since it was saved travels inline in the game record.
        path = doc.path if doc.path and not doc.is_modified() else None
        make = self.dialog_factory or (
            lambda: NewGameDialog(track, path, self.window, self.remembered_choices())
        )
        dialog = make()
        if not dialog.exec():
            return False
        self.window.settings.setValue("play/newGame", json.dumps(dialog.choices()))
        return self.start(dialog.setup())

    def _refuse(self, name: str, track) -> bool:
        """Play refuses a circuit with validation errors, and says which."""
        QApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
        try:
            report = validate_track(track)
        finally:
            QApplication.restoreOverrideCursor()
        errors = [i for i in report.issues if i.severity == "error"]
        if not errors:
            return False
        self.window.prompts.problems(
            "Cannot play this circuit",
            (
                f"{name} has a validation error; fix it"
                if len(errors) == 1
                else f"{name} has {len(errors)} validation errors; fix them"
            )
            + " in the editor (see the Issues panel) and press F5 again.",
            [f"{i.code}: {i.message}" for i in errors],
        )
        return True

    def start(self, setup: GameSetup) -> bool:
        """Start the game ``setup`` describes in the board view."""
        for k, track in enumerate(setup.tracks):
            if track is self._checked:  # the edited circuit, checked on F5
                continue
            if self._refuse(track.name or f"circuit {k + 1}", track):
                return False
        try:
            game = build_game(setup)
        except TracksideError as exc:
            self.window.prompts.problems("Cannot start the game", str(exc), [])
            return False
        controller = PlayController(
            game, setup, make_bots(setup), bot_ms=self.bot_ms, anim_ms=self.anim_ms
        )
        self.enter()
        self.view.start(controller)
        self._update_actions()
        return True

    # -- switching ----------------------------------------------------------------
    def enter(self) -> None:
        """Show the board view; editing panels and tool bars are put away."""
        if self.active:
            return
        from PySide6.QtWidgets import QDockWidget, QToolBar

        found = self.window.findChildren(QDockWidget) + self.window.findChildren(QToolBar)
        self._hidden = [w for w in found if w.isVisible() and w.parent() is self.window]
        # A dock behind another's tab is visible too: which tab was in front is kept apart.
        self._in_front = [
            w
            for w in self._hidden
            if isinstance(w, QDockWidget) and not w.visibleRegion().isEmpty()
        ]
        for w in self._hidden:
            w.hide()
        self.stack.setCurrentWidget(self.view)
        self._tell("")
        self.status_label.show()
        self.switched.emit(True)
        self._update_actions()

    def _tell(self, now: str) -> None:
        """The status bar in play mode: what the game waits for, and the keys."""
        keys = "F5 starts a new game, Shift+F5 goes back to editing"
        self.status_label.setText(f"{now}  ·  {keys}" if now else f"Play mode: {keys}")

    def _size_to_page(self, *_args) -> None:
        for k in range(self.stack.count()):
            page = self.stack.widget(k)
            if page is None:
                continue
            policy = (
                QSizePolicy.Policy.Preferred
                if page is self.stack.currentWidget()
                else QSizePolicy.Policy.Ignored
            )
            page.setSizePolicy(policy, policy)
        self.stack.updateGeometry()

    def in_progress(self) -> bool:
        """True while a game played here (not a record watched) is not over, has had
        a decision, and has had one since its record was last saved: leaving would
        lose it."""
        c = self.view.controller
        if not self.active or c is None or c.script is not None or c.over or not c.decisions:
            return False
        return self._saved is None or self._saved[0] is not c or self._saved[1] != c.decisions

    @contextmanager
    def ending(self, doing: str) -> Iterator[bool]:
        """Whether the game on screen may end now, for a block that then ends it or
        not: a game in progress asks first (``doing`` says what would end it) to save
        its record, leave, or stay. Once the person agreed to end it the game stays held
        through the block (the bots make no decision behind a dialog after the
        question, and a record just saved stays up to date), and goes on from where
        it was after a block that did not end it (that dialog cancelled)."""
        c = self.view.controller
        if c is None or not self.in_progress():
            yield True
            return
        held = c.held
        c.hold(True)  # the bots wait while the question is open
        try:
            answer = self.window.prompts.leave_game(doing)
            agreed = answer == "leave" or (answer == "save" and self.save_record_dialog())
            yield agreed
        finally:
            if self.view.controller is c:  # not ended: it goes on (stopped, it stays so)
                c.hold(held)

    def leave(self) -> bool:
        """Back to the editing canvas; the game stops (a game in progress asks first:
        False when the person stays in it)."""
        saved = self._saved
        with self.ending("going back to editing") as agreed:
            if not agreed:
                return False
            self.stop()
        self.stack.setCurrentIndex(0)
        self.window.statusBar().clearMessage()  # a watched record's warning
        if self._saved is not saved:  # saved on the way out: said in the editor too
            self._say_saved()
        self.status_label.hide()
        self.switched.emit(False)
        for w in self._hidden:
            w.show()
        for dock in self._in_front:  # shown again, the last dock of a group is in front
            dock.raise_()
        self._hidden, self._in_front = [], []
        self._update_actions()
        return True

    def stop(self) -> None:
        """Stop the game on screen for good (leaving play mode, closing the window)."""
        if self.view.controller is not None:
            self.view.controller.stop()

    # -- records ------------------------------------------------------------------
    def record_folder(self) -> Path:
        """Where records went last time; else beside the circuit's file (never among the
        bundled circuits, which would list the record as one); else the home folder."""
        last = str(self.window.settings.value("play/recordFolder", "") or "")
        if last and Path(last).is_dir():
            return Path(last)
        path = self.window.doc.path
        if path and not is_bundled(path):
            return Path(path).parent
        return Path.home()

    def save_record_dialog(self) -> bool:
        """Ask where to save the record of the game being played, and save it."""
        c = self.view.controller
        if c is None or c.script is not None:
            return False
        ask = self.record_path_factory or (
            lambda: QFileDialog.getSaveFileName(
                self.window,
                "Save game record",
                str(self.record_folder() / record_name(c)),
                RECORD_FILTER,
            )[0]
        )
        path = ask()
        if not path:
            return False
        from trackside.editor.play.records_io import save_record

        try:
            save_record(c, path, keep=self.window.doc.path)
        except (TracksideError, OSError) as exc:
            self.window.prompts.problems("Cannot save the game record", failure_line(exc, path), [])
            return False
        self._saved = (c, list(c.decisions))
        self._saved_path = path
        self.window.settings.setValue("play/recordFolder", str(Path(path).parent))
        self._say_saved()
        return True

    def _say_saved(self) -> None:
        self.window.statusBar().showMessage(f"Saved the game record {self._saved_path}", 5000)

    def open_record_dialog(self) -> bool:
        """Ask for a game record and watch it (a game in progress asks first, and goes
        on when none is watched)."""
        with self.ending("watching a record") as agreed:
            return agreed and self._watch_picked()

    def _watch_picked(self) -> bool:
        ask = self.record_path_factory or (
            lambda: QFileDialog.getOpenFileName(
                self.window, "Watch game record", str(start_folder(None, None)), RECORD_FILTER
            )[0]
        )
        path = ask()
        return bool(path) and self.watch(path)

    def watch(self, path: str | Path) -> bool:
        """Open a game record and replay it step by step in the board view."""
        from trackside.editor.play.records_io import load_record

        try:
            watched = load_record(path)
        except TracksideError as exc:
            self.window.prompts.problems("Cannot open the game record", str(exc), [])
            return False
        controller = PlayController.replay(
            watched.game,
            watched.setup,
            watched.decisions,
            bot_ms=self.bot_ms,
            anim_ms=self.anim_ms,
            cause=watched.cause,
        )
        self.enter()
        self.view.start(controller)
        self._update_actions()
        if watched.cause is not None:
            self.window.statusBar().showMessage(f"{Path(path).name}: {watched.cause[0]}")
        return True

    def take_over(self) -> bool:
        """Continue the record being watched as a live game from where it stands:
        its people are asked, its bots play (kinds this app does not know are people)."""
        old = self.view.controller
        if old is None or old.script is None or old.over:
            return False
        old.stop()
        kinds = set(bot_kinds())
        seats = [s if s.is_person or s.kind in kinds else Seat(s.name) for s in old.setup.seats]
        setup = replace(old.setup, seats=seats)
        controller = PlayController(
            old.game, setup, make_bots(setup), bot_ms=self.bot_ms, anim_ms=self.anim_ms
        )
        controller.decisions = list(old.decisions)
        self._saved = (controller, list(old.decisions))  # as the record holds them
        self.view.start(controller)
        self._update_actions()
        return True
