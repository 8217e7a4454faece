"""Documents: save and reopen, unsaved-changes prompt, recovery, hostile files."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from conftest_helpers import click, wait_issues
from PySide6.QtCore import Qt
from tracks_for_tests import stadium_track

from trackside.editor.document.files import file_slug, suggested_stem
from trackside.engine.track.model import load_track

pytestmark = pytest.mark.gui


def test_save_reopen_and_compare(window, make_window, qtbot, stadium_file, tmp_path):
    window.open_file(stadium_file)
    window.scene.select_indices([4])
    qtbot.keyClick(window.view, Qt.Key.Key_Up)
    window.inspector.name_edit.setText("Harbour Test")
    window.inspector.name_edit.editingFinished.emit()
    assert window.windowTitle() == "stadium.yaml[*] — Trackside" and window.isWindowModified()
    target = tmp_path / "out" / "copy.yaml"
    target.parent.mkdir()
    window.prompts.save_as_answer = str(target)
    assert window.save_as()
    assert not window.isWindowModified()
    assert window.windowTitle() == "copy.yaml[*] — Trackside"
    saved = load_track(target)
    assert saved.to_dict() == window.doc.track.to_dict()
    assert saved.name == "Harbour Test"
    other = make_window()
    assert other.open_file(target)
    assert other.doc.track.to_dict() == window.doc.track.to_dict()
    assert other.recent_files()[0] == str(target.resolve())


def test_ctrl_s_saves_in_place_atomically(window, qtbot, stadium_file):
    window.open_file(stadium_file)
    window.scene.select_indices([0])
    qtbot.keyClick(window.view, Qt.Key.Key_Left)
    qtbot.keyClick(window.view, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    assert not window.doc.is_modified()
    assert load_track(stadium_file).to_dict() == window.doc.track.to_dict()
    hidden = [p.name for p in stadium_file.parent.iterdir() if p.name.startswith(".")]
    assert hidden == [".stadium.yaml.lock"]  # no temporary file left; the lock while open


def test_unsaved_changes_prompt_can_cancel_closing(window, qtbot, stadium_file):
    window.open_file(stadium_file)
    window.scene.select_indices([0])
    qtbot.keyClick(window.view, Qt.Key.Key_Left)
    window.prompts.save_answer = "cancel"
    assert not window.close()
    assert window.isVisible()
    assert window.prompts.titles("save_changes") == [("save_changes", "stadium.yaml")]
    window.prompts.save_answer = "discard"
    window.new_blank()
    assert window.doc.track.spaces == [] and window.doc.path is None
    assert not window.isWindowModified()


def test_recover_from_an_autosave_after_a_crash(make_window, qtbot, stadium_file, autosave_dir):
    first = make_window()
    first.open_file(stadium_file)
    first.scene.select_indices([2])
    qtbot.keyClick(first.view, Qt.Key.Key_Down, Qt.KeyboardModifier.ShiftModifier)
    assert first.autosave.save_now()
    assert not first.autosave.save_now()  # nothing new since: nothing written
    edited = first.doc.track.to_dict()
    # A crash: the process is gone and its autosave stays. Give the files a dead pid.
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    meta = json.loads(first.autosave.meta_file.read_text())
    meta["pid"] = dead.pid
    crashed_yaml = autosave_dir / f"autosave-{dead.pid}.yaml"
    crashed_meta = autosave_dir / f"autosave-{dead.pid}.json"
    crashed_yaml.write_text(first.autosave.track_file.read_text())
    crashed_meta.write_text(json.dumps(meta))
    first.autosave.discard()

    second = make_window()
    assert second.check_recovery()
    assert second.prompts.titles("recovery")
    assert second.doc.track.to_dict() == edited
    assert second.doc.path == str(stadium_file)
    assert second.isWindowModified()
    assert not crashed_yaml.exists() and not crashed_meta.exists()
    third = make_window()
    assert not third.check_recovery()  # nothing left over, nothing asked
    assert third.prompts.titles("recovery") == []


def test_autosave_writes_a_moment_after_the_edits_stop_and_only_while_modified(
    make_window, qtbot, stadium_file
):
    from trackside.editor.document.autosave import IDLE_MS, Autosaver

    assert IDLE_MS <= 5000  # a few seconds after the edits stop, not once a minute
    w = make_window()
    w.open_file(stadium_file)
    saver = Autosaver(w.doc, w.autosave.directory, idle_ms=50, parent=w)
    # Opened, not changed: nothing is waiting to be written, and nothing would be.
    assert not w.doc.is_modified() and not saver.idle.isActive()
    assert not saver.save_now() and not saver.track_file.exists()
    w.scene.select_indices([0])
    qtbot.keyClick(w.view, Qt.Key.Key_Left)
    assert saver.idle.isActive() and not saver.track_file.exists()  # waits for the pause
    qtbot.waitUntil(saver.track_file.exists, timeout=2000)
    assert load_track(saver.track_file).to_dict() == w.doc.track.to_dict()
    w.prompts.save_as_answer = None
    assert w.save()
    assert not saver.track_file.exists() and not saver.idle.isActive()


def test_edits_without_a_pause_are_autosaved_at_least_every_half_minute(qtbot, make_window):
    from trackside.editor.document.autosave import IDLE_MS, LONGEST_MS, Autosaver
    from trackside.editor.document.commands import MoveSpaces

    w = make_window()
    saver = Autosaver(w.doc, w.autosave.directory, parent=w)
    assert w.new_from_track(stadium_track())
    assert saver.longest.interval() == LONGEST_MS and saver.longest.isActive()
    first = saver.longest.remainingTime()
    qtbot.waitUntil(lambda: saver.longest.remainingTime() < first)
    w.doc.undo_stack.push(MoveSpaces(w.doc, [0], 1, 0))
    assert saver.idle.remainingTime() > IDLE_MS - 1000  # the pause is waited for again
    assert saver.longest.remainingTime() < first  # but not the longest wait


HOSTILE = {
    "alias-bomb.yaml": "a: &a [x, x, x, x, x, x, x, x, x]\n"
    + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, "
        f"*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}]\n"
        for i in range(9)
    ),
    "python-tag.yaml": "format: !!python/object/apply:os.system ['echo pwned']\n",
    "not-yaml.yaml": "spaces: [unclosed\n  - {\n",
    "binary.yaml": b"\x00\xff\xfe\x89PNG\r\n",
    "list.yaml": "- 1\n- 2\n",
    "bad-schema.yaml": "format: trackside-track/1\nname: X\n"
    "centerline: {closed: maybe, points: 3}\n"
    "spaces: []\nstart_grid: []\nbetting_lines: []\nfinish_line: []\n",
    "deep.yaml": "a: " + "[" * 5000 + "]" * 5000 + "\n",
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_opening_a_hostile_file_leaves_the_document_intact(window, stadium_file, tmp_path, name):
    window.open_file(stadium_file)
    window.scene.select_indices([0])
    window.doc.undo_stack.push(
        __import__("trackside.editor.document.commands", fromlist=["MoveSpaces"]).MoveSpaces(
            window.doc, [0], 1, 0
        )
    )
    before = window.doc.track.to_dict()
    bad = tmp_path / name
    content = HOSTILE[name]
    bad.write_bytes(content if isinstance(content, bytes) else content.encode())
    assert not window.open_file(bad)
    assert window.doc.track.to_dict() == before
    assert window.doc.path == str(stadium_file)
    assert window.doc.undo_stack.count() == 1 and window.isWindowModified()
    (problem,) = window.prompts.titles("problems")
    assert problem[1] == "Cannot open track" and problem[3]
    assert all(name in line for line in problem[3])
    rows = window.issues.all_issues()
    assert rows and rows[0].code == "file" and rows[0].severity == "error"


def test_missing_file_is_reported_not_raised(window, tmp_path):
    assert not window.open_file(tmp_path / "nope.yaml")
    (problem,) = window.prompts.titles("problems")
    assert "no such file" in problem[3][0]


def _draft_reopened(window, make_window, qtbot, tmp_path):
    """Draw one space on the blank page, save it (a draft: no grid, no lines) and open
    the file in another window, which is returned."""
    window.set_tool("draw")
    window.view.set_zoom(4.0)
    window.view.centerOn(20, 15)
    for x, y in [(0, 0), (40, 0), (40, 30), (0, 30), (0, 0)]:
        click(qtbot, window, x, y)
    window.prompts.save_as_answer = str(tmp_path / "draft.yaml")
    assert window.save()
    other = make_window()
    assert other.open_file(tmp_path / "draft.yaml")
    return other


def test_a_half_drawn_circuit_saves_and_reopens_as_a_draft(window, make_window, qtbot, tmp_path):
    other = _draft_reopened(window, make_window, qtbot, tmp_path)
    assert other.doc.track.to_dict() == window.doc.track.to_dict()
    rows = other.issues.all_issues()
    assert rows and all(r.severity == "warning" for r in rows if r.code == "file")


def test_new_from_a_track_file_is_an_unsaved_copy(window, stadium_file):
    assert window.new_from(stadium_file)
    assert window.doc.path is None
    assert window.doc.track.name == "Test Stadium (copy)"
    assert window.isWindowModified()
    window.prompts.save_as_answer = None
    assert not window.save()  # save asks where; cancelling saves nothing
    assert window.prompts.titles("save_path")


def _media_boxes(pdf: bytes) -> list[tuple[float, float]]:
    import re

    boxes = re.findall(rb"/MediaBox \[\s*([-\d.]+) ([-\d.]+) ([-\d.]+) ([-\d.]+)\s*\]", pdf)
    return [
        ((float(x1) - float(x0)) * 25.4 / 72, (float(y1) - float(y0)) * 25.4 / 72)
        for x0, y0, x1, y1 in boxes
    ]


def test_export_a_pdf_at_true_scale_and_on_a4_pages(window, stadium_file, tmp_path):
    window.open_file(stadium_file)
    out = tmp_path / "board.pdf"
    window.prompts.export_answer = str(out)
    assert window.export("pdf")
    ((w, h),) = _media_boxes(out.read_bytes())
    rect = window.scene.track_rect()  # spaces span about 770 x 380 mm, plus margins
    assert w > 700 and h > 330 and w < rect.width() + 120 and h < rect.height() + 120
    tiled = tmp_path / "board-a4.pdf"
    window.prompts.export_answer = str(tiled)
    assert window.export("pdf", "a4")
    boxes = _media_boxes(tiled.read_bytes())
    assert len(boxes) > 1
    assert all(sorted((round(bw), round(bh))) == [210, 297] for bw, bh in boxes)
    png = tmp_path / "board.png"
    window.prompts.export_answer = str(png)
    assert window.export("png")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    window.prompts.export_answer = str(tmp_path / "no-such-dir" / "x.svg")
    assert not window.export("svg")
    assert window.prompts.titles("problems")[-1][1] == "Cannot export"


ODD_BUT_VALID = """\
format: trackside-track/1
name: Odd
centerline: {closed: true, points: [[0, 0], [0, 0]]}
spaces:
  - {id: bow, lane: 0, corners: [[0, 0], [40, 30], [40, 0], [0, 30]]}
  - {id: flat, lane: 1, corners: [[0, 0], [10, 0], [20, 0]]}
  - {id: far, lane: 7, corners: [[-90000, -90000], [-89000, -90000], [-89000, -89000]]}
  - {id: far, lane: 2, corners: [[5, 5], [6, 5], [6, 6], [5, 6]]}
start_grid: [far, far, bow, nope, flat, flat]
betting_lines: [[[0, 0], [0, 0]], [[1, 1], [1, 1]], [[-5, 0], [500000, 0]]]
finish_line: [[3, 3], [3, 3]]
"""


def test_a_schema_valid_but_absurd_track_opens_paints_and_reports(window, qtbot, tmp_path):
    path = tmp_path / "odd.yaml"
    path.write_text(ODD_BUT_VALID)
    assert window.open_file(path)
    window.act_racing.trigger()
    window.act_arrows.trigger()
    window.act_fit.trigger()
    assert not window.grab().isNull()  # every item painted without raising
    wait_issues(qtbot, window)
    codes = {i.code for i in window.issues.issues}
    assert {"duplicate-id", "bad-polygon"} <= codes
    window.set_tool("moves")
    window.tool.show_from(0, 3)
    window.set_tool("corners")
    window.scene.select_indices([0, 1, 2, 3])
    assert not window.grab().isNull()


def test_draft_warnings_give_way_to_the_validator_at_the_first_edit(
    window, make_window, qtbot, tmp_path
):
    other = _draft_reopened(window, make_window, qtbot, tmp_path)
    assert [r.code for r in other.issues.all_issues() if r.code == "file"]
    other.scene.select_indices([0])
    other.view.setFocus()
    qtbot.keyClick(other.view, Qt.Key.Key_Left)
    wait_issues(qtbot, other)
    codes = [r.code for r in other.issues.all_issues()]
    assert "file" not in codes and "grid-size" in codes


def test_a_failed_save_is_reported_and_the_document_stays_modified(window, stadium_file, tmp_path):
    window.open_file(stadium_file)
    window.scene.select_indices([0])
    window.doc.undo_stack.push(
        __import__("trackside.editor.document.commands", fromlist=["MoveSpaces"]).MoveSpaces(
            window.doc, [0], 1, 0
        )
    )
    window.prompts.save_as_answer = str(tmp_path / "missing-folder" / "x.yaml")
    assert not window.save_as()
    (problem,) = window.prompts.titles("problems")
    assert problem[1] == "Cannot save track" and "missing-folder" in problem[2]
    assert window.isWindowModified() and window.doc.path == str(stadium_file)


def test_a_failed_save_as_leaves_an_untitled_track_untitled(window, tmp_path):
    window.new_blank()
    window.prompts.save_as_answer = str(tmp_path / "missing-folder" / "my-loop.yaml")
    count = window.doc.undo_stack.count()
    assert not window.save_as()
    assert window.doc.track.name == "Untitled" and window.doc.undo_stack.count() == count
    assert not window.doc.undo_stack.canRedo()
    window.prompts.save_as_answer = str(tmp_path / "my-loop.yaml")
    assert window.save_as() and window.doc.track.name == "My Loop"


def test_output_names_come_from_the_file_else_a_slug_of_the_track_name(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert file_slug("Harbour Loop! (copy)") == "harbour-loop-copy"
    assert file_slug("") == file_slug(None) == file_slug("!!") == "track"
    assert suggested_stem(str(tmp_path / "a" / "oval.yaml"), "Oval") == tmp_path / "a" / "oval"
    assert suggested_stem(None, "Big Oval", tmp_path) == tmp_path / "big-oval"
