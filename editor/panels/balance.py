"""The Balance panel: simulate bot games on the open circuit and see where it is unfair.

The games run on a worker thread (and, if asked, in worker processes), so
the window stays responsive; Cancel stops between games. A run plays a number
of games, or until its answer is clear (the progress bar says what it waits
for). A run is made on a copy of the circuit: when the circuit changes
meanwhile, the result is marked stale rather than shown as current, for as long
as the circuit plays otherwise than that copy (an undo back to it makes the result
current again). The last
report is kept so that the next run shows every figure's change, marked when
it is within noise. Suggest fixes tries candidate edits of the circuit
(``panels/fixes.py``). Check with Stronger Bots plays the shown run's games again
with a search twice as deep and says in one line whether its verdict holds
(``engine/balance/deeper.py``); the run stays the one shown, with its bots, its
hints and its figures, and Suggest fixes starts from it. Bots are named in plain
words ("two deals a decision"), never by their settings ("strong:2").
"""

from __future__ import annotations

import html
import os
import threading
import time
from collections.abc import Callable
from dataclasses import replace

from PySide6.QtCore import QObject, Qt, QThread, QTimer, Signal, Slot
from PySide6.QtWidgets import (
    QButtonGroup,
    QCheckBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QListWidgetItem,
    QProgressBar,
    QPushButton,
    QRadioButton,
    QScrollArea,
    QStyle,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from trackside.editor.document.track_document import TrackDocument
from trackside.editor.panels.balance_rules import RulesBox
from trackside.editor.panels.balance_tables import (
    change_cell,
    figure_table,
    fill_rows,
    marked,
)
from trackside.editor.panels.fixes import (
    NOISE_COLOUR,
    STALE_COLOUR,
    FixesBox,
    FixWorker,
    games_to_suggest,
)
from trackside.editor.panels.variant_worker import DeeperWorker, PairedWorker, VariantWorker
from trackside.editor.widgets.boxes import ComboBox, SpinBox
from trackside.editor.widgets.whole_views import WholeList
from trackside.engine.balance import (
    BalanceReport,
    BalanceRun,
    Change,
    compare,
    hints,
    run_balance,
)
from trackside.engine.balance.against import VariantComparison
from trackside.engine.balance.compare import (
    NOISE_LEGEND,
    line_reached,
    seat_share,
    slot_place,
    slot_share,
)
from trackside.engine.balance.deeper import HOLDS, DeeperCheck, no_stronger
from trackside.engine.balance.fixes import FixSearch
from trackside.engine.balance.hints import slots_beyond_chance
from trackside.engine.balance.players import (
    LAB_BOTS,
    bots_in_words,
    bots_named,
    stronger_bots,
    stronger_in_words,
)
from trackside.engine.balance.report import SLOTS, read_report
from trackside.engine.balance.sequential import run_until_clear
from trackside.engine.balance.wording import (
    BRACKETS,
    RULES,
    RULES_HEADING,
    Hint,
    amount_range,
    balance_range,
    money_range,
    percent_digits,
    percent_range,
    range_digits,
)
from trackside.engine.errors import TracksideError
from trackside.engine.intervals import wilson
from trackside.engine.records import open_variant
from trackside.engine.resources import variants_dir
from trackside.engine.text import ESTIMATING, Pace, listed, plural, title_from_file
from trackside.engine.track.model import Track
from trackside.engine.track.validate import validate_track

LAB_CHOICE = f"The lab's bots ({bots_named(LAB_BOTS)})"
GAMES = 200  # the games of a run, until the designer sets another number
CAP = 10_000  # the most a run until clear plays, unless the designer set a number
GAMES_TIP = "The games a run plays"
CAP_TIP = (
    "The most games a run until clear plays if the answer is not clear before: "
    f"{CAP:,} unless you set another number"
)
# What an unclear verdict asks for, naming the controls: the check plays the games of
# the run shown again, so more games means a longer run first.
MORE_GAMES = (
    "play more games to tell: raise Games (or tick Until clear), simulate, then check again"
)
RUN_TIP = "Play the games on this circuit (Ctrl+Shift+B)"
SUGGEST_TIP = (
    "Try candidate edits of this circuit, each on the same games as the circuit as it is, "
    "and list them best first"
)
# Said beside the fixes while the run shown is of an earlier circuit: its headline and
# hints stay on screen above the fixes, which are measured on the circuit as it is.
SHOWN_STALE = (
    "The circuit has changed since the run shown: its figures and hints are of an earlier "
    "version, the fixes of the circuit as it is. Simulate again for current figures."
)
BOT_CHOICES = {
    LAB_CHOICE: LAB_BOTS,
    "Greedy bots": ("greedy",),
    "Random bots": ("random",),
    "One greedy, the rest random": ("greedy", "random", "random", "random", "random", "random"),
    "One strong, the rest greedy": ("strong", "greedy", "greedy", "greedy", "greedy", "greedy"),
}


class BalanceWorker(QObject):
    """Runs one balance run off the GUI thread: a number of games, or until clear."""

    progressed = Signal(int, str)  # games played, what the run waits for ("" if nothing)
    finished = Signal(object)  # BalanceReport, or a TracksideError / Exception
    cancel_event: threading.Event

    def __init__(self, run: BalanceRun, workers: int, until_clear: bool = False):
        super().__init__()
        self.run_spec = run
        self.workers = workers
        self.until_clear = until_clear
        self.cancel_event = threading.Event()

    @Slot()
    def work(self) -> None:
        cancelled = self.cancel_event.is_set
        try:
            if self.until_clear:
                report: object = run_until_clear(
                    self.run_spec, self.workers, self.progressed.emit, cancelled
                ).report
            else:
                report = run_balance(
                    self.run_spec,
                    self.workers,
                    progress=lambda k: self.progressed.emit(k, ""),
                    cancelled=cancelled,
                )
        except Exception as exc:  # shown in the panel; the editor must go on
            report = exc
        self.finished.emit(report)


class BalancePanel(QWidget):
    """Run settings, progress, the figures with their changes, hints that name spaces,
    suggested fixes and the heat map."""

    spacesActivated = Signal(list)  # a hint's spaces (every one), to outline and show
    fixActivated = Signal(list)  # a fix clicked: the spaces it is about (maybe none)
    fixPreviewChanged = Signal(object)  # the fix selected, to draw (FixPreview), or None
    fixApplied = Signal(str)  # a fix made from the list, in words
    heatChanged = Signal(str)  # "", "ends" or "blocked"
    runningChanged = Signal(bool)
    buttonsChanged = Signal()  # Suggest fixes or Check with Stronger Bots turned on or off

    def __init__(self, doc: TrackDocument, parent: QWidget | None = None):
        super().__init__(parent)
        self.doc = doc
        self.report: BalanceReport | None = None
        self.report_track: Track | None = None  # the circuit the report's games were played on
        self._playing: Track | None = None
        self._playing_run: BalanceRun | None = None  # the run whose report comes next
        self.report_run: BalanceRun | None = None  # the run the report shown comes from
        self.previous: BalanceReport | None = None  # what the changes shown are from
        self.last_run: BalanceReport | None = None  # the last report of a plain run
        self._said_stale = (False, False)  # what the status warns of (``_staleness``)
        self._errors = 0  # the circuit's validation errors, as last counted (``set_errors``)
        self._said_cannot = ""  # why nothing can be simulated, as the buttons say it
        self._running_text = ""  # what the run under way does, in words
        self._running_what = ""  # what the games being played are for, once said
        self._waiting = ""  # what a run until clear waits for, once said
        self._thread: QThread | None = None
        self._worker: BalanceWorker | FixWorker | PairedWorker | None = None
        self.compared_with = ""  # what the changes shown are from, in words
        self._new_result: QWidget | None = None  # what finished last, to scroll to
        self._scroll_due = False  # whether a scroll to it is on its way
        self._build()
        doc.changed.connect(self._on_track_changed)

    # -- building -----------------------------------------------------------------
    def _build(self) -> None:
        layout = QVBoxLayout(self)
        layout.addLayout(self._settings())
        self.progress = QProgressBar()
        # The time in seconds the progress bar's time left is told by (a test gives its
        # own), and the pace of the games the bar shows.
        self.clock: Callable[[], float] = time.monotonic
        self._pace = Pace(0, self.clock)
        self.progress.setVisible(False)
        layout.addWidget(self.progress)
        self.status = QLabel("Simulate bot games to see how fair the circuit is.")
        self.status.setWordWrap(True)
        self.status.setTextFormat(Qt.TextFormat.PlainText)  # it quotes names and paths
        layout.addWidget(self.status)
        self.verdict = QLabel()  # whether the verdict holds with stronger bots
        self.verdict.setWordWrap(True)
        self.verdict.setTextFormat(Qt.TextFormat.PlainText)
        font = self.verdict.font()
        font.setBold(True)
        self.verdict.setFont(font)
        self.verdict.hide()
        layout.addWidget(self.verdict)
        self.headline = QLabel()
        self.headline.setWordWrap(True)
        self.headline.setTextFormat(Qt.TextFormat.RichText)
        layout.addWidget(self.headline)
        # The hints first (they say what to change), then the tables; each as tall as
        # its rows, so the dock's scroll bar is the only one.
        self.hint_list = WholeList()
        self.hint_list.itemActivated.connect(self._hint_activated)
        self.hint_list.itemClicked.connect(self._hint_activated)
        self.hint_list.hide()
        layout.addWidget(self.hint_list)
        self.fixes = FixesBox(self.doc)
        self.fixes.spacesActivated.connect(self.fixActivated)
        self.fixes.previewChanged.connect(self.fixPreviewChanged)
        self.fixes.fixApplied.connect(self.fixApplied)
        layout.addWidget(self.fixes)
        self.slot_table = figure_table(["Slot", "Wins", "Change", "Place", "Change"], stretch=0)
        layout.addWidget(self.slot_table)
        self.figure_table = figure_table(["Figure", "Value (95%)", "Change"], stretch=0)
        layout.addWidget(self.figure_table)
        self.rules = RulesBox()
        layout.addWidget(self.rules)
        self.legend = QLabel(NOISE_LEGEND)
        self.legend.setWordWrap(True)
        self.legend.setStyleSheet(f"color: {NOISE_COLOUR.name()}")
        layout.addWidget(self.legend)
        for widget in (self.slot_table, self.figure_table, self.rules, self.legend):
            widget.hide()  # empty headings say nothing until a run fills them
        layout.addLayout(self._heat_buttons())
        layout.addStretch(1)

    def _settings(self) -> QGridLayout:
        self.variant_box = ComboBox()
        for path in sorted(variants_dir().glob("*.yaml")):
            self.variant_box.addItem(title_from_file(path), str(path))
        standard = self.variant_box.findText("Standard")
        self.variant_box.setCurrentIndex(max(0, standard))
        self.players_box = SpinBox()
        self.players_box.setRange(2, 6)
        self.players_box.setValue(4)
        self.bots_box = ComboBox()
        self.bots_box.addItems(list(BOT_CHOICES))
        self.bots_box.setCurrentText(LAB_CHOICE)
        self.games_box = SpinBox()
        self.games_box.setRange(10, 1_000_000)  # as many as the command line takes
        self.games_box.setSingleStep(100)
        self.games_box.setValue(GAMES)
        self.games_box.setToolTip(GAMES_TIP)
        self.games_box.setGroupSeparatorShown(True)  # "10,000", as the panel writes it
        self._games_own = False  # the designer has set the number, which stays theirs
        self._setting_games = False
        self.games_box.valueChanged.connect(self._games_changed)
        self.games_label = QLabel("Games")
        self.until_clear_box = QCheckBox("Until clear")
        self.until_clear_box.setToolTip(
            "Play until every grid slot's share is known to ±3 points, or a slot is shown "
            "outside its fair share; the number beside it is then the most it plays "
            f"({CAP:,} unless you set one)"
        )
        self.until_clear_box.toggled.connect(self._until_clear_toggled)
        self.workers_box = SpinBox()
        self.workers_box.setRange(1, max(1, os.cpu_count() or 1))
        # Every core: the games run in worker processes, the window's own work is small,
        # and a run of the lab's strong bots takes twice as long on one of two cores.
        self.workers_box.setValue(max(1, os.cpu_count() or 1))
        self.workers_box.setToolTip("Processes playing games at once (1: on a thread)")
        self.workers_box.setGroupSeparatorShown(True)  # a machine of a thousand cores
        # Two short boxes to a row: the settings and buttons take six rows, so the
        # figures and hints of a run are in view under them even in a short dock.
        settings = QGridLayout()
        settings.addWidget(QLabel("Variant"), 0, 0)
        settings.addWidget(self.variant_box, 0, 1, 1, 3)
        settings.addWidget(QLabel("Bots"), 1, 0)
        settings.addWidget(self.bots_box, 1, 1, 1, 3)
        settings.addWidget(QLabel("Players"), 2, 0)
        settings.addWidget(self.players_box, 2, 1)
        settings.addWidget(self.games_label, 2, 2)
        settings.addWidget(self.games_box, 2, 3)
        settings.addWidget(QLabel("Workers"), 3, 0)
        settings.addWidget(self.workers_box, 3, 1)
        settings.addWidget(self.until_clear_box, 3, 2, 1, 2)
        self.run_button = QPushButton("Simulate")
        self.run_button.setToolTip(RUN_TIP)
        self.run_button.clicked.connect(self.start)
        self.suggest_button = QPushButton("Suggest fixes")
        self.suggest_button.setToolTip(SUGGEST_TIP)
        self.suggest_button.clicked.connect(self.suggest)
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setEnabled(False)
        self.cancel_button.clicked.connect(self.cancel)
        self.check_button = QPushButton("Check with Stronger Bots")
        self.check_button.clicked.connect(self.check_deeper)
        buttons = QHBoxLayout()
        buttons.addWidget(self.run_button)
        buttons.addWidget(self.suggest_button)
        buttons.addWidget(self.cancel_button)
        settings.addLayout(buttons, 4, 0, 1, 4)
        settings.addWidget(self.check_button, 5, 0, 1, 4)
        self._update_buttons()
        settings.setColumnStretch(1, 1)
        settings.setColumnStretch(3, 1)
        return settings

    def _heat_buttons(self) -> QHBoxLayout:
        heat = QHBoxLayout()
        heat.addWidget(QLabel("Heat map:"))
        self.heat_group = QButtonGroup(self)
        for key, label in (("", "Off"), ("ends", "Moves end"), ("blocked", "Blocked")):
            button = QRadioButton(label)
            button.setProperty("heat", key)
            button.setEnabled(key == "")
            self.heat_group.addButton(button)
            heat.addWidget(button)
            if key == "":
                button.setChecked(True)
        self.heat_group.buttonToggled.connect(self._heat_toggled)
        return heat

    def _games_changed(self) -> None:
        if not self._setting_games:
            self._games_own = True

    def _until_clear_toggled(self, on: bool) -> None:
        """The box beside Until clear becomes its cap: the number the designer set, which
        is a budget as much as a count and is never overwritten, else the default cap
        (and the default number of games again once it is unticked)."""
        self.games_label.setText("At most" if on else "Games")
        self.games_box.setToolTip(CAP_TIP if on else GAMES_TIP)
        if self._games_own:
            return
        self._setting_games = True
        self.games_box.setValue(CAP if on else GAMES)
        self._setting_games = False

    # -- running ------------------------------------------------------------------
    @property
    def running(self) -> bool:
        return self._thread is not None

    def start(self) -> bool:
        """Start a run on a copy of the circuit; False (with a reason shown) when it cannot."""
        if self.running:
            return False
        spec = self._run_spec()
        if spec is None:
            return False
        until_clear = self.until_clear_box.isChecked()
        self._show_progress(spec.games)
        self._playing, self._playing_run = spec.track, spec
        self.fixes.clear_search()  # they were of an earlier run
        worker = BalanceWorker(spec, self.workers_box.value(), until_clear)
        worker.progressed.connect(self._progressed)
        worker.finished.connect(self._done)
        self._launch(
            worker,
            f"Playing until the answer is clear, at most {plural(spec.games, 'game', spec=',')}…"
            if until_clear
            else f"Playing {plural(spec.games, 'game', spec=',')}…",
        )
        return True

    def suggest(self) -> bool:
        """Start a search for fixes of the circuit (its candidates chosen from the last
        run when it is current); False (with a reason shown) when it cannot start."""
        if self.running:
            return False
        spec = self._run_spec()
        if spec is None:
            return False
        current = self.report if self.report is not None and not self.stale else None
        games, said = games_to_suggest(self.until_clear_box.isChecked(), spec.games, current)
        spec = replace(spec, games=games)
        self._show_progress(games)
        self._playing = spec.track
        worker = FixWorker(spec, current, self.workers_box.value())
        worker.progressed.connect(self._fix_progressed)
        worker.finished.connect(self._fixes_done)
        self._launch(worker, f"Trying fixes: {said}…")
        return True

    def _show_progress(self, games: int) -> None:
        """The bar at the start of a run of ``games``: what it waits for until the first
        games come in (the count follows, ``_progressed``)."""
        self.progress.setRange(0, games)
        self.progress.setValue(0)
        self._pace = Pace(games, self.clock)
        self.progress.setFormat(first_games_words(self.workers_box.value()))
        self.progress.setVisible(True)

    def other_variants(self) -> dict[str, str]:
        """The bundled variants other than the panel's, as the Variant box names them,
        with their files."""
        box = self.variant_box
        return {
            box.itemText(k): str(box.itemData(k))
            for k in range(box.count())
            if k != box.currentIndex()
        }

    def compare_variant(self, path: str) -> bool:
        """Play the circuit under the panel's variant and under the variant in ``path``
        on the same games (paired), and show the second with every figure's change
        from the first; False (with a reason shown) when it cannot start."""
        if self.running:
            return False
        spec = self._run_spec()
        if spec is None:
            return False
        try:
            other = open_variant(path)
        except TracksideError as exc:
            self._say("\n".join(exc.lines()))
            return False
        if not other.min_players <= spec.players <= other.max_players:
            self._say(
                f"{other.name} is for {other.min_players} to {other.max_players} players, "
                f"not {spec.players}: choose a number both variants allow."
            )
            return False
        self._show_progress(2 * spec.games)
        self._playing, self._playing_run = spec.track, replace(spec, variant=other)
        worker = VariantWorker(spec, other, self.workers_box.value())
        worker.progressed.connect(self._progressed)
        worker.finished.connect(self._compared)
        self._launch(
            worker,
            f"Playing {plural(spec.games, 'game', spec=',')} of {spec.variant.name} and the "
            f"same games of {other.name}…",
        )
        return True

    def check_deeper(self) -> bool:
        """Play the games of the run shown again, with its bots and with stronger ones
        (paired), and say whether its verdict holds; False (with why) when it cannot."""
        why = self._cannot_check()
        if self.running or why:
            if why:
                self._say(why)
            return False
        assert self.report is not None and self.report_run is not None
        spec = replace(self.report_run, games=self.report.games)
        stronger = stronger_bots(spec.bots)
        self._show_progress(2 * spec.games)
        # The check is of the run shown, which stays the panel's run: only the circuit
        # it plays is noted (for the stale warning while it runs).
        self._playing = spec.track
        worker = DeeperWorker(spec, self.workers_box.value())
        worker.progressed.connect(self._progressed)
        worker.finished.connect(self._checked)
        self._launch(
            worker,
            f"Playing {plural(spec.games, 'game', spec=',')} with {bots_in_words(spec.bots)} "
            f"and the same games with {stronger_in_words(stronger)}…",
        )
        return True

    def _cannot_check(self) -> str:
        """Why the run shown cannot be checked with stronger bots ("" when it can)."""
        if self.report_run is None or self.report is None:
            return "Simulate first: the check plays a run's games again with stronger bots."
        if self.stale:
            return "The circuit has changed since this run: simulate again, then check."
        if not self.report.games:
            return "The run shown has no games to play again."
        problem = no_stronger(self.report_run.bots)
        return f"{problem[0].upper()}{problem[1:]}." if problem else ""

    def set_errors(self, errors: int) -> None:
        """Take the validator's count of the circuit's errors (the Issues panel's): a
        circuit with any cannot be simulated, so Simulate and Suggest fixes turn off."""
        self._errors = errors
        self._update_buttons()

    def cannot_simulate(self) -> str:
        """Why the circuit cannot be simulated, in a sentence ("" when it can)."""
        if not self.doc.track.spaces:
            return "The circuit has no spaces yet: draw a track (or open one) to simulate it."
        if self._errors:
            return (
                f"The circuit has {plural(self._errors, 'error')}: fix them (see the Issues "
                "panel) to simulate it."
            )
        return ""

    def can_simulate(self) -> bool:
        """True when Simulate can start: nothing running, a circuit that can be played."""
        return not self.running and not self.cannot_simulate()

    def can_suggest(self) -> bool:
        """True when Suggest fixes can start: nothing running, a circuit that can be
        played."""
        return self.can_simulate()

    def can_check(self) -> bool:
        """True when Check with Stronger Bots can start."""
        return not self.running and not self._cannot_check()

    def _update_buttons(self) -> None:
        """Suggest fixes and Check with Stronger Bots on or off (the window's menu
        entries follow them: ``buttonsChanged``), the check's tooltip saying why."""
        cannot = self._said_cannot = self.cannot_simulate()
        self.run_button.setEnabled(self.can_simulate())
        self.run_button.setToolTip(cannot or RUN_TIP)
        self.suggest_button.setEnabled(self.can_suggest())
        self.suggest_button.setToolTip(cannot or SUGGEST_TIP)
        self.check_button.setEnabled(self.can_check())
        why = self._cannot_check()
        if why or self.report_run is None:
            self.check_button.setToolTip(why)
        else:
            stronger = stronger_in_words(stronger_bots(self.report_run.bots))
            self.check_button.setToolTip(
                f"Play the same games with {stronger}: a search twice as deep. The run "
                "shown stays; a line under it says whether its verdict holds"
            )
        self.buttonsChanged.emit()

    def compare_with_saved(self, path: str) -> bool:
        """Take a saved report (``simulate --report``, of this version or version 1) as
        the run the figures shown are compared with; False (with why) when unreadable."""
        try:
            saved = read_report(path)
        except TracksideError as exc:
            self._say(str(exc))
            return False
        if self.report is None:
            self.report_run = None  # no run of this circuit to play again
            self.show_report(saved, earlier=None, against=f"the saved report {path}")
            self._say(f"Showing the saved report {path}: simulate to compare a run with it.")
            return True
        self.show_report(self.report, self.report_track, saved, f"the saved report {path}")
        return True

    def _launch(self, worker: BalanceWorker | FixWorker | PairedWorker, said: str) -> None:
        """Start ``worker`` on a thread of its own, the status saying what it does."""
        self._worker = worker
        self._thread = QThread(self)
        worker.moveToThread(self._thread)
        self._thread.started.connect(worker.work)
        self._running_text = said
        self._running_what = ""  # what the games being played are for, once said
        self._waiting = ""  # what a run until clear waits for, once said
        self._set_running(True)
        self._show_status()
        self._thread.start()
        # Started from the menu while the dock shows results further down: its progress
        # bar and Cancel come into view, under the settings the run was started with.
        area = self._scroll_area()
        if area is not None:
            area.verticalScrollBar().setValue(0)

    def _progressed(self, games: int, waiting: str) -> None:
        """The bar counts the games and the time left on its one line; what a run until
        clear waits for ("slot 1's share: ±6.1 points, need ±3") goes on the status
        line under it, where it can wrap: on the bar it made two lines, the top one cut
        off, at the default size."""
        self.progress.setValue(games)
        left = self._left(games, bool(waiting))
        self.progress.setFormat(f"%v games{left}" if waiting else f"%v of %m games{left}")
        self.progress.setToolTip(f"Waiting for {waiting}" if waiting else "")
        cancelling = self._worker is not None and self._worker.cancel_event.is_set()
        if self._waiting != waiting and not cancelling:
            self._waiting = waiting
            self._show_status()

    def _fix_progressed(self, done: int, total: int, what: str) -> None:
        """The bar counts the games and the time left; what they are for goes on the
        status line under it, where it can wrap (the bar's one line cannot). The games
        to choose the candidates and those of the candidates have a pace each."""
        if total != self._pace.total:
            self._pace = Pace(total, self.clock)
        self.progress.setRange(0, total)
        self.progress.setValue(done)
        self.progress.setFormat(f"%v of %m games{self._left(done)}")
        self.progress.setToolTip(f"Playing {what}")
        cancelling = self._worker is not None and self._worker.cancel_event.is_set()
        if self._running_what != what and not cancelling:
            self._running_what = what
            self._show_status()

    def _left(self, done: int, waiting: bool = False) -> str:
        """ ", 1 min 20 s left" at the pace the games come in (", at most …" while a run
        until clear waits for its answer), ", estimating the time left…" while too few
        have come in to tell (nothing then while waiting: the bar says what for), ""
        once all are played."""
        left = self._pace.left(done)
        if left == ESTIMATING:
            return "" if waiting else f", {left}"
        return f", {'at most ' if waiting else ''}{left} left" if left else ""

    def _run_spec(self) -> BalanceRun | None:
        track = self.doc.snapshot()
        errors = validate_track(track).errors
        if errors != self._errors:  # the Issues panel has not counted this edit yet
            self.set_errors(errors)
        cannot = self.cannot_simulate()
        if cannot:
            self._say(cannot)
            return None
        try:
            variant = open_variant(str(self.variant_box.currentData()))
        except TracksideError as exc:
            self._say("\n".join(exc.lines()))
            return None
        players = self.players_box.value()
        if not variant.min_players <= players <= variant.max_players:
            self._say(
                f"{variant.name} is for {variant.min_players} to {variant.max_players} players."
            )
            return None
        bots = BOT_CHOICES[self.bots_box.currentText()]
        return BalanceRun(
            track, variant, players, self.games_box.value(), 0, bots[:players], track.name
        )

    def cancel(self) -> None:
        """Stop the run after the games under way."""
        if self._worker is not None:
            self._worker.cancel_event.set()
            self._running_text, self._running_what, self._waiting = "Cancelling…", "", ""
            self._show_status()

    def wait(self) -> None:
        """Cancel a run and wait for its thread (closing the window)."""
        self.cancel()
        if self._thread is not None:
            self._thread.quit()
            self._thread.wait()

    def _set_running(self, running: bool) -> None:
        self.cancel_button.setEnabled(running)
        self._update_buttons()
        for box in (
            self.variant_box,
            self.players_box,
            self.bots_box,
            self.games_box,
            self.workers_box,
            self.until_clear_box,
        ):
            box.setEnabled(not running)
        self.runningChanged.emit(running)

    def _finish(self) -> None:
        thread, self._thread, self._worker = self._thread, None, None
        if thread is not None:
            thread.quit()
            thread.wait()
            thread.deleteLater()
        self._set_running(False)
        self.progress.setVisible(False)

    def _done(self, outcome: object) -> None:
        self._finish()
        if not isinstance(outcome, BalanceReport):
            self._say(f"The simulation failed: {outcome}")
            return
        self.report_run = self._playing_run
        self.show_report(outcome, self._playing)

    def _compared(self, outcome: object) -> None:
        self._finish()
        if not isinstance(outcome, VariantComparison):
            self._say(f"The comparison failed: {outcome}")
            return
        before, after = outcome.before, outcome.after
        self.report_run = self._playing_run
        self.show_report(
            after,
            self._playing,
            before,
            f"{before.variant} on the same {plural(before.games, 'game', spec=',')} (paired)",
        )

    def _checked(self, outcome: object) -> None:
        self._finish()
        if not isinstance(outcome, DeeperCheck):
            self._say(f"The check with stronger bots failed: {outcome}")
            return
        self._show_status()  # the run shown, which the check leaves as it is
        self._show_verdict(outcome)

    def _show_verdict(self, check: DeeperCheck) -> None:
        """The check's verdict on a line above the run's figures, which stay the run's
        (its bots, its hints, what Suggest fixes starts from), in the warning colour
        unless it holds; its tooltip gives both balances and the warnings only one set
        of bots gave."""
        verdict = check.verdict
        before, after = check.comparison.before, check.comparison.after
        stronger = stronger_in_words(verdict.bots)
        self.verdict.setText(verdict.line(stronger, MORE_GAMES))
        self.verdict.setStyleSheet("" if verdict.outcome == HOLDS else "color: #b35c00")
        tips = [
            f"Balance {balance_range(before)} with {bots_in_words(before.bots)}, "
            f"{balance_range(after)} with {stronger}, on the same "
            f"{plural(after.games, 'game', spec=',')}. The figures shown are the run's."
        ]
        tips += [f"Only with the run's bots: {text}" for text in verdict.warnings_gone]
        tips += [f"Only with {stronger}: {text}" for text in verdict.warnings_new]
        self.verdict.setToolTip("\n".join(tips))
        self.verdict.show()
        self._show_results(self.verdict)

    def _fixes_done(self, outcome: object) -> None:
        self._finish()
        if not isinstance(outcome, FixSearch):
            self._say(f"Trying fixes failed: {outcome}")
            return
        self._say(
            f"Tried {plural(len(outcome.trials), 'fix', 'fixes')} in {outcome.seconds:.1f} s"
            + (" (cancelled)." if outcome.cancelled else ".")
        )
        if self._shown_behind(outcome.track or self._playing):
            # The figures shown stay of an earlier circuit than the fixes' (when the
            # fixes are stale too, their box says so: both are of the circuit as it was).
            self._said_stale = (True, False)
            self.status.setStyleSheet(f"color: {STALE_COLOUR}")
            self.status.setText(f"{self.status.text()} {SHOWN_STALE}")
        self.fixes.show_search(outcome, self.report_track)
        self._show_results(self.fixes)

    @property
    def stale(self) -> bool:
        """True while the circuit plays otherwise than the one the run under way plays
        (the one the result shown was measured on, when none runs): an edit since and
        not undone. A new name or description plays the same."""
        measured = self._playing if self.running else self.report_track
        return measured is not None and not measured.plays_like(self.doc.track)

    def _shown_behind(self, tried: Track | None) -> bool:
        """True when the run shown is of an earlier circuit than ``tried`` (the one the
        fixes are tried on) and ``tried`` plays as the circuit as it is: only then are
        the run's figures of an earlier version and the fixes of the circuit as it is."""
        shown = self.report_track
        return (
            shown is not None
            and tried is not None
            and not shown.plays_like(tried)
            and tried.plays_like(self.doc.track)
        )

    def _staleness(self) -> tuple[bool, bool]:
        """What the status warns of: the result under way (else the one shown) is stale;
        the run shown is of an earlier circuit than the fixes being tried."""
        trying = self.running and isinstance(self._worker, FixWorker)
        return self.stale, trying and self._shown_behind(self._playing)

    def _on_track_changed(self) -> None:
        if self._staleness() != self._said_stale:
            self._show_status()
            self._update_buttons()
        elif self.cannot_simulate() != self._said_cannot:  # spaces drawn, or none left
            self._update_buttons()

    # -- showing ------------------------------------------------------------------
    def show_report(
        self,
        report: BalanceReport,
        track: Track | None = None,
        earlier: BalanceReport | None = None,
        against: str = "",
    ) -> None:
        """Show a report of games on ``track`` (the circuit as it is when not given),
        with every figure's change from ``earlier``, said to be ``against`` (by
        default the last report shown, unless it was cancelled)."""
        if against:
            self.previous, self.compared_with = earlier, against
        else:
            # The run before is the designer's last own run, never the other side of
            # a comparison or a check that was shown since.
            own = self.last_run
            keep = own is not None and not own.cancelled and own is not report
            self.previous = own if keep else None
            self.compared_with = f"the run before ({run_words(own)})" if keep and own else ""
            self.last_run = report
        self.report = report
        self.report_track = track or self.doc.snapshot()
        self._show_status()
        self.verdict.hide()  # a check's verdict is shown after its report
        self._update_buttons()
        self.headline.setText(
            f"<b style='font-size:14pt'>Balance {balance_range(report)}</b> "
            f"<span>with {html.escape(bots_in_words(report.bots))} (1 = every grid slot wins as "
            f"often; 0 = one slot wins every race). {BRACKETS}</span>"
        )
        changes = {c.figure: c for c in compare(self.previous, report)} if self.previous else {}
        self._fill_slots(report, changes)
        self._fill_hints(report)
        self._fill_figures(report, changes)
        self.rules.show_rules(report, changes)
        self.legend.setVisible(bool(changes))
        self._show_results()
        for button in self.heat_group.buttons():
            button.setEnabled(True)
        self._heat_toggled()

    def _say(self, text: str) -> None:
        """Put ``text`` on the status line in place of what a run says."""
        self._said_stale = (False, False)
        self.status.setStyleSheet("")
        self.status.setText(text)

    def _show_status(self) -> None:
        """The status line: what the run under way does, else the run shown in words;
        either with a warning while the circuit plays otherwise."""
        self._said_stale = (stale, shown_stale) = self._staleness()
        self.status.setStyleSheet(f"color: {STALE_COLOUR}" if stale or shown_stale else "")
        if self.running:
            warning = " The circuit has changed since it started: its result will be stale."
            now = f" Now playing {self._running_what}." if self._running_what else ""
            now += f" Waiting for {self._waiting}." if self._waiting else ""
            earlier = f" {SHOWN_STALE}" if shown_stale else ""
            self.status.setText(self._running_text + now + (warning if stale else "") + earlier)
            return
        report = self.report
        if report is None:
            return
        text = f"{run_words(report)} in {report.seconds:.1f} s" + (
            " (cancelled)." if report.cancelled else "."
        )
        if report.answer:
            text += f" Stopped: {report.answer}."
        if self.compared_with and self.previous is not None:
            text += f" Changes are from {self.compared_with}."
        if stale:
            text += " The circuit has changed since: run again for current figures."
        self.status.setText(text)

    def _fill_slots(self, report: BalanceReport, changes: dict[str, Change]) -> None:
        shares = report.slot_shares()
        fair = 1 / SLOTS
        beyond = slots_beyond_chance(report)
        rows = []
        for k in range(SLOTS):
            share, low, high = shares[k]
            place = report.slot_places[k]
            lo, hi = place.interval()
            space = report.grid[k] if k < len(report.grid) else ""
            digits = percent_digits(share, low, high, range_digits(low, high, fair))
            cells = [
                QTableWidgetItem(f"{k + 1} {space}"),
                QTableWidgetItem(percent_range(share, low, high, digits)),
                change_cell(changes.get(slot_share(k))),
                QTableWidgetItem(amount_range(place.mean, lo, hi) if place.count else ""),
                change_cell(changes.get(slot_place(k))),
            ]
            cells[0].setToolTip(slot_words(k, space))
            wins = cells[1]
            wins.setToolTip(f"95% interval {100 * low:.{digits}f}% to {100 * high:.{digits}f}%")
            if k in beyond:  # the slots the hints warn about, and only those
                marked(wins, f"beyond chance (fair share {100 * fair:.0f}%): see the hints")
            rows.append(cells)
        fill_rows(self.slot_table, rows)

    def _fill_hints(self, report: BalanceReport) -> None:
        """The circuit's hints, then the rules' under a heading of their own: a
        designer cannot act on those by editing the circuit."""
        self.hint_list.clear()
        style = self.style()
        found = hints(report, self.report_track)
        circuit = [hint for hint in found if hint.about != RULES]
        rules = [hint for hint in found if hint.about == RULES]
        for hint in circuit:
            self._add_hint(hint, style)
        if rules:
            heading = QListWidgetItem(RULES_HEADING)
            heading.setFlags(Qt.ItemFlag.ItemIsEnabled)  # a heading: not chosen, not clicked
            font = heading.font()
            font.setBold(True)
            heading.setFont(font)
            heading.setToolTip(
                "What the variant's rules do on any circuit: change the variant, not the "
                "circuit, to change these"
            )
            self.hint_list.addItem(heading)
        for hint in rules:
            self._add_hint(hint, style)
        self.hint_list.setVisible(self.hint_list.count() > 0)

    def _add_hint(self, hint: Hint, style: QStyle) -> None:
        """One hint in the list, its icon saying how serious it is."""
        icon = (
            QStyle.StandardPixmap.SP_MessageBoxWarning
            if hint.severity == "warning"
            else QStyle.StandardPixmap.SP_MessageBoxInformation
        )
        item = QListWidgetItem(style.standardIcon(icon), hint.text)
        item.setData(Qt.ItemDataRole.UserRole, list(hint.spaces))
        if hint.spaces:
            item.setToolTip(f"Click to show {listed(hint.spaces)}")
        self.hint_list.addItem(item)

    def _fill_figures(self, report: BalanceReport, changes: dict[str, Change]) -> None:
        rows: list[tuple[str, str, QTableWidgetItem]] = []

        def mean_row(label: str, key: str, tally_name: str, scale: float = 1.0) -> None:
            tally = getattr(report, tally_name)
            if not tally.count:
                return
            lo, hi = tally.interval()  # of a count, never below none
            value = amount_range(tally.mean * scale, max(0.0, lo * scale), hi * scale)
            rows.append((label, value, change_cell(changes.get(key))))

        def share_row(label: str, key: str, share: tuple[float, float, float]) -> None:
            value = percent_range(*share)
            rows.append((label, value, change_cell(changes.get(key))))

        rows.append(("Balance", balance_range(report), change_cell(changes.get("balance"))))
        mean_row("Cards played per race", "cards played per race", "turns")
        mean_row(
            f"Rounds per race ({report.players} players)",
            "rounds per race",
            "turns",
            1 / report.players,
        )
        mean_row("Cars stalled per race", "stalled cars per race", "stalled")
        n = max(1, report.games)
        share_row(
            "Races with a stalled car",
            "races with a stalled car",
            (report.races_with_stall / n, *wilson(report.races_with_stall, report.games)),
        )
        mean_row(
            "Spaces short, for a stalled car", "spaces short, for a stalled car", "stall_steps"
        )
        mean_row("Cards left in hands", "cards left in hands", "cards_left")
        mean_row("Lead changes per race", "lead changes per race", "lead_changes")
        if report.money_spread.count:
            spread = report.money_spread
            rows.append(
                (
                    "Money spread, best to worst",
                    money_range(spread.mean, *spread.interval()),
                    change_cell(changes.get("money spread")),
                )
            )
        for line in range(3):
            reached = report.line_reached[line]
            share_row(
                f"Betting line {line + 1} reached",
                line_reached(line),
                (reached / n, *wilson(reached, report.games)),
            )
        share_row(
            "Player who plays first wins",
            "player who plays first wins",
            report.first_player_share(),
        )
        for seat, share in enumerate(report.seat_shares()):
            share_row(f"Player {seat + 1} wins", seat_share(seat), share)
        cells = [
            [QTableWidgetItem(label), QTableWidgetItem(value), change]
            for label, value, change in rows
        ]
        fill_rows(self.figure_table, cells)

    def _show_results(self, new: QWidget | None = None) -> None:
        """Scroll the dock (once the new rows are laid out) so that what just finished
        shows: ``new``, the result asked for (the check's verdict, the fixes found), or
        a run's status line; see ``_scroll_to_results``."""
        self._new_result = new
        area = self._scroll_area()
        if area is not None and not self._scroll_due:
            self._scroll_due = True  # one scroll for a report and the verdict after it
            QTimer.singleShot(0, lambda: self._scroll_to_results(area))

    def _scroll_to_results(self, area: QScrollArea) -> None:
        """Show the result from the status line down through the hints whole, from the
        settings and buttons when it fits that way, else from the status line; when it
        does not fit from there either, the status line and the beginning of the new
        result (the verdict's line; the fixes' summary and the first fix) still show
        whole when they fit together, else the new result from its top. The top edge
        never cuts a line or a button in half."""
        self._scroll_due = False
        layout = self.layout()
        if layout is not None:
            layout.activate()  # the new rows' heights, before they are measured
        new = self._new_result or self.status
        last: QWidget = self.hint_list if self.hint_list.isVisible() else self.headline
        if new is self.fixes:
            last = self.fixes
        end = last.y() + last.height()
        height = area.viewport().height()
        status = self.status.y()
        if end <= height:
            value = 0
        elif end - status <= height:
            value = status
        else:
            shown = new.y() + (self.fixes.heading_end() if new is self.fixes else new.height())
            value = status if shown - status <= height else new.y()
        area.verticalScrollBar().setValue(value)

    def _scroll_area(self) -> QScrollArea | None:
        """The scroll area the panel sits in (in the window's dock), if any."""
        parent = self.parentWidget()
        while parent is not None and not isinstance(parent, QScrollArea):
            parent = parent.parentWidget()
        return parent

    def _hint_activated(self, item: QListWidgetItem) -> None:
        spaces = [str(space) for space in item.data(Qt.ItemDataRole.UserRole) or ()]
        if spaces:
            self.spacesActivated.emit(spaces)

    def _heat_toggled(self, *_args: object) -> None:
        button = self.heat_group.checkedButton()
        self.heatChanged.emit(str(button.property("heat")) if button else "")

    def set_heat(self, mode: str) -> None:
        """Choose the heat map: '', 'ends' or 'blocked'."""
        for button in self.heat_group.buttons():
            if button.property("heat") == mode and button.isEnabled():
                button.setChecked(True)

    def heat_values(self, mode: str) -> dict[str, float]:
        """Per space id, the per-race value the heat map ``mode`` shows."""
        if self.report is None or not mode:
            return {}
        return self.report.heat_values(mode)


def first_games_words(workers: int) -> str:
    """What a run waits for before its first games come in: its worker processes
    starting up and their first part of games (a second or five with strong bots, when
    "0 of 60 games" read as stuck), or its first games played here."""
    if workers <= 1:
        return "Playing the first games\u2026"
    return f"Starting {plural(workers, 'worker')} and playing the first games\u2026"


def slot_words(k: int, space: str) -> str:
    """A grid slot's row in words: "Grid slot 1, the pole: the car that starts on a1",
    "Grid slot 5, fifth on the grid: the car that starts on b3"."""
    place = "the pole" if k == 0 else f"{ORDINALS[k]} on the grid"
    start = f": the car that starts on {space}" if space else ""
    return f"Grid slot {k + 1}, {place}{start}"


ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth")


def run_words(report: BalanceReport) -> str:
    """A run in words: "200 games of Standard with 4 players and greedy bots"."""
    return (
        f"{plural(report.games, 'game', spec=',')} of {report.variant} with "
        f"{report.players} players and {bots_in_words(report.bots)}"
    )
