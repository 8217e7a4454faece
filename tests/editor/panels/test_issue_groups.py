"""The words of the Issues list's folded rows: plain words for every kind of issue."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest_helpers import wait_issues

from trackside.editor.panels.issues import GROUP_WORDS, group_title
from trackside.engine.track.validate import CODES

DOCS = Path(__file__).resolve().parents[3] / "docs" / "validation.md"


def _documented_codes() -> set[str]:
    """The codes in the table of docs/validation.md."""
    return set(re.findall(r"^\| `([a-z-]+)` \|", DOCS.read_text(encoding="utf-8"), re.M))


def test_every_code_the_validator_can_give_has_plain_words():
    documented = _documented_codes()
    assert documented == set(CODES)  # the two lists agree, so neither is short
    assert sorted(set(CODES) - set(GROUP_WORDS)) == []
    for code in CODES:
        assert "of kind" not in group_title(code, 4)


def test_a_group_title_counts_in_the_right_number():
    assert group_title("dead-end", 1) == "1 space has no forward neighbour"
    assert group_title("dead-end", 5) == "5 spaces have no forward neighbour"
    assert group_title("overlap", 3) == "3 pairs of spaces overlap"


@pytest.mark.gui
def test_lines_not_placed_fold_under_a_title_that_says_so(window, qtbot, stadium_file):
    from trackside.editor.document.commands import SetLine
    from trackside.editor.document.track_document import UNSET_SEGMENT

    window.open_file(stadium_file)
    for k in range(4):
        window.doc.undo_stack.push(SetLine(window.doc, k, UNSET_SEGMENT))
    wait_issues(qtbot, window)
    tree = window.issues.tree
    top = [tree.topLevelItem(k) for k in range(tree.topLevelItemCount())]
    group = next(r for r in top if r.childCount())
    assert group.text(0) == "4 lines are not placed yet"
    members = [group.child(k).text(0) for k in range(group.childCount())]
    assert members[0].startswith("Betting line 1 is not placed yet")
    assert members[3].startswith("The finish line is not placed yet")
