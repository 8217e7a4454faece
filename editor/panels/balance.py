"""The Balance panel: simulate bot games on the open circuit and see where it is unfair.

The games run on a worker thread (and, if asked, in worker processes), so
the window stays responsive; Cancel stops between games. A run is made on a
copy of the circuit: when the circuit changes meanwhile, the result is marked
stale rather than shown as current. The last report is kept so that the next
run can show each figure's change and whether it is more than chance.
"""

from __future__ import annotations

import os
import threading

from PySide6.QtCore import QObject, Qt, QThread, QTimer, Signal, Slot
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QButtonGroup,
    QGridLayout,
    QHBoxLayout,
    QHeaderView,
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
from trackside.editor.widgets.boxes import ComboBox, SpinBox
from trackside.editor.widgets.whole_views import WholeList, WholeTable
from trackside.engine.balance import (
    BalanceReport,
    BalanceRun,
    Change,
    compare,
    hints,
    run_balance,
)
from trackside.engine.balance.report import SLOTS
from trackside.engine.errors import TracksideError
from trackside.engine.records import open_variant
from trackside.engine.resources import variants_dir
from trackside.engine.text import plural
from trackside.engine.track.validate import validate_track

BOT_CHOICES = {
    "Greedy bots": ("greedy",),
    "Random bots": ("random",),
    "One greedy, the rest random": ("greedy", "random", "random", "random", "random", "random"),
    "One strong, the rest greedy": ("strong", "greedy", "greedy", "greedy", "greedy", "greedy"),
}
UNFAIR = QColor("#ff6b5e")  # readable on light and dark themes


class BalanceWorker(QObject):
    """Runs one balance run off the GUI thread."""

    progressed = Signal(int)
    finished = Signal(object)  # BalanceReport, or a TracksideError / Exception
    cancel_event: threading.Event

    def __init__(self, run: BalanceRun, workers: int):
        super().__init__()
        self.run_spec = run
        self.workers = workers
        self.cancel_event = threading.Event()

    @Slot()
    def work(self) -> None:
        try:
            report: object = run_balance(
                self.run_spec,
                self.workers,
                progress=self.progressed.emit,
                cancelled=self.cancel_event.is_set,
            )
        except Exception as exc:  # shown in the panel; the editor must go on
            report = exc
        self.finished.emit(report)


class BalancePanel(QWidget):
    """Run settings, progress, the figures, hints that name spaces, and the heat map."""

    spaceActivated = Signal(str)  # a hint's space, to select and show
    heatChanged = Signal(str)  # "", "ends" or "blocked"
    runningChanged = Signal(bool)

    def __init__(self, doc: TrackDocument, parent: QWidget | None = None):
        super().__init__(parent)
        self.doc = doc
        self.report: BalanceReport | None = None
        self.previous: BalanceReport | None = None
        self.stale = False
        self._thread: QThread | None = None
        self._worker: BalanceWorker | None = None
        self._build()
        doc.changed.connect(self._on_track_changed)

    # -- building -----------------------------------------------------------------
    def _build(self) -> None:
        layout = QVBoxLayout(self)
        self.variant_box = ComboBox()
        for path in sorted(variants_dir().glob("*.yaml")):
            self.variant_box.addItem(path.stem.replace("-", " ").title(), str(path))
        standard = self.variant_box.findText("Standard")
        self.variant_box.setCurrentIndex(max(0, standard))
        self.players_box = SpinBox()
        self.players_box.setRange(2, 6)
        self.players_box.setValue(4)
        self.bots_box = ComboBox()
        self.bots_box.addItems(list(BOT_CHOICES))
        self.games_box = SpinBox()
        self.games_box.setRange(10, 1_000_000)  # as many as the command line takes
        self.games_box.setSingleStep(100)
        self.games_box.setValue(200)
        self.workers_box = SpinBox()
        self.workers_box.setRange(1, max(1, os.cpu_count() or 1))
        self.workers_box.setValue(max(1, (os.cpu_count() or 1) - 1))
        self.workers_box.setToolTip("Processes playing games at once (1: on a thread)")
        # Two short boxes to a row: the settings take four rows, so the figures and
        # hints of a run are in view under them even in a short dock.
        settings = QGridLayout()
        settings.addWidget(QLabel("Variant"), 0, 0)
        settings.addWidget(self.variant_box, 0, 1, 1, 3)
        settings.addWidget(QLabel("Bots"), 1, 0)
        settings.addWidget(self.bots_box, 1, 1, 1, 3)
        settings.addWidget(QLabel("Players"), 2, 0)
        settings.addWidget(self.players_box, 2, 1)
        settings.addWidget(QLabel("Games"), 2, 2)
        settings.addWidget(self.games_box, 2, 3)
        settings.addWidget(QLabel("Workers"), 3, 0)
        settings.addWidget(self.workers_box, 3, 1)
        self.run_button = QPushButton("Simulate")
        self.run_button.setToolTip("Play the games on this circuit (Ctrl+Shift+B)")
        self.run_button.clicked.connect(self.start)
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setEnabled(False)
        self.cancel_button.clicked.connect(self.cancel)
        buttons = QHBoxLayout()
        buttons.addWidget(self.run_button)
        buttons.addWidget(self.cancel_button)
        settings.addLayout(buttons, 3, 2, 1, 2)
        settings.setColumnStretch(1, 1)
        settings.setColumnStretch(3, 1)
        layout.addLayout(settings)
        self.progress = QProgressBar()
        self.progress.setVisible(False)
        layout.addWidget(self.progress)
        self.status = QLabel("Simulate bot games to see how fair the circuit is.")
        self.status.setWordWrap(True)
        layout.addWidget(self.status)
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
        self.slot_table = self._table(["Slot", "Space", "Wins ± 95%", "Mean place"])
        layout.addWidget(self.slot_table)
        self.figure_table = self._table(["Figure", "Value ± 95%", "Change"])
        layout.addWidget(self.figure_table)
        for table in (self.slot_table, self.figure_table):
            table.hide()  # empty headings say nothing until a run fills them
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
        layout.addLayout(heat)
        layout.addStretch(1)

    @staticmethod
    def _table(headers: list[str]) -> WholeTable:
        table = WholeTable(headers)
        table.verticalHeader().setVisible(False)
        table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        table.horizontalHeader().setStretchLastSection(True)
        return table

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
        self.progress.setRange(0, spec.games)
        self.progress.setValue(0)
        self.progress.setVisible(True)
        self.status.setText(f"Playing {plural(spec.games, 'game')}…")
        self._worker = BalanceWorker(spec, self.workers_box.value())
        self._thread = QThread(self)
        self._worker.moveToThread(self._thread)
        self._thread.started.connect(self._worker.work)
        self._worker.progressed.connect(self.progress.setValue)
        self._worker.finished.connect(self._done)
        self.stale = False
        self._set_running(True)
        self._thread.start()
        return True

    def _run_spec(self) -> BalanceRun | None:
        track = self.doc.snapshot()
        report = validate_track(track)
        if not report.ok:
            self.status.setText(
                f"The circuit has {report.errors} error(s): fix them (see the Issues "
                "panel) before simulating."
            )
            return None
        try:
            variant = open_variant(str(self.variant_box.currentData()))
        except TracksideError as exc:
            self.status.setText(str(exc))
            return None
        players = self.players_box.value()
        if not variant.min_players <= players <= variant.max_players:
            self.status.setText(
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
            self.status.setText("Cancelling…")

    def wait(self) -> None:
        """Cancel a run and wait for its thread (closing the window)."""
        self.cancel()
        if self._thread is not None:
            self._thread.quit()
            self._thread.wait()

    def _set_running(self, running: bool) -> None:
        self.run_button.setEnabled(not running)
        self.cancel_button.setEnabled(running)
        for box in (
            self.variant_box,
            self.players_box,
            self.bots_box,
            self.games_box,
            self.workers_box,
        ):
            box.setEnabled(not running)
        self.runningChanged.emit(running)

    def _done(self, outcome: object) -> None:
        thread, self._thread, self._worker = self._thread, None, None
        if thread is not None:
            thread.quit()
            thread.wait()
            thread.deleteLater()
        self._set_running(False)
        self.progress.setVisible(False)
        if not isinstance(outcome, BalanceReport):
            self.status.setText(f"The simulation failed: {outcome}")
            return
        self.show_report(outcome)

    def _on_track_changed(self) -> None:
        if (self.running or self.report is not None) and not self.stale:
            self.stale = True
            self._show_status()

    # -- showing ------------------------------------------------------------------
    def show_report(self, report: BalanceReport) -> None:
        """Show a report (the last one shown becomes the one to compare with)."""
        if self.report is not None and not self.report.cancelled:
            self.previous = self.report
        self.report = report
        self._show_status()
        self.headline.setText(
            f"<b style='font-size:14pt'>Balance {report.balance:.2f}</b> "
            "<span>(1 = every grid slot wins as often; 0 = one slot wins every race)</span>"
        )
        self._fill_slots(report)
        self._fill_hints(report)
        self._fill_figures(report)
        self._bring_into_view(self.hint_list if self.hint_list.count() else self.headline)
        for button in self.heat_group.buttons():
            button.setEnabled(True)
        self._heat_toggled()

    def _show_status(self) -> None:
        report = self.report
        if report is None:
            if self.stale:
                self.status.setText("The circuit changed: this run will be stale.")
            return
        text = (
            f"{plural(report.games, 'game')} of {report.variant} with {report.players} players "
            f"in {report.seconds:.1f} s" + (" (cancelled)" if report.cancelled else "") + "."
        )
        if self.stale:
            text += " The circuit has changed since: run again for current figures."
            self.status.setStyleSheet("color: #b35c00")
        else:
            self.status.setStyleSheet("")
        self.status.setText(text)

    def _fill_slots(self, report: BalanceReport) -> None:
        shares = report.slot_shares()
        fair = 1 / SLOTS
        self.slot_table.setRowCount(SLOTS)
        for k in range(SLOTS):
            share, low, high = shares[k]
            place = report.slot_places[k]
            lo, hi = place.interval()
            cells = [
                str(k + 1),
                report.grid[k] if k < len(report.grid) else "",
                f"{100 * share:.0f}% ± {50 * (high - low):.0f}%",
                f"{place.mean:.2f} ± {(hi - lo) / 2:.2f}" if place.count else "",
            ]
            tips = ["", "", f"95% interval {100 * low:.0f}% to {100 * high:.0f}%", ""]
            for column, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setToolTip(tips[column])
                if column == 2 and (low > fair or high < fair):
                    item.setForeground(UNFAIR)
                    font = item.font()
                    font.setBold(True)
                    item.setFont(font)
                    item.setToolTip(f"{tips[2]}: beyond chance (fair share {100 * fair:.0f}%)")
                self.slot_table.setItem(k, column, item)
        self.slot_table.fit()
        self.slot_table.show()

    def _fill_hints(self, report: BalanceReport) -> None:
        self.hint_list.clear()
        style = self.style()
        for hint in hints(report):
            icon = (
                QStyle.StandardPixmap.SP_MessageBoxWarning
                if hint.severity == "warning"
                else QStyle.StandardPixmap.SP_MessageBoxInformation
            )
            item = QListWidgetItem(style.standardIcon(icon), hint.text)
            item.setData(Qt.ItemDataRole.UserRole, hint.spaces[0] if hint.spaces else "")
            if hint.spaces:
                item.setToolTip(f"Click to show {', '.join(hint.spaces)}")
            self.hint_list.addItem(item)
        self.hint_list.setVisible(self.hint_list.count() > 0)

    def _fill_figures(self, report: BalanceReport) -> None:
        changes = {c.figure: c for c in compare(self.previous, report)} if self.previous else {}
        rows: list[tuple[str, str, str]] = []

        def mean_row(label: str, key: str, tally_name: str, scale: float = 1.0) -> None:
            tally = getattr(report, tally_name)
            if not tally.count:
                return
            lo, hi = tally.interval()
            value = f"{tally.mean * scale:.2f} ± {(hi - lo) * scale / 2:.2f}"
            rows.append((label, value, _change_text(changes.get(key), scale)))

        rows.append(("Balance", f"{report.balance:.2f}", _change_text(changes.get("balance"))))
        mean_row("Cards played per race", "cards played per race", "turns")
        mean_row(f"Rounds per race ({report.players} players)", "", "turns", 1 / report.players)
        mean_row("Cars stalled per race", "stalled cars per race", "stalled")
        mean_row("Spaces short, for a stalled car", "", "stall_steps")
        mean_row("Cards left in hands", "", "cards_left")
        mean_row("Lead changes per race", "lead changes per race", "lead_changes")
        mean_row("Money spread, best to worst ($M)", "money spread", "money_spread")
        for line in range(3):
            reached = report.line_reached[line] / max(1, report.games)
            key = f"betting line {line + 1} reached"
            rows.append(
                (
                    f"Betting line {line + 1} reached",
                    f"{100 * reached:.0f}% of races",
                    _change_text(changes.get(key), 100, "%"),
                )
            )
        for seat, (share, low, high) in enumerate(report.seat_shares()):
            rows.append(
                (
                    f"Player {seat + 1} wins" + (" (plays first)" if seat == 0 else ""),
                    f"{100 * share:.0f}% ± {50 * (high - low):.0f}%",
                    "",
                )
            )
        self.figure_table.setRowCount(len(rows))
        for r, row in enumerate(rows):
            for column, text in enumerate(row):
                self.figure_table.setItem(r, column, QTableWidgetItem(text))
        self.figure_table.fit()
        self.figure_table.show()

    def _bring_into_view(self, widget: QWidget) -> None:
        """Scroll the dock (when the panel sits in a scroll area) so ``widget`` shows,
        once the new rows are laid out (the area learns the panel's new height later)."""
        parent = self.parentWidget()
        while parent is not None and not isinstance(parent, QScrollArea):
            parent = parent.parentWidget()
        if parent is not None:
            area = parent
            QTimer.singleShot(0, lambda: area.ensureWidgetVisible(widget, 0, 0))

    def _hint_activated(self, item: QListWidgetItem) -> None:
        space = item.data(Qt.ItemDataRole.UserRole)
        if space:
            self.spaceActivated.emit(str(space))

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


def _change_text(change: Change | None, scale: float = 1.0, unit: str = "") -> str:
    if change is None:
        return ""
    arrow = "↑" if change.delta > 0 else "↓" if change.delta < 0 else "="
    noise = "" if change.significant else " (noise)"
    return f"{arrow} {change.delta * scale:+.2f}{unit}{noise}"
