"""The canvas view: zoom around the cursor, pan, fit, and the millimetre grid."""

from __future__ import annotations

import math

from PySide6.QtCore import QEvent, QPoint, QPointF, QRect, QRectF, Qt, Signal
from PySide6.QtGui import QColor, QCursor, QKeyEvent, QMouseEvent, QPainter, QPen, QWheelEvent
from PySide6.QtWidgets import QGraphicsView, QWidget

from trackside.editor.canvas.scene import TrackScene

MIN_SCALE, MAX_SCALE = 0.05, 80.0  # screen pixels per mm
ZOOM_STEP = 1.2
BACKGROUND = QColor("#23272e")
MINOR = QColor(255, 255, 255, 18)
MAJOR = QColor(255, 255, 255, 42)
AXIS = QColor(255, 255, 255, 70)


def grid_steps(pixels_per_mm: float) -> tuple[float, float]:
    """Minor and major grid spacing in mm so that minor lines are at least 8 px apart."""
    for minor, major in ((1, 10), (5, 50), (10, 100), (50, 500), (100, 1000), (500, 5000)):
        if minor * pixels_per_mm >= 8:
            return float(minor), float(major)
    return 1000.0, 10000.0


class CanvasView(QGraphicsView):
    """A view of a ``TrackScene`` with Inkscape-like navigation."""

    zoomChanged = Signal(float)  # pixels per mm

    def __init__(self, scene: TrackScene, parent: QWidget | None = None):
        super().__init__(scene, parent)
        self.track_scene = scene  # a view does not own its scene (QT-NOTES.md)
        self._show_grid = True
        self._show_empty_hint = True  # off while a start page covers the empty canvas
        self.setRenderHints(
            QPainter.RenderHint.Antialiasing
            | QPainter.RenderHint.TextAntialiasing
            | QPainter.RenderHint.SmoothPixmapTransform
        )
        self.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.SmartViewportUpdate)
        # The grid is drawn once per zoom into a picture that repaints blit (Qt keeps it
        # through scrolls and drops it on a zoom or resize). Drawn each time, its long
        # lines cost most of a whole repaint and some of every small one (a hover).
        self.setCacheMode(QGraphicsView.CacheModeFlag.CacheBackground)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self.setResizeAnchor(QGraphicsView.ViewportAnchor.AnchorViewCenter)
        self.setDragMode(QGraphicsView.DragMode.NoDrag)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.viewport().setMouseTracking(True)
        self.setMouseTracking(True)
        self._space_held = False
        self._panning: QPoint | None = None
        self.setBackgroundBrush(BACKGROUND)
        self.setFrameShape(QGraphicsView.Shape.NoFrame)

    @property
    def show_grid(self) -> bool:
        """Whether the millimetre grid is drawn under the track."""
        return self._show_grid

    @show_grid.setter
    def show_grid(self, on: bool) -> None:
        self._show_grid = on
        self.resetCachedContent()  # the cached background holds the grid, or not
        self.viewport().update()

    @property
    def show_empty_hint(self) -> bool:
        """Whether an empty canvas says how to begin (not while a start page covers it)."""
        return self._show_empty_hint

    @show_empty_hint.setter
    def show_empty_hint(self, on: bool) -> None:
        if on != self._show_empty_hint:
            self._show_empty_hint = on
            self.viewport().update()

    # -- zoom --------------------------------------------------------------
    def scale_factor(self) -> float:
        """Current zoom in screen pixels per mm."""
        return self.transform().m11()

    def zoom_by(self, factor: float, anchor: QPointF | None = None) -> None:
        """Zoom by ``factor`` keeping the scene point under ``anchor`` (view pixels) still."""
        current = self.scale_factor()
        factor = max(MIN_SCALE / current, min(MAX_SCALE / current, factor))
        if anchor is None:
            anchor = QPointF(self.viewport().rect().center())
        before = self.mapToScene(anchor.toPoint())
        old = self.transformationAnchor()
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.NoAnchor)
        self.scale(factor, factor)
        after = self.mapToScene(anchor.toPoint())
        delta = after - before
        self.translate(delta.x(), delta.y())
        self.setTransformationAnchor(old)
        self.zoomChanged.emit(self.scale_factor())

    def set_zoom(self, pixels_per_mm: float) -> None:
        """Set the zoom (1.0 = one pixel per mm) around the view centre."""
        self.zoom_by(pixels_per_mm / self.scale_factor())

    def fit_to_view(self) -> None:
        """Show the whole track with a small margin."""
        rect = self.track_scene.track_rect()
        pad = max(rect.width(), rect.height()) * 0.05 + 10
        self.fitInView(rect.adjusted(-pad, -pad, pad, pad), Qt.AspectRatioMode.KeepAspectRatio)
        self.zoomChanged.emit(self.scale_factor())

    def centre_on_rect(self, rect: QRectF) -> None:
        """Scroll so ``rect`` (mm) is in the middle; zoom out if it does not fit."""
        view = self.mapToScene(self.viewport().rect()).boundingRect()
        if rect.width() > view.width() * 0.9 or rect.height() > view.height() * 0.9:
            pad = max(rect.width(), rect.height()) * 0.3 + 20
            self.fitInView(rect.adjusted(-pad, -pad, pad, pad), Qt.AspectRatioMode.KeepAspectRatio)
            self.zoomChanged.emit(self.scale_factor())
        self.centerOn(rect.center())

    def wheelEvent(self, event: QWheelEvent) -> None:
        steps = event.angleDelta().y() / 120.0
        if steps == 0:
            steps = event.pixelDelta().y() / 60.0
        if steps:
            self.zoom_by(ZOOM_STEP**steps, event.position())
        event.accept()

    # -- pan ---------------------------------------------------------------
    def _start_pan(self, pos: QPoint) -> None:
        self._panning = pos
        self.viewport().setCursor(Qt.CursorShape.ClosedHandCursor)

    def _restore_cursor(self) -> None:
        if self._space_held:
            self.viewport().setCursor(Qt.CursorShape.OpenHandCursor)
        elif self.track_scene.tool is not None:
            self.viewport().setCursor(self.track_scene.tool.cursor())
        else:
            self.viewport().unsetCursor()

    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.MiddleButton or (
            event.button() == Qt.MouseButton.LeftButton and self._space_held
        ):
            self._start_pan(event.position().toPoint())
            event.accept()
            return
        self.setFocus()
        super().mousePressEvent(event)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        if self._panning is not None:
            pos = event.position().toPoint()
            delta = pos - self._panning
            self._panning = pos
            self.horizontalScrollBar().setValue(self.horizontalScrollBar().value() - delta.x())
            self.verticalScrollBar().setValue(self.verticalScrollBar().value() - delta.y())
            event.accept()
            return
        super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        if self._panning is not None and event.button() in (
            Qt.MouseButton.MiddleButton,
            Qt.MouseButton.LeftButton,
        ):
            self._panning = None
            self._restore_cursor()
            event.accept()
            return
        super().mouseReleaseEvent(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Space:
            if not event.isAutoRepeat():
                self._space_held = True
                self.viewport().setCursor(Qt.CursorShape.OpenHandCursor)
            event.accept()
            return
        super().keyPressEvent(event)

    def keyReleaseEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Space and not event.isAutoRepeat():
            self._space_held = False
            if self._panning is None:
                self._restore_cursor()
            event.accept()
            return
        super().keyReleaseEvent(event)

    def viewportEvent(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Leave and self.track_scene.tool is not None:
            inside = self.viewport().rect().contains(self.viewport().mapFromGlobal(QCursor.pos()))
            if not inside:  # Qt also sends Leave when a popup or another window takes the mouse
                self.track_scene.tool.pointer_left()
        return super().viewportEvent(event)

    def focusOutEvent(self, event) -> None:
        self._space_held = False
        super().focusOutEvent(event)

    # -- empty page ------------------------------------------------------------
    def drawForeground(self, painter: QPainter, rect: QRectF | QRect) -> None:
        if (
            self.track_scene.space_items
            or self.track_scene.tool is None
            or not self.show_empty_hint
            or self.track_scene.doc.track.background is not None  # a picture to trace over
        ):
            return
        if self.track_scene.tool.name not in ("select",):
            return
        painter.save()
        painter.resetTransform()
        area = self.viewport().rect()
        font = painter.font()
        font.setPointSizeF(font.pointSizeF() * 1.3)
        painter.setFont(font)
        painter.setPen(QColor(255, 255, 255, 120))
        painter.drawText(
            area,
            Qt.AlignmentFlag.AlignCenter,
            "An empty page\n\nDraw spaces corner by corner with Space (P),\n"
            "lay out whole lanes with Lanes (L),\n"
            "or start from a bundled circuit: File ▸ New from Circuit",
        )
        painter.restore()

    # -- grid ------------------------------------------------------------------
    def drawBackground(self, painter: QPainter, exposed: QRectF | QRect) -> None:
        rect = QRectF(exposed)
        painter.fillRect(rect, BACKGROUND)
        if not self.show_grid:
            return
        minor, major = grid_steps(self.scale_factor())
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        for step, colour in ((minor, MINOR), (major, MAJOR)):
            pen = QPen(colour, 1)
            pen.setCosmetic(True)
            painter.setPen(pen)
            x = math.floor(rect.left() / step) * step
            while x <= rect.right():
                painter.drawLine(QPointF(x, rect.top()), QPointF(x, rect.bottom()))
                x += step
            y = math.floor(rect.top() / step) * step
            while y <= rect.bottom():
                painter.drawLine(QPointF(rect.left(), y), QPointF(rect.right(), y))
                y += step
        pen = QPen(AXIS, 1)
        pen.setCosmetic(True)
        painter.setPen(pen)
        painter.drawLine(QPointF(0, rect.top()), QPointF(0, rect.bottom()))
        painter.drawLine(QPointF(rect.left(), 0), QPointF(rect.right(), 0))
        painter.restore()
