"""Every modal question the editor asks, in one replaceable object.

The main window asks through ``Prompts``; tests pass an object with the same
methods that answers at once, so no dialog ever blocks a test run.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QInputDialog,
    QMessageBox,
    QWidget,
)

from trackside.editor.document.autosave import AutosaveEntry
from trackside.editor.widgets.boxes import DoubleSpinBox

TRACK_FILTER = "Track files (*.yaml *.yml);;All files (*)"
VARIANT_FILTER = "Variant files (*.yaml *.yml);;All files (*)"
REPORT_FILTER = "Balance reports (*.json);;All files (*)"


class Prompts:
    """Real dialogs, parented to ``parent``."""

    def __init__(self, parent: QWidget | None = None):
        self.parent = parent

    def save_changes(self, name: str, read_only: str = "") -> str:
        """Ask before losing changes: 'save', 'discard' or 'cancel'. A document open
        read-only (``read_only`` says why) can only be saved under another name."""
        text = (
            f"{name} is open read-only here: {read_only}. "
            "Save your changes as a copy before closing?"
            if read_only
            else f"Save the changes to {name} before closing it?"
        )
        box = QMessageBox(
            QMessageBox.Icon.Warning,
            "Unsaved changes",
            text,
            QMessageBox.StandardButton.Save
            | QMessageBox.StandardButton.Discard
            | QMessageBox.StandardButton.Cancel,
            self.parent,
        )
        if read_only:
            box.button(QMessageBox.StandardButton.Save).setText("Save a Copy…")
        box.setDefaultButton(QMessageBox.StandardButton.Save)
        answer = box.exec()
        return {
            QMessageBox.StandardButton.Save: "save",
            QMessageBox.StandardButton.Discard: "discard",
        }.get(QMessageBox.StandardButton(answer), "cancel")

    def leave_game(self, doing: str) -> str:
        """A game in progress would end (``doing`` says how: 'going back to editing'):
        'save' its record first, 'leave' without saving, or 'stay' in the game."""
        box = self._warning(
            "Leave this game?",
            f"Leave this game? It is not over, and {doing} ends it: there is no way back to it.",
            "Save its record first to watch it later (Play ▸ Watch Game Record…) "
            "and go on from where it stands (Play from here).",
        )
        save = box.addButton("Save Record…", QMessageBox.ButtonRole.AcceptRole)
        leave = box.addButton("Leave Without Saving", QMessageBox.ButtonRole.DestructiveRole)
        stay = box.addButton("Stay in the Game", QMessageBox.ButtonRole.RejectRole)
        box.setDefaultButton(save)
        box.setEscapeButton(stay)
        box.exec()
        clicked = box.clickedButton()
        return "save" if clicked is save else "leave" if clicked is leave else "stay"

    def problems(self, title: str, text: str, details: list[str]) -> None:
        """Show why something failed, with every problem listed."""
        box = QMessageBox(
            QMessageBox.Icon.Critical, title, text, QMessageBox.StandardButton.Ok, self.parent
        )
        if details:
            box.setInformativeText(
                "\n".join(details[:12])
                + (
                    f"\n… and {len(details) - 12} more (see the Issues panel)"
                    if len(details) > 12
                    else ""
                )
            )
            if len(details) > 12:  # the whole list only when the summary had to cut it
                box.setDetailedText("\n".join(details))
        box.exec()

    def open_path(self, folder: str) -> str | None:
        """A track file to open, or None."""
        path, _ = QFileDialog.getOpenFileName(self.parent, "Open track", folder, TRACK_FILTER)
        return path or None

    def compare_path(self, folder: str) -> str | None:
        """A track file to compare the open one with, or None."""
        path, _ = QFileDialog.getOpenFileName(
            self.parent, "Compare with another version", folder, TRACK_FILTER
        )
        return path or None

    def save_path(self, suggested: str) -> str | None:
        """Where to save, or None."""
        path, _ = QFileDialog.getSaveFileName(self.parent, "Save track as", suggested, TRACK_FILTER)
        if path and not path.endswith((".yaml", ".yml")):
            path += ".yaml"
        return path or None

    def export_path(self, suggested: str, kind: str) -> str | None:
        """Where to export a picture or print; ``kind`` is 'png', 'svg' or 'pdf'."""
        filters = {
            "png": "PNG image (*.png)",
            "svg": "SVG drawing (*.svg)",
            "pdf": "PDF document (*.pdf)",
        }
        path, _ = QFileDialog.getSaveFileName(
            self.parent, f"Export {kind.upper()}", suggested, filters[kind]
        )
        if path and not path.lower().endswith("." + kind):
            path += "." + kind
        return path or None

    def _warning(self, title: str, text: str, informative: str, details: str = "") -> QMessageBox:
        """A warning box with no buttons yet (each question adds its own)."""
        box = QMessageBox(
            QMessageBox.Icon.Warning, title, text, QMessageBox.StandardButton.NoButton, self.parent
        )
        box.setInformativeText(informative)
        if details:
            box.setDetailedText(details)
        return box

    def file_in_use(self, name: str, owner: str) -> str:
        """The file is open elsewhere: 'read-only', 'open' it anyway, or 'cancel'."""
        box = self._warning(
            "File in use",
            f"{name} is open in {owner}.",
            "Open it read-only: Save then asks for another file. Or open it anyway: "
            "you can edit it here, but this window cannot save to it while the other "
            "one has it open (Save As writes a copy; Save works once the other window "
            "closes the file).",
        )
        read_only = box.addButton("Open Read-Only", QMessageBox.ButtonRole.AcceptRole)
        anyway = box.addButton("Open Anyway", QMessageBox.ButtonRole.DestructiveRole)
        box.addButton(QMessageBox.StandardButton.Cancel)
        box.setDefaultButton(read_only)
        box.exec()
        clicked = box.clickedButton()
        return "read-only" if clicked is read_only else "open" if clicked is anyway else "cancel"

    def changed_on_disk(self, name: str, difference: str, by: str = "another program") -> str:
        """The file changed on disk (``by`` whom, as far as known) under unsaved edits:
        'reload' or 'keep'."""
        box = self._warning(
            "File changed on disk",
            f"{name} was changed on disk by {by}, and this window has unsaved changes.",
            "Reload it (your unsaved changes are lost) or keep your version "
            "(saving it then replaces what is on disk; a later change is asked about "
            "again). Show Details compares the two.",
            difference,
        )
        keep = box.addButton("Keep Mine", QMessageBox.ButtonRole.RejectRole)
        reload = box.addButton("Reload", QMessageBox.ButtonRole.DestructiveRole)
        box.setDefaultButton(keep)
        box.exec()
        return "reload" if box.clickedButton() is reload else "keep"

    def overwrite_changed(self, name: str, difference: str) -> str:
        """Saving over a file another program changed: 'overwrite' or 'cancel'."""
        box = self._warning(
            "File changed on disk",
            f"{name} was changed by another program since you opened it. Overwrite it?",
            "Show Details compares the file on disk with yours.",
            difference,
        )
        overwrite = box.addButton("Overwrite", QMessageBox.ButtonRole.DestructiveRole)
        box.addButton(QMessageBox.StandardButton.Cancel)
        box.exec()
        return "overwrite" if box.clickedButton() is overwrite else "cancel"

    def file_moved(self, name: str, old: str, new: str) -> str:
        """The file's folder was renamed or moved: 'follow' it there, or 'stay'."""
        box = self._warning(
            "File moved",
            f"The folder of {name} was renamed or moved: the file is now {new}.",
            f"Follow it there (Save writes {new}), or stay with {old} "
            "(Save writes a new file there, if its folder still exists).",
        )
        follow = box.addButton("Follow the File", QMessageBox.ButtonRole.AcceptRole)
        box.addButton("Stay", QMessageBox.ButtonRole.RejectRole)
        box.setDefaultButton(follow)
        box.exec()
        return "follow" if box.clickedButton() is follow else "stay"

    def link_retargeted(self, link: str, old: str, new: str) -> str:
        """A link the file was opened through now leads to another file: 'open' that
        one, or 'keep' editing the file it led to."""
        box = self._warning(
            "Link changed",
            f"{link} now leads to {new}; it led to {old} when you opened it.",
            f"Keep editing {Path(old).name} (Save writes {old}), or open {Path(new).name} "
            "instead (your unsaved changes here are lost).",
        )
        keep = box.addButton(f"Keep Editing {Path(old).name}", QMessageBox.ButtonRole.AcceptRole)
        opened = box.addButton(f"Open {Path(new).name}", QMessageBox.ButtonRole.DestructiveRole)
        box.setDefaultButton(keep)
        box.exec()
        return "open" if box.clickedButton() is opened else "keep"

    def recovery(self, entries: list[AutosaveEntry]) -> str:
        """After a crash: 'recover' the newest autosave, 'discard' them, or 'later'."""
        box = QMessageBox(
            QMessageBox.Icon.Question,
            "Recover unsaved work",
            "Trackside did not close properly last time. Recover the autosaved track?",
            QMessageBox.StandardButton.NoButton,
            self.parent,
        )
        box.setInformativeText("\n".join(e.describe() for e in entries[:5]))
        recover = box.addButton("Recover", QMessageBox.ButtonRole.AcceptRole)
        discard = box.addButton("Discard", QMessageBox.ButtonRole.DestructiveRole)
        box.addButton("Not now", QMessageBox.ButtonRole.RejectRole)
        box.setDefaultButton(recover)
        box.exec()
        clicked = box.clickedButton()
        return "recover" if clicked is recover else "discard" if clicked is discard else "later"

    def print_setup(self, printer, title: str) -> bool:
        """The system print dialog for ``printer`` (a QPrinter): True to print."""
        from PySide6.QtPrintSupport import QPrintDialog

        dialog = QPrintDialog(printer, self.parent)
        dialog.setWindowTitle(title)
        return dialog.exec() == QPrintDialog.DialogCode.Accepted

    def rotate_angle(self) -> float | None:
        """Degrees to turn the selection, counter-clockwise as seen; None to cancel."""
        value, ok = QInputDialog.getDouble(
            self.parent,
            "Rotate",
            "Angle in degrees (positive turns anticlockwise, negative clockwise):",
            15.0,
            -360.0,
            360.0,
            2,
        )
        return value if ok else None

    def move_offset(self) -> tuple[float, float] | None:
        """Millimetres to move the selection by (right, down); None to cancel."""
        dialog = QDialog(self.parent)
        dialog.setWindowTitle("Move by")
        form = QFormLayout(dialog)
        boxes = []
        for label in ("Right (mm):", "Down (mm):"):
            box = DoubleSpinBox()
            box.setRange(-10000.0, 10000.0)
            box.setDecimals(2)
            box.setSuffix(" mm")
            form.addRow(label, box)
            boxes.append(box)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(dialog.accept)
        buttons.rejected.connect(dialog.reject)
        form.addRow(buttons)
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return None
        return boxes[0].value(), boxes[1].value()

    def image_path(self, folder: str) -> str | None:
        """A picture to put under the spaces, or None."""
        path, _ = QFileDialog.getOpenFileName(
            self.parent,
            "Import background",
            folder,
            "Pictures and PDFs (*.png *.jpg *.jpeg *.pdf);;All files (*)",
        )
        return path or None

    def pdf_page(self, name: str, pages: list[str]) -> int | None:
        """Which page of a PDF of several to show (1 for the first); None to cancel."""
        index = self._pick("Import background", f"{name} has {len(pages)} pages. Show:", pages)
        return None if index is None else index + 1

    def earlier_save(self, name: str, versions: list[str]) -> int | None:
        """Which of the listed earlier versions (newest first) to compare with; None to cancel."""
        return self._pick("Compare with an earlier save", f"Earlier versions of {name}:", versions)

    def compare_variant(self, current: str, bundled: list[str]) -> str | None:
        """The variant to play the same games under as ``current``: a name from
        ``bundled`` or a variant file's path; None to cancel."""
        other = "Another variant file…"
        index = self._pick(
            "Compare with variant", f"Play the games of {current} again under:", [*bundled, other]
        )
        if index is None or index < len(bundled):
            return None if index is None else bundled[index]
        path, _ = QFileDialog.getOpenFileName(
            self.parent, "Compare with a variant file", "", VARIANT_FILTER
        )
        return path or None

    def report_path(self, folder: str) -> str | None:
        """A saved balance report (``trackside simulate --report``) to compare with."""
        path, _ = QFileDialog.getOpenFileName(
            self.parent, "Compare with a saved report", folder, REPORT_FILTER
        )
        return path or None

    def _pick(self, title: str, label: str, items: list[str]) -> int | None:
        """The index of the item chosen from a list (the first offered), or None."""
        chosen, ok = QInputDialog.getItem(self.parent, title, label, items, 0, False)
        return items.index(chosen) if ok and chosen in items else None

    def opacity(self, current: float) -> float | None:
        """How strongly the background shows, 0 to 1; None to cancel."""
        value, ok = QInputDialog.getInt(
            self.parent, "Background opacity", "Opacity (%):", round(current * 100), 0, 100, 5
        )
        return value / 100 if ok else None

    def distance(self, measured: float) -> float | None:
        """The true distance in mm between two points picked on the background."""
        value, ok = QInputDialog.getDouble(
            self.parent,
            "Scale background",
            f"The points are {measured:.1f} mm apart now. Their true distance (mm):",
            measured,
            0.0,  # 0 is let through, so that the panel can say why it is refused
            100000.0,
            2,
        )
        return value if ok else None
