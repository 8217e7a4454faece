"""The picture under the spaces (File > Import Background): a scan or photo to trace over.

It follows the document's ``background`` (path, top-left corner in mm, millimetres
per pixel, opacity, hidden). It is drawn on the canvas only: exports and prints
come from the track, never from the scene, so it is never printed.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QPixmap
from PySide6.QtWidgets import QGraphicsPixmapItem

from trackside.editor.canvas.items import Z_SURFACE
from trackside.editor.document.track_document import TrackDocument


def image_file(doc: TrackDocument) -> Path | None:
    """The background's image file, a relative path taken from the track file's folder."""
    background = doc.track.background
    if background is None:
        return None
    path = Path(background.path)
    if not path.is_absolute() and doc.path:
        path = Path(doc.path).parent / path
    return path


class BackgroundItem(QGraphicsPixmapItem):
    """Shows the document's background picture at its place and scale."""

    def __init__(self, doc: TrackDocument) -> None:
        super().__init__()
        self.doc = doc
        self.setZValue(Z_SURFACE - 10)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.loaded: Path | None = None
        self.missing = False  # the file named cannot be read
        doc.backgroundChanged.connect(self.refresh)
        doc.trackReplaced.connect(self.refresh)
        doc.pathChanged.connect(lambda _path: self.refresh())
        self.refresh()

    def refresh(self) -> None:
        """Follow the document: load the picture if it changed, then place it."""
        background = self.doc.track.background
        path = image_file(self.doc)
        if path != self.loaded:
            self.loaded = path
            pixmap = QPixmap(str(path)) if path is not None else QPixmap()
            self.missing = path is not None and pixmap.isNull()
            self.setPixmap(pixmap)
        if background is None or self.missing:
            self.setVisible(False)
            return
        self.setPos(QPointF(float(background.at[0]), float(background.at[1])))
        self.setScale(float(background.mm_per_pixel))
        self.setOpacity(float(background.opacity))
        self.setVisible(not background.hidden)

    def scene_rect(self) -> QRectF:
        """Where the picture lies, in mm (empty without one)."""
        return self.sceneBoundingRect() if not self.pixmap().isNull() else QRectF()
