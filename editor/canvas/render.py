"""A track as a picture or a print: PNG, SVG, or a PDF at true scale.

``render(track, path)`` picks the format from the suffix. A PDF is one page
the size of the board (plus a margin) unless a paper is given; then the board
is tiled over as many pages of that paper as needed, with an overlap, cut and
alignment marks and a row/column label on each page (``plan_tiles``).
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QBuffer, QIODevice, QMarginsF, QPointF, QRectF, QSize, QSizeF, Qt
from PySide6.QtGui import (
    QColor,
    QGuiApplication,
    QImage,
    QImageWriter,
    QPageLayout,
    QPageSize,
    QPainter,
    QPdfWriter,
    QPen,
)
from PySide6.QtSvg import QSvgGenerator

from trackside.editor.canvas.heatmap import HeatMap
from trackside.editor.canvas.painting import (
    DEFAULT_STYLE,
    BoardStyle,
    board_bounds,
    draw_text,
    paint_track,
    text_width,
    track_surface,
    wrap_text,
)
from trackside.engine.errors import Place, TracksideError, UnwritableOutput
from trackside.engine.track.model import Track
from trackside.engine.writer import check_complete, check_writable, write_bytes

FORMATS = (".png", ".svg", ".pdf")
PAPERS: dict[str, tuple[float, float]] = {  # portrait width, height in mm
    "a4": (210.0, 297.0),
    "letter": (215.9, 279.4),
    "a3": (297.0, 420.0),
}
DEFAULT_DPI = 100
MAX_PIXELS = 250_000_000
MAX_PDF_PAGE = 5080.0  # mm: 14,400 pt, the largest page PDF readers accept
MAX_PAGES = 500
BOARD_MARGIN = 10.0  # mm of grass around the board on a single page or picture
PAGE_MARGIN = 10.0  # mm left blank on each side of a tiled page for the printer
FOOTER = 9.0  # extra mm at the bottom of a tiled page for its label
OVERLAP = 10.0  # mm of board printed on both of two neighbouring pages
MM_PER_PT = 25.4 / 72
PDF_DPI = 1200  # the PDF's drawing units per inch

Bounds = tuple[float, float, float, float]  # x0, y0, x1, y1 in mm
PaintFn = Callable[[QPainter, QRectF], None]  # paints the board, grass over the rect


@dataclass(frozen=True)
class Tiling:
    """How a board is cut into ``rows`` x ``cols`` pages of one paper (sizes in mm)."""

    paper: str
    page_w: float
    page_h: float
    landscape: bool
    rows: int
    cols: int

    @property
    def pages(self) -> int:
        return self.rows * self.cols

    @property
    def cell_w(self) -> float:
        """Width of the board part printed on each page."""
        return self.page_w - 2 * PAGE_MARGIN

    @property
    def cell_h(self) -> float:
        """Height of the board part printed on each page."""
        return self.page_h - 2 * PAGE_MARGIN - FOOTER


@dataclass(frozen=True)
class Rendered:
    """What ``render`` wrote."""

    path: Path
    format: str
    pages: int
    page_size_mm: tuple[float, float]
    tiling: Tiling | None = None


def plan_tiles(board_w: float, board_h: float, paper: str) -> Tiling:
    """The page grid for this paper, in the orientation that needs fewer pages."""
    if paper not in PAPERS:
        raise TracksideError(f"unknown paper '{paper}'; use one of {', '.join(PAPERS)}")
    return plan_tiles_on(board_w, board_h, paper, *PAPERS[paper])


def plan_tiles_on(board_w: float, board_h: float, paper: str, w: float, h: float) -> Tiling:
    """The page grid for a paper of ``w`` x ``h`` mm (portrait), in the orientation
    that needs fewer pages."""
    options = []
    for landscape, (pw, ph) in ((False, (w, h)), (True, (h, w))):
        cols = _count(board_w, pw - 2 * PAGE_MARGIN)
        rows = _count(board_h, ph - 2 * PAGE_MARGIN - FOOTER)
        matches = (board_w > board_h) == landscape
        options.append((rows * cols, not matches, Tiling(paper, pw, ph, landscape, rows, cols)))
    return min(options, key=lambda o: (o[0], o[1]))[2]


def _count(length: float, cell: float) -> int:
    if length <= cell:
        return 1
    return math.ceil((length - OVERLAP) / (cell - OVERLAP) - 1e-9)


_app: QGuiApplication | None = None  # keeps the application made here alive


def ensure_app() -> QGuiApplication:
    """The running Qt application, or a new one (offscreen when there is no display)."""
    existing = QGuiApplication.instance()
    if isinstance(existing, QGuiApplication):
        return existing
    if existing is not None:
        raise RuntimeError("a non-GUI QCoreApplication is already running")
    if not (
        os.environ.get("DISPLAY")
        or os.environ.get("WAYLAND_DISPLAY")
        or os.environ.get("QT_QPA_PLATFORM")
    ):
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
    # A QApplication (not just a QGuiApplication), so that widgets made later in
    # the same process (the editor, GUI tests) still work.
    from PySide6.QtWidgets import QApplication

    app = QApplication(["trackside"])
    global _app
    _app = app
    return app


def render(
    track: Track,
    path: str | os.PathLike,
    paper: str | None = None,
    *,
    dpi: int = DEFAULT_DPI,
    show_ids: bool = True,
    show_racing_line: bool = False,
    title: bool = True,
    grass: bool = True,
    style: BoardStyle = DEFAULT_STYLE,
    heat: tuple[dict[str, float], str] | None = None,
) -> Rendered:
    """Write the track to ``path`` as PNG, SVG or PDF, chosen by its suffix.

    ``paper`` (a4, letter, a3) tiles a PDF over pages of that paper; ``dpi``
    is the PNG resolution; ``title`` prints the name and a 100 mm scale bar
    below the board; ``grass`` False leaves out the striped green background (the
    board on white paper, to save ink); ``heat`` (values per space id, legend title)
    tints the spaces as the balance heat map does. The drawing is made in memory and written by
    ``engine.writer``: the file holds the old picture or the whole new one.
    """
    target = Path(path)
    fmt = target.suffix.lower()
    if fmt not in FORMATS:
        raise TracksideError(
            f"cannot tell the format from the suffix '{target.suffix}'",
            Place(str(target)),
            "use .png, .svg or .pdf",
        )
    if paper is not None and fmt != ".pdf":
        raise TracksideError("--paper applies only to PDF output", Place(str(target)))
    if not 10 <= dpi <= 2400:
        raise TracksideError(f"dpi {dpi} is out of range", Place(str(target)), "use 10 to 2400")
    ensure_app()
    bounds, paint = board_painter(
        track,
        show_ids=show_ids,
        show_racing_line=show_racing_line,
        title=title,
        grass=grass,
        style=style,
        heat=heat,
    )
    check_writable(target, "the picture")
    if fmt == ".png":
        data, done = _png(target, bounds, dpi, paint)
    elif fmt == ".svg":
        data, done = _svg(target, bounds, track.name, paint)
    elif paper is None:
        data, done = _pdf_single(target, bounds, track.name, paint)
    else:
        data, done = _pdf_tiled(target, bounds, track.name, paper, paint, style)
    check_complete(data, done.format, target)
    write_bytes(target, data, "the picture")
    return done


def board_painter(
    track: Track,
    *,
    show_ids: bool = True,
    show_racing_line: bool = False,
    title: bool = True,
    grass: bool = True,
    style: BoardStyle = DEFAULT_STYLE,
    heat: tuple[dict[str, float], str] | None = None,
) -> tuple[Bounds, PaintFn]:
    """The board's extent (mm) and a function that paints it as printed (over grass, or
    with ``grass`` False on the bare page); a board with nothing to draw is refused with
    a message."""
    if not grass:
        style = style.on_white()
    surface = track_surface(track, style)
    bounds = board_bounds(track, style, surface, title=title)
    heat_map = HeatMap(track, *heat, style) if heat is not None else None
    if heat_map is not None:  # the legend sits above the board
        top = heat_map.legend_rect().top() - 2
        bounds = (bounds[0], min(bounds[1], top), bounds[2], bounds[3])
    if not _drawable_size(bounds):
        width, height = bounds[2] - bounds[0], bounds[3] - bounds[1]
        size = (
            f"measures {width:.3g} by {height:.3g} mm"
            if math.isfinite(width) and math.isfinite(height)
            else "has no measurable size"
        )
        raise TracksideError(
            f"nothing to draw: the board {size}",
            Place(track.source or track.name),
            "coordinates are millimetres; trackside validate shows which spaces are wrong",
        )

    def paint(painter: QPainter, background: QRectF) -> None:
        paint_track(
            painter,
            track,
            style,
            show_ids=show_ids,
            show_racing_line=show_racing_line,
            surface=surface,
            background=background if grass else None,
            title=title,
        )
        if heat_map is not None:
            heat_map.paint(painter, show_ids=show_ids)

    return bounds, paint


def page_rect(bounds: Bounds, unit: float, margin: float = BOARD_MARGIN) -> QRectF:
    """The board bounds plus margin, grown to whole ``unit``s and centred on the board (mm)."""
    x0, y0, x1, y1 = bounds
    w = math.ceil((x1 - x0 + 2 * margin) / unit - 1e-6) * unit
    h = math.ceil((y1 - y0 + 2 * margin) / unit - 1e-6) * unit
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    return QRectF(cx - w / 2, cy - h / 2, w, h)


def _png(target: Path, bounds: Bounds, dpi: int, paint: PaintFn) -> tuple[bytes, Rendered]:
    rect = page_rect(bounds, 25.4 / dpi)
    px = dpi / 25.4
    width, height = round(rect.width() * px), round(rect.height() * px)
    if width * height > MAX_PIXELS:
        raise TracksideError(
            f"{width} x {height} pixels is too large a picture", Place(str(target)), "lower --dpi"
        )
    image = QImage(width, height, QImage.Format.Format_RGB32)  # opaque: smaller files
    if image.isNull():
        raise UnwritableOutput(
            "not enough memory for the picture", Place(str(target)), "lower --dpi"
        )
    dpm = round(dpi / 0.0254)
    image.setDotsPerMeterX(dpm)
    image.setDotsPerMeterY(dpm)
    image.fill(QColor("white"))
    painter = QPainter(image)
    painter.scale(px, px)
    painter.translate(-rect.left(), -rect.top())
    paint(painter, rect)
    painter.end()
    # QImageWriter, not QImage.save: PySide6 takes save's format only as a str, its stubs
    # only as bytes, so no call to save both type-checks and runs.
    buffer = memory_buffer()
    if not QImageWriter(buffer, b"PNG").write(image):
        raise UnwritableOutput("cannot encode the PNG picture", Place(str(target)))
    return buffer_bytes(buffer), Rendered(target, "png", 1, (rect.width(), rect.height()))


def _svg(target: Path, bounds: Bounds, title: str, paint: PaintFn) -> tuple[bytes, Rendered]:
    rect = page_rect(bounds, 0.1)
    buffer = memory_buffer()
    generator = QSvgGenerator()
    generator.setOutputDevice(buffer)
    generator.setResolution(254)  # 10 units per mm, so the size in mm is exact to 0.1 mm
    generator.setSize(_size_10(rect))
    generator.setViewBox(QRectF(0, 0, rect.width(), rect.height()))
    generator.setTitle(title)
    generator.setDescription(f"{title}: a Downforce circuit at 1:1 scale, in millimetres")
    painter = QPainter()
    if not painter.begin(generator):
        raise UnwritableOutput("cannot write the SVG file", Place(str(target)))
    painter.translate(-rect.left(), -rect.top())
    paint(painter, rect)
    painter.end()
    return buffer_bytes(buffer), Rendered(target, "svg", 1, (rect.width(), rect.height()))


def _size_10(rect: QRectF) -> QSize:
    return QSize(round(rect.width() * 10), round(rect.height() * 10))


def memory_buffer() -> QBuffer:
    """A growing buffer in memory for a renderer to write into (then ``write_bytes``)."""
    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    return buffer


def buffer_bytes(buffer: QBuffer) -> bytes:
    """What a renderer wrote into ``buffer``."""
    buffer.close()
    return bytes(buffer.data().data())


def pdf_writer(buffer: QBuffer, width: float, height: float, title: str) -> QPdfWriter:
    """A PDF writer into ``buffer`` with pages of ``width`` x ``height`` mm, no margins."""
    writer = QPdfWriter(buffer)
    writer.setTitle(title)
    writer.setCreator("Trackside")
    writer.setResolution(PDF_DPI)
    writer.setPageSize(
        QPageSize(
            QSizeF(width, height),
            QPageSize.Unit.Millimeter,
            "board",
            QPageSize.SizeMatchPolicy.ExactMatch,
        )
    )
    writer.setPageOrientation(QPageLayout.Orientation.Portrait)
    writer.setPageMargins(QMarginsF(0, 0, 0, 0), QPageLayout.Unit.Millimeter)
    return writer


def _begin_pdf(writer: QPdfWriter, target: Path) -> QPainter:
    painter = QPainter()
    if not painter.begin(writer):
        raise UnwritableOutput("cannot write the PDF file", Place(str(target)))
    scale = writer.resolution() / 25.4
    painter.scale(scale, scale)
    return painter


def _pdf_single(target: Path, bounds: Bounds, title: str, paint: PaintFn) -> tuple[bytes, Rendered]:
    rect = page_rect(bounds, MM_PER_PT)  # PDF page sizes are whole points
    if max(rect.width(), rect.height()) > MAX_PDF_PAGE:
        raise TracksideError(
            f"the board is {rect.width():.0f} x {rect.height():.0f} mm, larger than a PDF page "
            f"may be ({MAX_PDF_PAGE:.0f} mm)",
            Place(str(target)),
            "tile it with --paper a3",
        )
    buffer = memory_buffer()
    writer = pdf_writer(buffer, rect.width(), rect.height(), title)
    painter = _begin_pdf(writer, target)
    painter.translate(-rect.left(), -rect.top())
    paint(painter, rect)
    painter.end()
    return buffer_bytes(buffer), Rendered(target, "pdf", 1, (rect.width(), rect.height()))


def _pdf_tiled(
    target: Path,
    bounds: Bounds,
    title: str,
    paper: str,
    paint: PaintFn,
    style: BoardStyle,
) -> tuple[bytes, Rendered]:
    board = tiled_board(bounds)
    tiling = plan_tiles(board.width(), board.height(), paper)
    check_pages(tiling, str(target))
    buffer = memory_buffer()
    writer = pdf_writer(buffer, tiling.page_w, tiling.page_h, title)
    painter = _begin_pdf(writer, target)
    paint_tiles(painter, writer.newPage, board, tiling, title, paint, style)
    painter.end()
    done = Rendered(target, "pdf", tiling.pages, (tiling.page_w, tiling.page_h), tiling)
    return buffer_bytes(buffer), done


def tiled_board(bounds: Bounds) -> QRectF:
    """The part of the plane a tiled print covers: the board and a little grass (mm)."""
    x0, y0, x1, y1 = bounds
    margin = 4.0  # a little grass round the board even when tiled
    return QRectF(x0 - margin, y0 - margin, x1 - x0 + 2 * margin, y1 - y0 + 2 * margin)


def check_pages(tiling: Tiling, where: str) -> None:
    """Refuse a print of more than ``MAX_PAGES`` pages (coordinates not in mm)."""
    if tiling.pages > MAX_PAGES:
        raise TracksideError(
            f"the board would take {tiling.pages} pages of {tiling.paper}",
            Place(where),
            f"at most {MAX_PAGES}; check the coordinates",
        )


def paint_tiles(
    painter: QPainter,
    new_page: Callable[[], object],
    board: QRectF,
    tiling: Tiling,
    title: str,
    paint: PaintFn,
    style: BoardStyle,
) -> None:
    """Paint ``board`` at true scale over the pages of ``tiling``, with overlap, cut and
    alignment marks and a label on each; ``painter`` is in mm from the page's corner,
    ``new_page`` starts the next page (a PDF writer's or a printer's)."""
    step_x, step_y = tiling.cell_w - OVERLAP, tiling.cell_h - OVERLAP
    covered_w = tiling.cols * step_x + OVERLAP if tiling.cols > 1 else tiling.cell_w
    covered_h = tiling.rows * step_y + OVERLAP if tiling.rows > 1 else tiling.cell_h
    left = board.center().x() - covered_w / 2
    top = board.center().y() - covered_h / 2
    for r in range(tiling.rows):
        for c in range(tiling.cols):
            if r or c:
                new_page()
            cell = QRectF(PAGE_MARGIN, PAGE_MARGIN, tiling.cell_w, tiling.cell_h)
            region = QRectF(left + c * step_x, top + r * step_y, tiling.cell_w, tiling.cell_h)
            painter.save()
            painter.setClipRect(cell)
            painter.translate(cell.left() - region.left(), cell.top() - region.top())
            paint(painter, region)
            painter.restore()
            _page_marks(painter, tiling, r, c, title, style)


def _page_marks(
    painter: QPainter, t: Tiling, r: int, c: int, title: str, style: BoardStyle
) -> None:
    """Cut and alignment lines in the overlaps, crop ticks, and the page label."""
    m = PAGE_MARGIN
    cell = QRectF(m, m, t.cell_w, t.cell_h)
    half = OVERLAP / 2
    cut = QPen(QColor("#202020"), 0.25)
    cut.setDashPattern([8.0, 6.0])  # in pen widths: 2 mm dashes
    align = QPen(QColor("#202020"), 0.25)
    align.setDashPattern([1.0, 6.0])
    painter.save()
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    verticals = []  # (x, is_cut)
    horizontals = []
    if c > 0:
        verticals.append((cell.left() + half, True))
    if c < t.cols - 1:
        verticals.append((cell.right() - half, False))
    if r > 0:
        horizontals.append((cell.top() + half, True))
    if r < t.rows - 1:
        horizontals.append((cell.bottom() - half, False))
    for x, is_cut in verticals:
        painter.setPen(cut if is_cut else align)
        painter.drawLine(QPointF(x, cell.top()), QPointF(x, cell.bottom()))
        _ticks(painter, QPointF(x, cell.top()), QPointF(x, cell.bottom()), vertical=True)
    for y, is_cut in horizontals:
        painter.setPen(cut if is_cut else align)
        painter.drawLine(QPointF(cell.left(), y), QPointF(cell.right(), y))
        _ticks(painter, QPointF(cell.left(), y), QPointF(cell.right(), y), vertical=False)
    painter.setPen(QPen(QColor("#909090"), 0.15))
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.drawRect(cell)
    _footer(painter, t, r, c, title, style)
    painter.restore()


def _ticks(painter: QPainter, a: QPointF, b: QPointF, vertical: bool) -> None:
    """Solid ticks and a target in the margin at both ends of a cut/align line."""
    painter.save()
    painter.setPen(QPen(QColor("#202020"), 0.25))
    painter.setBrush(Qt.BrushStyle.NoBrush)
    for end, sign in ((a, -1), (b, 1)):
        reach = 2.5 if vertical and sign > 0 else 4.5  # short at the bottom, above the footer
        if vertical:
            tip = QPointF(end.x(), end.y() + sign * reach)
        else:
            tip = QPointF(end.x() + sign * reach, end.y())
        painter.drawLine(
            QPointF(
                end.x() + (0 if vertical else sign * 0.8), end.y() + (sign * 0.8 if vertical else 0)
            ),
            tip,
        )
        painter.drawEllipse(tip, 1.0, 1.0)
    painter.restore()


def _footer(painter: QPainter, t: Tiling, r: int, c: int, title: str, style: BoardStyle) -> None:
    """Page label, how to assemble, a 50 mm bar to check the scale, and a map of the pages."""
    top = t.page_h - PAGE_MARGIN - FOOTER
    ink = QColor("#202020")
    family = style.font_family
    # Map of the page grid with this page filled in, at the right.
    cell = min(2.8, 7.5 / t.rows, 30.0 / t.cols)
    mx = t.page_w - PAGE_MARGIN - cell * t.cols
    my = top + 4.2
    painter.setPen(QPen(ink, 0.15))
    for rr in range(t.rows):
        for cc in range(t.cols):
            painter.setBrush(ink if (rr, cc) == (r, c) else QColor("white"))
            painter.drawRect(QRectF(mx + cc * cell, my + rr * cell, cell, cell))
    # Scale bar: 50 mm, to check that the print really is at true scale.
    bar = QRectF(mx - 4.0 - 50.0, top + 7.4, 50.0, 1.3)
    painter.setPen(QPen(ink, 0.2))
    for k in range(5):
        painter.setBrush(ink if k % 2 == 0 else QColor("white"))
        painter.drawRect(QRectF(bar.left() + 10 * k, bar.top(), 10.0, bar.height()))
    draw_text(painter, "50 mm", QPointF(bar.center().x(), top + 5.6), 1.6, ink, family=family)
    room = bar.left() - 4.0 - PAGE_MARGIN
    where = (
        f" - page {r * t.cols + c + 1} of {t.pages}: "
        f"row {r + 1} of {t.rows}, column {c + 1} of {t.cols}"
    )
    # A long name is cut short, not the whole line shrunk to fit it.
    name_room = room - text_width(where, 2.4, True, family)
    label = "".join(wrap_text(title, 2.4, name_room, bold=True, family=family)) + where
    note = (
        "Print at 100 % (actual size). Trim along dashed lines; lay on the neighbour's dotted line."
    )
    _margin_line(painter, label, top + 5.8, 2.4, room, ink, bold=True, family=family)
    _margin_line(painter, note, top + 9.0, 1.6, room, ink, bold=False, family=family)


def _margin_line(
    painter: QPainter,
    text: str,
    y: float,
    height: float,
    room: float,
    colour: QColor,
    *,
    bold: bool,
    family: str,
) -> None:
    """``text`` from the page margin at ``y``, ``height`` mm high, or lower if that is
    needed for it to fit in ``room`` mm."""
    width = text_width(text, height, bold, family)
    if width > room:
        height *= room / width
        width = text_width(text, height, bold, family)
    centre = QPointF(PAGE_MARGIN + width / 2, y)
    draw_text(painter, text, centre, height, colour, bold=bold, family=family)


def _drawable_size(bounds: tuple[float, float, float, float]) -> bool:
    """True when the board (x0, y0, x1, y1) is a finite area at least a millimetre across."""
    x0, y0, x1, y1 = bounds
    return all(math.isfinite(v) for v in bounds) and min(x1 - x0, y1 - y0) >= 1.0
