"""The base of every canvas tool: activation, pointer and key events in mm, a hint.

A tool module defines one ``Tool`` subclass and registers it in
``editor.tools.TOOLS``; the main window builds the toolbar and shortcuts from
that list, and the scene forwards its events to the active tool.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QRectF, Qt, Signal
from PySide6.QtGui import QKeyEvent, QUndoCommand

from trackside.editor.canvas.interaction import ToolEvent
from trackside.editor.document.commands import push_as_one
from trackside.editor.document.fits import Refused

if TYPE_CHECKING:
    from trackside.editor.canvas.scene import TrackScene
    from trackside.editor.document.track_document import TrackDocument


class Tool(QObject):
    """A canvas tool. Subclasses set the class attributes and override the handlers."""

    name = "tool"  # stable key, e.g. "select"
    label = "Tool"  # toolbar text
    shortcut = ""  # single key, e.g. "V"
    hint = ""  # status-bar text while active
    purpose = ""  # what the tool is for, one sentence (the tour's page on it)
    tip = ""  # one thing worth knowing about it (the tour's page on it)
    icon = ""  # a short glyph shown on the toolbar button

    hintChanged = Signal(str)
    stepDone = Signal(str)  # what a step the tool made did, for the status bar ("Added space a49")
    toolRequested = Signal(str)  # ask the window to switch to the tool of this name

    def __init__(self, scene: TrackScene) -> None:
        super().__init__(scene)
        self.scene = scene

    @property
    def doc(self) -> TrackDocument:
        """The document being edited."""
        return self.scene.doc

    def activate(self) -> None:
        """Called when the tool becomes the active one."""
        self.set_hint(self.hint)

    def deactivate(self) -> None:
        """Called when another tool takes over; remove any preview items."""

    def set_hint(self, text: str) -> None:
        """Show ``text`` in the status bar while this tool is the active one."""
        # A panel may change an idle tool's settings; its hint must not replace the active tool's.
        if getattr(self.scene, "tool", None) is self:
            self.hintChanged.emit(text)

    def apply(self, text: str, make: Callable[[], list[QUndoCommand]]) -> bool:
        """Make the commands of one user action and push them as one undo step named
        ``text``. When the document refuses one (what it would hold no file could),
        nothing changes and the hint says why: False then."""
        try:
            steps = make()
        except Refused as exc:
            self.set_hint(f"Not done: {exc}")
            return False
        if steps:
            push_as_one(self.doc, text, steps)
        return True

    def extent(self) -> QRectF | None:
        """What the tool is drawing (QRectF, mm) that Fit to Window should include, or None."""
        return None

    def pointer_left(self) -> None:
        """The pointer left the canvas: forget what followed it (not a gesture in progress)."""

    def cursor(self) -> Qt.CursorShape:
        """The canvas cursor while this tool is active."""
        return Qt.CursorShape.CrossCursor

    def mouse_press(self, ev: ToolEvent) -> None:
        """A button went down."""

    def mouse_move(self, ev: ToolEvent) -> None:
        """The pointer moved (with or without buttons)."""

    def mouse_release(self, ev: ToolEvent) -> None:
        """A button came up."""

    def double_click(self, ev: ToolEvent) -> None:
        """A double click."""

    def key_press(self, event: QKeyEvent) -> bool:
        """A key went down; return True when handled."""
        return False

    def cancel(self) -> None:
        """Escape: abandon the current gesture."""

    def delete_selection(self) -> bool:
        """The Delete action: return True when the tool deleted something of its own."""
        return False
