"""Every state the editor reaches saves and opens again: a stateful property test.

Hypothesis drives one real main window through what a designer does (lane
layouts, the lap start, grid, lines, finish, transforms, values typed in the
Inspector, in and past the file format's limits, copy and paste, undo, redo, a
jump in the history, save, save as, autosave, reopening, crash recovery) in
random orders. After every step the track must save, the file must be one the
editor opens (schema-valid, or a draft that only lacks parts), reopening it must
give the same track, and a save must leave the undo history as it was.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from depth import examples
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)
from PySide6.QtCore import QPointF
from PySide6.QtGui import QColor, QImage
from PySide6.QtWidgets import QTableWidgetItem
from tracks_for_tests import stadium_track

from trackside.editor.document import commands
from trackside.editor.document.files import load_for_editing
from trackside.editor.document.track_document import blank_track
from trackside.editor.tools import across
from trackside.editor.tools.lane_tool import LaneTool
from trackside.engine.schema import check
from trackside.engine.track.lanes import Arc, Straight
from trackside.engine.track.model import save_track
from trackside.engine.track.templates import oval, peanut

pytestmark = pytest.mark.gui

STARTS = {"blank": blank_track, "oval": oval, "peanut": peanut, "stadium": stadium_track}

# Text typed into a box: short words, blanks, and lengths about the format's limits.
_LETTERS = st.sampled_from(["a", "Z", "é", "7", "-", " ", "\t"])
TYPED_TEXT = st.one_of(
    st.text(alphabet=st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=12),
    st.builds(
        lambda ch, n: ch * n, _LETTERS, st.sampled_from([0, 1, 63, 64, 65, 100, 199, 200, 201])
    ),
)
LONG_TEXT = st.builds(lambda n: "x" * n, st.sampled_from([0, 5, 199, 200, 201, 10_000, 10_001]))
NUMBER_TEXT = st.one_of(
    st.sampled_from(["nan", "inf", "-inf", "1e7", "-1000001", "1000000", "1e400", "abc", ""]),
    st.floats(-2_000_000, 2_000_000, allow_nan=False).map(repr),
    st.integers(-100, 900).map(str),
)
OFFSETS = st.one_of(
    st.floats(-300, 300, allow_nan=False), st.sampled_from([-1e7, 999_999.0, 2e6, 1e-9])
)
PIECES = st.lists(
    st.one_of(
        st.builds(Straight, st.integers(1, 12).map(lambda rows: rows * 40.0)),
        st.builds(
            Arc, st.sampled_from([60.0, 120.0, 250.0]), st.sampled_from([-90.0, 45.0, 180.0])
        ),
    ),
    min_size=1,
    max_size=4,
)


class DocumentStates(RuleBasedStateMachine):
    """One main window, driven from a template through random edits, saves and reopenings."""

    def __init__(self, window, folder, dead_pid: int):
        super().__init__()
        self.window = window
        self.doc = window.doc
        self.folder = folder
        self.dead_pid = dead_pid
        self.saves = 0
        self.picture = folder / "scan.png"
        if not self.picture.exists():
            image = QImage(40, 20, QImage.Format.Format_RGB32)
            image.fill(QColor("#88aacc"))
            assert image.save(str(self.picture))

    # -- set-up --------------------------------------------------------------------
    @initialize(start=st.sampled_from(sorted(STARTS)))
    def start(self, start):
        self.window.prompts.save_answer = "discard"
        assert self.window.new_from_track(STARTS[start]())
        self.window.prompts.asked.clear()

    @property
    def stack(self):
        return self.doc.undo_stack

    @property
    def n(self) -> int:
        return len(self.doc.track.spaces)

    def redo_count(self) -> int:
        return self.stack.count() - self.stack.index()

    # -- edits ---------------------------------------------------------------------
    @rule(
        x=st.integers(-400, 400),
        y=st.integers(-400, 400),
        heading=st.sampled_from([0.0, 90.0, -30.0]),
        lanes=st.integers(1, 4),
        pieces=PIECES,
    )
    def lay_out_lanes(self, x, y, heading, lanes, pieces):
        tool = self.window.tool_of(LaneTool)
        tool.clear_draft()
        tool.set_start(float(x), float(y), heading)
        tool.update_settings(lanes=lanes)
        for piece in pieces:
            tool.add_piece(piece)
        tool.create()

    @precondition(lambda self: self.n > 0)
    @rule(at=st.integers(0, 10_000))
    def set_lap_start_here(self, at):
        across.set_lap_start_at(self.window.scene, at % self.n)

    @precondition(lambda self: self.n >= 6)
    @rule(picks=st.lists(st.integers(0, 10_000), min_size=6, max_size=6))
    def set_grid(self, picks):
        ids = [self.doc.track.spaces[i % self.n].id for i in picks]
        self.stack.push(commands.SetGrid(self.doc, ids))

    @precondition(lambda self: self.n > 0)
    @rule(k=st.integers(0, 3), at=st.integers(0, 10_000))
    def place_line_here(self, k, at):
        across.place_line_across(self.window.scene, k, at % self.n)

    @rule(
        picks=st.lists(st.integers(0, 10_000), max_size=5),
        how=st.sampled_from(["mirror", "flip", "rotate", "move"]),
        degrees=st.floats(-360, 360, allow_nan=False),
        dx=OFFSETS,
        dy=OFFSETS,
    )
    def transform(self, picks, how, degrees, dx, dy):
        scene, actions = self.window.scene, self.window.transforms
        scene.select_indices([i % self.n for i in picks] if self.n else [])
        if how == "mirror":
            actions.act_mirror_lr.trigger()
        elif how == "flip":
            actions.act_mirror_tb.trigger()
        elif how == "rotate":
            self.window.prompts.angle_answer = degrees
            actions.rotate_by()
        else:
            self.window.prompts.offset_answer = (dx, dy)
            actions.move_by()

    @rule(field=st.sampled_from(["name", "author"]), text=TYPED_TEXT)
    def type_track_text(self, field, text):
        box = getattr(self.window.inspector, f"{field}_edit")
        box.setText(text)
        box.editingFinished.emit()

    @rule(text=LONG_TEXT)
    def type_description(self, text):
        box = self.window.inspector.description_edit
        box.setPlainText(text)
        box.editingFinished.emit()

    @precondition(lambda self: self.n > 0)
    @rule(at=st.integers(0, 10_000), text=TYPED_TEXT)
    def type_space_id(self, at, text):
        self.window.scene.select_indices([at % self.n])
        box = self.window.inspector.id_edit
        box.setText(text)
        box.editingFinished.emit()

    @precondition(lambda self: self.n > 0)
    @rule(
        at=st.integers(0, 10_000), row=st.integers(0, 3), column=st.integers(0, 1), text=NUMBER_TEXT
    )
    def type_corner(self, at, row, column, text):
        self.window.scene.select_indices([at % self.n])
        table = self.window.inspector.corner_table
        if row < table.rowCount():
            table.setItem(row, column, QTableWidgetItem(text))

    @rule(value=st.floats(-5, 50, allow_nan=False))
    def type_tolerance(self, value):
        box = self.window.inspector.tolerance_spin
        box.setValue(value)
        box.editingFinished.emit()

    @precondition(lambda self: self.n > 0)
    @rule(picks=st.lists(st.integers(0, 10_000), min_size=1, max_size=8), times=st.integers(1, 2))
    def copy_and_paste(self, picks, times):
        self.window.scene.select_indices([i % self.n for i in picks])
        self.window.transforms.copy()
        for _ in range(times):
            self.window.transforms.paste()

    # -- history -------------------------------------------------------------------
    @rule()
    def undo(self):
        self.stack.undo()

    @rule()
    def redo(self):
        self.stack.redo()

    @rule(to=st.integers(0, 10_000))
    def jump_in_history(self, to):
        self.stack.setIndex(to % (self.stack.count() + 1))

    # -- files -----------------------------------------------------------------------
    def _save(self, as_new: bool) -> None:
        redo, index = self.redo_count(), self.stack.index()
        self.saves += 1
        self.window.prompts.save_as_answer = str(self.folder / f"track-{self.saves}.yaml")
        saved = self.window.save_as() if as_new else self.window.save()
        problems = self.window.prompts.titles("problems")
        assert saved, problems
        assert not self.doc.is_modified()
        assert self.redo_count() == redo, "a save changed the redo history"
        assert self.stack.index() >= index
        self._reopens(self.doc.path)

    @rule()
    def save(self):
        self._save(as_new=False)

    @rule()
    def save_as(self):
        self._save(as_new=True)

    @rule()
    def autosave(self):
        written = self.window.autosave.save_now()
        assert not self.window.autosave.last_error, self.window.autosave.last_error
        if written:
            self._reopens(self.window.autosave.track_file)

    @precondition(lambda self: self.doc.path is not None and not self.doc.is_modified())
    @rule()
    def reopen(self):
        before = self.doc.track.to_dict()
        assert self.window.open_file(self.doc.path), self.window.prompts.titles("problems")
        assert self.doc.track.to_dict() == before

    @precondition(lambda self: self.doc.path is not None)
    @rule()
    def reload(self):
        on_disk = load_for_editing(self.doc.path)
        assert self.window.life.reload() == (on_disk.track is not None)
        if on_disk.track is not None:
            assert self.doc.track.to_dict() == on_disk.track.to_dict()
            assert not self.doc.is_modified()

    @rule(scale=st.sampled_from([1e-9, 0.5, 3.0, 1e9]), opacity=st.floats(-1, 2))
    def trace_over_a_picture(self, scale, opacity):
        actions = self.window.background
        if self.doc.track.background is None:
            actions.import_image(str(self.picture))
        if self.doc.track.background is None or self.doc.track.background.locked:
            return
        self.window.prompts.opacity_answer = opacity
        actions.ask_opacity()
        self.window.prompts.distance_answer = 100.0 * scale
        actions.start_scaling()
        actions.picker.picked.emit(QPointF(0, 0), QPointF(100, 0))

    @precondition(lambda self: self.doc.is_modified())
    @rule()
    def crash_and_recover(self):
        saver = self.window.autosave
        saver.save_now()
        before = self.doc.track.to_dict()
        # The session dies: its autosave stays behind under a process that is gone.
        meta = json.loads(saver.meta_file.read_text())
        meta["pid"] = self.dead_pid
        (saver.directory / f"autosave-{self.dead_pid}.yaml").write_text(
            saver.track_file.read_text()
        )
        (saver.directory / f"autosave-{self.dead_pid}.json").write_text(json.dumps(meta))
        saver.discard()
        self.window.prompts.recovery_answer = "recover"
        assert self.window.check_recovery(), self.window.prompts.titles("problems")
        assert self.doc.track.to_dict() == before
        assert self.doc.is_modified()

    # -- what must hold after every step -----------------------------------------------
    def _reopens(self, path) -> None:
        result = load_for_editing(path)
        assert result.track is not None, [str(p) for p in result.problems]
        assert result.track.to_dict() == self.doc.track.to_dict()
        if not result.draft:
            assert check("track", self.doc.track.to_dict()) == []

    @invariant()
    def saves_and_opens_again(self):
        scratch = self.folder / "scratch.yaml"
        save_track(self.doc.track, scratch)
        self._reopens(scratch)

    def teardown(self):
        self.window.autosave.discard()


@pytest.fixture(scope="module")
def dead_pid():
    """The id of a process that has ended (what a crashed session leaves in its autosave)."""
    ended = subprocess.Popen([sys.executable, "-c", "pass"])
    ended.wait()
    return ended.pid


def test_every_state_saves_and_opens_again(make_window, tmp_path, dead_pid):
    window = make_window()
    run_state_machine_as_test(
        lambda: DocumentStates(window, tmp_path, dead_pid),
        settings=settings(max_examples=examples(12), stateful_step_count=25),
    )
