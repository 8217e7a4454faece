"""The picture under the spaces (File > Import Background): a scan or photo to trace over.

It follows the document's ``background`` (path, page of a PDF, top-left corner in
mm, millimetres per pixel, turn and mirroring, opacity, hidden). A PDF page is
rendered again when its scale changes, sharp at that scale
(``pdf_page.pixels_per_point``). It is drawn on
the canvas only: exports and prints come from the track, never from the scene, so
it is never printed.
"""

from __future__ import annotations

import math
import os
from pathlib import Path

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QImage, QImageReader, QPixmap, QTransform
from PySide6.QtWidgets import QGraphicsPixmapItem

from trackside.editor.canvas import pdf_page
from trackside.editor.canvas.items import Z_SURFACE
from trackside.editor.document.track_document import TrackDocument
from trackside.engine.errors import UnreadableInput
from trackside.engine.yamlio import check_regular_file


def image_file(doc: TrackDocument) -> Path | None:
    """The background's image file, a relative path taken from the track file's folder."""
    background = doc.track.background
    if background is None:
        return None
    path = Path(background.path)
    if not path.is_absolute() and doc.path:
        path = Path(doc.path).parent / path
    return path


def file_problem(path: str | Path, what: str = "picture") -> str:
    """Why ``path`` is no file to read ('' when it is one, or is not there: the reader
    says that in its words): a named pipe, folder or device (opening a named pipe
    waits for a writer: the editor would freeze). The same gate as a track file's."""
    if not os.path.lexists(path):
        return ""
    try:
        check_regular_file(path, what)
    except UnreadableInput as exc:
        return str(exc)
    return ""


def picture_problem(path: str | Path) -> str:
    """Why Qt cannot show the picture in ``path`` ('' when it can): no regular file, no
    picture Qt reads, or more pixels than Qt reads into memory at once (its image
    allocation limit), said with the limit."""
    problem = file_problem(path)
    if problem:
        return problem
    name = Path(path).name
    reader = QImageReader(str(path))
    size = reader.size()
    if not reader.canRead() or size.width() <= 0 or size.height() <= 0:
        why = reader.errorString() or "use a PNG or JPEG file, or a PDF"
        return f"{name} is no picture this editor can read ({why})"
    limit_mb = QImageReader.allocationLimit()
    fmt = reader.imageFormat()
    depth = QImage(1, 1, fmt).depth() if fmt != QImage.Format.Format_Invalid else 32
    needed = size.width() * size.height() * max(depth, 8) // 8
    if limit_mb > 0 and needed > limit_mb * 1024 * 1024:
        side = math.isqrt(limit_mb * 1024 * 1024 * 8 // max(depth, 8))
        return (
            f"{name} is {size.width():,} x {size.height():,} pixels, "
            f"{needed / 2**20:,.0f} MB in memory: more than the {limit_mb} MB a picture may "
            f"take (about {side:,} x {side:,} pixels); scale it down, or make it a PDF page"
        )
    return ""


class BackgroundItem(QGraphicsPixmapItem):
    """Shows the document's background picture at its place and scale."""

    def __init__(self, doc: TrackDocument) -> None:
        super().__init__()
        self.doc = doc
        self.setZValue(Z_SURFACE - 10)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.setTransformationMode(Qt.TransformationMode.SmoothTransformation)
        self.loaded: tuple | None = None  # what the pixmap shows: (file, page, resolution)
        self.pixels_per_unit = 1.0  # pixmap pixels per picture pixel (per point for a PDF)
        self.problem = ""  # why the file named cannot be shown, with what to do
        self.pdf_pages: list[pdf_page.PageSize] = []  # the sizes of the PDF's pages
        self._pages_read: tuple | None = None  # (file, its time) they were read from
        doc.backgroundChanged.connect(self.refresh)
        doc.trackReplaced.connect(self.refresh)
        doc.pathChanged.connect(lambda _path: self.refresh())
        self.refresh()

    @property
    def missing(self) -> bool:
        """The file named cannot be shown (see ``problem``)."""
        return bool(self.problem)

    def refresh(self) -> None:
        """Follow the document: load the picture if it changed, then place it."""
        background = self.doc.track.background
        path = image_file(self.doc)
        wanted = self._wanted(path)
        if wanted != self.loaded:
            self.loaded = wanted
            self._load(wanted)
        if background is None or self.missing:
            self.setVisible(False)
            return
        self.setPos(QPointF(float(background.at[0]), float(background.at[1])))
        scale = float(background.mm_per_pixel) / self.pixels_per_unit
        # Turned counter-clockwise as seen (Qt turns clockwise on a y-down screen), and
        # flipped left to right first when the track was mirrored with it.
        place = QTransform().rotate(-float(background.turn))
        self.setTransform(place.scale(-scale if background.mirrored else scale, scale))
        self.setOpacity(float(background.opacity))
        self.setVisible(not background.hidden)

    def _wanted(self, path: Path | None) -> tuple | None:
        """What to show: a picture file, or a PDF page at a resolution for its scale."""
        background = self.doc.track.background
        if background is None or path is None:
            self.pdf_pages = []
            return None
        if background.page is None and (file_problem(path) or not pdf_page.is_pdf(path)):
            self.pdf_pages = []
            return (path, None, 1.0)
        page = background.page or 1
        not_a_file = file_problem(path, "PDF")
        if not_a_file:
            return (path, page, not_a_file)
        try:
            size = self._page_size(path, page)
        except pdf_page.PdfProblem as problem:
            return (path, page, f"{problem} {problem.fix}")
        resolution = pdf_page.pixels_per_point(size, background.mm_per_pixel)
        return (path, page, math.floor(resolution * 1000) / 1000)  # down: within the bound

    def _page_size(self, path: Path, page: int) -> pdf_page.PageSize:
        """The page's size; the sizes are read once per file (again when it changes)."""
        stamp = (path, path.stat().st_mtime_ns if path.exists() else None)
        if self._pages_read != stamp:
            self.pdf_pages, self._pages_read = [], None
            self.pdf_pages = pdf_page.page_sizes(path)
            self._pages_read = stamp
        if page > len(self.pdf_pages):
            return pdf_page.PageSize(1.0, 1.0)  # rendering it says the page is not there
        return self.pdf_pages[page - 1]

    def _load(self, wanted: tuple | None) -> None:
        self.problem, self.pixels_per_unit = "", 1.0
        if wanted is None:
            self.setPixmap(QPixmap())
            return
        path, page, resolution = wanted
        if isinstance(resolution, str):
            self._fail(resolution)
        elif page is None:
            problem = picture_problem(path)
            pixmap = QPixmap() if problem else QPixmap(str(path))
            self.setPixmap(pixmap)
            if problem or pixmap.isNull():
                self.problem = f"Background picture cannot be shown: {problem or path}"
        else:
            try:
                image = pdf_page.render_page(path, page, resolution)
            except pdf_page.PdfProblem as problem:
                self._fail(f"{problem} {problem.fix}")
                return
            self.pixels_per_unit = resolution
            self.setPixmap(QPixmap.fromImage(image))

    def _fail(self, problem: str) -> None:
        self.problem = f"Background PDF cannot be shown: {problem}"
        self.setPixmap(QPixmap())

    def scene_rect(self) -> QRectF:
        """Where the picture lies, in mm (empty without one)."""
        return self.sceneBoundingRect() if not self.pixmap().isNull() else QRectF()
