"""The issues list checks on a worker thread: edits never wait, the last edit's report wins."""

from __future__ import annotations

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
