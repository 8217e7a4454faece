"""File > Import Background and View > Background: a picture under the spaces to trace over.

The picture is a PNG or JPEG, or a page of a PDF (the page asked for when it has
several; rendered by ``canvas.pdf_page``). It is scaled to millimetres by picking
two points on it a known distance apart and typing that distance; it can be faded,
hidden and locked. Each change is one undo step, and it is saved with the track
(``background``). It is never printed: exports draw the track, not the canvas.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from pathlib import Path

from PySide6.QtCore import QObject, QPointF, Qt
from PySide6.QtGui import QImageReader
from PySide6.QtWidgets import QMenu, QWidget

from trackside.editor.canvas import pdf_page
from trackside.editor.canvas.background import BackgroundItem, file_problem, picture_problem
from trackside.editor.canvas.scene import TrackScene
from trackside.editor.document.commands import SetBackground
from trackside.editor.document.fits import Refused
from trackside.editor.document.track_document import TrackDocument
from trackside.editor.menus.actions import make_action
from trackside.editor.tools.move_background import MoveBackground
from trackside.editor.tools.pick_points import PickPoints
from trackside.engine.track.model import Background

DEFAULT_MM_PER_PIXEL = 0.25  # a board scanned at about 100 dpi, before it is scaled
MM_PER_POINT = 25.4 / 72  # a PDF page's unit: the page at its printed size


class BackgroundActions(QObject):
    """The background's menu entries, its canvas item and the two-point scaling."""

    def __init__(
        self,
        doc: TrackDocument,
        scene: TrackScene,
        prompts,
        say: Callable[[str], None],
        give_back_tool: Callable[[str], None],
        parent: QWidget | None = None,
    ):
        super().__init__(parent)
        self.doc, self.scene, self.prompts, self.say = doc, scene, prompts, say
        self.give_back_tool = give_back_tool
        self.item = BackgroundItem(doc)
        scene.addItem(self.item)
        self.picker = PickPoints(scene)
        self.picker.hintChanged.connect(say)
        self.picker.picked.connect(self._scale_from)
        self.picker.abandoned.connect(self._end_picking)
        self.mover = MoveBackground(scene, self.item)
        self.mover.hintChanged.connect(say)
        # Queued: when another tool is taking over (which cancels too), that tool stays.
        self.mover.escaped.connect(self._end_moving, Qt.ConnectionType.QueuedConnection)
        self.mover.left.connect(self._left_moving)
        self._tool_before: str | None = None
        entry = partial(make_action, self, named_tip=True)  # named, its tip under
        self.act_import = entry(
            "Import &Background…",
            self.import_dialog,
            tip="Show a PNG, JPEG or PDF page under the spaces to trace over (never printed)",
        )
        self.act_show = entry("&Show Background", self._set_shown, tip="Show or hide it")
        self.act_show.setCheckable(True)
        self.act_lock = entry(
            "&Lock Background", self._set_locked, tip="Keep its scale, place and fading as they are"
        )
        self.act_lock.setCheckable(True)
        self.act_scale = entry(
            "Set &Scale from Two Points…",
            self.start_scaling,
            tip="Click two points on the picture a known distance apart, then type the distance",
        )
        self.act_move = entry(
            "&Move Background",
            self._set_moving,
            tip="Drag the picture to line it up with the spaces; Esc ends (Shift+B)",
        )
        self.act_move.setCheckable(True)
        self.act_move.setShortcut("Shift+B")
        # The key acts on the canvas only, so Shift+B in a text box types a B.
        self.act_move.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        for view in scene.views():
            view.addAction(self.act_move)
        self.act_page = entry(
            "PDF &Page…",
            self.ask_page,
            tip="Show another page of the PDF, at the same place and scale",
        )
        self.act_opacity = entry(
            "&Opacity…", self.ask_opacity, tip="How strongly the picture shows (0 to 100 %)"
        )
        self.act_remove = entry("&Remove Background", self.remove, tip="Take the picture away")
        self.menu = QMenu("&Background", parent)
        self.menu.addActions([self.act_show, self.act_lock])
        self.menu.addSeparator()
        self.menu.addActions(
            [self.act_move, self.act_scale, self.act_page, self.act_opacity, self.act_remove]
        )
        doc.backgroundChanged.connect(self._update)
        doc.trackReplaced.connect(self._update)
        self._update()

    def _update(self) -> None:
        background = self.doc.track.background
        self.menu.setEnabled(background is not None)
        self.act_show.setChecked(background is not None and not background.hidden)
        self.act_lock.setChecked(background is not None and background.locked)
        free = background is not None and not background.locked
        for action in (self.act_scale, self.act_opacity, self.act_remove):
            action.setEnabled(free)
        self.act_page.setEnabled(free and len(self.item.pdf_pages) > 1)
        movable = background is not None and not (background.locked or background.hidden)
        self.act_move.setEnabled(movable)
        if not movable and self.scene.tool is self.mover:
            self._end_moving()
        if background is not None and self.item.missing:
            self.say(self.item.problem)

    def _change(self, text: str, **values) -> bool:
        background = self.doc.track.background
        return background is not None and self._set(replace(background, **values), text)

    def _set(self, background: Background | None, text: str) -> bool:
        """One undo step; False, with the reason said, when the track's file could not
        hold the picture's place or scale."""
        try:
            self.doc.undo_stack.push(SetBackground(self.doc, background, text))
        except Refused as exc:
            self.say(f"Not done: {exc}")
            return False
        return True

    # -- import -------------------------------------------------------------------
    def import_dialog(self) -> bool:
        """Ask for a picture and put it under the spaces."""
        folder = str(Path(self.doc.path).parent) if self.doc.path else str(Path.home())
        path = self.prompts.image_path(folder)
        return bool(path) and self.import_image(path)

    def import_image(self, path: str) -> bool:
        """Put the picture (or PDF page) in ``path`` under the spaces, over the track's extent."""
        # A named pipe or a folder is refused before any reader opens it (a pipe would
        # stall the editor).
        problem = file_problem(path)
        if not problem and pdf_page.is_pdf(path):
            return self._import_pdf(path)
        problem = problem or picture_problem(path)
        if problem:
            self.prompts.problems(
                "Cannot import background",
                f"{problem}.",
                ["Use a PNG or JPEG file, or a PDF, of a size Qt can read."],
            )
            return False
        return self._put(path, QImageReader(path).size().width(), None)

    def _import_pdf(self, path: str) -> bool:
        """Put a page of the PDF in ``path`` under the spaces, asking which if it has several."""
        try:
            sizes = pdf_page.page_sizes(path)
        except pdf_page.PdfProblem as problem:
            self.prompts.problems("Cannot import background", str(problem), [problem.fix])
            return False
        page = 1
        if len(sizes) > 1:
            chosen = self.prompts.pdf_page(Path(path).name, _choices(sizes))
            if chosen is None:
                return False
            page = chosen
        return self._put(path, sizes[page - 1].width, page)

    def _put(self, path: str, width: float, page: int | None) -> bool:
        """Lay a picture ``width`` pixels (points for a PDF) wide over the track's extent."""
        rect = self.scene.track_rect() if self.doc.track.spaces else None
        if rect is not None and rect.width() > 0:
            mm_per_pixel = rect.width() / width
            at = (round(rect.left(), 3), round(rect.top(), 3))
        else:
            mm_per_pixel, at = DEFAULT_MM_PER_PIXEL, (0, 0)
            if page is not None:
                mm_per_pixel = MM_PER_POINT  # a PDF page at its printed size
        background = Background(
            path=self._stored_path(path), at=at, mm_per_pixel=round(mm_per_pixel, 6), page=page
        )
        if not self._set(background, "Import background"):
            return False
        shown = Path(path).name + (f" (page {page})" if page is not None else "")
        self.say(
            f"Background {shown} imported; scale it with "
            "View > Background > Set Scale from Two Points"
        )
        return True

    def _stored_path(self, path: str) -> str:
        """Beside the track file: relative to it, so the two move together."""
        if self.doc.path:
            folder = Path(self.doc.path).resolve().parent
            try:
                return Path(path).resolve().relative_to(folder).as_posix()
            except ValueError:
                pass
        return os.path.abspath(path)

    # -- settings -----------------------------------------------------------------
    def _set_shown(self, shown: bool) -> None:
        self._change("Show background" if shown else "Hide background", hidden=not shown)

    def _set_locked(self, locked: bool) -> None:
        self._change("Lock background" if locked else "Unlock background", locked=locked)

    def ask_opacity(self) -> None:
        background = self.doc.track.background
        if background is None:
            return
        value = self.prompts.opacity(float(background.opacity))
        if value is not None:
            self._change("Fade background", opacity=round(min(1.0, max(0.0, value)), 3))

    def ask_page(self) -> None:
        """Ask which page of the PDF to show instead; its place and scale stay."""
        background = self.doc.track.background
        pages = self.item.pdf_pages
        if background is None or len(pages) < 2:
            return
        chosen = self.prompts.pdf_page(Path(background.path).name, _choices(pages))
        if chosen is not None and chosen != (background.page or 1):
            self._change(f"Show page {chosen} of the background", page=chosen)

    def remove(self) -> None:
        if self.doc.track.background is not None:
            self._set(None, "Remove background")

    # -- moving by dragging -----------------------------------------------------------
    def _set_moving(self, moving: bool) -> None:
        if moving:
            self.start_moving()
        elif self.scene.tool is self.mover:
            self._end_moving()

    def start_moving(self) -> None:
        """Take up dragging the picture, until Esc or another tool."""
        background = self.doc.track.background
        if background is None or background.locked:
            self.act_move.setChecked(False)
            return
        self._take_tool(self.mover)
        self.act_move.setChecked(True)

    def _left_moving(self) -> None:
        self.act_move.setChecked(False)

    def _end_moving(self) -> None:
        self.act_move.setChecked(False)
        if self.scene.tool is not self.mover:
            return
        before, self._tool_before = self._tool_before, None
        self.give_back_tool(before or "select")

    def _take_tool(self, tool) -> None:
        """Make ``tool`` the canvas tool, remembering the one to give back afterwards."""
        current = self.scene.tool
        if current is not self.mover and current is not self.picker:
            self._tool_before = getattr(current, "name", None)
        self.scene.set_tool(tool)

    # -- scaling by two points ------------------------------------------------------
    def start_scaling(self) -> None:
        """Take up the two-point picker; the distance is asked after the second click."""
        if self.doc.track.background is None:
            return
        self._take_tool(self.picker)

    def _end_picking(self) -> None:
        before, self._tool_before = self._tool_before, None
        if before is not None:
            self.give_back_tool(before)

    def _scale_from(self, first: QPointF, second: QPointF) -> None:
        self._end_picking()
        background = self.doc.track.background
        measured = math.dist((first.x(), first.y()), (second.x(), second.y()))
        if background is None:
            return
        if measured <= 0:
            self.say("The two points are the same: pick two points apart to scale by")
            return
        wanted = self.prompts.distance(measured)
        if wanted is None:
            return
        if wanted <= 0:
            self.say("A distance must be more than 0 mm: the background keeps its scale")
            return
        factor = wanted / measured
        x, y = float(background.at[0]), float(background.at[1])
        at = (
            round(first.x() + (x - first.x()) * factor, 3),
            round(first.y() + (y - first.y()) * factor, 3),
        )
        scaled = self._change(
            "Scale background",
            mm_per_pixel=round(float(background.mm_per_pixel) * factor, 6),
            at=at,
        )
        if scaled:
            self.say(f"Background scaled: the two points are now {wanted:g} mm apart")


def _choices(pages: list[pdf_page.PageSize]) -> list[str]:
    """'Page 2: 210 x 297 mm' for each page."""
    return [f"Page {n}: {size.describe()}" for n, size in enumerate(pages, 1)]
