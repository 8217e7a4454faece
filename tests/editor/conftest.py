"""Fixtures for the editor tests: a main window whose dialogs answer at once."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QSettings
from tracks_for_tests import stadium_track

from trackside.engine.track.model import save_track


class FakePrompts:
    """Answers every question the editor asks, and records what it was asked."""

    def __init__(self):
        self.save_answer = "discard"
        self.open_answer: str | None = None
        self.save_as_answer: str | None = None
        self.recovery_answer = "recover"
        self.export_answer: str | None = None
        self.in_use_answer = "read-only"
        self.disk_answer = "keep"
        self.moved_answer = "follow"
        self.link_answer = "keep"
        self.overwrite_answer = "cancel"
        self.leave_answer = "leave"  # a game in progress is left without saving
        self.print_to: str | None = None  # print_setup answers yes, printing to this PDF
        self.print_suggested: list[str] = []  # the file each print dialog offered
        self.angle_answer: float | None = None
        self.offset_answer: tuple[float, float] | None = None
        self.compare_answer: str | None = None
        self.image_answer: str | None = None
        self.opacity_answer: float | None = None
        self.distance_answer: float | None = None
        self.page_answer: int | None = None
        self.earlier_answer: int | None = None
        self.variant_answer: str | None = None
        self.report_answer: str | None = None
        self.asked: list[tuple] = []

    def save_changes(self, name, read_only=""):
        self.asked.append(("save_changes", name) + (("read-only",) if read_only else ()))
        return self.save_answer

    def leave_game(self, doing):
        self.asked.append(("leave_game", doing))
        return self.leave_answer

    def problems(self, title, text, details):
        self.asked.append(("problems", title, text, list(details)))

    def open_path(self, folder):
        self.asked.append(("open_path", folder))
        return self.open_answer

    def save_path(self, suggested):
        self.asked.append(("save_path", suggested))
        return self.save_as_answer

    def export_path(self, suggested, kind):
        self.asked.append(("export_path", suggested, kind))
        return self.export_answer

    def recovery(self, entries):
        self.asked.append(("recovery", [e.describe() for e in entries]))
        return self.recovery_answer

    def file_in_use(self, name, owner):
        self.asked.append(("file_in_use", name, owner))
        return self.in_use_answer

    def changed_on_disk(self, name, difference, by="another program"):
        self.asked.append(("changed_on_disk", name, difference, by))
        return self.disk_answer

    def file_moved(self, name, old, new):
        self.asked.append(("file_moved", name, old, new))
        return self.moved_answer

    def link_retargeted(self, link, old, new):
        self.asked.append(("link_retargeted", link, old, new))
        return self.link_answer

    def overwrite_changed(self, name, difference):
        self.asked.append(("overwrite_changed", name, difference))
        return self.overwrite_answer

    def print_setup(self, printer, title):
        self.asked.append(("print_setup", title))
        self.print_suggested.append(printer.outputFileName())
        if self.print_to is None:
            return False
        from PySide6.QtPrintSupport import QPrinter

        printer.setOutputFormat(QPrinter.OutputFormat.PdfFormat)
        printer.setOutputFileName(self.print_to)
        return True

    def compare_path(self, folder):
        self.asked.append(("compare_path", folder))
        return self.compare_answer

    def image_path(self, folder):
        self.asked.append(("image_path", folder))
        return self.image_answer

    def pdf_page(self, name, pages):
        self.asked.append(("pdf_page", name, list(pages)))
        return self.page_answer

    def earlier_save(self, name, versions):
        self.asked.append(("earlier_save", name, list(versions)))
        return self.earlier_answer

    def compare_variant(self, current, bundled):
        self.asked.append(("compare_variant", current, list(bundled)))
        return self.variant_answer

    def report_path(self, folder):
        self.asked.append(("report_path", folder))
        return self.report_answer

    def opacity(self, current):
        self.asked.append(("opacity", current))
        return self.opacity_answer

    def distance(self, measured):
        self.asked.append(("distance", measured))
        return self.distance_answer

    def rotate_angle(self):
        self.asked.append(("rotate_angle",))
        return self.angle_answer

    def move_offset(self):
        self.asked.append(("move_offset",))
        return self.offset_answer

    def titles(self, kind="problems"):
        return [a for a in self.asked if a[0] == kind]


@pytest.fixture
def autosave_dir(tmp_path):
    return tmp_path / "autosave"


@pytest.fixture
def make_window(qtbot, tmp_path, autosave_dir):
    """Build main windows that share one settings file and autosave folder."""
    from trackside.editor.app import make_app
    from trackside.editor.mainwindow import MainWindow

    make_app()
    made = []

    def make(prompts=None):
        prompts = prompts or FakePrompts()
        settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
        w = MainWindow(prompts=prompts, settings=settings, autosave_dir=autosave_dir)
        qtbot.addWidget(w)
        w.resize(1200, 800)
        w.show()
        qtbot.waitExposed(w)
        made.append(w)
        return w

    yield make
    for w in made:
        w.prompts.save_answer = "discard"
        w.issues.wait()
        w.autosave.discard()


@pytest.fixture
def window(make_window):
    return make_window()


@pytest.fixture
def stadium_file(tmp_path):
    path = tmp_path / "stadium.yaml"
    save_track(stadium_track(), path)
    return path
