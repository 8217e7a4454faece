"""What the real dialogs say: what will really happen, and who another window is.

Each dialog is answered by a timer that reads it and clicks a button, so no test
waits on a person."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMessageBox

from trackside.editor.panels.prompts import Prompts

pytestmark = pytest.mark.gui


def answering(qtbot, button: str) -> list[tuple[str, str, str]]:
    """Read the next modal box and click ``button`` in it; what it said is returned."""
    seen: list[tuple[str, str, str]] = []

    def answer() -> None:
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox):
            QTimer.singleShot(10, answer)
            return
        seen.append((box.text(), box.informativeText(), box.detailedText()))
        chosen = next(b for b in box.buttons() if b.text().replace("&", "") == button)
        chosen.click()

    QTimer.singleShot(0, answer)
    return seen


def test_open_anyway_says_this_window_cannot_save_while_the_other_has_the_file(qtbot):
    seen = answering(qtbot, "Open Anyway")
    answer = Prompts().file_in_use("loop.yaml", "another Trackside window (process 7)")
    assert answer == "open"
    ((text, more, _details),) = seen
    assert text == "loop.yaml is open in another Trackside window (process 7)."
    assert "this window cannot save to it while the other one has it open" in more
    assert "whichever editor saves last" not in more


def test_a_change_by_another_window_is_never_said_to_be_another_program(qtbot):
    seen = answering(qtbot, "Keep Mine")
    who = "another window of this Trackside (process 7)"
    assert Prompts().changed_on_disk("loop.yaml", "- a\n+ b", who) == "keep"
    ((text, more, details),) = seen
    assert text == f"loop.yaml was changed on disk by {who}, and this window has unsaved changes."
    assert "program" not in text + more and details == "- a\n+ b"


def test_a_read_only_file_says_why_before_closing(qtbot):
    seen = answering(qtbot, "Save a Copy…")
    answer = Prompts().save_changes("loop.yaml", read_only="the file is read-only on disk")
    assert answer == "save"
    assert seen[0][0] == (
        "loop.yaml is open read-only here: the file is read-only on disk. "
        "Save your changes as a copy before closing?"
    )


def test_a_moved_file_and_a_re_pointed_link_are_asked_about(qtbot):
    seen = answering(qtbot, "Follow the File")
    assert Prompts().file_moved("loop.yaml", "/a/old/loop.yaml", "/a/new/loop.yaml") == "follow"
    assert "/a/new/loop.yaml" in seen[0][0]
    seen = answering(qtbot, "Keep Editing a.yaml")
    assert Prompts().link_retargeted("link.yaml", "/x/a.yaml", "/x/b.yaml") == "keep"
    assert seen[0][0] == "link.yaml now leads to /x/b.yaml; it led to /x/a.yaml when you opened it."
