"""A menu entry ends in "…" exactly when more input follows before it acts (a file to
choose, a value to type, a dialog to fill in): an entry that acts at once or only shows
a window has none, by the desktops' convention."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtGui import QColor, QImage
from PySide6.QtWidgets import QApplication

from trackside.engine.resources import resolve_track

pytestmark = pytest.mark.gui

NOT_INPUT = ("save_changes", "problems")  # asked by the way: unsaved work, a problem said
TO_READ = ("ShortcutsDialog", "QMessageBox")  # windows shown to be read, asking nothing


def menu_actions(window) -> list:
    """Every entry of the menu bar's menus and submenus."""
    found, menus = [], [a.menu() for a in window.menuBar().actions() if a.menu()]
    while menus:
        for action in menus.pop().actions():
            if action.menu():
                menus.append(action.menu())
            elif action.text():
                found.append(action)
    return found


def name(action) -> str:
    return action.text().replace("&", "")


@pytest.fixture
def asked(window, monkeypatch):
    """Whatever the window asks, recorded and answered "no": its prompts, a record's
    file dialog, and any modal dialog (closed as it opens)."""
    window.play.record_path_factory = lambda: window.prompts.asked.append(("record",)) or ""
    modal: list[str] = []

    def close_modal() -> None:
        dialog = QApplication.activeModalWidget()
        if dialog is not None:
            modal.append(type(dialog).__name__)
            dialog.close()

    closer = QTimer()
    closer.setInterval(20)
    closer.timeout.connect(close_modal)
    closer.start()

    def count() -> int:
        questions = [q for q in window.prompts.asked if q[0] not in NOT_INPUT]
        return len(questions) + sum(kind not in TO_READ for kind in modal)

    yield count
    closer.stop()


def test_every_entry_with_an_ellipsis_asks_for_more_and_no_other_does(
    window, qtbot, asked, tmp_path
):
    """Each enabled entry is triggered on a circuit of one's own: one whose name ends in
    "…" asks for something first; Simulate (it starts at once), Keyboard Shortcuts and
    the Tour (they show a window to read) do not, so their names have none."""
    path = tmp_path / "quarry.yaml"
    path.write_text(Path(resolve_track("quarry-hairpin")).read_text())
    assert window.open_file(path, ask=False)
    window.doc.set_meta("author", "me")
    assert window.save()  # an earlier save kept, to compare with
    picture = QImage(40, 30, QImage.Format.Format_RGB32)
    picture.fill(QColor("white"))
    assert picture.save(str(tmp_path / "scan.png"))
    window.prompts.image_answer = str(tmp_path / "scan.png")
    window.background.act_import.trigger()  # its entries are on with a picture
    assert window.doc.track.background is not None
    panel = window.balance_panel  # Simulate runs: a short one
    panel.games_box.setMinimum(1)
    panel.games_box.setValue(4)
    panel.workers_box.setValue(1)
    tried, wrong = [], []
    for action in menu_actions(window):
        if not action.isEnabled() or action.isCheckable():
            continue
        if name(action) in ("Quit", "Close", "Back to Editing"):
            continue
        if window.doc.path != str(path):  # after New: the circuit of one's own again
            assert window.open_file(path, ask=False)
        before, tool = asked(), window.scene.tool
        action.trigger()
        qtbot.wait(60)
        for widget in QApplication.topLevelWidgets():  # a window it showed to read
            if widget is not window and widget.isVisible() and not widget.isModal():
                widget.close()
        waits = window.scene.tool is not tool  # for points clicked on the canvas
        window.set_tool("select")
        tried.append(name(action))
        if name(action).endswith("…") != (asked() > before or waits):
            wrong.append(name(action))
    assert wrong == []
    ellipses = {name(a) for a in menu_actions(window) if name(a).endswith("…")}
    assert ellipses - set(tried) == {"PDF Page…", "Save Game Record…"}  # a PDF, a game
