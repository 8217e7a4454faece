"""Number and choice boxes for the docks and dialogs.

Every spin box and combo box of the editor is one of these, for two reasons:

- **The wheel only when focused.** A plain Qt box changes its value under a
  passing wheel, so scrolling a dock with the pointer over a box silently edits
  the track (one undo step a notch) or a setting. These boxes pass the wheel on
  to what holds them (the dock's scroll area) until the user clicks or tabs into
  them, as most desktop programs do.
- **A word when a typed value is refused.** Qt drops a keystroke that would take
  a number past the box's range, and puts the last good value back when the
  typed one is below it; the number boxes say why, in a tip under the box
  ("At most 10,000 mm"), and tell it by their ``refused`` signal.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

from PySide6.QtCore import QPoint, Qt, Signal, SignalInstance
from PySide6.QtGui import QValidator, QWheelEvent
from PySide6.QtWidgets import (
    QAbstractSpinBox,
    QComboBox,
    QDoubleSpinBox,
    QSpinBox,
    QToolTip,
    QWidget,
)


def _on_focus_only(box: QWidget) -> None:
    # StrongFocus: a click or Tab focuses the box, a wheel does not (Qt's default for
    # these boxes, WheelFocus, lets the first notch both focus the box and change it).
    box.setFocusPolicy(Qt.FocusPolicy.StrongFocus)


def _wheel(box: QWidget, event: QWheelEvent, own: Callable[[QWheelEvent], None]) -> None:
    if box.hasFocus():
        own(event)
    else:
        event.ignore()  # Qt then offers it to the parents: the scroll area scrolls


def _shown(value: float, decimals: int) -> str:
    """A bound as people write it: '10,000', '0.01', '-360'."""
    text = f"{value:,.{decimals}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def refusal(box: QSpinBox | QDoubleSpinBox, text: str) -> str:
    """Why ``text`` typed in ``box`` is not a value it takes ('' when it is one)."""
    decimals = box.decimals() if isinstance(box, QDoubleSpinBox) else 0
    low, high = _shown(box.minimum(), decimals), _shown(box.maximum(), decimals)
    unit = box.suffix()
    typed = text.removeprefix(box.prefix()).removesuffix(unit).strip()
    number, ok = box.locale().toDouble(typed)
    if not ok:
        return f"A number from {low} to {high}{unit}" if typed not in ("", "-", "+") else ""
    if number > box.maximum():
        return f"At most {high}{unit}"
    if number < box.minimum():
        return f"At least {low}{unit}"
    return ""


def _tell(box: QAbstractSpinBox, why: str, refused: SignalInstance) -> None:
    if why:
        QToolTip.showText(box.mapToGlobal(QPoint(0, box.height())), why, box)
        refused.emit(why)


class _Refusing:
    """What both number boxes add to Qt's: the wheel only when focused, and a word
    when a typed value is refused. Comes before the Qt class in the bases."""

    refused: SignalInstance

    def _setup(self) -> None:
        _on_focus_only(cast(QWidget, self))

    def wheelEvent(self, event: QWheelEvent) -> None:
        _wheel(cast(QWidget, self), event, super().wheelEvent)  # type: ignore[misc]

    def validate(self, text: str, pos: int) -> tuple[QValidator.State, str, int]:
        result = super().validate(text, pos)  # type: ignore[misc]
        if result[0] == QValidator.State.Invalid:  # the keystroke is dropped
            self._refuse(text)
        return result

    def fixup(self, text: str) -> str:
        self._refuse(text)  # the last good value comes back
        return super().fixup(text)  # type: ignore[misc]

    def _refuse(self, text: str) -> None:
        box = cast(QSpinBox | QDoubleSpinBox, self)
        _tell(box, refusal(box, text), self.refused)


class SpinBox(_Refusing, QSpinBox):
    """A QSpinBox that changes under the wheel only when focused, and says why it
    refuses a typed value."""

    refused = Signal(str)  # why a typed value was not taken, in a few words

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self._setup()


class DoubleSpinBox(_Refusing, QDoubleSpinBox):
    """A QDoubleSpinBox that changes under the wheel only when focused, and says why
    it refuses a typed value."""

    refused = Signal(str)  # why a typed value was not taken, in a few words

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self._setup()


class ComboBox(QComboBox):
    """A QComboBox that changes under the wheel only when focused."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        _on_focus_only(self)

    def wheelEvent(self, event: QWheelEvent) -> None:
        _wheel(self, event, super().wheelEvent)
