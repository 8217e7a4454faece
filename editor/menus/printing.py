"""File > Print…, Print Calibration Sheet… and Export Calibration Sheet (PDF)….

Print goes through the system print dialog (``prompts.print_setup``) and prints
the board at true scale, tiled over the chosen paper with overlap and cut marks,
as the tiled PDF export does. The calibration sheet is one page with a 100 mm
ruler and one space at its printed size: print it first to check the printer's
scale. The main window adds ``actions`` to its File menu.
"""

from __future__ import annotations

from pathlib import Path
from typing import Protocol, runtime_checkable

from PySide6.QtCore import QObject, QSettings
from PySide6.QtGui import QAction, QKeySequence, QPageSize
from PySide6.QtPrintSupport import QPrinter
from PySide6.QtWidgets import QMainWindow

from trackside.editor.canvas.printing import (
    calibration_pdf,
    print_board,
    print_calibration,
    print_file,
)
from trackside.editor.canvas.scene import TrackScene
from trackside.editor.document.failed_writes import failure_line
from trackside.editor.document.files import suggested_stem, unused_path
from trackside.editor.document.track_document import TrackDocument
from trackside.editor.menus.actions import make_action
from trackside.editor.panels.export import GRASS_TIP, NOTHING_EXPORTED, local_paper
from trackside.editor.panels.prompts import Prompts
from trackside.engine.errors import TracksideError
from trackside.engine.text import plural
from trackside.engine.writer import refuse_replacing_inputs

PAGE_IDS = {"a4": QPageSize.PageSizeId.A4, "letter": QPageSize.PageSizeId.Letter}
GRASS_KEY = "print/grass"


def _flag(value: object) -> bool:
    """A yes or no kept in the settings (an INI file gives it back as text)."""
    return str(value).lower() not in ("false", "0", "")


@runtime_checkable
class PrintHost(Protocol):
    """What printing uses of the editor's main window besides QMainWindow itself."""

    doc: TrackDocument
    scene: TrackScene
    prompts: Prompts
    settings: QSettings

    def start_folder(self) -> Path: ...


class PrintMenu(QObject):
    """The print actions of one main window (its document, prompts and status bar)."""

    def __init__(self, window: QMainWindow):
        if not isinstance(window, PrintHost):
            raise TypeError("printing needs the editor's main window (doc, scene, prompts)")
        super().__init__(window)
        self.window = window
        self._printer: QPrinter | None = None  # kept: the paper chosen stays chosen
        self.act_print = make_action(
            self.window,
            "&Print…",
            self.print_board,
            QKeySequence(QKeySequence.StandardKey.Print),
            "Print the board at true scale on your printer, tiled over its pages with "
            "overlap and cut marks",
            named_tip=True,
        )
        self.act_calibration = make_action(
            self.window,
            "Print &Calibration Sheet…",
            self.print_calibration,
            QKeySequence("Ctrl+Shift+P"),
            "One page with a 100 mm ruler and one space at size: print it first to check "
            "that your printer prints at 100 %",
            named_tip=True,
        )
        self.act_calibration_pdf = make_action(
            self.window,
            "Export Calibration Sheet (PD&F)…",
            self.export_calibration,
            None,
            "The calibration sheet as a one-page PDF",
            named_tip=True,
        )

        self.act_grass = QAction("Print the &Grass", self.window)
        self.act_grass.setCheckable(True)
        self.act_grass.setChecked(_flag(window.settings.value(GRASS_KEY, True)))
        self.act_grass.setStatusTip(GRASS_TIP)
        self.act_grass.setToolTip(f"Print the grass\n{GRASS_TIP}")
        self.act_grass.toggled.connect(lambda on: window.settings.setValue(GRASS_KEY, on))

    @property
    def actions(self) -> list[QAction]:
        return [self.act_print, self.act_calibration, self.act_calibration_pdf, self.act_grass]

    @property
    def grass(self) -> bool:
        """Whether prints and exports show the green grass round the track."""
        return self.act_grass.isChecked()

    def printer(self, output: str = "board") -> QPrinter:
        """The printer, set up once with the local paper; named for the open track, and,
        when it prints to a file, offering a new file ``<track>-<output>.pdf`` beside
        the track (or in the circuits folder) rather than the last one written."""
        if self._printer is None:
            self._printer = QPrinter(QPrinter.PrinterMode.HighResolution)
            self._printer.setPageSize(QPageSize(PAGE_IDS[local_paper()]))
        printer = self._printer
        doc = self.window.doc
        printer.setDocName(doc.track.name or "Trackside")
        if printer.outputFormat() == QPrinter.OutputFormat.PdfFormat:
            printer.setOutputFileName(str(self.suggested_file(output)))
        return printer

    def suggested_file(self, output: str) -> Path:
        """A file for ``output`` named for the track, in its folder, not used yet."""
        doc = self.window.doc
        stem = suggested_stem(doc.path, doc.track.name, self.window.start_folder())
        return unused_path(stem.with_name(f"{stem.name}-{output}.pdf"))

    def _say(self, text: str) -> None:
        self.window.statusBar().showMessage(text, 8000)

    def _failed(self, exc: Exception, nothing: str = "Nothing was printed") -> None:
        """Say why in a box; the status bar says nothing was written (not what an
        earlier print or export wrote)."""
        self.window.prompts.problems("Cannot print", failure_line(exc), [])
        self._say(nothing)

    def _guard(self, output: str | Path | None) -> None:
        """Refuse the open track's own file as the file printed to."""
        refuse_replacing_inputs(
            [("the printed file", output)], [("the open track", self.window.doc.path)]
        )

    def _sent(self, printer: QPrinter, what: str) -> str:
        """'Sent 4 pages to Office', or 'Wrote 4 pages to board.pdf' for a print to file."""
        target = print_file(printer)
        if target is not None:
            return f"Wrote {what} to {target}"
        return f"Sent {what} to {printer.printerName() or 'the printer'}"

    def print_board(self) -> bool:
        """File > Print…: the system dialog, then the board at true scale."""
        printer = self.printer()
        if not self.window.prompts.print_setup(printer, "Print the board at true scale"):
            return False
        try:
            self._guard(print_file(printer))
            pages = print_board(
                self.window.doc.snapshot(),
                printer,
                show_racing_line=self.window.scene.racing_line.isVisible(),
                grass=self.grass,
            )
        except TracksideError as exc:
            self._failed(exc)
            return False
        self._say(
            f"{self._sent(printer, plural(pages, 'page'))}: "
            "print at 100 %; trim along the dashed lines"
        )
        return True

    def print_calibration(self) -> bool:
        """File > Print Calibration Sheet…"""
        printer = self.printer("print-check")
        if not self.window.prompts.print_setup(printer, "Print the calibration sheet"):
            return False
        try:
            self._guard(print_file(printer))
            print_calibration(self.window.doc.snapshot(), printer)
        except TracksideError as exc:
            self._failed(exc)
            return False
        self._say(
            f"{self._sent(printer, 'the calibration sheet')}: its ruler must measure exactly 100 mm"
        )
        return True

    def export_calibration(self) -> bool:
        """File > Export Calibration Sheet (PDF)…"""
        doc = self.window.doc
        stem = suggested_stem(doc.path, doc.track.name, self.window.start_folder())
        path = self.window.prompts.export_path(f"{stem}-print-check.pdf", "pdf")
        if not path:
            return False
        try:
            self._guard(path)
            calibration_pdf(doc.snapshot(), path, local_paper())
        except (TracksideError, OSError) as exc:
            self._failed(exc, NOTHING_EXPORTED)
            return False
        self._say(f"Exported {Path(path).name}: print it at 100 %; the ruler must be 100 mm")
        return True
