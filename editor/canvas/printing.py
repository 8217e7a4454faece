"""Printing on a printer: the board at true scale tiled over the printer's paper, and a
one-page calibration sheet (a 100 mm ruler and one space at its printed size) to check
the printer's scale before a whole board goes through it.

The board pages are the tiled PDF's pages (``render.paint_tiles``), planned for the
paper chosen in the print dialog. A printer set to print to a file (and the calibration
sheet exported as a PDF) is drawn by a ``QPdfWriter`` into memory and written by
``engine.writer``, so a full disk or a folder that cannot be written is said, never a
file left empty.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import QBuffer, QMarginsF, QPointF, QRectF
from PySide6.QtGui import (
    QBrush,
    QColor,
    QPagedPaintDevice,
    QPageLayout,
    QPageSize,
    QPaintDevice,
    QPainter,
    QPen,
)
from PySide6.QtPrintSupport import QPrinter

from trackside.editor.canvas.painting import (
    DEFAULT_STYLE,
    BoardStyle,
    draw_text,
    paint_space,
    text_width,
)
from trackside.editor.canvas.render import (
    PAPERS,
    PDF_DPI,
    board_painter,
    buffer_bytes,
    check_pages,
    memory_buffer,
    paint_tiles,
    pdf_writer,
    plan_tiles_on,
    tiled_board,
)
from trackside.engine.errors import Place, UnwritableOutput
from trackside.engine.track.geometry import is_rectangle
from trackside.engine.track.model import Space, Track
from trackside.engine.track.transform import upright
from trackside.engine.writer import check_complete, check_writable, write_bytes

RULER_MM = 100.0
INK = QColor("#202020")


def print_board(
    track: Track, printer: QPrinter, *, show_racing_line: bool = False, grass: bool = True
) -> int:
    """Print the board at true scale over as many of the printer's pages as needed, in
    the orientation that needs fewer (on white paper with ``grass`` False); returns the
    number of pages. A printer set to print to a PDF file writes it through
    ``engine.writer``."""
    bounds, paint = board_painter(track, show_racing_line=show_racing_line, grass=grass)
    board = tiled_board(bounds)
    size = printer.pageLayout().pageSize()
    paper = size.size(QPageSize.Unit.Millimeter)
    w, h = sorted((paper.width(), paper.height()))
    tiling = plan_tiles_on(board.width(), board.height(), size.name() or "paper", w, h)
    check_pages(tiling, printer.printerName() or printer.outputFileName() or "the printer")
    target = print_file(printer)
    if target is not None:
        check_writable(target, "the printed file")
        buffer = memory_buffer()
        device: QPagedPaintDevice = pdf_writer(buffer, w, h, track.name)
        device.setPageSize(size)
    else:
        printer.setFullPage(True)  # the pages keep their own margins (render.PAGE_MARGIN)
        device = printer
    device.setPageOrientation(
        QPageLayout.Orientation.Landscape if tiling.landscape else QPageLayout.Orientation.Portrait
    )
    device.setPageMargins(QMarginsF(0, 0, 0, 0), QPageLayout.Unit.Millimeter)
    painter = _begin(device, printer.resolution() if target is None else PDF_DPI)
    paint_tiles(painter, device.newPage, board, tiling, track.name, paint, DEFAULT_STYLE)
    painter.end()
    if target is not None:
        _write_pdf(buffer, target)
    return tiling.pages


def print_calibration(track: Track, printer: QPrinter) -> None:
    """Print the calibration sheet on one page of the printer's paper (or to the PDF
    file the printer is set to print to)."""
    target = print_file(printer)
    if target is not None:
        page = printer.pageLayout().fullRect(QPageLayout.Unit.Millimeter)
        _calibration_file(track, target, page.width(), page.height())
        return
    printer.setFullPage(True)
    printer.setPageMargins(QMarginsF(0, 0, 0, 0), QPageLayout.Unit.Millimeter)
    page = printer.pageLayout().fullRect(QPageLayout.Unit.Millimeter)
    painter = _begin(printer, printer.resolution())
    paint_calibration(painter, page.width(), page.height(), track)
    painter.end()


def print_file(printer: QPrinter) -> Path | None:
    """The PDF file a printer is set to print to (Print to File), or None for paper."""
    if printer.outputFormat() != QPrinter.OutputFormat.PdfFormat:
        return None
    return Path(printer.outputFileName()) if printer.outputFileName() else None


def calibration_pdf(track: Track, path: str | Path, paper: str = "a4") -> Path:
    """Write the calibration sheet as a one-page PDF of ``paper`` (a4, letter, a3)."""
    w, h = PAPERS.get(paper, PAPERS["a4"])
    return _calibration_file(track, Path(path), w, h)


def _calibration_file(track: Track, target: Path, w: float, h: float) -> Path:
    check_writable(target, "the calibration sheet")
    buffer = memory_buffer()
    writer = pdf_writer(buffer, w, h, f"{track.name}: print check")
    painter = _begin(writer, writer.resolution(), str(target))
    paint_calibration(painter, w, h, track)
    painter.end()
    _write_pdf(buffer, target)
    return target


def _write_pdf(buffer: QBuffer, target: Path) -> None:
    data = buffer_bytes(buffer)
    check_complete(data, "pdf", target)
    write_bytes(target, data, "the PDF")


def _begin(device: QPaintDevice, dpi: int, where: str = "the printer") -> QPainter:
    painter = QPainter()
    if not painter.begin(device):
        raise UnwritableOutput("cannot start printing", Place(where), "check the printer")
    painter.scale(dpi / 25.4, dpi / 25.4)  # millimetres from the paper's corner
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    return painter


def sample_space(track: Track) -> Space | None:
    """The space the sheet shows: a typical one (the median size; rectangular if any)."""
    usable = [sp for sp in track.spaces if len(sp.corners) >= 3]
    if not usable:
        return None
    rectangles = [sp for sp in usable if is_rectangle(sp.corners)]
    pool = sorted(rectangles or usable, key=_area)
    return pool[len(pool) // 2]


def sheet_space(track: Track) -> Space | None:
    """The sample space as the sheet draws it: turned level (its sides along the page's
    edges), so that a ruler checks its real length and width, not a tilted box."""
    space = sample_space(track)
    if space is None:
        return None
    return replace(space, corners=upright(space.corners))


def paint_calibration(
    painter: QPainter, page_w: float, page_h: float, track: Track, style: BoardStyle = DEFAULT_STYLE
) -> None:
    """The sheet on a page of ``page_w`` x ``page_h`` mm, painter in mm from its corner."""
    left = 20.0
    family = style.font_family

    def draw(text: str, x: float, y: float, size: float, bold: bool = False) -> None:
        _left(painter, text, x, y, size, bold, family)

    draw("Print check", left, 25, 6.0, True)
    draw(f"for {track.name}", left, 34, 3.2)
    draw("1. Measure the ruler with a real one: it must be exactly 100 mm.", left, 46, 2.6)
    draw(
        "2. If it is not, print at 100 % (actual size, no fit to page) and try again.",
        left,
        52,
        2.6,
    )
    draw("3. Then print the board the same way: File > Print.", left, 58, 2.6)
    _ruler(painter, QPointF(left, 72), family)
    space = sheet_space(track)
    if space is None:
        draw("The circuit has no spaces yet: only the ruler to check.", left, 110, 2.6)
        return
    rectangular = is_rectangle(space.corners)
    xs = [float(x) for x, _ in space.corners]
    ys = [float(y) for _, y in space.corners]
    w, h = max(xs) - min(xs), max(ys) - min(ys)
    sides = "its two sides" if rectangular else "the box around it"
    draw(f"Space {space.id} at its printed size: {w:.1f} x {h:.1f} mm ({sides})", left, 108, 2.6)
    scale = min(1.0, (page_w - 2 * left) / max(w, 1e-9), (page_h - 150) / max(h, 1e-9))
    if scale < 1.0:  # a space larger than the page: say so rather than print it wrong
        draw("(too large for this page: shown smaller, do not measure it)", left, 114, 2.2)
    top = 122.0
    painter.save()
    painter.translate(left + 10, top)
    painter.scale(scale, scale)
    painter.translate(-min(xs), -min(ys))
    paint_space(painter, space, style, rectangular=rectangular, show_id=True)
    painter.restore()
    _dimension(painter, left + 10, top - 3, left + 10 + w * scale, f"{w:.1f} mm", family)
    _dimension_v(painter, left + 6, top, top + h * scale, f"{h:.1f} mm", family)


def _ruler(painter: QPainter, at: QPointF, family: str) -> None:
    """A 100 mm ruler with millimetre ticks, numbered every centimetre."""
    painter.save()
    painter.setPen(QPen(INK, 0.2))
    painter.setBrush(QBrush(QColor("#ffffff")))
    painter.drawRect(QRectF(at.x() - 3, at.y() - 2, RULER_MM + 6, 16))
    painter.setPen(QPen(INK, 0.15))
    for mm in range(int(RULER_MM) + 1):
        length = 8.0 if mm % 10 == 0 else 5.5 if mm % 5 == 0 else 3.5
        x = at.x() + mm
        painter.drawLine(QPointF(x, at.y()), QPointF(x, at.y() + length))
        if mm % 10 == 0:
            draw_text(painter, str(mm // 10), QPointF(x, at.y() + 10.5), 2.2, INK, family=family)
    painter.setPen(QPen(INK, 0.3))
    painter.drawLine(at, QPointF(at.x() + RULER_MM, at.y()))
    painter.restore()
    _left(painter, "cm", at.x() + RULER_MM + 5, at.y() + 10.5, 2.2, False, family)
    _left(painter, "100 mm", at.x() + RULER_MM / 2 - 5, at.y() + 19, 2.4, True, family)


def _dimension(painter: QPainter, x0: float, y: float, x1: float, text: str, family: str) -> None:
    painter.save()
    painter.setPen(QPen(INK, 0.2))
    painter.drawLine(QPointF(x0, y), QPointF(x1, y))
    for x in (x0, x1):
        painter.drawLine(QPointF(x, y - 1.5), QPointF(x, y + 1.5))
    painter.restore()
    draw_text(painter, text, QPointF((x0 + x1) / 2, y - 2.5), 2.2, INK, family=family)


def _dimension_v(painter: QPainter, x: float, y0: float, y1: float, text: str, family: str) -> None:
    painter.save()
    painter.setPen(QPen(INK, 0.2))
    painter.drawLine(QPointF(x, y0), QPointF(x, y1))
    for y in (y0, y1):
        painter.drawLine(QPointF(x - 1.5, y), QPointF(x + 1.5, y))
    painter.translate(x - 2.5, (y0 + y1) / 2)
    painter.rotate(-90)
    draw_text(painter, text, QPointF(0, 0), 2.2, INK, family=family)
    painter.restore()


def _left(
    painter: QPainter, text: str, x: float, y: float, size: float, bold: bool, family: str
) -> None:
    width = text_width(text, size, bold, family)
    draw_text(painter, text, QPointF(x + width / 2, y), size, INK, bold=bold, family=family)


def _area(space: Space) -> float:
    pts = [(float(x), float(y)) for x, y in space.corners]
    return abs(
        sum(a[0] * b[1] - b[0] * a[1] for a, b in zip(pts, pts[1:] + pts[:1], strict=True)) / 2
    )
