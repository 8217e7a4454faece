"""The issues list: the validator's report, re-run off the UI thread after edits."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

from PySide6.QtCore import (
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QRect,
    QRunnable,
    QSize,
    Qt,
    QThreadPool,
    QTimer,
    Signal,
)
from PySide6.QtWidgets import (
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QSizePolicy,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from trackside.editor.document.files import LoadProblem
from trackside.editor.document.track_document import TrackDocument, is_unset
from trackside.editor.widgets.tree_items import children, top_level_items
from trackside.engine.text import noun, plural
from trackside.engine.track.geometry import GeometryCache, TrackGeometry
from trackside.engine.track.model import Track

# Edits are gathered this long (one macro, a burst of nudges) before a check starts;
# edits made while a check runs start one more check when it is done.
DEBOUNCE_MS = 30
# Issues of one kind are folded under one row from this many on.
GROUP_FROM = 3
# What a row of folded issues says, for one issue and for many: "<n> <words>"
# (engine.text.plural picks). Every code of engine.track.validate.CODES has words, and
# so do the editor's own kinds: lines not placed yet, a failed check, a file problem.
NOT_PLACED = "line-not-placed"
GROUP_WORDS: dict[str, tuple[str, str]] = {
    "schema": ("value breaks the track format", "values break the track format"),
    "duplicate-id": ("id is used twice", "ids are used twice"),
    "grid-size": ("start grid does not list 6 spaces", "start grids do not list 6 spaces"),
    "grid-repeat": ("start space is listed twice", "start spaces are listed twice"),
    "grid-unknown-id": ("start space does not exist", "start spaces do not exist"),
    "grid-not-behind-line": (
        "start space is not behind betting line 1",
        "start spaces are not behind betting line 1",
    ),
    "line-count": ("wrong number of betting lines", "wrong numbers of betting lines"),
    "centerline-degenerate": ("racing line is too short", "racing lines are too short"),
    "centerline-crossing": (
        "place where the racing line crosses itself",
        "places where the racing line crosses itself",
    ),
    "bad-polygon": ("space is not a usable shape", "spaces are not usable shapes"),
    "space-size": (
        "set of spaces is too small or too large",
        "sets of spaces are too small or too large",
    ),
    "overlap": ("pair of spaces overlaps", "pairs of spaces overlap"),
    "off-racing-line": (
        "space lies far from the racing line",
        "spaces lie far from the racing line",
    ),
    "across-seam": ("space lies across the lap start", "spaces lie across the lap start"),
    "line-misses-centerline": (
        "line does not cross the racing line",
        "lines do not cross the racing line",
    ),
    "line-crosses-twice": (
        "line crosses the racing line more than once",
        "lines cross the racing line more than once",
    ),
    "line-order": ("line is out of race order", "lines are out of race order"),
    "line-cuts-space": ("line runs through spaces", "lines run through spaces"),
    "line-gap": ("line does not span the track", "lines do not span the track"),
    "no-finish-space": (
        "finish line has no space beyond it",
        "finish lines have no space beyond them",
    ),
    "dead-end": ("space has no forward neighbour", "spaces have no forward neighbour"),
    "start-cannot-finish": (
        "start space has no forward path to the finish",
        "start spaces have no forward path to the finish",
    ),
    "unreachable": ("group of spaces no car can reach", "groups of spaces no car can reach"),
    "single-file": ("single-file stretch", "single-file stretches"),
    "coarse-centerline": (
        "curve of the racing line is too coarse",
        "curves of the racing line are too coarse",
    ),
    "lane-mismatch": (
        "pair of side-by-side spaces has inconsistent lane numbers",
        "pairs of side-by-side spaces have inconsistent lane numbers",
    ),
    "grid-order": ("start space is out of order", "start spaces are out of order"),
    "background-not-a-file": (
        "background picture is not a file",
        "background pictures are not files",
    ),
    "bet-near-finish": (
        "betting line is too near the finish",
        "betting lines are too near the finish",
    ),
    NOT_PLACED: ("line is not placed yet", "lines are not placed yet"),
    "internal": ("check failed", "checks failed"),
    "file": ("problem in the file", "problems in the file"),
}


def group_title(kind: str, count: int) -> str:
    """The words of a row folding ``count`` issues of one kind: '4 lines are not placed yet'."""
    one, many = GROUP_WORDS.get(kind, (f"issue of kind {kind}", f"issues of kind {kind}"))
    return plural(count, one, many)


@dataclass
class ShownIssue:
    """One row of the list: the validator's issue, or a problem from opening a file."""

    code: str
    severity: str  # "error" or "warning"
    message: str
    spaces: list[str] = field(default_factory=list)
    line: int | None = None
    tool: str | None = None  # the tool that fixes it, for what is simply not placed yet
    group: str = ""  # folded with others of this kind; "" for its code

    @property
    def kind(self) -> str:
        """What the row is folded under: its code, unless the editor words it otherwise."""
        return self.group or self.code


def validate(track: Track, cache: GeometryCache | None = None) -> list[ShownIssue]:
    """The validator's issues for ``track`` (engine.track.validate); ``cache`` lets the
    geometry reuse what the last check of the same, edited, track worked out."""
    from trackside.engine.track.validate import validate_track

    try:
        report = validate_track(track, geometry=TrackGeometry(track, cache))
    except Exception as exc:  # a half-drawn track must never take the editor down
        return [
            ShownIssue(
                "internal",
                "error",
                f"the validator failed on this track: {type(exc).__name__}: {exc}",
            )
        ]
    shown: list[ShownIssue] = []
    unplaced: set[tuple[str | None, int | None]] = set()
    for i in report.issues:
        missing = _unplaced(track, i)
        if missing is None:
            shown.append(
                ShownIssue(i.code, i.severity, _sentence(i.message), list(i.spaces), i.line)
            )
        elif (missing.tool, missing.line) not in unplaced:  # one row for each thing missing
            unplaced.add((missing.tool, missing.line))
            shown.append(missing)
    return shown


def _sentence(message: str) -> str:
    """A validator's message as a row of the list: begun with a capital, as the rows
    the editor words itself are ("The start grid is not placed yet...")."""
    return message[:1].upper() + message[1:]


def _unplaced(track: Track, issue) -> ShownIssue | None:
    """An issue that only says a line or the grid is not placed yet, said so, with its tool."""
    lines = [*list(track.betting_lines), track.finish_line]
    k = issue.line
    if issue.code.startswith("line-") and k is not None and k < len(lines) and is_unset(lines[k]):
        what, tool, label = (
            (f"Betting line {k + 1}", "betting", "Betting line tool (B)")
            if k < 3
            else ("The finish line", "finish", "Finish line tool (F)")
        )
        return ShownIssue(
            issue.code,
            issue.severity,
            f"{what} is not placed yet: with the {label}, click a space to put it across "
            "the track at its nearest edge, or drag across the track; click here to start",
            line=k,
            tool=tool,
            group=NOT_PLACED,  # whatever check noticed it, the line is simply missing
        )
    if issue.code == "centerline-degenerate" and len(track.centerline.points) < 2:
        how = (
            "draw it along the spaces with the Racing line tool"
            if track.spaces
            else "lay out lanes of spaces along it with the Lanes tool (L)"
        )
        return ShownIssue(
            issue.code,
            issue.severity,
            f"The racing line is not drawn yet: {how}; click here to start",
            tool="racing" if track.spaces else "lanes",
        )
    if issue.code == "grid-size" and not track.start_grid:
        return ShownIssue(
            issue.code,
            issue.severity,
            "The start grid is not placed yet: click its six spaces, pole first, "
            "with the Grid tool (G); click here to start",
            tool="grid",
        )
    return None


class _Relay(QObject):
    done = Signal(int, object, float, float)


class _Job(QRunnable):
    def __init__(self, generation: int, track: Track, relay: _Relay, cache: GeometryCache):
        super().__init__()
        self.generation, self.track, self.relay, self.cache = generation, track, relay, cache

    def run(self) -> None:
        start, cpu = time.perf_counter(), time.thread_time()
        try:
            issues = validate(self.track, self.cache)
        except Exception as exc:  # the panel counts on an answer to every check
            issues = [ShownIssue("internal", "error", f"the check failed: {exc}")]
        took, cpu = time.perf_counter() - start, time.thread_time() - cpu
        self.relay.done.emit(self.generation, issues, took, cpu)


class WrappedRows(QStyledItemDelegate):
    """Rows as tall as their words wrapped to the width their column gives them now (the
    tree asks for heights without a width, so rows stayed one line tall and were cut)."""

    def __init__(self, tree: QTreeWidget):
        super().__init__(tree)
        self.tree = tree

    def sizeHint(
        self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> QSize:
        depth, parent = 0, index.parent()
        while parent.isValid():
            depth, parent = depth + 1, parent.parent()
        depth += 1 if self.tree.rootIsDecorated() else 0
        width = self.tree.columnWidth(index.column()) - self.tree.indentation() * depth
        sized = QStyleOptionViewItem(option)
        sized.rect = QRect(0, 0, max(width, 1), 1)
        return super().sizeHint(sized, index)


class IssuesPanel(QWidget):
    """Errors and warnings with counts; activating a row emits ``issueActivated``."""

    issueActivated = Signal(object)  # ShownIssue
    reportReady = Signal(int, int)  # errors, warnings

    def __init__(self, doc: TrackDocument, parent: QWidget | None = None):
        super().__init__(parent)
        self.doc = doc
        self.issues: list[ShownIssue] = []
        self.load_problems: list[ShownIssue] = []
        self.last_cpu = 0.0  # CPU seconds of the last check shown (its worker thread)
        self.checked = False  # no "No problems" before the first check has run
        self._generation = 0
        self._pending = False
        self._running = 0  # checks started and not yet reported back
        self._again = False  # an edit came in while a check ran
        self._pool = QThreadPool(self)
        self._pool.setMaxThreadCount(1)
        # Used by the one worker thread only. The snapshots checked share unchanged spaces,
        # so after an edit the geometry of the spaces that did not change is reused.
        self._geometry_cache = GeometryCache()
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
        self.tree = QTreeWidget()
        self.tree.setHeaderHidden(True)
        self.tree.setColumnCount(1)
        self.tree.setWordWrap(True)
        self.tree.setUniformRowHeights(False)
        self.tree.setAlternatingRowColors(True)
        self.tree.setIconSize(QSize(16, 16))
        self.tree.setIndentation(14)
        self.tree.header().setStretchLastSection(False)
        self.tree.header().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.tree.setTextElideMode(Qt.TextElideMode.ElideNone)  # wrap, never cut
        self.tree.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.tree.setItemDelegate(WrappedRows(self.tree))
        # A row's height is asked once, when it is added: a new width asks again.
        self._relayout = QTimer(self)
        self._relayout.setSingleShot(True)
        self._relayout.setInterval(0)
        self._relayout.timeout.connect(self.tree.doItemsLayout)
        self.tree.header().sectionResized.connect(lambda *_: self._relayout.start())
        self.tree.itemActivated.connect(self._activate)
        self.tree.itemClicked.connect(self._activate)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addLayout(top)
        layout.addWidget(self.tree)
        self.rejected: str | None = None  # a file that could not be opened
        doc.changed.connect(self._on_edit)
        doc.trackReplaced.connect(self._new_document)
        self._show()

    # -- running the validator -----------------------------------------------
    def schedule(self) -> None:
        """Re-validate soon: at once when no check is running, else when it is done."""
        self.state.setText("checking…")
        self._generation += 1  # what is running now is stale
        self._pending = True
        if self._running:
            self._again = True
        else:
            self._timer.start()

    def _new_document(self) -> None:
        """Another track (opened, new, reloaded): the last one's issues go at once, so
        nothing shows a report of another document while this one's is checked."""
        self.issues, self.checked = [], False
        self._show()
        self.schedule()

    def run_now(self) -> None:
        """Start validating the current track in the background."""
        self._timer.stop()
        self._again = False
        self._generation += 1
        self._pending = True
        self._running += 1
        self.state.setText("checking…")
        # A copy sharing unchanged spaces with the last one: cheap on the UI thread.
        snapshot = self.doc.shared_snapshot()
        self._pool.start(_Job(self._generation, snapshot, self._relay, self._geometry_cache))

    def wait(self, ms: int = 10_000) -> None:
        """Block until the background check finished (for scripts and tests)."""
        self._pool.waitForDone(ms)

    def _on_done(
        self, generation: int, issues: list[ShownIssue], seconds: float, cpu: float
    ) -> None:
        self._running -= 1
        if generation != self._generation:
            if self._again and not self._running:
                self.run_now()  # the edits made meanwhile
            return  # an edit came in since; a newer check is on its way
        self._pending = False
        self.checked = True
        self.last_cpu = cpu
        self.issues = issues
        self.state.setText(f"{seconds * 1000:.0f} ms")
        self.state.setToolTip(f"The validator took {seconds * 1000:.0f} ms")
        self._show()

    @property
    def busy(self) -> bool:
        """True while a check is scheduled or running."""
        return self._pending or self._timer.isActive() or self._again

    def set_load_problems(
        self, problems: list[LoadProblem], severity: str = "error", rejected: str | None = None
    ) -> None:
        """Show a file's problems, in file order, until the first edit.

        ``rejected`` names a file that could not be opened: its problems are
        listed under a heading and left out of the counts, since they say
        nothing about the track being edited. Warnings (what a draft still
        lacks) also go at the first edit: by then the validator reports the
        same gaps as they stand.
        """
        ordered = sorted(problems, key=lambda p: (p.line or 0, p.column or 0))
        self.load_problems = [ShownIssue("file", severity, str(p), line=p.line) for p in ordered]
        self.rejected = rejected if problems else None
        self._show()

    def _on_edit(self) -> None:
        if self.load_problems:
            self.load_problems, self.rejected = [], None
            self._show()
        self.schedule()

    # -- display -----------------------------------------------------------------
    def all_issues(self) -> list[ShownIssue]:
        """The rows shown: file problems first, then the validator's issues."""
        return self.load_problems + self.issues

    def counted(self) -> list[ShownIssue]:
        """The rows about the track being edited (a rejected file's are not)."""
        return self.issues if self.rejected else self.all_issues()

    def _show(self) -> None:
        counted = self.counted()
        errors = sum(1 for i in counted if i.severity == "error")
        warnings = len(counted) - errors
        self.counts.setText(self._headline(errors, warnings))
        expanded = self._expanded_codes()
        self.tree.clear()
        if self.rejected:
            self.tree.addTopLevelItem(
                self._heading(
                    f"Not opened: {Path(self.rejected).name}. The track you are editing is "
                    "unchanged; these go at your next edit."
                )
            )
        for problem in self.load_problems:
            self.tree.addTopLevelItem(self._row(problem))
        if self.rejected and self.issues:
            self.tree.addTopLevelItem(self._heading("This track:"))
        for severity in ("error", "warning"):
            self._add_grouped([i for i in self.issues if i.severity == severity], expanded)
        self.reportReady.emit(errors, warnings)

    def _headline(self, errors: int, warnings: int) -> str:
        """The counts above the rows: of the track being edited, and first, when a
        file was not opened, how many problems kept it out."""
        none = "no problems" if self.rejected else "No problems"
        track = (
            f"<b style='color:#e5484d'>{errors}</b> {noun(errors, 'error')}"
            f" &nbsp; <b style='color:#f0a020'>{warnings}</b> {noun(warnings, 'warning')}"
            if errors or warnings
            else f"<b style='color:#3fb950'>{none}</b>"
            if self.checked
            else ""
        )
        if not self.rejected:
            return track
        n = len(self.load_problems)
        refused = f"<b style='color:#e5484d'>Not opened</b>: {n} {noun(n, 'problem')}"
        return f"{refused}<br>This track: {track}" if track else refused

    def _add_grouped(self, issues: list[ShownIssue], expanded: set[str]) -> None:
        """One row per issue, issues of one kind folded under a row once there are many."""
        by_kind: dict[str, list[ShownIssue]] = {}
        for issue in issues:
            by_kind.setdefault(issue.kind, []).append(issue)
        for issue in issues:
            same = by_kind.get(issue.kind)
            if same is None:
                continue  # already shown in its group
            if len(same) < GROUP_FROM:
                self.tree.addTopLevelItem(self._row(issue))
                same.remove(issue)
                if not same:
                    del by_kind[issue.kind]
                continue
            del by_kind[issue.kind]
            group = self._group_row(same)
            self.tree.addTopLevelItem(group)
            group.setExpanded(issue.kind in expanded)

    def _group_row(self, issues: list[ShownIssue]) -> QTreeWidgetItem:
        first = issues[0]
        spaces = list(dict.fromkeys(s for i in issues for s in i.spaces))
        title = group_title(first.kind, len(issues))
        summary = ShownIssue(first.code, first.severity, title, spaces, group=first.kind)
        group = self._row(summary)
        group.setToolTip(0, f"{summary.message}: click to select them all, expand to list them")
        for issue in issues:
            group.addChild(self._row(issue))
        return group

    def _row(self, issue: ShownIssue) -> QTreeWidgetItem:
        icon = QStyle.StandardPixmap.SP_MessageBoxCritical
        if issue.severity != "error":
            icon = QStyle.StandardPixmap.SP_MessageBoxWarning
        item = QTreeWidgetItem([issue.message])
        item.setIcon(0, self.style().standardIcon(icon))
        item.setToolTip(0, f"{issue.message}\n[{issue.severity}: {issue.code}]")
        item.setData(0, Qt.ItemDataRole.UserRole, issue)
        return item

    def _expanded_codes(self) -> set[str]:
        """The kinds whose group the user opened (kept open across re-checks)."""
        out = set()
        for item in top_level_items(self.tree):
            issue = item.data(0, Qt.ItemDataRole.UserRole)
            if item.childCount() and item.isExpanded() and issue is not None:
                out.add(issue.kind)
        return out

    def rows(self) -> list[QTreeWidgetItem]:
        """Every row, groups followed by their members, top to bottom."""
        out = []
        for item in top_level_items(self.tree):
            out += [item, *children(item)]
        return out

    def _heading(self, text: str) -> QTreeWidgetItem:
        item = QTreeWidgetItem([text])
        item.setFlags(Qt.ItemFlag.NoItemFlags)
        font = item.font(0)
        font.setBold(True)
        item.setFont(0, font)
        return item

    def _activate(self, item: QTreeWidgetItem, _column: int = 0) -> None:
        issue = item.data(0, Qt.ItemDataRole.UserRole)
        if issue is not None:
            self.issueActivated.emit(issue)

    def counts_text(self) -> tuple[int, int]:
        """(errors, warnings) of the track being edited."""
        rows = self.counted()
        errors = sum(1 for i in rows if i.severity == "error")
        return errors, len(rows) - errors
