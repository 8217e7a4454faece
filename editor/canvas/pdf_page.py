"""One page of a PDF as a picture (a board scan kept as a PDF, under the spaces).

PDFium (pypdfium2) is imported only when a PDF is opened, so the editor starts
without it. Sizes are in PDF points (1/72 inch): a PDF background's
``mm_per_pixel`` is millimetres per point, whatever resolution the page is
rendered at, so re-rendering sharper never moves or scales it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtGui import QImage

# Rendered pixels: about 0.1 mm each at the scale the designer set (sharp when zoomed in),
# but never more than this on the long side (a 6000 x 6000 page is about 100 MB).
SHARP_MM_PER_PIXEL = 0.1
MAX_SIDE_PX = 6000
MIN_PIXELS_PER_POINT = 0.25


class PdfProblem(Exception):
    """A PDF that cannot be shown: ``str()`` says what is wrong, ``fix`` what to do."""

    def __init__(self, text: str, fix: str):
        super().__init__(text)
        self.fix = fix


@dataclass(frozen=True)
class PageSize:
    """A page's size as shown (its rotation applied), in points."""

    width: float
    height: float

    def describe(self) -> str:
        """'210 x 297 mm'."""
        mm = 25.4 / 72
        return f"{self.width * mm:.0f} x {self.height * mm:.0f} mm"


def is_pdf(path: str | Path) -> bool:
    """Whether ``path`` names a PDF (by its name, or failing that its first bytes)."""
    path = Path(path)
    if path.suffix.lower() == ".pdf":
        return True
    try:
        with path.open("rb") as stream:
            return stream.read(5) == b"%PDF-"
    except OSError:
        return False


def page_sizes(path: str | Path) -> list[PageSize]:
    """The size of every page of the PDF in ``path``; PdfProblem if it cannot be read."""
    import pypdfium2 as pdfium

    with _open(path) as document:
        try:
            return [PageSize(*document.get_page_size(i)) for i in range(len(document))]
        except pdfium.PdfiumError:
            raise _damaged(Path(path).name) from None


def pixels_per_point(size: PageSize, mm_per_point: float) -> float:
    """The render resolution that is sharp at ``mm_per_point`` and bounded in memory."""
    wanted = mm_per_point / SHARP_MM_PER_PIXEL
    bound = MAX_SIDE_PX / max(size.width, size.height, 1.0)
    return max(min(wanted, bound), min(MIN_PIXELS_PER_POINT, bound))


def render_page(path: str | Path, page: int, scale: float) -> QImage:
    """Page ``page`` (1 for the first) at ``scale`` pixels per point, on white."""
    import pypdfium2 as pdfium

    with _open(path) as document:
        if not 1 <= page <= len(document):
            raise PdfProblem(
                f"{Path(path).name} has {_pages(len(document))}; page {page} is not there.",
                "Choose another with View > Background > PDF Page…, "
                "or import the background again.",
            )
        try:
            bitmap = document[page - 1].render(
                scale=scale, fill_color=(255, 255, 255, 255), rev_byteorder=True
            )
        except pdfium.PdfiumError:
            raise _damaged(Path(path).name) from None
        image = QImage(
            memoryview(bitmap.buffer).cast("B"),
            bitmap.width,
            bitmap.height,
            bitmap.stride,
            QImage.Format.Format_RGB888,
        )
        # Its own pixels (PDFium's go when the document closes), in the format a pixmap
        # takes without another copy.
        return image.convertToFormat(QImage.Format.Format_RGB32)


def _pages(count: int) -> str:
    return "1 page" if count == 1 else f"{count} pages"


def _open(path: str | Path):
    """The PDF document in ``path``, or PdfProblem saying why not and what to do."""
    import pypdfium2 as pdfium

    name = Path(path).name
    try:
        document = pdfium.PdfDocument(Path(path))
    except FileNotFoundError:
        raise PdfProblem(
            f"{name} is not there ({path}).",
            "Put the PDF back, or import the background again from where it is now.",
        ) from None
    except OSError as error:
        raise PdfProblem(
            f"{name} cannot be read: {error.strerror or error}.", "Check the file's permissions."
        ) from None
    except pdfium.PdfiumError as error:
        raise _problem(path, error.err_code) from None
    if len(document) == 0:
        document.close()
        raise _no_pages(name)
    return document


def _problem(path: str | Path, code: int | None) -> PdfProblem:
    """Why PDFium opened no document. Its error code is the last one it set, which may
    be an earlier file's (a file without pages sets none), so the file itself is asked too."""
    import pypdfium2.raw as pdfium_c

    name = Path(path).name
    try:
        data = Path(path).read_bytes()
    except OSError:
        data = b""
    if code in (pdfium_c.FPDF_ERR_PASSWORD, pdfium_c.FPDF_ERR_SECURITY) and b"/Encrypt" in data:
        return PdfProblem(
            f"{name} is protected by a password.",
            "Save an unprotected copy of it (or export the page as a PNG) and import that.",
        )
    if re.search(rb"/Count\s*0\b", data) and not re.search(rb"/Count\s*[1-9]", data):
        return _no_pages(name)
    return _damaged(name)


def _damaged(name: str) -> PdfProblem:
    return PdfProblem(
        f"{name} is damaged or is no PDF.",
        "Open it in a PDF viewer to check it, or export the page as a PNG and import that.",
    )


def _no_pages(name: str) -> PdfProblem:
    return PdfProblem(f"{name} has no pages.", "Import a PDF with the board on a page.")
