"""A line or the start grid moved says in the status bar how far it went, counted as
the pole's steps, the same whether a tool on the canvas, the right-click menu or a
redo moved it."""

from __future__ import annotations

import pytest
from conftest_helpers import centre, choose, click, right_click_menu
from PySide6.QtCore import Qt

from trackside.engine.resources import resolve_track

pytestmark = pytest.mark.gui

# Harbour Loop's finish lies at the rear edge of a46, 44 steps from the pole; a47's
# front edge is two spaces on.
FINISH_TWO_LATER = (
    "Finish line moved 2 spaces later: the pole is 46 steps from it (Ctrl+Z takes it back)"
)


@pytest.fixture
def harbour(window):
    assert window.open_file(resolve_track("harbour-loop"))
    window.view.set_zoom(2.0)
    window.view.centerOn(*centre(window.doc.track.space("a47")))
    return window


def said(window) -> str:
    return window.statusBar().currentMessage()


def test_moving_the_finish_says_how_far_from_the_canvas_the_menu_and_a_redo(qtbot, harbour):
    x, y = centre(harbour.doc.track.space("a47"))
    harbour.set_tool("finish")
    click(qtbot, harbour, x + 12, y)  # nearer a47's front edge
    assert said(harbour) == FINISH_TWO_LATER
    harbour.doc.undo_stack.undo()
    harbour.statusBar().clearMessage()
    harbour.doc.undo_stack.redo()
    assert said(harbour) == FINISH_TWO_LATER
    harbour.doc.undo_stack.undo()
    harbour.set_tool("select")
    choose(qtbot, right_click_menu(qtbot, harbour, x + 12, y), "Finish Line Across Here")
    assert said(harbour) == FINISH_TWO_LATER
    harbour.set_tool("finish")
    x, y = centre(harbour.doc.track.space("a46"))
    click(qtbot, harbour, x - 12, y)  # back to a46's rear edge
    assert said(harbour) == (
        "Finish line moved 2 spaces earlier: the pole is 44 steps from it (Ctrl+Z takes it back)"
    )


def move_betting_line_2_a_step_later(qtbot, window) -> None:
    """Betting line 2 lies at the rear edge of a26, 24 steps from the pole: put it at
    its front edge with the Betting line tool."""
    a26 = window.doc.track.space("a26")
    x, y = centre(a26)
    window.view.centerOn(x, y)
    window.set_tool("betting")
    qtbot.keyClick(window.view, Qt.Key.Key_2)
    click(qtbot, window, min(float(cx) for cx, _ in a26.corners) + 8, y)


def test_moving_betting_line_2_says_how_far(qtbot, harbour):
    move_betting_line_2_a_step_later(qtbot, harbour)
    assert said(harbour) == (
        "Betting line 2 moved 1 space later: the pole is 25 steps from it (Ctrl+Z takes it back)"
    )


def test_an_undo_of_a_move_says_it_is_undone_and_a_redo_says_the_move_again(qtbot, harbour):
    """The message about a move offers Ctrl+Z; once that is pressed the status bar
    no longer offers it, but says what the undo did and how to make the move again."""
    move_betting_line_2_a_step_later(qtbot, harbour)
    moved = said(harbour)
    assert moved.startswith("Betting line 2 moved 1 space later")
    qtbot.keyClick(harbour.view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    redo = harbour.act_redo.shortcut().toString()  # Ctrl+Y or Ctrl+Shift+Z, as the menu
    undone = f"Undone: betting line 2 back where it was ({redo} makes the move again)"
    assert said(harbour) == undone
    qtbot.keyClick(
        harbour.view,
        Qt.Key.Key_Z,
        Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier,
    )
    assert said(harbour) == moved


def test_the_grid_set_one_row_back_says_so(qtbot, harbour):
    grid = harbour.doc.track.start_grid
    back = [space_id[0] + "1" for space_id in grid]  # c2 -> c1: one row behind
    harbour.view.centerOn(*centre(harbour.doc.track.space(back[0])))
    harbour.set_tool("grid")
    for space_id in back:
        click(qtbot, harbour, *centre(harbour.doc.track.space(space_id)))
    assert harbour.doc.track.start_grid == back
    assert said(harbour) == (
        "Start grid moved 1 space back: the pole is 45 steps from the finish (Ctrl+Z takes it back)"
    )
