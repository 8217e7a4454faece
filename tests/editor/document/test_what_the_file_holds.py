"""The document holds only what its file holds: every state saves, and the editor
opens its own file again; typed values past the file format's limits are refused or
cut with a word; a save never changes the undo history."""

from __future__ import annotations

import numpy as np
import pytest
from conftest_helpers import centre, choose, right_click_menu
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QTableWidgetItem

from trackside.editor.document import commands
from trackside.editor.document.files import load_for_editing
from trackside.editor.document.fits import breaks_schema, only_missing
from trackside.engine.schema import Violation, ViolationKind, check
from trackside.engine.track.layout import Arc, KeptLayout, Straight
from trackside.engine.track.model import load_track
from trackside.engine.track.templates import oval

pytestmark = pytest.mark.gui


def status(window) -> str:
    return window.statusBar().currentMessage()


def reopens_equal(make_window, window, path) -> None:
    """Another window opens ``path`` and holds the very track this one does; the file
    meets the schema (or, half drawn, only lacks parts: a draft)."""
    other = make_window()
    assert other.open_file(path), other.prompts.titles()
    assert other.doc.track.to_dict() == window.doc.track.to_dict()
    if not load_for_editing(path).draft:
        assert check("track", load_track(path).to_dict()) == []


def test_set_lap_start_here_on_a_new_oval_saves_autosaves_and_reopens(
    window, make_window, qtbot, tmp_path
):
    """File > New from Template > Oval, right-click b5 > Set Lap Start Here, Save As:
    the lap start's place came out of numpy as np.float64, which no file can hold, so
    the save and every autosave failed, and a lock file was left with no track."""
    assert window.new_from_track(oval())
    window.view.fit_to_view()
    menu = right_click_menu(qtbot, window, *centre(window.doc.track.space("b5")))
    choose(qtbot, menu, "Set Lap Start Here")
    assert window.doc.undo_stack.undoText() == "Set lap start at b5"
    points = window.doc.track.centerline.points
    assert {type(v) for p in points for v in p} <= {int, float}
    assert window.autosave.save_now() and window.autosave.last_error is None
    assert load_for_editing(window.autosave.track_file).track is not None
    target = tmp_path / "oval.yaml"
    window.prompts.save_as_answer = str(target)
    assert window.save_as(), window.prompts.titles()
    assert not window.isWindowModified()
    reopens_equal(make_window, window, target)


def test_a_long_name_is_cut_with_a_word_and_a_long_id_refused(window, make_window, tmp_path):
    """A name of 250 characters and an id of 80 were taken, saved, and then the editor
    refused to open its own file (the schema allows 200 and 64)."""
    assert window.new_from_track(oval())
    ins = window.inspector
    ins.name_edit.setText("N" * 250)
    ins.name_edit.editingFinished.emit()
    assert window.doc.track.name == "N" * 200 and ins.name_edit.text() == "N" * 200
    assert status(window) == (
        "The track's name has at most 200 characters: the last 50 were left out"
    )
    window.scene.select_indices([0])
    first = window.doc.track.spaces[0].id
    ins.id_edit.setText("x" * 80)
    ins.id_edit.editingFinished.emit()
    assert window.doc.track.spaces[0].id == first and ins.id_edit.text() == first
    assert status(window) == (
        f"An id has at most 64 characters (this one has 80): {first} kept its id"
    )
    ins.description_edit.setPlainText("d" * 10_050)
    ins.description_edit.editingFinished.emit()
    assert len(window.doc.track.description) == 10_000
    window.prompts.save_as_answer = str(tmp_path / "long.yaml")
    assert window.save_as()
    reopens_equal(make_window, window, tmp_path / "long.yaml")


@pytest.mark.parametrize("typed", ["nan", "inf", "1e7", "-1000000.5"])
def test_a_corner_past_the_file_format_is_refused_with_a_word(window, typed):
    assert window.new_from_track(oval())
    window.scene.select_indices([3])
    before = window.doc.track.to_dict()
    window.inspector.corner_table.setItem(0, 0, QTableWidgetItem(typed))
    assert window.doc.track.to_dict() == before and window.doc.undo_stack.count() == 0
    assert window.inspector.corner_table.item(0, 0).text() != typed  # the old value is back
    assert status(window).startswith(("A corner needs a number", "Not taken: space"))


def test_a_move_past_the_board_a_file_holds_is_refused_with_a_word(window):
    """Move By 10,000,000 mm was done, and the file saved could not be opened."""
    assert window.new_from_track(oval())
    before = window.doc.track.to_dict()
    window.prompts.offset_answer = (0.0, -1e7)
    window.transforms.move_by()
    assert window.doc.track.to_dict() == before and window.doc.undo_stack.count() == 0
    assert status(window).startswith("Not done: ")
    assert "a track file holds coordinates from -1,000,000 to 1,000,000 mm" in status(window)


def test_a_command_refuses_what_no_file_holds_before_anything_changes(window):
    """The last line behind the boxes and menus: a command is never made with such a
    value, so nothing is pushed and the undo history stays as it was."""
    assert window.new_from_track(oval())
    doc = window.doc
    with pytest.raises(commands.Refused, match="at most 200"):
        commands.SetMeta(doc, "name", "x" * 201)
    with pytest.raises(commands.Refused, match="no finite number"):
        commands.SetLine(doc, 0, ((0, 0), (float("nan"), 1)))
    with pytest.raises(commands.Refused, match="at most 20,000"):
        commands.AddSpaces(doc, doc.track.spaces * 200)
    assert doc.undo_stack.count() == 0


def test_saving_an_untitled_track_at_an_earlier_step_keeps_the_redo_steps(
    window, make_window, tmp_path
):
    """Jump back in History, Save As a new file: the name taken from the file was an
    undo step, and pushing it threw away every redo step."""
    window.new_blank()
    stack = window.doc.undo_stack
    for field, value in (("author", "Ana"), ("description", "Hairpins"), ("tolerance", 2.0)):
        stack.push(commands.SetMeta(window.doc, field, value))
    stack.setIndex(1)
    window.prompts.save_as_answer = str(tmp_path / "my-loop.yaml")
    assert window.save_as()
    assert (stack.count(), stack.index()) == (3, 1)  # the two redo steps are there
    assert window.doc.track.name == "My Loop" and not window.isWindowModified()
    reopens_equal(make_window, window, tmp_path / "my-loop.yaml")
    stack.redo()
    stack.redo()
    assert window.doc.track.tolerance == 2.0 and window.doc.track.name == "My Loop"


def test_a_track_named_by_a_step_in_its_history_keeps_its_name(window, tmp_path):
    """A name set (even back to Untitled) by an undo step is the designer's: the file
    name does not replace it."""
    window.new_blank()
    window.doc.undo_stack.push(commands.SetMeta(window.doc, "name", "Untitled"))
    window.prompts.save_as_answer = str(tmp_path / "loop.yaml")
    assert window.save_as()
    assert window.doc.track.name == "Untitled" and window.doc.undo_stack.count() == 1


def test_saving_never_changes_the_undo_history(window, stadium_file, qtbot):
    window.open_file(stadium_file)
    window.scene.select_indices([0])
    for key in (Qt.Key.Key_Left, Qt.Key.Key_Up):
        qtbot.keyClick(window.view, key)
    stack = window.doc.undo_stack
    stack.undo()
    before = [stack.text(i) for i in range(stack.count())], stack.index()
    assert window.save()
    assert ([stack.text(i) for i in range(stack.count())], stack.index()) == before


def test_a_kept_lane_layout_of_numpy_numbers_is_kept_as_plain_numbers(window):
    """A lane layout now comes typed from the engine (the lane builder, the balance lab's
    lane fixes), its numbers from numpy's arithmetic: kept as they came, no save could
    write the track (the writer refuses a numpy number)."""
    kept = KeptLayout(
        start=(np.float64(12.5), np.float64(-4.0)),
        heading=np.float64(90.0),
        pieces=(Straight(np.float64(120.0)), Arc(np.float64(80.0), np.float64(180.0))),
        lane_width=np.float64(60.0),
    )
    window.doc.undo_stack.push(commands.SetLaneLayouts(window.doc, [kept]))
    (stored,) = window.doc.lane_layouts
    assert stored == kept and type(stored.heading) is float
    assert type(stored.start[0]) is float and type(stored.pieces[1].angle) is float
    assert "lane_layouts" in window.doc.track.to_yaml()
    plain = KeptLayout(start=(1.0, 2.0), heading=0.0, pieces=(Straight(10.0),))
    window.doc.undo_stack.push(commands.SetLaneLayouts(window.doc, [stored, plain]))
    assert window.doc.lane_layouts[1] is plain  # already plain: the same layout


def test_a_draft_is_told_by_the_kind_of_its_problems_not_their_words():
    """Only parts still missing (too few spaces, lines or grid entries) make a draft
    that opens and saves; whatever the message says, any other kind is refused."""
    missing = Violation("spaces: needs at least 3 items, has 2", ("spaces",), ViolationKind.TOO_FEW)
    worded = Violation("name: needs at least a letter", ("name",), ViolationKind.WRONG_VALUE)
    assert only_missing(missing) and not only_missing(worded)
    assert breaks_schema("properties/spaces", []) == []  # a track with no spaces yet
    assert breaks_schema("properties/name", "") != []  # an empty name is no draft
