"""File > Compare With…: another version of the circuit against the one being edited.

The other version is a file picked, the saved file (Compare With Saved Version), or
one of the last saves kept in the data folder or a newer autosave (Compare With
Earlier Save…, ``document/earlier_saves.py``).

The Compare panel lists the spaces added, removed, moved, renamed or changed and
the lines, grid and racing line that differ (engine/track/diff.py), with a
legend; a click on a row shows the spaces on the canvas, where the comparison
overlay (editor/canvas/compare_overlay.py) highlights them. The comparison
follows the edits until Stop Comparing.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QRectF, Qt, QTimer, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QCheckBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from trackside.editor.canvas.compare_overlay import LEGEND, CompareOverlay, polygon
from trackside.editor.canvas.scene import TrackScene
from trackside.editor.canvas.view import CanvasView
from trackside.editor.document.earlier_saves import KEEP, Version
from trackside.editor.document.files import load_for_editing, start_folder
from trackside.editor.document.track_document import TrackDocument
from trackside.engine.track.diff import TrackDiff, diff_tracks
from trackside.engine.track.geometry import LINE_NAMES
from trackside.engine.track.model import Track

FOLLOW_MS = 150  # the comparison is worked out again this long after an edit
ROLE_IDS = Qt.ItemDataRole.UserRole  # (ids in the document, ids in the other version)


class ComparePanel(QWidget):
    """The differences from another version of the track to the document's."""

    wanted = Signal()  # show me (a comparison started)

    def __init__(
        self,
        doc: TrackDocument,
        scene: TrackScene,
        view: CanvasView,
        prompts,
        earlier_versions: Callable[[str], list[Version]] = lambda _path: [],
        parent: QWidget | None = None,
    ):
        super().__init__(parent)
        self.doc, self.scene, self.view, self.prompts = doc, scene, view, prompts
        self.earlier_versions = earlier_versions
        self.other: Track | None = None
        self.other_name = ""
        self.diff: TrackDiff | None = None
        self.overlay = CompareOverlay()
        scene.addItem(self.overlay)
        self.title = QLabel("Not comparing. File > Compare With… picks another version.")
        self.title.setWordWrap(True)
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        legend = QLabel(
            "  ".join(
                f'<span style="color:{colour.name()}">■</span> {text}' for colour, text in LEGEND
            )
        )
        legend.setWordWrap(True)
        self.tree = QTreeWidget()
        self.tree.setHeaderHidden(True)
        self.tree.itemClicked.connect(self.show_item)
        self.tree.itemActivated.connect(self.show_item)
        self.show_box = QCheckBox("Show on canvas")
        self.show_box.setChecked(True)
        self.show_box.toggled.connect(self._show_overlay)
        self.stop_button = QPushButton("Stop Comparing")
        self.stop_button.clicked.connect(self.stop)
        buttons = QHBoxLayout()
        buttons.addWidget(self.show_box)
        buttons.addStretch(1)
        buttons.addWidget(self.stop_button)
        layout = QVBoxLayout(self)
        for widget in (self.title, self.summary, legend):
            layout.addWidget(widget)
        layout.addWidget(self.tree, 1)
        layout.addLayout(buttons)
        self.act_compare = QAction("Compare &With…", self)
        self.act_compare.setStatusTip(
            "Show the spaces added, removed and moved since another version of the track"
        )
        self.act_compare.triggered.connect(lambda _c=False: self.compare_dialog())
        self.act_compare_saved = QAction("Compare With &Saved Version", self)
        self.act_compare_saved.setStatusTip("Show what changed since the track was last saved")
        self.act_compare_saved.triggered.connect(lambda _c=False: self.compare_saved())
        self.act_compare_earlier = QAction("Compare With &Earlier Save…", self)
        self.act_compare_earlier.setShortcut("Ctrl+Shift+D")
        tip = (
            "Show what changed since one of the last saves (or a newer autosave) of this "
            "track (Ctrl+Shift+D)"
        )
        self.act_compare_earlier.setStatusTip(tip)
        self.act_compare_earlier.setToolTip(tip)
        self.act_compare_earlier.triggered.connect(lambda _c=False: self.compare_earlier())
        self.act_stop = QAction("Stop &Comparing", self)
        self.act_stop.triggered.connect(lambda _c=False: self.stop())
        self.follow = QTimer(self)
        self.follow.setSingleShot(True)
        self.follow.setInterval(FOLLOW_MS)
        self.follow.timeout.connect(self.refresh)
        doc.changed.connect(self._on_changed)
        doc.trackReplaced.connect(self.stop)
        doc.pathChanged.connect(lambda _path: self._update_actions())
        doc.modifiedChanged.connect(lambda _modified: self._update_actions())
        self._update_actions()

    def actions_for_menu(self) -> list[QAction]:
        """The File menu's entries."""
        return [self.act_compare, self.act_compare_saved, self.act_compare_earlier, self.act_stop]

    def _update_actions(self) -> None:
        self.act_compare_saved.setEnabled(bool(self.doc.path) and self.doc.is_modified())
        self.act_compare_earlier.setEnabled(bool(self.doc.path))
        comparing = self.other is not None
        self.act_stop.setEnabled(comparing)
        self.stop_button.setEnabled(comparing)
        self.show_box.setEnabled(comparing)

    # -- starting and stopping ---------------------------------------------------
    def compare_dialog(self) -> bool:
        """Ask for a track file and compare with it."""
        path = self.prompts.compare_path(str(start_folder(self.doc.path, None)))
        return bool(path) and self.compare_file(path)

    def compare_saved(self) -> bool:
        """Compare with the file the document was opened from or last saved to."""
        path = self.doc.path
        return path is not None and self.compare_file(path, "the saved version")

    def compare_earlier(self) -> bool:
        """Ask which earlier save (or newer autosave) of the file to compare with."""
        path = self.doc.path
        if path is None:
            return False
        versions = self.earlier_versions(path)
        if not versions:
            self.prompts.problems(
                "No earlier saves",
                f"No earlier version of {Path(path).name} is kept yet.",
                [
                    "From now on each save keeps the version it replaces "
                    f"(the last {KEEP}), in the application's data folder."
                ],
            )
            return False
        chosen = self.prompts.earlier_save(Path(path).name, [v.describe() for v in versions])
        if chosen is None:
            return False
        version = versions[chosen]
        what = "the autosave" if version.autosave else "the save"
        return self.compare_file(version.path, f"{what} of {version.when()}")

    def compare_file(self, path: str | Path, name: str | None = None) -> bool:
        """Compare with the track in ``path``; a file that cannot be used is reported."""
        result = load_for_editing(path)
        if result.track is None:
            self.prompts.problems(
                "Cannot compare",
                f"{Path(path).name} is no track this editor can read.",
                [str(p) for p in result.problems],
            )
            return False
        self.compare_with(result.track, name or Path(path).name)
        return True

    def compare_with(self, other: Track, name: str) -> None:
        """Show the differences from ``other`` (named ``name``) to the document."""
        self.other = other
        self.other_name = name
        self.show_box.setChecked(True)
        self.refresh()
        self._update_actions()
        self.wanted.emit()

    def stop(self) -> None:
        """Clear the comparison and the overlay."""
        self.other = None
        self.diff = None
        self.follow.stop()
        self.overlay.clear()
        self.overlay.setVisible(False)
        self.tree.clear()
        self.title.setText("Not comparing. File > Compare With… picks another version.")
        self.summary.clear()
        self._update_actions()

    # -- following the document --------------------------------------------------
    def _on_changed(self) -> None:
        if self.other is not None:
            self.follow.start()

    def refresh(self) -> None:
        """Work out the differences again and show them."""
        if self.other is None:
            return
        track = self.doc.snapshot()
        self.diff = diff_tracks(self.other, track)
        self.overlay.show_diff(self.other, track, self.diff)
        self.overlay.setVisible(self.show_box.isChecked())
        self.title.setText(f"Compared with {self.other_name} (its spaces → this track)")
        self.summary.setText(self.diff.summary().capitalize())
        self._fill_tree()

    def _show_overlay(self, on: bool) -> None:
        self.overlay.setVisible(on and self.other is not None)

    def _fill_tree(self) -> None:
        diff = self.diff
        self.tree.clear()
        if diff is None:
            return
        # Each row: its text, the ids it names in the document, those in the other version.
        groups: list[tuple[str, list[tuple[str, list[str], list[str]]]]] = [
            ("added", [(sid, [sid], []) for sid in diff.added]),
            ("removed", [(sid, [], [sid]) for sid in diff.removed]),
            ("moved", [(sid, [sid], [sid]) for sid in diff.moved]),
            ("renamed", [(f"{a} → {b}", [b], [a]) for a, b in diff.renamed]),
            ("changed", [(sid, [sid], []) for sid in diff.changed]),
        ]
        for what, rows in groups:
            if not rows:
                continue
            noun = "space" if len(rows) == 1 else "spaces"
            group = QTreeWidgetItem(self.tree, [f"{len(rows)} {noun} {what}"])
            mine = [i for _text, ids, _old in rows for i in ids]
            old = [i for _text, _ids, ids in rows for i in ids]
            group.setData(0, ROLE_IDS, (mine, old))
            for text, ids, old_ids in rows:
                child = QTreeWidgetItem(group, [text])
                child.setData(0, ROLE_IDS, (ids, old_ids))
            group.setExpanded(len(rows) <= 12)
        others = [f"{LINE_NAMES[k]} moved" for k in diff.lines]
        others += ["start grid changed"] * diff.grid + ["racing line changed"] * diff.racing_line
        others += [f"{name} changed" for name in diff.details]
        for text in others:
            QTreeWidgetItem(self.tree, [text[0].upper() + text[1:]])

    def show_item(self, item: QTreeWidgetItem, _column: int = 0) -> None:
        """Select the row's spaces that are in the document and bring the row's spaces
        (removed ones where they were) into view."""
        data = item.data(0, ROLE_IDS)
        if not data or self.other is None:
            return
        mine, old = data
        indices = self.doc.indices_of(mine)
        self.scene.select_indices(indices)
        rect = QRectF()
        for i in indices:
            rect = rect.united(polygon(self.doc.track.spaces[i].corners).boundingRect())
        before = {sp.id: sp.corners for sp in self.other.spaces}
        for sid in old:
            if sid in before:
                rect = rect.united(polygon(before[sid]).boundingRect())
        if not rect.isNull():
            self.view.centre_on_rect(rect)
