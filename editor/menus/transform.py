"""Edit > Cut, Copy, Paste and the Transform submenu (mirror, rotate, move by), and
the canvas's context menu.

The actions work on the selected spaces, or on the whole circuit when nothing is
selected; each is one undo step (``editor.document.compound``). Copied spaces go
to the system clipboard as a YAML fragment of a track file, so they paste into
another editor window, or into a text editor, as they are.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, QPoint, QPointF, Qt
from PySide6.QtGui import QAction, QGuiApplication, QKeySequence
from PySide6.QtWidgets import QMenu, QWidget

from trackside.editor.canvas.scene import TrackScene
from trackside.editor.canvas.view import CanvasView
from trackside.editor.document import compound
from trackside.editor.document.fits import Refused
from trackside.editor.document.track_document import TrackDocument
from trackside.editor.menus.actions import make_action
from trackside.engine.errors import InvalidInput, TracksideError
from trackside.engine.track.fragment import copy_fragment, parse_fragment
from trackside.engine.track.model import Point
from trackside.engine.track.transform import (
    Transform,
    mirror_left_right,
    mirror_top_bottom,
    rotation,
    translation,
)


class TransformActions(QObject):
    """The clipboard and transform actions of one window, and its canvas context menu."""

    def __init__(
        self,
        doc: TrackDocument,
        scene: TrackScene,
        view: CanvasView,
        prompts,
        say: Callable[[str], None],
        menu_allowed: Callable[[], bool] = lambda: True,
        extra: list[QAction] | None = None,
        parent: QWidget | None = None,
    ):
        super().__init__(parent)
        self.doc, self.scene, self.view, self.prompts = doc, scene, view, prompts
        self.say = say
        self.menu_allowed = menu_allowed
        self.extra = list(extra or [])
        for action in self.extra:  # they show in the right-click menu, keys and all
            action.setShortcutVisibleInContextMenu(True)
        self.pointer: QPointF | None = None  # the last pointer position on the canvas, mm
        scene.cursorMoved.connect(lambda x, y: setattr(self, "pointer", QPointF(x, y)))
        K = QKeySequence.StandardKey
        a = self._action
        self.act_cut = a("Cu&t", self.cut, K.Cut, "Take the selected spaces to the clipboard")
        self.act_copy = a(
            "&Copy",
            self.copy,
            K.Copy,
            "Copy the selected spaces, with the lines and grid they carry, to the clipboard",
        )
        self.act_paste = a(
            "&Paste",
            self.paste,
            K.Paste,
            "Paste spaces where they were copied (10 mm on if that place is taken); "
            "ids already used get fresh ones",
        )
        self.act_paste_here = a(
            "Paste &Here",
            lambda: self.paste(at=self.pointer),
            "Ctrl+Shift+V",
            "Paste spaces centred under the pointer",
        )
        self.act_mirror_lr = a(
            "Mirror &Left to Right",
            lambda: self.transform(mirror_left_right, "Mirror {what} left to right"),
            "Shift+H",
            "Mirror the selection (or the whole circuit) left to right: "
            "a clockwise copy of an anticlockwise circuit",
        )
        self.act_mirror_tb = a(
            "Mirror &Top to Bottom",
            lambda: self.transform(mirror_top_bottom, "Mirror {what} top to bottom"),
            "Shift+V",
            "Mirror the selection (or the whole circuit) top to bottom",
        )
        self.act_rotate_left = a(
            "Rotate 90° &Anticlockwise",
            lambda: self.rotate(90),
            "Ctrl+[",
            "Turn the selection (or the whole circuit) a quarter turn about its centre",
        )
        self.act_rotate_right = a(
            "Rotate 90° &Clockwise",
            lambda: self.rotate(-90),
            "Ctrl+]",
            "Turn the selection (or the whole circuit) a quarter turn about its centre",
        )
        self.act_rotate_half = a(
            "Rotate &180°", lambda: self.rotate(180), None, "Turn the selection half a turn"
        )
        self.act_rotate_by = a(
            "&Rotate by…",
            self.rotate_by,
            "Ctrl+Shift+R",
            "Turn the selection (or the whole circuit) by a typed angle about its centre",
        )
        self.act_move_by = a(
            "&Move by…",
            self.move_by,
            "Ctrl+Shift+M",
            "Move the selection (or the whole circuit) by a typed offset in millimetres",
        )
        self.menu = QMenu("T&ransform", parent)
        self.menu.setToolTipsVisible(True)
        self.menu.addActions([self.act_mirror_lr, self.act_mirror_tb])
        self.menu.addSeparator()
        self.menu.addActions(
            [self.act_rotate_left, self.act_rotate_right, self.act_rotate_half, self.act_rotate_by]
        )
        self.menu.addSeparator()
        self.menu.addAction(self.act_move_by)
        self._menu_from: Callable[[QPoint], QMenu | None] | None = None
        view.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        view.customContextMenuRequested.connect(self._requested)
        scene.selectionChanged.connect(self._update_enabled)
        doc.changed.connect(lambda: self.menu.setEnabled(bool(doc.track.spaces)))
        self._update_enabled()

    def _action(self, text: str, slot, shortcut, tip: str) -> QAction:
        action = make_action(
            self.view, text, slot, shortcut or None, tip, named_tip=True, in_context_menu=True
        )
        # The keys act on the canvas only, so Ctrl+C or Shift+H in a text box stay its own.
        action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self.view.addAction(action)
        return action

    def add_to(self, menu: QMenu) -> None:
        """Put Cut, Copy, Paste and the Transform submenu into the Edit menu."""
        menu.addSeparator()
        menu.addActions([self.act_cut, self.act_copy, self.act_paste, self.act_paste_here])
        menu.addMenu(self.menu)

    def _update_enabled(self) -> None:
        try:
            selected = bool(self.scene.selected_indices())
        except RuntimeError:  # while the scene rebuilds its items (as the main window does)
            return
        self.act_cut.setEnabled(selected)
        self.act_copy.setEnabled(selected)
        self.menu.setEnabled(bool(self.doc.track.spaces))

    # -- clipboard ------------------------------------------------------------
    def copy(self) -> int:
        """Put the selected spaces on the clipboard; returns how many."""
        indices = self.scene.selected_indices()
        if not indices:
            self.say("Nothing to copy: select spaces first")
            return 0
        fragment = copy_fragment(self.doc.track, indices)
        QGuiApplication.clipboard().setText(fragment.to_yaml())
        carried = len(fragment.lines)
        self.say(
            f"Copied {_plural(len(indices), 'space')}"
            + (f" and {_plural(carried, 'line')}" if carried else "")
        )
        return len(indices)

    def cut(self) -> None:
        """Copy the selected spaces, then delete them (one undo step)."""
        indices = self.scene.selected_indices()
        if self.copy():
            compound.cut_spaces(self.doc, indices)
            self.say(f"Cut {_plural(len(indices), 'space')}: paste them with Ctrl+V")

    def paste(self, at: QPointF | None = None) -> list[int]:
        """Add the clipboard's spaces (centred on ``at`` if given) and select them."""
        text = QGuiApplication.clipboard().text()
        try:
            fragment = parse_fragment(text)
        except InvalidInput as exc:
            self.prompts.problems(
                "Cannot paste", "The clipboard holds spaces this editor cannot use.", [str(exc)]
            )
            return []
        except TracksideError:
            self.say("Nothing to paste: the clipboard holds no Trackside spaces")
            return []
        if at is not None:
            cx, cy = fragment.centre()
            dx, dy = at.x() - cx, at.y() - cy
        else:
            dx, dy = compound.paste_offset(self.doc, fragment)
        try:
            new, said = compound.paste_fragment(self.doc, fragment, dx, dy)
        except Refused as exc:
            self.say(f"Not pasted: {exc}")
            return []
        self.scene.select_indices(new)
        self.say(said)
        return new

    # -- transforms --------------------------------------------------------------
    def transform(self, make: Callable[[Point], Transform], text: str) -> None:
        """Apply a map built from the centre of the selection (or of the circuit);
        ``text`` names the step, ``{what}`` standing for what moves."""
        try:
            done = compound.transform_spaces(
                self.doc, self.scene.selected_indices(), self.scene.selected_lines(), make, text
            )
        except Refused as exc:
            self.say(f"Not done: {exc}")
            return
        self.say(done or "Nothing to transform: the circuit has no spaces")

    def rotate(self, degrees: float) -> None:
        """Turn by ``degrees`` counter-clockwise as seen, about the selection's centre."""
        turn = "anticlockwise" if degrees > 0 else "clockwise"
        self.transform(
            lambda centre: rotation(degrees, centre), f"Rotate {{what}} {abs(degrees):g}° {turn}"
        )

    def rotate_by(self) -> None:
        """Ask for an angle, then rotate."""
        degrees = self.prompts.rotate_angle()
        self.view.setFocus()
        if degrees:
            self.rotate(degrees)

    def move_by(self) -> None:
        """Ask for an offset in millimetres, then move."""
        offset = self.prompts.move_offset()
        self.view.setFocus()
        if offset and any(offset):
            dx, dy = offset
            self.transform(
                lambda _centre: translation(dx, dy), f"Move {{what}} by ({dx:g}, {dy:g}) mm"
            )

    # -- context menu -----------------------------------------------------------
    def start_menu_with(self, menu_at: Callable[[QPoint], QMenu | None]) -> None:
        """Begin the canvas's right-click menu with the menu ``menu_at`` gives at the
        point clicked (the edits at a space), so the canvas has one menu."""
        self._menu_from = menu_at

    def _requested(self, pos: QPoint) -> None:
        menu = self.context_menu(pos)
        if menu is not None:
            menu.popup(self.view.viewport().mapToGlobal(pos))

    def context_menu(self, pos: QPoint) -> QMenu | None:
        """The canvas's right-click menu at viewport point ``pos``: the menu it starts
        with there (``start_menu_with``: edits at a space), then, while selecting, Cut,
        Copy, Paste Here, the extra actions and Transform; None when there is nothing
        to offer."""
        menu = self._menu_from(pos) if self._menu_from is not None else None
        if not self.menu_allowed():
            return menu
        at = self.view.mapToScene(pos)
        hit = self.scene.space_at(at)
        if hit is not None and hit not in self.scene.selected_indices():
            self.scene.select_indices([hit])
        if menu is None:
            menu = QMenu(self.view)
        else:
            menu.addSeparator()
        menu.setToolTipsVisible(True)
        # Paste Here is the Edit menu's action, key and all; it pastes at the pointer,
        # which stays where the menu opened while the pointer is over the menu.
        self.pointer = at
        menu.addActions([self.act_cut, self.act_copy, self.act_paste_here])
        menu.addSeparator()
        menu.addActions(self.extra)
        menu.addMenu(self.menu)
        return menu


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"
