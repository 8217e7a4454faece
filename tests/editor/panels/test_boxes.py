"""The mouse wheel over a dock scrolls it; it changes a box only when the box has focus."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QAbstractSpinBox, QComboBox, QScrollArea

from trackside.editor.widgets.boxes import ComboBox, DoubleSpinBox, SpinBox

pytestmark = pytest.mark.gui

NOTCH = QPoint(0, 120)  # one notch towards the user: a spin box steps up, a page scrolls up


def _wheel(widget, notch: QPoint) -> None:
    """One spontaneous wheel notch at the middle of ``widget``, through its window as
    a real mouse would send it (so an ignored notch goes on to the parents)."""
    window = widget.window().windowHandle()
    at = QPointF(widget.mapTo(widget.window(), widget.rect().center()))
    QTest.wheelEvent(window, at, notch)


def _inspector_on_a2(window, stadium_file):
    window.open_file(stadium_file)
    track = window.doc.track
    window.scene.select_indices([track.spaces.index(track.space("a2"))])
    window.inspector_dock.raise_()
    scroll = window.inspector_dock.widget()
    assert isinstance(scroll, QScrollArea)
    # A short dock, so the Inspector scrolls, with the Lane box in view.
    window.resizeDocks([window.inspector_dock], [240], Qt.Orientation.Vertical)
    scroll.setFixedHeight(240)
    box = window.inspector.lane_spin
    scroll.ensureWidgetVisible(box)
    return track, scroll, box


def test_wheel_over_an_unfocused_lane_box_scrolls_the_inspector(window, qtbot, stadium_file):
    track, scroll, box = _inspector_on_a2(window, stadium_file)
    bar = scroll.verticalScrollBar()
    assert bar.maximum() > 0, "the test needs an Inspector taller than its dock"
    bar.setValue(bar.maximum())
    scroll.ensureWidgetVisible(box)
    before = bar.value()
    assert before > 0
    window.view.setFocus()
    assert not box.hasFocus()
    _wheel(box, NOTCH)
    _wheel(box, NOTCH)
    assert window.doc.undo_stack.count() == 0
    assert track.space("a2").lane == 0 and box.value() == 0
    assert bar.value() < before  # the notches scrolled the dock up


def test_wheel_over_the_focused_lane_box_still_changes_the_lane(window, qtbot, stadium_file):
    track, _scroll, box = _inspector_on_a2(window, stadium_file)
    box.setFocus()
    qtbot.waitUntil(box.hasFocus)
    _wheel(box, NOTCH)
    assert track.space("a2").lane == 1
    assert window.doc.undo_stack.count() == 1


def test_the_boxes_take_focus_by_click_or_tab_not_by_wheel(qtbot):
    boxes = [SpinBox(), DoubleSpinBox(), ComboBox()]
    for box in boxes:
        assert box.focusPolicy() == Qt.FocusPolicy.StrongFocus


def test_every_box_in_the_window_takes_the_wheel_on_focus_only(window):
    boxes = [*window.findChildren(QAbstractSpinBox), *window.findChildren(QComboBox)]
    assert len(boxes) > 10
    plain = [b for b in boxes if not isinstance(b, SpinBox | DoubleSpinBox | ComboBox)]
    assert plain == []


def test_no_room_of_the_editor_makes_a_plain_qt_box():
    """Dialogs are built on demand, so their boxes are checked in the source."""
    import re
    from pathlib import Path

    import trackside.editor

    made = re.compile(r"\bQ(SpinBox|DoubleSpinBox|ComboBox)\(")
    found = [
        f"{path.name}:{n}"
        for path in Path(trackside.editor.__file__).parent.rglob("*.py")
        if path.name != "boxes.py"
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if made.search(line)
    ]
    assert found == []
