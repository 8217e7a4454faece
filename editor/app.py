"""Application set-up: the QApplication, its look, one main window and the event loop."""

from __future__ import annotations

import contextlib
import os
import sys
import traceback
from pathlib import Path

from PySide6.QtCore import QTimer
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication

from trackside import __version__
from trackside.editor.document.fits import Refused
from trackside.editor.mainwindow import MainWindow
from trackside.editor.widgets.app_icon import app_icon
from trackside.engine.errors import TracksideError

# QSettings land in the platform's usual place under these names
# (~/.config/Trackside/trackside.conf, the registry, or a macOS plist).
ORGANIZATION = "Trackside"
APPLICATION = "trackside"
DESKTOP_FILE = "trackside"  # trackside.desktop: lets the desktop match windows to the entry


def make_app(argv: list[str] | None = None) -> QApplication:
    """The QApplication (created once), with names for settings and a dark Fusion look."""
    existing = QApplication.instance()
    if existing is None:
        app = QApplication(list(argv or sys.argv[:1]))
    elif isinstance(existing, QApplication):
        app = existing
    else:
        raise RuntimeError("a non-GUI QCoreApplication is already running")
    app.setOrganizationName(ORGANIZATION)
    app.setApplicationName(APPLICATION)
    app.setApplicationDisplayName("Trackside")
    app.setApplicationVersion(__version__)
    app.setDesktopFileName(DESKTOP_FILE)
    app.setWindowIcon(app_icon())
    app.setStyle("Fusion")
    app.setPalette(dark_palette())
    return app


def dark_palette() -> QPalette:
    """A calm dark palette, so the board's colours stand out."""
    p = QPalette()
    roles = QPalette.ColorRole
    colours = {
        roles.Window: "#2b2f36",
        roles.WindowText: "#dfe3ea",
        roles.Base: "#1f2329",
        roles.AlternateBase: "#262a31",
        roles.ToolTipBase: "#2b2f36",
        roles.ToolTipText: "#dfe3ea",
        roles.Text: "#dfe3ea",
        roles.Button: "#343942",
        roles.ButtonText: "#dfe3ea",
        roles.BrightText: "#ff6b6b",
        roles.Highlight: "#2f8cff",
        roles.HighlightedText: "#ffffff",
        roles.Link: "#6cb6ff",
        roles.PlaceholderText: "#7d8590",
        roles.Mid: "#3a3f48",
        roles.Dark: "#1b1e23",
        roles.Light: "#4a505b",
    }
    for role, colour in colours.items():
        p.setColor(role, QColor(colour))
    for role in (roles.Text, roles.ButtonText, roles.WindowText):
        p.setColor(QPalette.ColorGroup.Disabled, role, QColor("#6b717c"))
    return p


def install_error_guard(window: MainWindow) -> None:
    """Report a bug in an event handler on one line and in the status bar; keep running.

    Without this PySide prints a traceback for every exception raised in a slot;
    the document is intact (edits are commands), so the user can save and go on.
    """

    def hook(kind, value, tb) -> None:
        if issubclass(kind, Refused):  # an edit the document did not take: nothing changed
            with contextlib.suppress(RuntimeError):
                window.statusBar().showMessage(f"Not done: {value}", 15000)
            return
        if os.environ.get("TRACKSIDE_DEBUG"):
            traceback.print_exception(kind, value, tb)
        else:
            print(
                f"trackside: internal error: {kind.__name__}: {value} "
                "(please report it; set TRACKSIDE_DEBUG=1 to see details)",
                file=sys.stderr,
            )
        with contextlib.suppress(RuntimeError):
            window.statusBar().showMessage(
                f"Internal error: {kind.__name__}: {value} — "
                "your track is unchanged; please save and report it",
                15000,
            )

    sys.excepthook = hook


def start(
    window: MainWindow,
    track: str | Path | None = None,
    refused: TracksideError | None = None,
    new_file: str | Path | None = None,
) -> None:
    """Show ``window`` on ``track``, on a new circuit for ``new_file`` (a file not yet
    on disk, which Save writes), or on the start page; a file the editor was asked to
    open but refused (``refused``) is then told in a dialog over the start page."""
    window.show()
    if track is not None:
        window.open_file(track, ask=False)
    elif new_file is not None:
        window.new_file(new_file)
    window.view.fit_to_view()
    window.view.setFocus()  # tool keys and arrows work at once
    QTimer.singleShot(0, window.check_recovery)
    QTimer.singleShot(50, window.view.fit_to_view)
    if refused is not None:
        QTimer.singleShot(0, lambda: tell_refused(window, refused))


def tell_refused(window: MainWindow, refused: TracksideError) -> None:
    """Say why a file could not be opened, in the window (no terminal may be watching)."""
    name = Path(refused.place.file).name if refused.place.file else "The file"
    window.prompts.problems(
        "Cannot open track",
        f"{name} could not be opened. Start from the start page, or open another file.",
        [str(refused)],
    )


def main(
    argv: list[str] | None = None,
    track: str | Path | None = None,
    refused: TracksideError | None = None,
    new_file: str | Path | None = None,
) -> int:
    """Open the editor on ``track``, on a new circuit for ``new_file``, or on the start
    page (telling of a file ``refused``), and run until it closes."""
    app = make_app(argv)
    window = MainWindow()
    previous_hook = sys.excepthook
    install_error_guard(window)
    start(window, track, refused, new_file)
    try:
        return app.exec()
    finally:
        sys.excepthook = previous_hook
