"""Movement preview (moves tool + editor/panels/movement.py dock) against the engine's MoveGraph.

R-MOVE-3: test cars block; R-MOVE-4: legal moves and blocked ends; R-FIN-1:
finishing ends.
"""

from __future__ import annotations

import pytest
from conftest_helpers import centre, click, hover
from PySide6.QtCore import Qt
from tracks_for_tests import straight_track

from trackside.editor.document.commands import RemoveSpaces
from trackside.engine.track.geometry import TrackGeometry
from trackside.engine.track.model import save_track
from trackside.engine.track.movement import MoveGraph

pytestmark = pytest.mark.gui


@pytest.fixture
def straight_file(tmp_path):
    path = tmp_path / "straight.yaml"
    save_track(straight_track(rows=12, lanes=2, length=40, width=30), path)
    return path


def _moves_tool(window, path, centre=(240, 0)):
    window.open_file(path)
    window.set_tool("moves")
    window.view.set_zoom(2.0)
    window.view.centerOn(*centre)
    return window.tool, window.movement_panel


def _ends_listed(panel):
    return {panel.ends.item(k).data(Qt.ItemDataRole.UserRole) for k in range(panel.ends.count())}


def test_a_placed_car_lights_exactly_the_movegraph_ends(window, qtbot, straight_file):
    tool, panel = _moves_tool(window, straight_file)
    t = window.doc.track
    assert window.movement_dock.isVisible()
    click(qtbot, window, *centre(t.space("b4")))  # a test car (R-MOVE-3)
    click(qtbot, window, *centre(t.space("a3")), Qt.KeyboardModifier.ShiftModifier)  # pin the mover
    panel.number.setValue(4)  # the spin box sets the number
    assert tool.number == 4
    index = {sp.id: i for i, sp in enumerate(t.spaces)}
    expected = MoveGraph(TrackGeometry(t)).moves(index["a3"], 4, {index["b4"]})
    assert expected
    assert {m.path for m in tool.last_moves} == {m.path for m in expected}
    assert _ends_listed(panel) == {m.end for m in expected}
    qtbot.keyClick(window.view, Qt.Key.Key_2)  # keys and spin box agree
    assert panel.number.value() == 2 and tool.number == 2
    expected2 = MoveGraph(TrackGeometry(t)).moves(index["a3"], 2, {index["b4"]})
    assert _ends_listed(panel) == {m.end for m in expected2}


def test_pointing_at_an_end_draws_its_paths(window, qtbot, straight_file):
    _tool, panel = _moves_tool(window, straight_file)
    t = window.doc.track
    click(qtbot, window, *centre(t.space("a3")), Qt.KeyboardModifier.ShiftModifier)
    qtbot.keyClick(window.view, Qt.Key.Key_3)
    index = {sp.id: i for i, sp in enumerate(t.spaces)}
    end = index["b6"]
    hover(window, *centre(t.space("b6")))
    expected = MoveGraph(TrackGeometry(t)).moves(index["a3"], 3, set())
    assert sorted(panel.paths_item.paths) == sorted(m.path for m in expected if m.end == end)
    assert len(panel.paths_item.paths) == 4  # a4|b4, then a5|b5, then b6
    hover(window, *centre(t.space("a9")))
    assert panel.paths_item.paths == []  # not an end: nothing drawn


def test_finishing_and_blocked_ends_are_told_apart(window, qtbot, straight_file):
    tool, panel = _moves_tool(window, straight_file, centre=(300, 0))
    t = window.doc.track
    click(qtbot, window, *centre(t.space("a9")), Qt.KeyboardModifier.ShiftModifier)
    qtbot.keyClick(window.view, Qt.Key.Key_5)
    texts = [panel.ends.item(k).text() for k in range(panel.ends.count())]
    assert texts and all(text.endswith("finishes") for text in texts)  # R-FIN-1
    assert all(m.finished for m in tool.last_moves)
    window.view.centerOn(120, 0)
    for sid in ("a4", "b4"):
        click(qtbot, window, *centre(t.space(sid)))  # a wall of test cars
    click(qtbot, window, *centre(t.space("a9")), Qt.KeyboardModifier.ShiftModifier)  # unpin
    click(qtbot, window, *centre(t.space("a2")), Qt.KeyboardModifier.ShiftModifier)
    texts = [panel.ends.item(k).text() for k in range(panel.ends.count())]
    assert texts and all(text.endswith("blocked short") for text in texts)  # R-MOVE-4
    assert {t.spaces[m.end].id for m in tool.last_moves} == {"a3", "b3"}


def test_the_preview_follows_edits_and_the_arrows_toggle(window, qtbot, straight_file):
    _tool, panel = _moves_tool(window, straight_file)
    t = window.doc.track
    click(qtbot, window, *centre(t.space("a3")), Qt.KeyboardModifier.ShiftModifier)
    qtbot.keyClick(window.view, Qt.Key.Key_1)
    assert {t.spaces[i].id for i in _ends_listed(panel)} == {"a4", "b4"}
    window.doc.undo_stack.push(RemoveSpaces(window.doc, [t.spaces.index(t.space("b4"))]))
    t = window.doc.track
    assert {t.spaces[i].id for i in _ends_listed(panel)} == {"a4"}
    panel.arrows.setChecked(True)
    assert window.act_arrows.isChecked() and window.scene.forward_arrows.isVisible()
    window.act_arrows.setChecked(False)
    assert not panel.arrows.isChecked()


def test_test_cars_and_the_pinned_car_stay_on_their_spaces_when_one_before_them_goes(
    window, qtbot, straight_file
):
    tool, panel = _moves_tool(window, straight_file)
    t = window.doc.track
    click(qtbot, window, *centre(t.space("b4")))
    click(qtbot, window, *centre(t.space("a3")), Qt.KeyboardModifier.ShiftModifier)

    def placed():
        cars = {t.spaces[i].id: c for i, c in panel.car_colour.items()}
        return cars, {t.spaces[i].id for i in tool.cars}, t.spaces[tool.pinned].id

    before = placed()
    assert before == ({"b4": "black"}, {"b4"}, "a3")
    stack = window.doc.undo_stack
    stack.push(RemoveSpaces(window.doc, [t.spaces.index(t.space("a1"))]))
    assert placed() == before
    stack.undo()
    assert placed() == before
    stack.push(RemoveSpaces(window.doc, [t.spaces.index(t.space("b4"))]))  # the car's own space
    assert tool.cars == set() and panel.car_colour == {}
    assert t.spaces[tool.pinned].id == "a3"


def test_test_cars_take_the_six_colours(window, qtbot, straight_file):
    tool, panel = _moves_tool(window, straight_file, centre=(160, 0))
    t = window.doc.track
    for sid in ("a2", "b3", "a4"):
        click(qtbot, window, *centre(t.space(sid)))
    colour_of = {t.spaces[i].id: c for i, c in panel.car_colour.items()}
    assert colour_of == {"a2": "black", "b3": "blue", "a4": "green"}  # COLOURS order
    panel.next_colour.setCurrentIndex(panel.next_colour.findData("red"))
    click(qtbot, window, *centre(t.space("b5")))
    click(qtbot, window, *centre(t.space("b3")))  # blue leaves the track
    colour_of = {t.spaces[i].id: c for i, c in panel.car_colour.items()}
    assert colour_of == {"a2": "black", "a4": "green", "b5": "red"}
    assert panel.next_colour.currentData() == "yellow"  # the first colour free after red went
    click(qtbot, window, *centre(t.space("a6")))
    assert panel.car_colour[t.spaces.index(t.space("a6"))] == "yellow"
    click(qtbot, window, *centre(t.space("a6")))
    overlay = tool.overlay
    assert {t.spaces[i].id: q.name() for i, q in overlay.car_colours.items()} == {
        "a2": "#1b1b1b",
        "a4": "#2fa84f",
        "b5": "#e5484d",
    }
    assert "black on a2" in panel.cars_label.text()
    qtbot.mouseClick(panel.clear_button, Qt.MouseButton.LeftButton)
    assert panel.car_colour == {} and overlay.car_colours == {}


def test_the_movement_panel_follows_its_number_with_another_tool_active(
    window, qtbot, straight_file
):
    tool, panel = _moves_tool(window, straight_file)
    t = window.doc.track
    click(qtbot, window, *centre(t.space("a3")), Qt.KeyboardModifier.ShiftModifier)
    assert "a3 moving 3" in panel.summary.text()
    window.set_tool("select")  # the moving car goes with the tool
    window.movement_dock.show()
    panel.number.setValue(5)
    assert tool.number == 5 and "moving" not in panel.summary.text()
    window.set_tool("moves")
    click(qtbot, window, *centre(t.space("a3")), Qt.KeyboardModifier.ShiftModifier)
    assert "a3 moving 5" in panel.summary.text()
