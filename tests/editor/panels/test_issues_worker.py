"""The issues list checks on a worker thread: edits never wait, the last edit's report wins."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest_helpers import wait_issues

from trackside.editor.document.commands import MoveSpaces, RemoveSpaces
from trackside.editor.panels.issues import validate

pytestmark = pytest.mark.gui


def test_edits_made_while_a_check_runs_are_checked_next_and_the_stale_report_dropped(
    window, qtbot, stadium_file
):
    window.open_file(stadium_file)
    wait_issues(qtbot, window)
    doc, issues = window.doc, window.issues
    assert not [i for i in issues.issues if i.code == "dead-end"]
    issues.run_now()  # a check of the whole track is under way...
    doc.undo_stack.push(RemoveSpaces(doc, [30, 31, 32]))  # ...when a row is cut
    doc.undo_stack.push(MoveSpaces(doc, [0], 0.5, 0))
    assert issues.busy
    wait_issues(qtbot, window)
    assert [(i.code, i.spaces) for i in issues.issues] == [
        (i.code, i.spaces) for i in validate(doc.snapshot())
    ]
    assert [i for i in issues.issues if i.code == "dead-end"]


def test_another_document_never_shows_the_last_ones_issues(window, qtbot, stadium_file):
    """Opened over the blank page or over a circuit with errors, a circuit shows none
    of their issues while its own are checked: not in the headline, the list, the status
    bar's counts or the spaces outlined in red; then its own."""
    wait_issues(qtbot, window)
    issues = window.issues
    assert issues.counts_text()[0] == 2  # the blank page lacks a racing line and a grid
    dead_end = Path(__file__).parents[2] / "fixtures" / "invalid" / "dead-end.yaml"
    for path in (dead_end, stadium_file):
        assert window.open_file(path, ask=False)
        assert issues.issues == [] and not issues.rows()
        assert "error" not in issues.counts.text() and "warning" not in issues.counts.text()
        assert "● 0" not in window.counts_label.text() and "error" not in window.counts_label.text()
        assert not any(item.problem for item in window.scene.space_items)
        wait_issues(qtbot, window)
    assert issues.checked and issues.counts_text() == (0, 0)
    assert "No problems" in issues.counts.text()
