"""Movement preview extras: a dock to pick the number and read the moves, and the
paths to the end space under the pointer.

The moves tool (``editor.tools.moves``) computes the legal moves of R-MOVE-4
for the car on the hovered or pinned space. This module adds, without
changing it: a spin box for the number (the same as keys 1-9), the six car
colours for its test cars (in colour order, or the colour picked; its
overlay draws them), a list of the distinct end spaces (finishing ends,
R-FIN-1, and ends blocked short, R-MOVE-4, told apart), the forward-arrows
toggle, and ``EndPathsItem``, which draws every path to the end space the
pointer (or the list) points at.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QColor, QIcon, QPixmap
from PySide6.QtWidgets import (
    QCheckBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from trackside.editor.canvas.move_paths import EndPathsItem
from trackside.editor.tools.moves import after_insertion, after_removal
from trackside.editor.widgets.boxes import ComboBox, SpinBox
from trackside.editor.widgets.elided_label import ElidedLabel
from trackside.engine.game.cards import COLOURS
from trackside.engine.text import plural
from trackside.engine.track.movement import Move

if TYPE_CHECKING:
    from PySide6.QtGui import QAction

    from trackside.editor.canvas.scene import TrackScene
    from trackside.editor.document.track_document import TrackDocument
    from trackside.editor.tools.moves import MovesTool

CAR_HEX = {
    "black": "#1b1b1b",
    "blue": "#2f6fde",
    "green": "#2fa84f",
    "yellow": "#f2c230",
    "orange": "#ff8c28",
    "red": "#e5484d",
}


def end_kind(moves: list[Move], end: int) -> str:
    """'finish', 'blocked' or 'move': how the moves to ``end`` stop (R-FIN-1, R-MOVE-4)."""
    mine = [m for m in moves if m.end == end]
    if any(m.finished for m in mine):
        return "finish"
    if mine and all(m.blocked for m in mine):
        return "blocked"
    return "move"


def _swatch(hex_colour: str) -> QIcon:
    pix = QPixmap(14, 14)
    pix.fill(QColor(hex_colour))
    return QIcon(pix)


class MovementDock(QWidget):
    """Number, test cars, forward arrows, and the distinct ends of the moves shown."""

    def __init__(
        self, tool: MovesTool, scene: TrackScene, doc: TrackDocument, arrows: QAction
    ) -> None:
        super().__init__()
        # Painted over with the window's colour, as the dock behind it would: a hover's new
        # summary and list then repaint from here, not the dock and the window too.
        self.setAutoFillBackground(True)
        self.doc = doc
        self.tool = tool
        self.scene = scene
        self.paths_item = EndPathsItem(self.scene)
        self.scene.addItem(self.paths_item)
        self.pointed: int | None = None
        layout = QVBoxLayout(self)
        form = QFormLayout()
        self.number = SpinBox()
        self.number.setRange(1, 9)
        self.number.setValue(self.tool.number)
        self.number.setToolTip("How far the car moves (keys 1-9 on the canvas)")
        self.number.valueChanged.connect(self.tool.set_number)
        form.addRow("Move", self.number)
        self.next_colour = ComboBox()
        for colour in COLOURS:
            self.next_colour.addItem(_swatch(CAR_HEX[colour]), colour, colour)
        self.next_colour.setToolTip("The colour of the next test car you place with a click")
        form.addRow("Next car", self.next_colour)
        layout.addLayout(form)
        self.car_colour: dict[int, str] = {}  # space index -> colour of the test car there
        self.cars_label = QLabel()
        self.cars_label.setWordWrap(True)
        self.arrows = QCheckBox("Forward arrows for the whole track")
        self.arrows.setChecked(arrows.isChecked())
        self.arrows.toggled.connect(arrows.setChecked)
        arrows.toggled.connect(self._sync_arrows)
        layout.addWidget(self.arrows)
        buttons = QHBoxLayout()
        self.clear_button = QPushButton("Clear test cars")
        self.clear_button.clicked.connect(self.tool.cancel)
        buttons.addWidget(self.clear_button)
        layout.addLayout(buttons)
        layout.addWidget(self.cars_label)
        self.summary = ElidedLabel(lines=2)  # it changes on every hover: no relayout
        layout.addWidget(self.summary)
        self.ends = QListWidget()
        self._rows: list[tuple[str, int]] = []  # what the list shows (text, space), row by row
        self.ends.setMouseTracking(True)
        self.ends.itemEntered.connect(
            lambda item: self.point_at(item.data(Qt.ItemDataRole.UserRole))
        )
        self.ends.currentItemChanged.connect(
            lambda item, _old: self.point_at(item.data(Qt.ItemDataRole.UserRole) if item else None)
        )
        layout.addWidget(self.ends, 1)
        legend = QLabel(
            "<span style='color:#3fb950'>■</span> move &nbsp; "
            "<span style='color:#f2c230'>■</span> finishes &nbsp; "
            "<span style='color:#ff8c28'>■</span> blocked short<br>"
            "Shift+click a space to pin the car, then point at an end to see its "
            "paths."
        )
        legend.setWordWrap(True)
        layout.addWidget(legend)
        self.tool.movesChanged.connect(self.refresh)
        doc.spaceRemoved.connect(self._on_space_removed)
        doc.spaceAdded.connect(self._on_space_added)
        self.scene.cursorMoved.connect(self._on_cursor)
        self.scene.toolChanged.connect(self._on_tool)
        doc.changed.connect(self._after_edit)
        self.refresh()

    # -- following the tool ------------------------------------------------------
    def _sync_arrows(self, on: bool) -> None:
        if self.arrows.isChecked() != on:
            self.arrows.setChecked(on)

    def _on_tool(self, tool) -> None:
        if tool is not self.tool:
            self.point_at(None)

    def _after_edit(self) -> None:
        self.pointed = None
        self.paths_item.show_paths(None, [])

    def refresh(self, *_args) -> None:
        """Show the tool's current number, moves and ends."""
        tool = self.tool
        if self.number.value() != tool.number:
            self.number.blockSignals(True)
            self.number.setValue(tool.number)
            self.number.blockSignals(False)
        self._sync_cars()
        moves = list(tool.last_moves)
        spaces = self.doc.track.spaces
        origin = tool.origin
        rows: list[tuple[str, int]] = []
        if origin is None or origin >= len(spaces):
            self.summary.setText("Hover a space on the canvas (Moves tool, M).")
        else:
            by_end: dict[int, list[Move]] = {}
            for m in moves:
                by_end.setdefault(m.end, []).append(m)
            ends = sorted(by_end, key=lambda i: spaces[i].id)
            self.summary.setText(
                f"{spaces[origin].id} moving {tool.number}: {plural(len(moves), 'path')} "
                f"to {plural(len(ends), 'end space')}" + ("" if moves else " (cannot move)")
            )
            for i in ends:
                count = len(by_end[i])
                kind = end_kind(by_end[i], i)
                text = (
                    f"{spaces[i].id}  —  {plural(count, 'path')}"
                    + {"finish": ", finishes", "blocked": ", blocked short", "move": ""}[kind]
                )
                rows.append((text, i))
        self._show_ends(rows)
        if self.pointed is not None:
            self.point_at(self.pointed)

    def _show_ends(self, rows: list[tuple[str, int]]) -> None:
        """List these (text, space) rows, reusing the list's rows: a hover stays cheap."""
        ends = self.ends
        if ends.currentRow() != -1:
            ends.setCurrentRow(-1)  # as a new list: nothing chosen, the pointed paths go
        if rows == self._rows:
            return
        self._rows = rows
        while ends.count() > len(rows):
            ends.takeItem(ends.count() - 1)
        for k, (text, i) in enumerate(rows):
            item = ends.item(k)
            if item is None:
                item = QListWidgetItem()
                ends.addItem(item)
            item.setText(text)
            item.setData(Qt.ItemDataRole.UserRole, i)
        # One repaint of the rows: a row's own update covers only its old text's width, and
        # turning the list's updates off and on around the changes repaints its frame too.
        ends.viewport().update()

    def _on_space_removed(self, index: int) -> None:
        # A test car keeps its colour when a space before it goes (as MovesTool keeps the car).
        moved = ((after_removal(i, index), c) for i, c in self.car_colour.items())
        self.car_colour = {i: c for i, c in moved if i is not None}

    def _on_space_added(self, index: int) -> None:
        self.car_colour = {after_insertion(i, index): c for i, c in self.car_colour.items()}

    def _sync_cars(self) -> None:
        """Give each new test car a colour (the chosen one, else the first free one)."""
        cars = self.tool.cars
        for i in [i for i in self.car_colour if i not in cars]:
            del self.car_colour[i]
        for i in sorted(cars - set(self.car_colour)):
            free = [c for c in COLOURS if c not in self.car_colour.values()]
            if not free:
                break
            wanted = self.next_colour.currentData()
            self.car_colour[i] = wanted if wanted in free else free[0]
            rest = [c for c in free if c != self.car_colour[i]]
            if rest:
                self.next_colour.setCurrentIndex(self.next_colour.findData(rest[0]))
        self.tool.set_car_colours({i: QColor(CAR_HEX[c]) for i, c in self.car_colour.items()})
        spaces = self.doc.track.spaces
        placed = [
            f"{c} on {spaces[i].id}"
            for i, c in sorted(self.car_colour.items(), key=lambda e: COLOURS.index(e[1]))
            if i < len(spaces)
        ]
        extra = len(cars) - len(self.car_colour)
        self.cars_label.setText(
            ("Test cars: " + ", ".join(placed) if placed else "Click spaces to place test cars.")
            + (f" ({extra} more than the six cars of the game)" if extra > 0 else "")
        )

    def _on_cursor(self, x: float, y: float) -> None:
        if self.scene.tool is not self.tool:
            return
        self.point_at(self.scene.space_at(QPointF(x, y)))

    def point_at(self, space: int | None) -> list[Move]:
        """Draw the paths to ``space`` if it is an end of the moves shown; returns them."""
        moves = [m for m in self.tool.last_moves if space is not None and m.end == space]
        self.pointed = space if moves else None
        self.paths_item.show_paths(self.tool.origin if moves else None, moves)
        return moves
