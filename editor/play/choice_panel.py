"""A row of labelled buttons for the decisions that are not cards or spaces:
bets, powers, WILD colours, row orders, skips, passes."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QWidget

from trackside.editor.play.cars import CAR_COLOURS, INK

BUTTON_H = 34


class ChoicePanel(QWidget):
    """Buttons for a set of choices; ``chosen(payload)`` when one is clicked."""

    chosen = Signal(object)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self._layout = QHBoxLayout(self)
        self._layout.setContentsMargins(4, 2, 4, 2)
        self.title = QLabel()
        self._layout.addWidget(self.title)
        self._layout.addStretch(1)
        self.buttons: list[QPushButton] = []
        # Always the same height, shown or empty, so the board does not jump.
        self.setFixedHeight(BUTTON_H + 6)

    def offer(self, title: str, entries: Sequence[tuple[str, str | None, object]]) -> None:
        """Show ``entries`` as (label, car colour or None, payload)."""
        self.clear()
        self.title.setText(title)
        for label, colour, payload in entries:
            b = QPushButton(label)
            b.setMinimumHeight(BUTTON_H)
            if colour in CAR_COLOURS:
                b.setStyleSheet(
                    f"QPushButton {{ background: {CAR_COLOURS[colour]}; "
                    f"color: {INK.get(colour, '#fff')}; font-weight: bold; "
                    "padding: 4px 14px; border: 1px solid #ddd; border-radius: 4px }"
                    "QPushButton:hover { border: 2px solid #ffe14d }"
                )
            b.clicked.connect(lambda _c=False, p=payload: self.chosen.emit(p))
            self._layout.insertWidget(self._layout.count() - 1, b)
            self.buttons.append(b)

    def button(self, label: str) -> QPushButton:
        """The button with this label (tests click it)."""
        for b in self.buttons:
            if b.text() == label:
                return b
        raise KeyError(f"no button {label!r}; buttons: {[b.text() for b in self.buttons]}")

    def clear(self) -> None:
        for b in self.buttons:
            b.setParent(None)
            b.deleteLater()
        self.buttons = []
        self.title.setText("")
