"""The first steps: a start page over the empty canvas (New from Template, a bundled
circuit, a blank page, the tour), File > New from Template, and a short tour of the
tools (Help > Tour of the Tools).

The start page shows while the document is a new, empty circuit (no spaces, no
file) and hides as soon as it has spaces or the designer picks "Blank" or a
drawing tool. The tour is a small window of a few pages; it does not block.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, runtime_checkable

from PySide6.QtCore import QEvent, QObject, QRect, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QDialog,
    QFrame,
    QHBoxLayout,
    QLabel,
    QMainWindow,
    QMenu,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from trackside.editor.canvas.scene import TrackScene
from trackside.editor.canvas.view import CanvasView
from trackside.editor.document.track_document import TrackDocument
from trackside.editor.tools import TOOLS, Tool
from trackside.editor.tools.icons import tool_icon
from trackside.engine.resources import bundled_tracks
from trackside.engine.text import title_from_file
from trackside.engine.track.model import Track
from trackside.engine.track.templates import TEMPLATES


@runtime_checkable
class FirstRunHost(Protocol):
    """What the first steps use of the editor's main window besides QMainWindow."""

    doc: TrackDocument
    scene: TrackScene
    view: CanvasView

    def new_from(self, path: str | Path) -> bool: ...
    def new_from_track(self, track: Track) -> bool: ...


class StartPage(QFrame):
    """The card over an empty canvas: what to start from."""

    def __init__(self, parent: QWidget):
        super().__init__(parent)
        self.setObjectName("startPage")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setAutoFillBackground(True)
        self.setStyleSheet(
            "#startPage { background: #1c1f24; border: 1px solid #555; border-radius: 8px; }"
        )
        layout = QVBoxLayout(self)
        layout.setContentsMargins(24, 20, 24, 20)
        title = QLabel("<b style='font-size:16pt'>Start a circuit</b>")
        layout.addWidget(title)
        intro = QLabel(
            "Begin from a template or a bundled circuit and change it, or start from a "
            "blank page and lay out lanes with the Lanes tool (L)."
        )
        intro.setWordWrap(True)
        layout.addWidget(intro)
        self.buttons: dict[str, QPushButton] = {}
        layout.addWidget(QLabel("<b>Templates</b>"))
        layout.addLayout(self._row([(t.name, t.description) for t in TEMPLATES]))
        circuits = [
            (title_from_file(p), f"a copy of the bundled {p.stem}") for p in bundled_tracks()
        ]
        if circuits:
            layout.addWidget(QLabel("<b>Bundled circuits</b>"))
            layout.addLayout(self._row(circuits))
        layout.addSpacing(6)
        layout.addLayout(
            self._row(
                [
                    ("Blank", "an empty page: draw with the Lanes (L) or Space (P) tool"),
                    ("Take the Tour", "a few pages on the tools and the steps to a printed board"),
                ]
            )
        )
        self.setMaximumWidth(640)

    def _row(self, entries: list[tuple[str, str]]) -> QHBoxLayout:
        row = QHBoxLayout()
        for name, tip in entries:
            button = QPushButton(name)
            button.setToolTip(f"{name}: {tip}")
            button.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # the keys stay on the canvas
            row.addWidget(button)
            self.buttons[name] = button
        row.addStretch(1)
        return row

    def place(self, area: QRect) -> None:
        """Centre the card across ``area`` (the canvas, in its parent's pixels), a third
        of the way down."""
        self.adjustSize()
        size = self.sizeHint().boundedTo(area.size())
        self.resize(size)
        self.move(
            area.x() + (area.width() - size.width()) // 2,
            area.y() + (area.height() - size.height()) // 3,
        )


@dataclass(frozen=True)
class TourPage:
    """One page of the tour: a title, rich text and, for a tool, its icon's name."""

    title: str
    text: str
    tool: type[Tool] | None = None


def tool_page(tool: type[Tool]) -> TourPage:
    """A tool's page, read from the tool itself: what it does, its key, how, one tip."""
    text = (
        f"<p>{tool.purpose}</p>"
        f"<p><b>Key:</b> {tool.shortcut} (or click {tool.label} on the left bar)</p>"
        f"<p><b>How:</b> {tool.hint}.</p>"
        f"<p><b>Tip:</b> {tool.tip}</p>"
    )
    return TourPage(f"{tool.label} ({tool.shortcut})", text, tool)


def tour_pages() -> list[TourPage]:
    """The pages of the tour: the canvas, one page per tool (from ``TOOLS``), then the
    lap start and lines, checking a circuit, and printing and playing it."""
    return [
        TourPage(
            "The canvas",
            "<p>The board is drawn in millimetres, as printed. Zoom with the wheel, pan with "
            "the middle button or Space + drag; Ctrl+0 shows the whole circuit, Ctrl+1 its "
            "true size.</p><p>Points snap to corners, edges and a 5 mm grid (hold Ctrl to "
            "place freely). Every edit can be undone (Ctrl+Z).</p>"
            "<p><b>Tip:</b> the next pages take the tools one by one, in the order of the "
            "bar on the left; each tool has a one-letter key.</p>",
        ),
        *(tool_page(tool) for tool in TOOLS),
        TourPage(
            "The lap start and the lines",
            "<p>The <b>lap start</b> (the green bar) is where a lap of a closed circuit "
            "begins and ends. Drag it, or right-click a space and choose Set Lap Start Here; "
            "the grid goes just after it.</p><p>With the Betting line (B) or Finish line (F) "
            "tool, click a space: the line goes across the track at its nearest edge.</p>"
            "<p><b>Tip:</b> right-click a space for every line at once: each entry shows "
            "its key.</p>",
        ),
        TourPage(
            "Check it",
            "<p>The <b>Issues</b> list says what is wrong and how to fix it; click an issue "
            "to see it. The Moves tool (M) lights up where a car may go; View > Show Forward "
            "Moves draws every step.</p><p>Tools > Simulate (Ctrl+Shift+B) plays bot games "
            "and the Balance panel says whether the circuit is fair.</p>"
            "<p><b>Tip:</b> click a hint in the Balance panel to see the space it names.</p>",
        ),
        TourPage(
            "Print and play",
            "<p>Print the calibration sheet first (File > Print Calibration Sheet…): its "
            "ruler must measure 100 mm. Then File > Print… (Ctrl+P) prints the board at "
            "true scale over as many pages as it needs.</p><p>Play > New Game (F5) plays it "
            "on screen with people and bots.</p>"
            "<p><b>Tip:</b> print at 100 % (actual size), never fit to page.</p>",
        ),
    ]


class TourDialog(QDialog):
    """A few pages on the tools; Back, Next and Close. It does not block the editor."""

    PICTURE = 64  # the tool's icon on its page, in pixels

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle("Tour of the Tools")
        self.pages = tour_pages()
        self.index = 0
        self.title = QLabel()
        self.picture = QLabel()
        self.picture.setFixedSize(self.PICTURE, self.PICTURE)
        self.picture.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignHCenter)
        self.text = QLabel()
        self.text.setWordWrap(True)
        self.text.setTextFormat(Qt.TextFormat.RichText)
        self.text.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.counter = QLabel()
        self.back = QPushButton("Back")
        self.next = QPushButton("Next")
        close = QPushButton("Close")
        self.back.clicked.connect(lambda: self.show_page(self.index - 1))
        self.next.clicked.connect(lambda: self.show_page(self.index + 1))
        close.clicked.connect(self.close)
        buttons = QHBoxLayout()
        buttons.addWidget(self.counter)
        buttons.addStretch(1)
        for button in (self.back, self.next, close):
            buttons.addWidget(button)
        body = QHBoxLayout()
        body.addWidget(self.picture, 0, Qt.AlignmentFlag.AlignTop)
        body.addWidget(self.text, 1)
        layout = QVBoxLayout(self)
        layout.addWidget(self.title)
        layout.addLayout(body, 1)
        layout.addLayout(buttons)
        self.resize(620, 330)
        self.show_page(0)

    def show_page(self, index: int) -> None:
        """Show page ``index`` (0-based), kept within the tour."""
        self.index = max(0, min(index, len(self.pages) - 1))
        page = self.pages[self.index]
        self.title.setText(f"<b style='font-size:14pt'>{page.title}</b>")
        self.text.setText(page.text)
        tool = page.tool
        self.picture.setVisible(tool is not None)
        if tool is not None:
            icon = tool_icon(tool.name, tool.icon)
            self.picture.setPixmap(icon.pixmap(self.PICTURE, self.PICTURE))
        self.counter.setText(f"{self.index + 1} of {len(self.pages)}")
        self.back.setEnabled(self.index > 0)
        self.next.setEnabled(self.index < len(self.pages) - 1)


class FirstRun(QObject):
    """The start page, the New from Template menu and the tour of one main window."""

    def __init__(self, window: QMainWindow):
        if not isinstance(window, FirstRunHost):
            raise TypeError("the first steps need the editor's main window (doc, scene, view)")
        super().__init__(window)
        self.window = window
        self.tour: TourDialog | None = None
        self._dismissed = False
        # A child of the view over its viewport, not of the viewport: scrolling the canvas
        # moves the viewport's children with its pixels, and would carry the card away.
        self.page = StartPage(window.view)
        self.page.hide()
        for template in TEMPLATES:
            self.page.buttons[template.name].clicked.connect(
                lambda _c=False, t=template: self.start_from(t.build())
            )
        for path in bundled_tracks():
            self.page.buttons[title_from_file(path)].clicked.connect(
                lambda _c=False, p=path: window.new_from(p)
            )
        self.page.buttons["Blank"].clicked.connect(self.dismiss)
        self.page.buttons["Take the Tour"].clicked.connect(self.show_tour)
        self.template_menu = QMenu("New from &Template", window)
        for template in TEMPLATES:
            action = self.template_menu.addAction(template.name)
            action.setStatusTip(f"A new circuit: {template.description}")
            action.triggered.connect(lambda _c=False, t=template: self.start_from(t.build()))
        self.act_tour = QAction("&Tour of the Tools", window)
        self.act_tour.setShortcut(QKeySequence("Ctrl+Shift+T"))
        tip = "A few pages on the tools and the steps from a blank page to a printed board"
        self.act_tour.setStatusTip(tip)
        self.act_tour.setToolTip(f"Tour of the Tools (Ctrl+Shift+T)\n{tip}")
        self.act_tour.triggered.connect(lambda _c=False: self.show_tour())
        window.doc.changed.connect(self.refresh)
        window.doc.trackReplaced.connect(self._forget_dismissal)
        window.scene.toolChanged.connect(self._tool_changed)
        window.view.viewport().installEventFilter(self)
        self.refresh()

    def wanted(self) -> bool:
        """True while the document is a new, empty circuit the designer has not dismissed
        (with no file, or a file Save has not written yet: what is chosen keeps it)."""
        doc = self.window.doc
        new = doc.path is None or not os.path.lexists(doc.path)
        return not doc.track.spaces and new and not self._dismissed

    def refresh(self) -> None:
        """Show or hide the start page."""
        shown = self.wanted()
        if shown:
            self._place()
            self.page.raise_()
        self.page.setVisible(shown)
        self.window.view.show_empty_hint = not shown  # the card says it all: no hint under it

    def dismiss(self) -> None:
        """Blank: the empty page, without the start page."""
        self._dismissed = True
        self.refresh()
        self.window.view.setFocus()

    def _forget_dismissal(self) -> None:
        self._dismissed = False
        self.refresh()

    def _tool_changed(self, tool: object) -> None:
        if getattr(tool, "name", "select") != "select":
            self.dismiss()

    def start_from(self, track: Track) -> bool:
        """A new circuit copied from ``track`` (after asking to save the current one)."""
        return self.window.new_from_track(track)

    def show_tour(self) -> TourDialog:
        """Help > Tour of the Tools: the tour, from its first page."""
        if self.tour is None:
            self.tour = TourDialog(self.window)
        self.tour.show_page(0)
        self.tour.show()
        self.tour.raise_()
        self.tour.activateWindow()  # the keys go to it (Esc closes it), open or brought back
        return self.tour

    def _place(self) -> None:
        self.page.place(self.window.view.viewport().geometry())

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() in (QEvent.Type.Resize, QEvent.Type.Show) and not self.page.isHidden():
            self._place()
        return False
