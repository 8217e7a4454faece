"""Spin boxes and combo boxes that take the mouse wheel only when they have keyboard focus.

Every number and choice box in the docks and dialogs is one of these. A plain Qt
box changes its value under a passing wheel, so scrolling a dock with the pointer
over a box silently edits the track (one undo step a notch) or a setting. These
boxes pass the wheel on to what holds them (the dock's scroll area) until the
user clicks or tabs into them, as most desktop programs do.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import QComboBox, QDoubleSpinBox, QSpinBox, QWidget


def _on_focus_only(box: QWidget) -> None:
    # StrongFocus: a click or Tab focuses the box, a wheel does not (Qt's default for
    # these boxes, WheelFocus, lets the first notch both focus the box and change it).
    box.setFocusPolicy(Qt.FocusPolicy.StrongFocus)


def _wheel(box: QWidget, event: QWheelEvent, own: Callable[[QWheelEvent], None]) -> None:
    if box.hasFocus():
        own(event)
    else:
        event.ignore()  # Qt then offers it to the parents: the scroll area scrolls


class SpinBox(QSpinBox):
    """A QSpinBox that changes under the wheel only when focused."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        _on_focus_only(self)

    def wheelEvent(self, event: QWheelEvent) -> None:
        _wheel(self, event, super().wheelEvent)


class DoubleSpinBox(QDoubleSpinBox):
    """A QDoubleSpinBox that changes under the wheel only when focused."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        _on_focus_only(self)

    def wheelEvent(self, event: QWheelEvent) -> None:
        _wheel(self, event, super().wheelEvent)


class ComboBox(QComboBox):
    """A QComboBox that changes under the wheel only when focused."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        _on_focus_only(self)

    def wheelEvent(self, event: QWheelEvent) -> None:
        _wheel(self, event, super().wheelEvent)
