"""Movement preview: hover a space and pick a number; the legal moves light up (R-MOVE-4).

Click a space to put a test car on it (another click takes it away); test
cars block as in a race (R-MOVE-3). Keys 1-9 set how far the car moves.
Green ends are ordinary moves, gold ends finish (R-FIN-1), orange ends are
blocked short (R-MOVE-4).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, overload

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor, QKeyEvent

from trackside.editor.canvas.overlays import MovesItem
from trackside.editor.tools.base import Tool, ToolEvent
from trackside.engine.text import plural
from trackside.engine.track.movement import Move

if TYPE_CHECKING:
    from trackside.editor.canvas.scene import TrackScene


class MovesTool(Tool):
    """Shows where a car on the hovered space can go with the chosen number."""

    name = "moves"
    label = "Moves"
    purpose = "Shows where a car may go: hover a space and the spaces a move may end on light up."
    tip = (
        "Click spaces to place test cars and see how they block; the Movement panel lists"
        " every path."
    )
    shortcut = "M"
    icon = "→"
    hint = (
        "Hover a space to see the legal moves; keys 1-9 set the number; click to place or "
        "remove a test car; Shift+click pins the moving car"
    )

    movesChanged = Signal()  # the moves were recomputed (the Movement panel follows)

    def __init__(self, scene: TrackScene) -> None:
        super().__init__(scene)
        self.number = 3
        self.cars: set[int] = set()
        self.pinned: int | None = None
        self.hovered: int | None = None
        self.overlay: MovesItem | None = None
        self._car_colours: dict[int, QColor] = {}
        self.last_moves: list[Move] = []
        self.doc.spaceRemoved.connect(self._on_space_removed)
        self.doc.spaceAdded.connect(self._on_space_added)
        self.doc.changed.connect(self._on_changed)
        self.doc.trackReplaced.connect(self._on_replaced)

    def cursor(self) -> Qt.CursorShape:
        return Qt.CursorShape.PointingHandCursor

    def activate(self) -> None:
        super().activate()
        if self.overlay is None:
            self.overlay = MovesItem(self.scene)
            self.overlay.set_car_colours(self._car_colours)
            self.scene.addItem(self.overlay)
        self.overlay.setVisible(True)
        self.refresh()

    def deactivate(self) -> None:
        if self.overlay is not None:
            self.overlay.setVisible(False)

    def _on_space_removed(self, index: int) -> None:
        # Test cars stay on their spaces when a space before them goes.
        self.cars = {k for k in (after_removal(i, index) for i in self.cars) if k is not None}
        self.pinned = after_removal(self.pinned, index)
        self.hovered = after_removal(self.hovered, index)

    def _on_space_added(self, index: int) -> None:
        self.cars = {after_insertion(i, index) for i in self.cars}
        self.pinned = after_insertion(self.pinned, index)
        self.hovered = after_insertion(self.hovered, index)

    def _on_changed(self) -> None:
        n = len(self.doc.track.spaces)
        self.cars = {i for i in self.cars if i < n}
        if self.pinned is not None and self.pinned >= n:
            self.pinned = None
        if self.overlay is not None and self.overlay.isVisible():
            self.refresh()

    def _on_replaced(self) -> None:
        self.cars = set()
        self.pinned = self.hovered = None

    @property
    def origin(self) -> int | None:
        """The space of the car whose moves are shown."""
        return self.pinned if self.pinned is not None else self.hovered

    def set_number(self, number: int) -> None:
        """Move the car ``number`` spaces from now on, and show those moves."""
        if number != self.number:
            self.number = number
            self.refresh()

    def set_car_colours(self, colours: dict[int, QColor]) -> None:
        """Draw the test car on each space of ``colours`` in its colour."""
        self._car_colours = dict(colours)
        if self.overlay is not None:
            self.overlay.set_car_colours(colours)

    def show_from(self, space: int | None, number: int | None = None) -> list[Move]:
        """Show (and return) the legal moves of a car on ``space`` moving ``number``."""
        if number is not None:
            self.number = number
        self.hovered = space
        return self.refresh()

    def refresh(self) -> list[Move]:
        """Recompute the moves shown."""
        origin = self.origin
        graph = self.scene.move_graph()  # one per version of the track, not per hover
        g = graph.geometry if graph is not None else None
        moves: list[Move] = []
        if graph is not None and origin is not None and origin < graph.geometry.n:
            moves = [] if origin in self.cars else graph.moves(origin, self.number, self.cars)
        self.last_moves = moves
        if self.overlay is not None:
            self.overlay.show_moves(origin, self.cars, moves)
        if origin is not None and g is not None and origin < g.n:
            ends = sorted({m.end for m in moves})
            sid = self.doc.track.spaces[origin].id
            self.set_hint(
                f"{sid} moving {self.number}: {plural(len(moves), 'legal path')} to "
                f"{plural(len(ends), 'space')}" + ("" if moves else " (the car cannot move)")
            )
        else:
            self.set_hint(f"Number {self.number}. " + self.hint)
        self.movesChanged.emit()
        return moves

    def mouse_move(self, ev: ToolEvent) -> None:
        space = self.scene.space_at(ev.pos)
        if space != self.hovered:
            self.hovered = space
            if self.pinned is None:
                self.refresh()

    def mouse_press(self, ev: ToolEvent) -> None:
        if ev.button != Qt.MouseButton.LeftButton:
            return
        space = self.scene.space_at(ev.pos)
        if ev.shift:
            self.pinned = None if space == self.pinned else space
        elif space is not None:
            self.cars ^= {space}
        self.refresh()

    def key_press(self, event: QKeyEvent) -> bool:
        key = event.key()
        if Qt.Key.Key_1 <= key <= Qt.Key.Key_9:
            self.number = key - Qt.Key.Key_0
            self.refresh()
            return True
        return False

    def cancel(self) -> None:
        self.pinned = None
        self.cars = set()
        if self.overlay is not None and self.overlay.isVisible():
            self.refresh()


def after_removal(i: int | None, removed: int) -> int | None:
    """Where the space at ``i`` is once the space at ``removed`` is gone (None: it was)."""
    if i is None or i == removed:
        return None
    return i - 1 if i > removed else i


@overload
def after_insertion(i: None, added: int) -> None: ...
@overload
def after_insertion(i: int, added: int) -> int: ...
def after_insertion(i: int | None, added: int) -> int | None:
    """Where the space at ``i`` is once a space is put in at ``added``."""
    if i is None:
        return None
    return i + 1 if i >= added else i
