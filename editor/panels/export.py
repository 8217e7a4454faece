"""File > Export > Export…: one dialog for PNG, SVG and PDF through ``canvas.render.render``,
and ``export_board``, which the dialog and the Export menu's entries use.

A PDF is printed at true scale, either on one page the size of the board or
tiled over A4, Letter or A3 pages; a PNG takes a resolution in DPI. Errors
(a bad path, a full disk, the track's own file as the output, a board too large
for its pages) are shown through the window's prompts, never raised.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from trackside.editor.canvas.render import DEFAULT_DPI, Rendered, render
from trackside.editor.document.failed_writes import failure_line, shown_path
from trackside.editor.document.files import suggested_stem
from trackside.editor.widgets.boxes import ComboBox, SpinBox
from trackside.engine.errors import TracksideError
from trackside.engine.writer import refuse_replacing_inputs

if TYPE_CHECKING:
    from collections.abc import Callable

    from trackside.editor.document.track_document import TrackDocument
    from trackside.editor.panels.prompts import Prompts

# The status bar after an export that wrote nothing (its box says why): an earlier
# export's "Exported …" must not stay there as if this one had worked.
NOTHING_EXPORTED = "Nothing was exported"
FORMATS = (("PNG picture", "png"), ("SVG drawing", "svg"), ("PDF print at true scale", "pdf"))
PAPERS = (
    ("Board size (one page)", None),
    ("A4 pages", "a4"),
    ("Letter pages", "letter"),
    ("A3 pages", "a3"),
)


GRASS_TIP = (
    "Print and export the board on its green striped grass; uncheck it to print the "
    "track alone on white paper and save ink (true scale, lines and cut marks unchanged)"
)


class ExportDialog(QDialog):
    """Pick format, file, paper, DPI and what is printed, then ``export()``."""

    def __init__(
        self,
        parent: QWidget,
        doc: TrackDocument,
        prompts: Prompts,
        notify: Callable[[str], None],
        paper: str | None = None,
        racing_line: bool = False,
        grass: bool = True,
    ) -> None:
        super().__init__(parent)
        self.doc = doc
        self.prompts = prompts
        self.notify = notify
        self.setWindowTitle("Export" if paper is None else "Print (PDF at true scale)")
        self.setMinimumWidth(520)
        self.result_: Rendered | None = None
        self.format = ComboBox()
        for text, key in FORMATS:
            self.format.addItem(text, key)
        self.format.setCurrentIndex(2)
        self.path = QLineEdit(self._suggested("pdf"))
        browse = QPushButton("Browse…")
        browse.clicked.connect(self._browse)
        where = QHBoxLayout()
        where.addWidget(self.path, 1)
        where.addWidget(browse)
        self.paper = ComboBox()
        for text, paper_key in PAPERS:
            self.paper.addItem(text, paper_key)
        self.paper.setCurrentIndex(max(0, self.paper.findData(paper)))
        self.dpi = SpinBox()
        self.dpi.setRange(10, 2400)
        self.dpi.setValue(DEFAULT_DPI)
        self.dpi.setSuffix(" dpi")
        self.show_ids = QCheckBox("Print space ids")
        self.show_ids.setChecked(True)
        self.show_racing = QCheckBox("Print the racing line")
        self.show_racing.setChecked(racing_line)
        self.show_grass = QCheckBox("Print the grass round the track")
        self.show_grass.setToolTip(GRASS_TIP)
        self.show_grass.setChecked(grass)
        form = QFormLayout()
        form.addRow("Format", self.format)
        form.addRow("File", where)
        form.addRow("Paper", self.paper)
        form.addRow("Resolution", self.dpi)
        form.addRow(self.show_ids)
        form.addRow(self.show_racing)
        form.addRow(self.show_grass)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.export_button = buttons.addButton("Export", QDialogButtonBox.ButtonRole.AcceptRole)
        buttons.accepted.connect(self._on_export)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(buttons)
        self.format.currentIndexChanged.connect(self._on_format)
        self._on_format()

    def kind(self) -> str:
        """'png', 'svg' or 'pdf'."""
        return self.format.currentData()

    def _suggested(self, kind: str) -> str:
        return f"{suggested_stem(self.doc.path, self.doc.track.name)}.{kind}"

    def _on_format(self) -> None:
        kind = self.kind()
        self.paper.setEnabled(kind == "pdf")
        self.dpi.setEnabled(kind == "png")
        text = self.path.text().strip()
        if text:
            self.path.setText(str(Path(text).with_suffix("." + kind)))

    def _browse(self) -> None:
        chosen = self.prompts.export_path(
            self.path.text() or self._suggested(self.kind()), self.kind()
        )
        if chosen:
            self.path.setText(chosen)

    def _on_export(self) -> None:
        if self.export() is not None:
            self.accept()

    def export(self) -> Rendered | None:
        """Write the file; on failure show why and return None."""
        text = self.path.text().strip()
        if not text:
            self.prompts.problems("Cannot export", "Choose a file to export to.", [])
            self.notify(NOTHING_EXPORTED)
            return None
        kind = self.kind()
        path = Path(text)
        if path.suffix.lower() != "." + kind:
            path = path.with_suffix("." + kind)
        paper = self.paper.currentData() if kind == "pdf" else None
        done = export_board(
            self.doc,
            path,
            paper,
            self.prompts,
            dpi=self.dpi.value(),
            show_ids=self.show_ids.isChecked(),
            show_racing_line=self.show_racing.isChecked(),
            grass=self.show_grass.isChecked(),
        )
        if done is None:
            self.notify(NOTHING_EXPORTED)
            return None
        pages = f", {done.pages} pages" if done.pages > 1 else ""
        self.notify(f"Exported {done.path}{pages}")
        self.result_ = done
        return done


def export_board(
    doc: TrackDocument,
    path: str | Path,
    paper: str | None,
    prompts: Prompts,
    **options: Any,
) -> Rendered | None:
    """Draw the open track into ``path`` (PNG, SVG or PDF by its suffix; ``options``
    as ``render`` takes them); None, with the reason shown, when it cannot be written.
    The track's own file is never the output."""
    try:
        refuse_replacing_inputs([("the export", path)], [("the open track", doc.path)])
        return render(doc.snapshot(), path, paper, **options)
    except (TracksideError, OSError) as exc:
        prompts.problems("Cannot export", failure_line(exc, path), [])
    except Exception as exc:  # a half-drawn track must never take the editor down
        prompts.problems("Cannot export", f"{shown_path(path)}: {type(exc).__name__}: {exc}", [])
    return None


def local_paper() -> str:
    """The paper people print on here: Letter in the US and Canada, else A4."""
    from PySide6.QtCore import QLocale

    return (
        "letter"
        if QLocale().territory() in (QLocale.Country.UnitedStates, QLocale.Country.Canada)
        else "a4"
    )
