"""The issues list: the validator's report, re-run (debounced, off the UI thread) after edits."""
from __future__ import annotations

import time
from dataclasses import dataclass, field

from PySide6.QtCore import QObject, QRunnable, QSize, Qt, QThreadPool, QTimer, Signal
from PySide6.QtWidgets import (QHBoxLayout, QLabel, QListView, QListWidget, QListWidgetItem,
                               QSizePolicy, QStyle, QVBoxLayout, QWidget)

from engine.track import Track

from .document import TrackDocument
from .files import LoadProblem

DEBOUNCE_MS = 300


@dataclass
class ShownIssue:
    """One row of the list: the validator's issue, or a problem from opening a file."""

    code: str
    severity: str            # "error" or "warning"
    message: str
    spaces: list[str] = field(default_factory=list)
    line: int | None = None


def validate(track: Track) -> list[ShownIssue]:
    """The validator's issues for ``track`` (engine.validate)."""
    from engine.validate import validate_track

    try:
        report = validate_track(track)
    except Exception as exc:  # a half-drawn track must never take the editor down
        return [ShownIssue("internal", "error",
                           f"the validator failed on this track: {type(exc).__name__}: {exc}")]
    return [ShownIssue(i.code, i.severity, i.message, list(i.spaces), i.line)
            for i in report.issues]


class _Relay(QObject):
    done = Signal(int, object, float)


class _Job(QRunnable):
    def __init__(self, generation: int, track: Track, relay: _Relay):
        super().__init__()
        self.generation, self.track, self.relay = generation, track, relay

    def run(self) -> None:
        start = time.perf_counter()
        issues = validate(self.track)
        self.relay.done.emit(self.generation, issues, time.perf_counter() - start)


class IssuesPanel(QWidget):
    """Errors and warnings with counts; activating a row emits ``issueActivated``."""

    issueActivated = Signal(object)      # ShownIssue
    reportReady = Signal(int, int)       # errors, warnings

    def __init__(self, doc: TrackDocument, parent: QWidget | None = None):
        super().__init__(parent)
        self.doc = doc
        self.issues: list[ShownIssue] = []
        self.load_problems: list[ShownIssue] = []
        self.last_seconds = 0.0
        self.checked = False     # no "No problems" before the first check has run
        self._generation = 0
        self._pending = False
        self._pool = QThreadPool(self)
        self._pool.setMaxThreadCount(1)
        self._relay = _Relay(self)
        self._relay.done.connect(self._on_done)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(DEBOUNCE_MS)
        self._timer.timeout.connect(self.run_now)

        self.counts = QLabel()
        self.counts.setObjectName("issueCounts")
        self.state = QLabel()
        self.state.setStyleSheet("color: #8a93a0")
        top = QHBoxLayout()
        top.setContentsMargins(6, 4, 6, 2)
        top.addWidget(self.counts)
        top.addStretch(1)
        top.addWidget(self.state)
        self.counts.setSizePolicy(QSizePolicy.Policy.Minimum, QSizePolicy.Policy.Preferred)
        self.list = QListWidget()
        self.list.setWordWrap(True)
        self.list.setResizeMode(QListView.ResizeMode.Adjust)
        self.list.setUniformItemSizes(False)
        self.list.setAlternatingRowColors(True)
        self.list.setIconSize(QSize(16, 16))
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.list.itemActivated.connect(self._activate)
        self.list.itemClicked.connect(self._activate)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addLayout(top)
        layout.addWidget(self.list)
        self._clear_on_edit = False
        doc.changed.connect(self._on_edit)
        doc.trackReplaced.connect(self.schedule)
        self._show()

    # -- running the validator -----------------------------------------------
    def schedule(self) -> None:
        """Re-validate after the edits settle."""
        self.state.setText("checking…")
        self._timer.start()

    def run_now(self) -> None:
        """Start validating the current track in the background."""
        self._timer.stop()
        self._generation += 1
        self._pending = True
        self.state.setText("checking…")
        self._pool.start(_Job(self._generation, self.doc.snapshot(), self._relay))

    def wait(self, ms: int = 10_000) -> None:
        """Block until the background check finished (for scripts and tests)."""
        self._pool.waitForDone(ms)

    def _on_done(self, generation: int, issues: list[ShownIssue], seconds: float) -> None:
        if generation != self._generation:
            return  # an edit came in since; a newer check is on its way
        self._pending = False
        self.checked = True
        self.last_seconds = seconds
        self.issues = issues
        self.state.setText(f"{seconds * 1000:.0f} ms")
        self.state.setToolTip(f"The validator took {seconds * 1000:.0f} ms")
        self._show()

    @property
    def busy(self) -> bool:
        """True while a check is scheduled or running."""
        return self._pending or self._timer.isActive()

    def set_load_problems(self, problems: list[LoadProblem], severity: str = "error") -> None:
        """Show why a file could not be opened (kept until another file opens).

        Warnings (what a draft still lacks) go at the first edit: by then the
        validator reports the same gaps as they stand.
        """
        self.load_problems = [ShownIssue("file", severity, str(p)) for p in problems]
        self._clear_on_edit = severity == "warning"
        self._show()

    def _on_edit(self) -> None:
        if self._clear_on_edit and self.load_problems:
            self.load_problems = []
            self._clear_on_edit = False
            self._show()
        self.schedule()

    # -- display -----------------------------------------------------------------
    def all_issues(self) -> list[ShownIssue]:
        """The rows shown: file problems first, then the validator's issues."""
        return self.load_problems + self.issues

    def _show(self) -> None:
        rows = self.all_issues()
        errors = sum(1 for i in rows if i.severity == "error")
        warnings = len(rows) - errors
        self.counts.setText(f"<b style='color:#e5484d'>{errors}</b> error{'s' * (errors != 1)}"
                            f" &nbsp; <b style='color:#f0a020'>{warnings}</b> "
                            f"warning{'s' * (warnings != 1)}"
                            if rows else "<b style='color:#3fb950'>No problems</b>"
                            if self.checked else "")
        self.list.clear()
        style = self.style()
        err_icon = style.standardIcon(QStyle.StandardPixmap.SP_MessageBoxCritical)
        warn_icon = style.standardIcon(QStyle.StandardPixmap.SP_MessageBoxWarning)
        for issue in rows:
            item = QListWidgetItem(err_icon if issue.severity == "error" else warn_icon,
                                   issue.message)
            item.setToolTip(f"{issue.message}\n[{issue.severity}: {issue.code}]")
            item.setData(Qt.ItemDataRole.UserRole, issue)
            self.list.addItem(item)
        self.reportReady.emit(errors, warnings)

    def _activate(self, item: QListWidgetItem) -> None:
        issue = item.data(Qt.ItemDataRole.UserRole)
        if issue is not None:
            self.issueActivated.emit(issue)

    def counts_text(self) -> tuple[int, int]:
        """(errors, warnings) currently listed."""
        rows = self.all_issues()
        errors = sum(1 for i in rows if i.severity == "error")
        return errors, len(rows) - errors
