"""A typed value that is not taken is not dropped without a word: the status bar, or a
tip under the box, says why."""

from __future__ import annotations

import pytest
from conftest_helpers import scale_background
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QImage
from PySide6.QtWidgets import QToolTip

from trackside.editor.widgets.boxes import DoubleSpinBox, SpinBox

pytestmark = pytest.mark.gui


def _status(window) -> str:
    return window.statusBar().currentMessage()


def _type(qtbot, widget, text: str) -> None:
    widget.setFocus()
    qtbot.keyClick(widget, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(widget, text)
    qtbot.keyClick(widget, Qt.Key.Key_Return)


def test_an_empty_space_id_is_refused_with_a_word(window, qtbot, stadium_file):
    window.open_file(stadium_file)
    window.scene.select_indices([0])
    ins = window.inspector
    ins.id_edit.clear()
    qtbot.keyClick(ins.id_edit, Qt.Key.Key_Return)
    assert window.doc.track.spaces[0].id == "a1" and ins.id_edit.text() == "a1"
    assert _status(window) == "A space needs an id: a1 kept its id"
    _type(qtbot, ins.id_edit, "two words")
    assert _status(window) == "An id is one word, without spaces: a1 kept its id"
    assert window.doc.undo_stack.count() == 0


def test_an_empty_track_name_is_refused_with_a_word(window, qtbot, stadium_file):
    window.open_file(stadium_file)
    name = window.doc.track.name
    ins = window.inspector
    ins.name_edit.clear()
    qtbot.keyClick(ins.name_edit, Qt.Key.Key_Return)
    assert window.doc.track.name == name and ins.name_edit.text() == name
    assert _status(window) == f"A track needs a name: it is still {name}"


def test_a_corner_that_is_not_a_number_is_refused_with_a_word(window, stadium_file):
    window.open_file(stadium_file)
    window.scene.select_indices([0])
    before = window.doc.track.spaces[0].corners[0]
    window.inspector.corner_table.item(0, 1).setText("ten")
    assert window.doc.track.spaces[0].corners[0] == before
    assert _status(window) == "A corner needs a number of mm, not 'ten': corner 1 kept its y"


def test_a_number_past_a_box_maximum_is_refused_with_a_tip(qtbot):
    """As in Edit > Transform > Move By: the keystroke that goes too far is dropped."""
    box = DoubleSpinBox()
    box.setRange(-10000.0, 10000.0)
    box.setDecimals(2)
    box.setSuffix(" mm")
    qtbot.addWidget(box)
    box.show()
    with qtbot.waitSignal(box.refused) as said:
        _type(qtbot, box, "999999999")
    assert box.value() == 9999
    assert said.args == ["At most 10,000 mm"]
    assert QToolTip.text() == "At most 10,000 mm"


def test_a_number_below_a_box_minimum_is_refused_with_a_tip(qtbot):
    box = SpinBox()
    box.setRange(10, 1000)
    box.setValue(200)
    qtbot.addWidget(box)
    box.show()
    with qtbot.waitSignal(box.refused) as said:
        _type(qtbot, box, "5")
    assert box.value() == 200 and said.args == ["At least 10"]


def test_balance_games_take_what_the_command_line_takes_and_say_the_most(window, qtbot):
    box = window.balance_panel.games_box
    assert box.maximum() == 1_000_000
    with qtbot.waitSignal(box.refused) as said:
        _type(qtbot, box, "99999999")
    assert said.args == ["At most 1,000,000"]


def test_a_zero_distance_for_the_background_scale_is_refused_with_a_word(
    window, qtbot, stadium_file, tmp_path
):
    assert window.open_file(stadium_file, ask=False)
    image = QImage(200, 100, QImage.Format.Format_RGB32)
    image.fill(QColor("#88aacc"))
    assert image.save(str(tmp_path / "scan.png"))
    window.background.import_image(str(tmp_path / "scan.png"))
    before = window.doc.track.background.mm_per_pixel
    scale_background(qtbot, window, 0.0)
    assert window.doc.track.background.mm_per_pixel == before
    assert _status(window) == "A distance must be more than 0 mm: the background keeps its scale"
