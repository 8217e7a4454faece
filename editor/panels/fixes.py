"""Suggest fixes, in the Balance panel: candidate edits of the open circuit tried by
simulation in the background, listed best first, one applied as one undo step.

The search (``engine.balance.fixes``) runs on a worker thread on a copy of the
circuit; while it runs the panel shows its progress and can cancel it. When the
circuit plays otherwise than the one searched (an edit since, or while it ran),
its fixes are stale, Apply is off and says why; when it plays as the circuit a fix
applied made (after Apply, or an undo and redo back to it), the box says so. The
fix selected, while current, is offered to the canvas to preview (``FixPreview``;
the window draws it with ``editor/canvas/fix_preview.py``).
"""

from __future__ import annotations

import html
import threading
from dataclasses import dataclass

from PySide6.QtCore import QObject, Qt, Signal, Slot
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from trackside.editor.document.compound import apply_edited_track, reapply_lanes
from trackside.editor.document.fits import Refused
from trackside.editor.document.track_document import TrackDocument
from trackside.editor.widgets.whole_views import WholeList
from trackside.engine.balance import BalanceReport, BalanceRun
from trackside.engine.balance.compare import NOISE_MARK
from trackside.engine.balance.fix_words import detail_lines, main_line, worse_line
from trackside.engine.balance.fixes import (
    DEFAULT_GAMES,
    RANKING,
    FixSearch,
    Trial,
    try_fixes,
)
from trackside.engine.balance.lane_fixes import lane_fix
from trackside.engine.balance.players import bots_in_words
from trackside.engine.text import plural
from trackside.engine.track.model import Track

NOISE_COLOUR = QColor("#8a8f98")  # a change within noise, greyed
BETTER = QColor("#2e9d4f")
WORSE = QColor("#d9534f")
STALE_COLOUR = "#b35c00"  # as the Balance panel's stale status
# Above fixes tried on a later circuit than the run shown above them (its headline and
# hints): the panel scrolls to the fixes, out of sight of its own status line.
RUN_EARLIER = (
    "These fixes were tried on the circuit as it is; the run shown above, its headline "
    "and hints, is of an earlier version: simulate again for current figures."
)


def games_to_suggest(until_clear: bool, games: int, shown: BalanceReport | None) -> tuple[int, str]:
    """The games Suggest fixes plays for the circuit and for each candidate, and why:
    the Games box's number; with Until clear, whose box is a cap for one run and not a
    number of games, the games the run shown needed (when it is of the circuit as it
    is), else ``DEFAULT_GAMES``, never more than the cap."""
    if not until_clear:
        why = "the number in Games"
    elif shown is not None and shown.games:
        games, why = min(games, shown.games), "as many as the run shown"
    else:
        games, why = min(games, DEFAULT_GAMES), "Until clear sets no number of games"
    return games, (
        f"{plural(games, 'game', spec=',')} for the circuit and for each candidate ({why})"
    )


@dataclass(frozen=True)
class FixPreview:
    """A fix to draw over the board: the circuit it was tried on, the circuit it makes,
    its number in the list (1: the best) and its words."""

    before: Track
    after: Track
    number: int
    text: str


class FixWorker(QObject):
    """Runs one search for fixes off the GUI thread."""

    progressed = Signal(int, int, str)  # games done, games in all, what they are for
    finished = Signal(object)  # FixSearch, or an Exception
    cancel_event: threading.Event

    def __init__(self, run: BalanceRun, report: BalanceReport | None, workers: int):
        super().__init__()
        self.run_spec = run
        self.report = report
        self.workers = workers
        self.cancel_event = threading.Event()

    @Slot()
    def work(self) -> None:
        try:
            result: object = try_fixes(
                self.run_spec,
                self.report,
                self.workers,
                progress=self.progressed.emit,
                cancelled=self.cancel_event.is_set,
            )
        except Exception as exc:  # shown in the panel; the editor must go on
            result = exc
        self.finished.emit(result)


class FixesBox(QWidget):
    """The fixes a search found, best first, and Apply for the one selected.

    The fixes belong to the circuit they were tried on: while the document's circuit
    plays otherwise (an edit since, even one made while they were being tried) they
    are stale: a warning in the warning colour heads the box, and Apply is off and
    no fix is previewed; an undo back to that circuit makes them
    current again. While the circuit is the one a fix applied made, the box says it
    was applied. The fix selected, while current, is offered for a preview
    (``previewChanged``); the view moves to a fix only when the designer clicks it.
    """

    spacesActivated = Signal(list)  # a fix clicked: the spaces it is about (maybe none)
    previewChanged = Signal(object)  # the FixPreview of the fix selected, or None
    fixApplied = Signal(str)  # a fix made, in words: "Applied fix 2: Finish line …"

    def __init__(self, doc: TrackDocument, parent: QWidget | None = None):
        super().__init__(parent)
        self.doc = doc
        self.search: FixSearch | None = None
        self.stale = False
        # The fix applied from this list and the circuit it made (as the document held
        # it, lanes re-applied): while the circuit plays so, the box says it is applied.
        self._applied: tuple[Trial, Track] | None = None
        self._said_applied = False  # whether the summary says a fix is applied
        self._said = ""  # what the search tried, above the list
        self._untried: list[str] = []  # kinds of fix not tried, and why
        self._unclear = ""  # said when no fix lessens the problems beyond noise
        self._run_earlier = False  # the run shown above is of an earlier circuit
        self._previewed: Trial | None = None  # the fix whose preview was offered last
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        layout.addWidget(self.summary)
        # A list of wrapped paragraphs, not a table: a fix and its three measured
        # changes with their intervals read whole at any width of the dock.
        self.fix_list = WholeList()
        self.fix_list.setAlternatingRowColors(True)
        self.fix_list.currentRowChanged.connect(self._selected)
        self.fix_list.itemSelectionChanged.connect(self._deselected)
        self.fix_list.itemClicked.connect(self._show_fix)
        self.fix_list.itemActivated.connect(self._show_fix)
        layout.addWidget(self.fix_list)
        buttons = QHBoxLayout()
        self.apply_button = QPushButton("Apply")
        self.apply_button.setToolTip("Make the selected change to the circuit (one undo step)")
        self.apply_button.setEnabled(False)
        self.apply_button.clicked.connect(self.apply_selected)
        buttons.addWidget(self.apply_button)
        buttons.addStretch(1)
        layout.addLayout(buttons)
        self.hide()
        doc.changed.connect(self._on_track_changed)

    def show_search(self, search: FixSearch, run_track: Track | None = None) -> None:
        """List the fixes of ``search``, best first, none of them selected; said to be of
        a later circuit than the run shown above them when ``run_track`` (the run's
        circuit) plays otherwise than the one they were tried on."""
        self.search, self._applied = search, None
        tried = search.track
        self._run_earlier = (
            run_track is not None and tried is not None and not run_track.plays_like(tried)
        )
        said = (
            f"{plural(len(search.trials), 'candidate fix', 'candidate fixes')}, each played "
            f"by {bots_in_words(search.base.bots)} on the same "
            f"{plural(search.base.games, 'game')} as the circuit as it is"
        )
        if search.cancelled:
            said += " (cancelled)"
        # Three short paragraphs: what was tried, how it is ordered, how to read a row.
        self._said = "\n".join(
            [
                f"{said}.",
                RANKING,
                "Each fix shows the figure it changes most; select it to see every figure. "
                f"In brackets: the 95% interval of the change; {NOISE_MARK}: within noise.",
            ]
        )
        self._untried = list(search.untried)
        self._unclear = search.unclear()
        self.fix_list.blockSignals(True)  # filling the list chooses no fix
        self.fix_list.clear()
        for rank, trial in enumerate(search.trials, 1):
            self.fix_list.addItem(fix_item(rank, trial))
        if not search.trials:
            self.fix_list.addItem("None of the candidate edits makes a valid circuit.")
        self.fix_list.setCurrentRow(-1)
        self.fix_list.blockSignals(False)
        self.stale = not self._current()
        self._show_stale()
        self.show()

    def heading_end(self) -> int:
        """How far down the box (from its top) its summary and first fix reach: the
        beginning of a search's answer, which shows whole when the search ends."""
        if not self.fix_list.count():
            return self.summary.y() + self.summary.height()
        first = self.fix_list.visualItemRect(self.fix_list.item(0))
        return self.fix_list.viewport().mapTo(self, first.bottomLeft()).y() + 1

    def clear_search(self) -> None:
        """Forget the fixes shown (a new run of the circuit is under way)."""
        self.search, self.stale, self._said, self._untried = None, False, "", []
        self._applied = None
        self._run_earlier = False
        self._unclear = ""
        self.fix_list.blockSignals(True)
        self.fix_list.clear()
        self.fix_list.blockSignals(False)
        self.summary.clear()
        self.apply_button.setEnabled(False)
        self._offer_preview()
        self.hide()

    def selected_trial(self) -> Trial | None:
        """The fix selected in the list, if any."""
        row = self.fix_list.currentRow()
        if self.search is None or not 0 <= row < len(self.search.trials):
            return None
        return self.search.trials[row]

    def select(self, row: int) -> None:
        """Select the fix in ``row`` (0: the best)."""
        self.fix_list.setCurrentRow(row)

    def choose_none(self) -> None:
        """No fix chosen (Esc): none selected, Apply off, no preview."""
        self.fix_list.clearSelection()
        self.fix_list.setCurrentRow(-1)

    def preview(self) -> FixPreview | None:
        """The fix selected, to draw over the board; None when none is selected or the
        fixes are stale (what it would change is of a circuit no longer there)."""
        trial = self.selected_trial()
        if trial is None or self.stale or self.search is None:
            return None
        tried = self.search.track
        before = tried if tried is not None else self.doc.snapshot()
        row = self.fix_list.currentRow()
        return FixPreview(before, trial.edit.track, row + 1, trial.edit.text)

    def _selected(self, row: int) -> None:
        trial = self.selected_trial()
        self.apply_button.setEnabled(trial is not None and not self.stale)
        self._show_in_full(row)
        self._offer_preview()

    def _show_in_full(self, row: int) -> None:
        """The fix in ``row`` in full, every other one short."""
        if self.search is None or not self.search.trials:
            return
        for r in range(self.fix_list.count()):
            show_full(self.fix_list.item(r), r == row)
        self.fix_list.fit()

    def _deselected(self) -> None:
        """A fix deselected (Ctrl+click) is no longer the one chosen."""
        if not self.fix_list.selectedItems() and self.fix_list.currentRow() >= 0:
            self.fix_list.setCurrentRow(-1)

    def _offer_preview(self) -> None:
        trial = self.selected_trial() if not self.stale else None
        if trial is not self._previewed:
            self._previewed = trial
            self.previewChanged.emit(self.preview())

    def _show_fix(self, item: QListWidgetItem) -> None:
        if not item.isSelected():  # Ctrl+click took it out of the choice
            return
        row = self.fix_list.row(item)
        if self.search is not None and 0 <= row < len(self.search.trials):
            spaces = self.search.trials[row].edit.spaces
            self.spacesActivated.emit(list(spaces))

    def apply_selected(self) -> bool:
        """Apply the selected fix to the circuit as one undo step; False (and why, in
        the summary) when there is none or the circuit changed since it was tried."""
        trial, rank = self.selected_trial(), self.fix_list.currentRow() + 1
        if trial is None:
            return False
        if self.stale:
            self.summary.setText(
                "Not applied: the circuit changed since these fixes were tried, and a fix "
                "is made on the circuit it was tried on: suggest again."
            )
            return False
        try:
            applied = self._apply(trial)
        except Refused as exc:  # what the fix would put in, no track file holds
            self.summary.setText(f"Not applied: {exc}")
            return False
        if applied:
            self._applied = (trial, self.doc.snapshot())
            self._show_stale()
            self.fixApplied.emit(f"Applied fix {rank}: {trial.edit.text}")
        else:
            self.summary.setText(f"Not applied: the circuit has {trial.edit.text} already.")
        return applied

    def _apply(self, trial: Trial) -> bool:
        if trial.edit.proposal.kind == "lanes":
            # The fix made again on the document's circuit (the same as the one tried,
            # which was not stale), so that Re-apply replaces the document's own layout.
            fix = lane_fix(self.doc.track, trial.edit.proposal)
            if fix is None:
                return False
            reapply_lanes(self.doc, fix.old, fix.plan, fix.new)
            return True
        return apply_edited_track(self.doc, trial.edit.track, f"Apply fix: {trial.edit.text}")

    def _current(self) -> bool:
        """True when the document's circuit plays as the one the fixes were tried on
        (taken to be so for a search that does not name its circuit)."""
        tried = self.search.track if self.search is not None else None
        return tried is None or tried.plays_like(self.doc.track)

    @property
    def applied(self) -> Trial | None:
        """The fix applied from the list when the circuit plays as the one it made."""
        if self._applied is None or not self._applied[1].plays_like(self.doc.track):
            return None
        return self._applied[0]

    def _on_track_changed(self) -> None:
        if self.search is None:
            return
        stale = not self._current()
        if stale != self.stale or self._said_applied != (self.applied is not None):
            self.stale = stale
            self._show_stale()

    def _show_stale(self) -> None:
        """The summary (the stale warning first, the kinds of fix not tried on lines of
        their own) and Apply only when current; only that a fix is applied while the
        circuit is the one it made."""
        applied = self.applied
        self._said_applied = applied is not None
        self._selected(self.fix_list.currentRow())
        if applied is not None:
            self.summary.setText(
                f"Applied: {applied.edit.text}. Simulate again to see it measured on its "
                "own; Undo takes it back."
            )
            return
        parts = [html.escape(line) for line in self._said.split("\n") if line]
        if self._unclear:
            parts.append(f"<b>{html.escape(self._unclear)}</b>")
        if self.stale:
            parts.insert(
                0,
                f"<b style='color:{STALE_COLOUR}'>The circuit has changed since these fixes "
                "were tried: they are of the circuit as it was, so Apply is off; suggest "
                "again.</b>",
            )
        elif self._run_earlier:
            parts.insert(0, f"<b style='color:{STALE_COLOUR}'>{html.escape(RUN_EARLIER)}</b>")
        if self._untried:
            parts.append("<br>".join(["Not tried:", *map(html.escape, self._untried)]))
        self.summary.setText("<br>".join(parts))


def fix_texts(rank: int, trial: Trial) -> tuple[str, str]:
    """A fix in words, short and in full. Short: what it changes, the one figure that
    tells most about it (its unit, its 95% interval, beyond noise or not) and what it
    makes worse beyond noise. In full, under those: every other figure measured, each
    with its interval and the noise mark, and the problem score it is ranked by."""
    head = [f"{rank}. {trial.edit.text}", main_line(trial)]
    worse = worse_line(trial)
    if worse:
        head.append(worse)
    full = head + [f"\u00b7 {line}" for line in detail_lines(trial)]
    return "\n".join(head), "\n".join(full)


def fix_item(rank: int, trial: Trial) -> QListWidgetItem:
    """One fix, short until it is selected (``show_full``); its tooltip holds it in
    full. Green when it takes problems away beyond noise, red when it adds some."""
    short, full = fix_texts(rank, trial)
    item = QListWidgetItem(short)
    item.setData(Qt.ItemDataRole.UserRole, (short, full))
    lines = [*full.splitlines(), f"Measured on {plural(trial.games, 'game')}, paired."]
    item.setToolTip("<br>".join(html.escape(line) for line in lines))
    score = trial.problems
    if not score.noise:
        item.setForeground(BETTER if score.change < 0 else WORSE)
    return item


def show_full(item: QListWidgetItem, full: bool) -> None:
    """Show a fix's item in full (it is selected) or short."""
    short, whole = item.data(Qt.ItemDataRole.UserRole)
    item.setText(whole if full else short)
