"""The lane panel: exact values for the lane tool's draft.

A table of the pieces (length or radius, turn, lanes and kept lanes, each
editable), the
start and heading, the lane settings (lanes, space length, lane width,
stagger), what Create does (close the loop, replace the racing line, place
the grid and lines), the builder's verdict, and Create / Cancel buttons. It
edits the same ``LaneDraft`` as the mouse, through the tool's methods.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QColor, QKeyEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QSizePolicy,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from trackside.editor.document.lane_draft import plus_turns_left
from trackside.editor.document.track_document import is_unset
from trackside.editor.tools.lane_tool import LaneTool
from trackside.editor.widgets.boxes import ComboBox, DoubleSpinBox, SpinBox
from trackside.engine.track.lanes import MAX_LANES, Arc, Piece, Straight

COLUMNS = ("Piece", "Length\nor radius", "Turn °", "Lanes", "Keep", "Closes")
KEEP_COLUMN = 4
CLOSES_COLUMN = 5
# (shown, the piece's keep): Centre is the builder's default, stored as nothing
KEEP_OPTIONS = (("Centre", None), ("Left", "left"), ("Right", "right"))
KEEP_TIP = (
    "Kept lanes: where this piece has more or fewer lanes than the Lanes setting below, "
    "which of its lanes line up with the rest of the track, as seen driving along. "
    "Left: the left lanes carry on, lanes end or are added on the right. Right: the "
    "other way. Centre: lanes end or are added on both sides (for 4 lanes into 2)."
)
CLOSES_TIP = (
    "Which straights close the loop: a ticked straight's length is fitted so that the "
    "line ends where it starts. A length you type stays as typed; tick a straight to "
    "choose it, untick to keep it as it is."
)
FITTED = QColor("#e0a030")
CLOSES_BOXES = (
    "QTableView::indicator { width: 12px; height: 12px; border: 1px solid #9aa4b1;"
    " border-radius: 2px; background: transparent; }"
    f" QTableView::indicator:checked {{ background: {FITTED.name()}; }}"
)
LEAST_ROWS = 3  # pieces the table has room for in the smallest dock


def _spin(lo: float, hi: float, step: float, decimals: int = 1, suffix: str = "") -> QDoubleSpinBox:
    box = DoubleSpinBox()
    box.setRange(lo, hi)
    box.setSingleStep(step)
    box.setDecimals(decimals)
    box.setSuffix(suffix)
    box.setKeyboardTracking(False)
    return box


class PieceTable(QTableWidget):
    """The pieces table: it asks for no more than its least height, and takes what
    the dock has to spare (a word-wrapped panel in a scroll area is laid out at its
    preferred height, so a table that asked for more would push the rest away)."""

    def sizeHint(self) -> QSize:
        return QSize(super().sizeHint().width(), self.minimumHeight())


class LanePanel(QWidget):
    """Typed values for a ``LaneTool``'s draft; ``create_button`` runs Create."""

    def __init__(self, tool: LaneTool, parent: QWidget | None = None):
        super().__init__(parent)
        self.tool = tool
        self.doc = tool.doc
        self._filling = False
        layout = QVBoxLayout(self)
        intro = QLabel(
            "Click the canvas for the start, then click or drag each piece (ahead: "
            "a straight, aside: an arc), or type them here."
        )
        intro.setWordWrap(True)
        layout.addWidget(intro)
        layout.addWidget(self._build_table(), 1)  # the table takes the dock's spare height
        layout.addLayout(self._build_piece_buttons())
        layout.addLayout(self._build_form())
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.status)
        buttons = QHBoxLayout()
        self.create_button = QPushButton("Create (Enter)")
        self.create_button.setDefault(True)
        self.create_button.clicked.connect(self.tool.create)
        self.cancel_button = QPushButton("Cancel (Esc)")
        self.cancel_button.clicked.connect(self.tool.clear_draft)
        buttons.addWidget(self.create_button)
        buttons.addWidget(self.cancel_button)
        layout.addLayout(buttons)
        again = QHBoxLayout()
        self.new_layout_button = QPushButton("New Layout (N)")
        self.new_layout_button.setToolTip(
            "Start another layout: a click on the canvas then places its start (after "
            "Create or Re-apply a click starts nothing until then)"
        )
        self.new_layout_button.clicked.connect(self.tool.new_layout)
        again.addWidget(self.new_layout_button)
        self.edit_layout_button = QPushButton("Edit Layout Again")
        again.addWidget(self.edit_layout_button)
        layout.addLayout(again)
        self.edit_layout_button.setToolTip(
            "Load the layout that built the selected spaces (else the last one created) "
            "back into the table; Create then re-applies it in place, as one undo step, "
            "and the spaces that remain keep their ids"
        )
        self.edit_layout_button.clicked.connect(self.edit_layout)
        self.doc.layoutsChanged.connect(self._fill_options)
        tool.draftChanged.connect(self.fill)
        tool.buildChanged.connect(self._show_status)
        self.doc.changed.connect(self._fill_options)
        self.fill()
        self._show_status(tool.summary())

    # -- building --------------------------------------------------------------
    def _build_table(self) -> QTableWidget:
        # As tall as the dock allows, with room for a few pieces at least; more pieces
        # scroll inside it, so the buttons under it never move as pieces are added.
        self.table = PieceTable(0, len(COLUMNS))
        self.table.setHorizontalHeaderLabels(list(COLUMNS))
        self.table.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Expanding)
        self.table.verticalHeader().setVisible(True)  # numbered as the messages count pieces
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(KEEP_COLUMN, QHeaderView.ResizeMode.Stretch)
        self._header_tip(1, "mm: a straight's length, an arc's radius (of the racing line)")
        self._header_tip(
            2,
            "Degrees: + turns left, - right, as seen on the board"
            if plus_turns_left()
            else "Degrees: + turns right, - left, as seen on the board",
        )
        self._header_tip(3, f"1-{MAX_LANES} for this piece; blank: the lane count below")
        self._header_tip(KEEP_COLUMN, KEEP_TIP)
        self._header_tip(CLOSES_COLUMN, CLOSES_TIP)
        self.table.setMinimumHeight(_rows_height(self.table, LEAST_ROWS))
        # The style draws an unticked box dark on the dark table: outline it.
        self.table.setStyleSheet(CLOSES_BOXES)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.itemChanged.connect(self._on_item_changed)
        self.table.currentCellChanged.connect(
            lambda row, _col, _r, _c: self.tool.highlight_piece(row if row >= 0 else None)
        )
        return self.table

    def _build_piece_buttons(self) -> QVBoxLayout:
        row = QHBoxLayout()
        self.add_straight_button = QPushButton("+ Straight")
        self.add_straight_button.clicked.connect(self._add_straight)
        self.add_arc_button = QPushButton("+ Arc")
        self.add_arc_button.clicked.connect(self._add_arc)
        self.remove_button = QPushButton("Remove last")
        self.remove_button.clicked.connect(self.tool.remove_last)
        for b in (self.add_straight_button, self.add_arc_button, self.remove_button):
            row.addWidget(b)
        self.insert_button = QPushButton("Insert")
        self.insert_button.setToolTip("Put a straight before the piece selected in the table")
        self.insert_button.clicked.connect(self._insert)
        self.split_button = QPushButton("Split")
        self.split_button.setToolTip("Cut the selected piece in two halves")
        self.split_button.clicked.connect(lambda: self._on_row(self.tool.split_piece))
        self.delete_piece_button = QPushButton("Delete")
        self.delete_piece_button.setToolTip("Take the selected piece out")
        self.delete_piece_button.clicked.connect(lambda: self._on_row(self.tool.remove_piece))
        outer = QVBoxLayout()
        outer.addLayout(row)
        second = QHBoxLayout()
        for b in (self.insert_button, self.split_button, self.delete_piece_button):
            second.addWidget(b)
        outer.addLayout(second)
        return outer

    def _header_tip(self, column: int, tip: str) -> None:
        item = self.table.horizontalHeaderItem(column)
        if item is not None:  # made by setHorizontalHeaderLabels
            item.setToolTip(tip)

    def _cell_text(self, row: int, column: int) -> str:
        item = self.table.item(row, column)
        return item.text() if item is not None else ""

    def _build_form(self) -> QFormLayout:
        form = QFormLayout()
        self.start_x = _spin(-100_000, 100_000, 5, suffix=" mm")
        self.start_y = _spin(-100_000, 100_000, 5, suffix=" mm")
        self.heading = _spin(-360, 360, 15, suffix=" °")
        self.heading.setToolTip("Direction of the first piece: 0 runs to the right")
        for box in (self.start_x, self.start_y, self.heading):
            box.valueChanged.connect(self._on_start)
        start = QHBoxLayout()
        start.addWidget(self.start_x)
        start.addWidget(self.start_y)
        form.addRow("Start x, y", start)
        self.lanes = SpinBox()
        self.lanes.setRange(1, MAX_LANES)
        self.lanes.setToolTip("Lanes of every piece whose own lane count is blank")
        heading_and_lanes = QHBoxLayout()
        heading_and_lanes.addWidget(self.heading, 1)
        heading_and_lanes.addWidget(QLabel("Lanes"))
        heading_and_lanes.addWidget(self.lanes, 1)
        form.addRow("Heading", heading_and_lanes)
        self.space_length = _spin(5, 1000, 5, suffix=" mm")
        self.lane_width = _spin(5, 500, 5, suffix=" mm")
        self.stagger = _spin(0, 0.5, 0.05, decimals=2, suffix=" rows")
        self.stagger.setToolTip("Shifts neighbouring lanes forward by this fraction of a row")
        form.addRow("Space length", self.space_length)
        width_and_stagger = QHBoxLayout()  # one row for two: more room for the table
        width_and_stagger.addWidget(self.lane_width, 1)
        width_and_stagger.addWidget(QLabel("Stagger"))
        width_and_stagger.addWidget(self.stagger, 1)
        form.addRow("Lane width", width_and_stagger)
        self.lanes.valueChanged.connect(lambda v: self._setting(lanes=int(v)))
        self.space_length.valueChanged.connect(lambda v: self._setting(space_length=float(v)))
        self.lane_width.valueChanged.connect(lambda v: self._setting(lane_width=float(v)))
        self.stagger.valueChanged.connect(lambda v: self._setting(stagger=float(v)))
        self.close_box = QCheckBox("Close the loop when the turns add up to 360°")
        self.replace_box = QCheckBox("Replace the track's racing line")
        self.furniture_box = QCheckBox("Place start grid, betting lines and finish line")
        self.close_box.toggled.connect(lambda on: self._setting(close=on))
        self.replace_box.toggled.connect(lambda on: self._setting(replace_centerline=on))
        self.furniture_box.toggled.connect(lambda on: self._setting(furniture=on))
        for check in (self.close_box, self.replace_box, self.furniture_box):
            form.addRow(check)
        return form

    # -- from the draft to the widgets -----------------------------------------
    def fill(self) -> None:
        """Show the draft's current values."""
        self._filling = True
        try:
            draft = self.tool.draft
            s = draft.settings
            self.table.setRowCount(len(draft.pieces))
            for row, piece in enumerate(draft.pieces):
                self._fill_row(row, piece)
            x, y = draft.start or (0.0, 0.0)
            self.start_x.setValue(float(x))
            self.start_y.setValue(float(y))
            self.heading.setValue(float(draft.heading))
            self.lanes.setValue(s.lanes)
            self.space_length.setValue(s.space_length)
            self.lane_width.setValue(s.lane_width)
            self.stagger.setValue(s.stagger)
            self.close_box.setChecked(s.close)
            self.replace_box.setChecked(s.replace_centerline)
            self.furniture_box.setChecked(s.furniture)
            self.remove_button.setEnabled(draft.start is not None)
            for button in (self.split_button, self.delete_piece_button):
                button.setEnabled(bool(draft.pieces))
        finally:
            self._filling = False
        self._fill_options()
        self._mark_fitted()

    def _fill_row(self, row: int, piece) -> None:
        straight = isinstance(piece, Straight)
        left = not straight and (piece.angle > 0) == plus_turns_left()
        kind = QTableWidgetItem("Straight" if straight else ("Arc left" if left else "Arc right"))
        kind.setFlags(kind.flags() & ~Qt.ItemFlag.ItemIsEditable)
        size = QTableWidgetItem(f"{piece.length if straight else piece.radius:g}")
        turn = QTableWidgetItem("" if straight else f"{piece.angle:g}")
        if straight:
            turn.setFlags(turn.flags() & ~Qt.ItemFlag.ItemIsEditable)
        lanes = QTableWidgetItem("" if piece.lanes is None else str(piece.lanes))
        lanes.setToolTip("Blank: the lane count below")
        closes = QTableWidgetItem()
        closes.setFlags(
            Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsUserCheckable
            if straight
            else Qt.ItemFlag.NoItemFlags
        )
        for col, item in enumerate((kind, size, turn, lanes)):
            self.table.setItem(row, col, item)
        self.table.setItem(row, CLOSES_COLUMN, closes)
        self._fill_keep(row, piece)

    def _fill_keep(self, row: int, piece: Piece) -> None:
        """The kept-lanes choice of a piece: a combo, live only where its lane count
        differs from the layout's (elsewhere it changes nothing)."""
        combo = self.keep_combo(row)
        if combo is None:
            combo = ComboBox()
            for text, value in KEEP_OPTIONS:
                combo.addItem(text, value)
            combo.currentIndexChanged.connect(lambda _i, r=row: self._on_keep(r))
            self.table.setCellWidget(row, KEEP_COLUMN, combo)
        values = [value for _text, value in KEEP_OPTIONS]
        combo.setCurrentIndex(values.index(piece.keep) if piece.keep in values else 0)
        differs = piece.lanes is not None and piece.lanes != self.tool.draft.settings.lanes
        combo.setEnabled(differs)
        combo.setToolTip(
            KEEP_TIP
            if differs
            else "Only for a piece with more or fewer lanes than the Lanes setting below"
        )

    def keep_combo(self, row: int) -> QComboBox | None:
        """The kept-lanes combo of a row of the pieces table."""
        widget = self.table.cellWidget(row, KEEP_COLUMN)
        return widget if isinstance(widget, QComboBox) else None

    def _fill_options(self) -> None:
        track = self.doc.track
        has_line = len(track.centerline.points) >= 2
        has_furniture = bool(track.start_grid) or any(not is_unset(s) for s in self.doc.lines())
        self.replace_box.setEnabled(has_line)
        self.replace_box.setToolTip(
            "" if has_line else "The track has no racing line: Create sets it"
        )
        self.furniture_box.setEnabled(not has_furniture)
        self.furniture_box.setToolTip(
            "Only for a track that has no grid or lines yet" if has_furniture else ""
        )
        self.edit_layout_button.setEnabled(bool(self.doc.lane_layouts))
        self.new_layout_button.setEnabled(self.tool.finished)
        editing = self.tool.editing is not None
        self.create_button.setText("Re-apply (Enter)" if editing else "Create (Enter)")

    def _show_status(self, text: str) -> None:
        bad = self.tool.build.error is not None
        unclosed = self.tool.build.miss > 0
        self.status.setStyleSheet(
            "color: #ff6b6b" if bad else (f"color: {FITTED.name()}" if unclosed else "")
        )
        self.status.setText(text)
        self.create_button.setEnabled(self.tool.build.ok and not bad)
        self._mark_fitted()

    def _mark_fitted(self) -> None:
        """Set apart the straights whose length Create changes to close the loop, and
        tick those that close it."""
        layout = self.tool.build.layout
        built = list(layout.pieces) if layout is not None else []
        filling, self._filling = self._filling, True  # restyling is no edit
        try:
            self._mark_rows(built)
        finally:
            self._filling = filling

    def _mark_rows(self, built: Sequence[Piece]) -> None:
        fitted = self.tool.build.fitted
        for row, piece in enumerate(self.tool.draft.pieces):
            item = self.table.item(row, 1)
            if item is None:
                continue
            fitted_length = _closing_length(piece, built[row] if row < len(built) else piece)
            changed = fitted_length is not None
            if isinstance(piece, Straight):  # what Create builds: the fitted length if fitted
                item.setText(f"{fitted_length if changed else piece.length:g}")
            font = item.font()
            font.setItalic(changed)
            item.setFont(font)
            item.setForeground(FITTED if changed else self.table.palette().text())
            item.setToolTip(
                f"Fitted to close the loop (typed: {piece.path_length:g} mm); type a length "
                "to keep it as typed"
                if changed
                else ""
            )
            self._mark_closes(row, piece, row in fitted, fitted_length)

    def _mark_closes(
        self, row: int, piece: Piece, fitted: bool, fitted_length: float | None
    ) -> None:
        """Tick a straight that closes the loop (chosen, or taken by the fitter)."""
        item = self.table.item(row, CLOSES_COLUMN)
        if item is None or not isinstance(piece, Straight):
            if item is not None:
                item.setToolTip("Only a straight's length closes a loop")
            return
        ticked = bool(piece.closes) or (piece.closes is None and fitted)
        item.setCheckState(Qt.CheckState.Checked if ticked else Qt.CheckState.Unchecked)
        length = f" ({fitted_length:.1f} mm)" if fitted_length is not None else ""
        if piece.closes:
            tip = f"Chosen to close the loop{length}; untick to keep it as typed"
        elif ticked:
            tip = (
                f"Closes the loop{length}, the smallest change; untick to keep it as "
                "typed, or tick another straight to choose that one"
            )
        elif piece.closes is False:
            tip = "Kept as typed: never changed to close the loop; tick to let it close it"
        else:
            tip = "Tick to close the loop with this straight"
        item.setToolTip(tip)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        """Enter creates here too (after a click on + Straight, say). Esc is left to the
        fields and the canvas: dropping a whole draft from a spin box would surprise."""
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and self.create_button.isEnabled():
            self.tool.create()
        else:
            super().keyPressEvent(event)

    # -- from the widgets to the draft -------------------------------------------
    def _setting(self, **values) -> None:
        if not self._filling:
            self.tool.update_settings(**values)

    def _on_start(self) -> None:
        if not self._filling:
            self.tool.set_start(self.start_x.value(), self.start_y.value(), self.heading.value())
            self.tool.reveal()

    def _on_row(self, action) -> None:
        row = self.table.currentRow()
        if 0 <= row < len(self.tool.draft.pieces):
            action(row)
            self.table.selectRow(min(row, self.table.rowCount() - 1))

    def _insert(self) -> None:
        row = self.table.currentRow()
        at = row if 0 <= row < len(self.tool.draft.pieces) else len(self.tool.draft.pieces)
        self.tool.insert_piece(at, Straight(4 * self.tool.draft.settings.space_length))
        self.table.selectRow(at)

    def edit_layout(self) -> bool:
        """Load the kept layout of the selected spaces (else the newest) for editing."""
        ids = [self.doc.track.spaces[i].id for i in self.tool.scene.selected_indices()]
        kept = self.tool.layout_for(ids)
        if kept is None:
            return False
        self.tool.toolRequested.emit(self.tool.name)  # the draft shows only under its tool
        self.tool.edit_layout(kept)
        self.tool.reveal()
        return True

    def _add_straight(self) -> None:
        self.tool.add_piece(Straight(4 * self.tool.draft.settings.space_length))
        self.tool.reveal()

    def _add_arc(self) -> None:
        s = self.tool.draft.settings
        self.tool.add_piece(Arc(max(150.0, s.lanes * s.lane_width), 90.0))
        self.tool.reveal()

    def _on_keep(self, row: int) -> None:
        combo = self.keep_combo(row)
        if self._filling or combo is None or not 0 <= row < len(self.tool.draft.pieces):
            return
        piece = self.tool.draft.pieces[row]
        keep = combo.currentData()
        if keep != piece.keep:
            self.tool.set_piece(row, replace(piece, keep=keep))
            self.tool.reveal()

    def _on_item_changed(self, item: QTableWidgetItem) -> None:
        if self._filling:
            return
        row = item.row()
        piece = self.tool.draft.pieces[row]
        if item.column() == CLOSES_COLUMN:
            self._on_closes(row, piece, item.checkState() == Qt.CheckState.Checked)
            return
        try:
            size = float(self._cell_text(row, 1))
            lanes_text = self._cell_text(row, 3).strip()
            lanes = int(lanes_text) if lanes_text else None
            new: Piece
            if isinstance(piece, Straight):
                if item.column() == 1:  # a typed length stays as typed: never fitted
                    new = replace(piece, length=size, lanes=lanes, closes=False)
                else:
                    new = replace(piece, lanes=lanes)
            else:
                new = replace(piece, radius=size, angle=float(self._cell_text(row, 2)), lanes=lanes)
        except ValueError:
            self.status.setStyleSheet("color: #ff6b6b")
            self.status.setText(f"Piece {row + 1}: type numbers (lanes 1-{MAX_LANES} or blank)")
            self.fill()
            return
        self.tool.set_piece(row, new)
        self.tool.reveal()

    def _on_closes(self, row: int, piece: Piece, ticked: bool) -> None:
        """The designer chose this straight to close the loop, or to keep it as typed."""
        if isinstance(piece, Straight) and piece.closes is not ticked:
            self.tool.set_piece(row, replace(piece, closes=ticked))
            self.tool.reveal()


def _rows_height(table: QTableWidget, rows: int) -> int:
    """The height of ``table`` showing its header and ``rows`` rows."""
    header = table.horizontalHeader().sizeHint().height()
    return header + rows * table.verticalHeader().defaultSectionSize() + 2 * table.frameWidth()


def _closing_length(piece: Piece, fitted: Piece) -> float | None:
    """The new length of a straight that Create lengthens or shortens to close the loop."""
    if (
        isinstance(piece, Straight)
        and isinstance(fitted, Straight)
        and abs(fitted.length - piece.length) > 0.05
    ):
        return fitted.length
    return None
