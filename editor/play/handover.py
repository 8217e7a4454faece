"""The hand-over screen: hides every hand until the next person says it is them."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QLabel, QPushButton, QVBoxLayout, QWidget


class HandoverScreen(QWidget):
    """'Pass the screen to NAME'; the button says they are looking (``accepted``)."""

    accepted = Signal()

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.addStretch(2)
        self.title = QLabel()
        font = QFont(self.font())
        font.setPointSizeF(font.pointSizeF() * 2.2)
        font.setBold(True)
        self.title.setFont(font)
        self.title.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.detail = QLabel()
        self.detail.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.detail.setWordWrap(True)
        self.button = QPushButton()
        self.button.setMinimumHeight(48)
        self.button.setDefault(True)
        self.button.clicked.connect(self.accepted)
        layout.addWidget(self.title)
        layout.addWidget(self.detail)
        row = QVBoxLayout()
        row.setAlignment(Qt.AlignmentFlag.AlignHCenter)
        row.addWidget(self.button)
        layout.addLayout(row)
        layout.addStretch(3)

    def ask(self, name: str, what: str) -> None:
        """Ask for the screen to go to ``name``, who must ``what`` next."""
        self.title.setText(f"Pass the screen to {name}")
        self.detail.setText(
            f"{name} must {what}. Everyone else, please look away: hands and bets are secret."
        )
        self.button.setText(f"I am {name}: show my cards")
