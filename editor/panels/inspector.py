"""The inspector: the selected space's properties and the track's, each edit undoable."""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDoubleSpinBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from trackside.editor.canvas.scene import TrackScene
from trackside.editor.document.commands import (
    Refused,
    SetCorners,
    SetLine,
    SetMeta,
    SetSpaceField,
    rename_space,
)
from trackside.editor.document.fits import most_characters
from trackside.editor.document.track_document import TrackDocument
from trackside.editor.widgets.boxes import ComboBox, DoubleSpinBox, SpinBox
from trackside.engine.text import plural
from trackside.engine.track.geometry import LINE_NAMES
from trackside.engine.track.model import DEFAULT_TOLERANCE

KINDS = ["normal", "danger"]
ID_CHARS = most_characters("$defs/id")
# The longest text a track file holds for each of the track's words (more is cut, with a word).
TEXT_CHARS = {
    name: most_characters(f"properties/{name}") for name in ("name", "author", "description")
}


class _Notes(QPlainTextEdit):
    """A text box that reports when it loses focus (the end of an edit)."""

    editingFinished = Signal()

    def focusOutEvent(self, event) -> None:
        super().focusOutEvent(event)
        self.editingFinished.emit()


class Inspector(QWidget):
    """Edits the selected space (id, lane, kind, corners) and the track's metadata."""

    refused = Signal(str)  # why a typed value was not taken (the old one is back)

    def __init__(self, doc: TrackDocument, scene: TrackScene, parent: QWidget | None = None):
        super().__init__(parent)
        self.doc = doc
        self.scene = scene
        self.index: int | None = None
        self._loading = False

        self.space_box = QGroupBox("Space")
        self.summary = QLabel("Nothing selected")
        self.summary.setWordWrap(True)
        self.id_edit = QLineEdit()
        self.lane_spin = SpinBox()
        self.lane_spin.setRange(0, 7)
        self.kind_combo = ComboBox()
        self.kind_combo.addItems(KINDS)
        self.corner_table = QTableWidget(0, 2)
        self.corner_table.setHorizontalHeaderLabels(["x (mm)", "y (mm)"])
        self.corner_table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.corner_table.setEditTriggers(
            QAbstractItemView.EditTrigger.DoubleClicked
            | QAbstractItemView.EditTrigger.EditKeyPressed
            | QAbstractItemView.EditTrigger.AnyKeyPressed
        )
        self.corner_table.setMinimumHeight(130)
        self.shape_label = QLabel()
        form = QFormLayout(self.space_box)
        form.addRow(self.summary)
        form.addRow("Id", self.id_edit)
        form.addRow("Lane", self.lane_spin)
        form.addRow("Kind", self.kind_combo)
        form.addRow("Shape", self.shape_label)
        form.addRow(self.corner_table)

        self.track_box = QGroupBox("Track")
        self.name_edit = QLineEdit()
        self.author_edit = QLineEdit()
        self.description_edit = _Notes()
        self.description_edit.setFixedHeight(70)
        self.tolerance_spin = DoubleSpinBox()
        self.tolerance_spin.setRange(0.01, 20.0)
        self.tolerance_spin.setDecimals(2)
        self.tolerance_spin.setSingleStep(0.1)
        self.tolerance_spin.setSuffix(" mm")
        self.track_stats = QLabel()
        self.track_stats.setStyleSheet("color: #8a93a0")
        tform = QFormLayout(self.track_box)
        tform.addRow("Name", self.name_edit)
        tform.addRow("Author", self.author_edit)
        tform.addRow("Description", self.description_edit)
        tform.addRow("Tolerance", self.tolerance_spin)
        tform.addRow(self.track_stats)

        layout = QVBoxLayout(self)
        layout.addWidget(self.space_box)
        self._build_line_box()
        layout.addWidget(self.line_box)
        layout.addWidget(self.track_box)
        layout.addStretch(1)

        self.id_edit.editingFinished.connect(self._commit_id)
        self.lane_spin.valueChanged.connect(self._commit_lane)
        self.kind_combo.currentTextChanged.connect(self._commit_kind)
        self.corner_table.itemChanged.connect(self._commit_corner)
        self.name_edit.editingFinished.connect(
            lambda: self._commit_meta("name", self.name_edit.text())
        )
        self.author_edit.editingFinished.connect(
            lambda: self._commit_meta("author", self.author_edit.text() or None)
        )
        self.description_edit.editingFinished.connect(
            lambda: self._commit_meta("description", self.description_edit.toPlainText() or None)
        )
        self.tolerance_spin.editingFinished.connect(self._commit_tolerance)

        scene.selectionChanged.connect(self.refresh_space)
        scene.selectionChanged.connect(self.refresh_line)
        doc.linesChanged.connect(self.refresh_line)
        doc.spaceChanged.connect(self._on_space_changed)
        doc.spaceAdded.connect(self.refresh_all)
        doc.spaceRemoved.connect(self.refresh_all)
        doc.metaChanged.connect(self.refresh_track)
        doc.centerlineChanged.connect(self.refresh_track)
        doc.trackReplaced.connect(self.refresh_all)
        self.refresh_all()

    # -- showing ------------------------------------------------------------
    def refresh_all(self, *_args) -> None:
        self.refresh_space()
        self.refresh_track()

    def _on_space_changed(self, index: int) -> None:
        if index == self.index:
            self.refresh_space()

    def refresh_space(self, *_args) -> None:
        """Show the single selected space, or a summary of the selection."""
        try:
            selected = self.scene.selected_indices()
        except RuntimeError:  # the scene is being torn down
            return
        self._loading = True
        try:
            self.index = selected[0] if len(selected) == 1 else None
            editable = self.index is not None
            for w in (self.id_edit, self.lane_spin, self.kind_combo, self.corner_table):
                w.setEnabled(editable)
            if not editable:
                self.summary.setText(
                    f"{plural(len(selected), 'space')} selected"
                    if selected
                    else "Nothing selected: click a space on the canvas"
                )
                self.id_edit.clear()
                self.corner_table.setRowCount(0)
                self.shape_label.clear()
                return
            index = selected[0]
            sp = self.doc.track.spaces[index]
            self.summary.setText(f"Space {index + 1} of {len(self.doc.track.spaces)}")
            self.id_edit.setText(sp.id)
            self.lane_spin.setValue(int(sp.lane))
            self.kind_combo.setCurrentText(sp.kind or "normal")
            rect = self.scene.space_items[index].rectangular
            self.shape_label.setText(
                f"{len(sp.corners)} corners, " + ("rectangular (Determined)" if rect else "shaped")
            )
            self.corner_table.setRowCount(len(sp.corners))
            for r, (x, y) in enumerate(sp.corners):
                self.corner_table.setItem(r, 0, QTableWidgetItem(f"{float(x):g}"))
                self.corner_table.setItem(r, 1, QTableWidgetItem(f"{float(y):g}"))
        finally:
            self._loading = False

    def refresh_track(self, *_args) -> None:
        """Show the track's name, author, description and tolerance."""
        t = self.doc.track
        self._loading = True
        try:
            self.name_edit.setText(t.name or "")
            self.author_edit.setText(t.author or "")
            if self.description_edit.toPlainText() != (t.description or ""):
                self.description_edit.setPlainText(t.description or "")
            self.tolerance_spin.setValue(
                float(t.tolerance) if t.tolerance is not None else DEFAULT_TOLERANCE
            )
            self.track_stats.setText(_stats(t))
        finally:
            self._loading = False

    # -- lines ----------------------------------------------------------------
    def _build_line_box(self) -> None:
        self.line_box = QGroupBox("Line")
        self.line_k: int | None = None
        self.line_ends = [_coordinate() for _ in range(4)]
        form = QFormLayout(self.line_box)
        for label, (x, y) in (("End 1", self.line_ends[:2]), ("End 2", self.line_ends[2:])):
            row = QHBoxLayout()
            row.addWidget(x)
            row.addWidget(y)
            form.addRow(label, row)
        for box in self.line_ends:
            box.editingFinished.connect(self._commit_line)
        self.line_box.hide()

    def refresh_line(self, *_args) -> None:
        """Show the ends of the one selected line (and no space), else hide the box."""
        try:
            lines = self.scene.selected_lines()
            spaces = self.scene.selected_indices()
        except RuntimeError:
            return
        self.line_k = lines[0] if len(lines) == 1 and not spaces else None
        self.line_box.setVisible(self.line_k is not None)
        if self.line_k is None:
            return
        self.line_box.setTitle(LINE_NAMES[self.line_k].capitalize())
        (ax, ay), (bx, by) = self.doc.lines()[self.line_k]
        self._loading = True
        try:
            for box, value in zip(self.line_ends, (ax, ay, bx, by), strict=False):
                box.setValue(float(value))
        finally:
            self._loading = False

    def _commit_line(self) -> None:
        if self._loading or self.line_k is None:
            return
        ax, ay, bx, by = (box.value() for box in self.line_ends)
        new = ((ax, ay), (bx, by))
        old = tuple(tuple(float(v) for v in p) for p in self.doc.lines()[self.line_k])
        if new != old:
            k = self.line_k
            self._push(lambda: self.doc.undo_stack.push(SetLine(self.doc, k, new)))

    def _push(self, edit: Callable[[], object]) -> None:
        """Make an edit; when the document refuses it (the file could not hold the value)
        the old value is shown again and the reason said."""
        try:
            edit()
        except Refused as exc:
            self.refresh_all()
            self.refresh_line()
            self.refused.emit(f"Not taken: {exc}")

    # -- committing -------------------------------------------------------------
    def _commit_id(self) -> None:
        if self._loading or self.index is None:
            return
        new = self.id_edit.text().strip()
        old = self.doc.track.spaces[self.index].id
        why = ""
        if not new or any(ch.isspace() for ch in new):
            why = "A space needs an id" if not new else "An id is one word, without spaces"
        elif len(new) > ID_CHARS:
            why = f"An id has at most {ID_CHARS} characters (this one has {len(new)})"
        if why:
            self.id_edit.setText(old)
            self.refused.emit(f"{why}: {old} kept its id")
            return
        if new != old:
            index = self.index
            self._push(lambda: rename_space(self.doc, index, new))

    def _commit_lane(self, value: int) -> None:
        if self._loading or self.index is None or value == self.doc.track.spaces[self.index].lane:
            return
        index = self.index
        self._push(lambda: self.doc.undo_stack.push(SetSpaceField(self.doc, index, "lane", value)))

    def _commit_kind(self, text: str) -> None:
        if self._loading or self.index is None:
            return
        value = (
            None if text == "normal" and self.doc.track.spaces[self.index].kind is None else text
        )
        if value != self.doc.track.spaces[self.index].kind:
            index = self.index
            self._push(
                lambda: self.doc.undo_stack.push(SetSpaceField(self.doc, index, "kind", value))
            )

    def _commit_corner(self, item: QTableWidgetItem) -> None:
        if self._loading or self.index is None:
            return
        corners = list(self.doc.track.spaces[self.index].corners)
        r, c = item.row(), item.column()
        try:
            value = float(item.text().replace(",", "."))
            if not math.isfinite(value):
                raise ValueError("not finite")
        except ValueError:
            self.refused.emit(
                f"A corner needs a number of mm, not {item.text().strip()!r}: corner "
                f"{r + 1} kept its {'xy'[c]}"
            )
            self.refresh_space()
            return
        if r >= len(corners):
            return
        x, y = corners[r]
        corners[r] = (value, y) if c == 0 else (x, value)
        if corners[r] != tuple(self.doc.track.spaces[self.index].corners[r]):
            index = self.index
            self._push(
                lambda: self.doc.undo_stack.push(
                    SetCorners(self.doc, index, corners, f"Edit corner {r + 1}")
                )
            )

    def _commit_meta(self, name: str, value) -> None:
        if self._loading:
            return
        if name == "name" and not value.strip():
            self.refresh_track()
            kept = self.doc.track.name
            self.refused.emit("A track needs a name" + (f": it is still {kept}" if kept else ""))
            return
        most = TEXT_CHARS[name]
        if value is not None and len(value) > most:
            self.refused.emit(
                f"The track's {name} has at most {most:,} characters: the last "
                f"{len(value) - most:,} were left out"
            )
            value = value[:most]
        if value != getattr(self.doc.track, name):
            self._push(lambda: self.doc.undo_stack.push(SetMeta(self.doc, name, value)))
        else:
            self.refresh_track()

    def _commit_tolerance(self) -> None:
        if self._loading:
            return
        value = round(self.tolerance_spin.value(), 2)
        current = self.doc.track.tolerance
        if current is None and value == DEFAULT_TOLERANCE:
            return
        if value != current:
            self._push(lambda: self.doc.undo_stack.push(SetMeta(self.doc, "tolerance", value)))


def _coordinate() -> QDoubleSpinBox:
    box = DoubleSpinBox()
    box.setRange(-1_000_000, 1_000_000)
    box.setDecimals(3)
    box.setSuffix(" mm")
    box.setKeyboardTracking(False)
    return box


def _stats(track) -> str:
    """'70 spaces · racing line 2,140 mm, a loop' (or 'no racing line yet')."""
    pts = track.centerline.points
    if len(pts) < 2:
        return f"{plural(len(track.spaces), 'space')} · no racing line yet"
    ring = list(pts) + ([pts[0]] if track.centerline.closed else [])
    length = sum(math.dist(a, b) for a, b in itertools.pairwise(ring))
    shape = "a loop" if track.centerline.closed else "point to point"
    return f"{plural(len(track.spaces), 'space')} · racing line {length:,.0f} mm, {shape}"
