"""A hand of speed cards drawn like the printed ones: colour rows with numbers.

``CardButton`` paints one card (top row first, WILD rows white, a Speed-8 card
one tall row) and is clicked like a button; ``HandWidget`` lays out a hand,
enables only the cards that are legal now and emits ``cardClicked(card_id)``.
A card to play may carry what it would do now (``engine/game/preview.py``): its
line shows in the status bar and the tooltip while the pointer is on the card,
and its rows are marked there ("blocked", "only 2", "finish").
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QFont, QPainter, QPaintEvent, QPen, QStatusTipEvent
from PySide6.QtWidgets import (
    QAbstractButton,
    QApplication,
    QFrame,
    QHBoxLayout,
    QLabel,
    QScrollArea,
    QWidget,
)

from trackside.editor.play.cars import car_colour, ink
from trackside.engine.game import Card
from trackside.engine.game.preview import CardPreview

CARD_W, CARD_H = 92, 132
# A preview row's outcome (``RowPreview.outcome``) as a mark on the row; a row that
# goes its full number, or a WILD row, has none.
ROW_MARKS = {
    "finished": "done",
    "blocked": "blocked",
    "finishes": "finish",
    "short": "only {moved}",
    "more": "up to {moved}",
}


class CardButton(QAbstractButton):
    """One speed card; ``note`` is a line under it (a bid value, 'face up')."""

    def __init__(self, card: Card, note: str = "", parent: QWidget | None = None):
        super().__init__(parent)
        self.card = card
        self.note = note
        self.setCheckable(False)
        self.setFixedSize(CARD_W, CARD_H + (16 if note else 0))
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.setToolTip(str(card))
        self.setAccessibleName(str(card))
        self.struck: set[int] = set()
        self.done: set[int] = set()
        self.current: int | None = None
        self.named: dict[int, str] = {}
        self.readonly = False
        self.preview: CardPreview | None = None

    def set_preview(self, preview: CardPreview | None, words: str = "") -> None:
        """What the card would do if played now (None: nothing said), in ``words``
        for the status bar and the tooltip, and as marks on its rows while the
        pointer or the keyboard is on it."""
        self.preview = preview
        self.setStatusTip(words)
        self.setToolTip(f"{self.card}\n{words}" if words else str(self.card))
        self.update()

    def row_marks(self) -> dict[int, str]:
        """The mark on each row the card's preview tells of: "blocked" (its car would
        not move), "only 2" (it would stop short), "finish", "done" (finished
        already), "up to 7" (more than printed: Aggressive, Determined)."""
        if self.preview is None:
            return {}
        return {
            k: ROW_MARKS[row.outcome].format(moved=row.moved)
            for k, row in enumerate(self.preview.rows)
            if row.outcome in ROW_MARKS
        }

    def set_readonly(self, readonly: bool) -> None:
        """Shown to be read, never clicked (a hand between turns): disabled, but
        drawn bright rather than dimmed."""
        self.readonly = readonly
        if readonly:
            self.setEnabled(False)
        self.update()

    def mark_rows(
        self,
        struck: set[int],
        done: set[int],
        current: int | None = None,
        named: dict[int, str] | None = None,
    ) -> None:
        """A card in play: strike skipped rows, dim rows already resolved, ring the
        row moving now, and paint each WILD row in the colour of the car it names."""
        self.struck, self.done, self.current = set(struck), set(done), current
        self.named = dict(named or {})
        self.update()

    def sizeHint(self) -> QSize:
        return self.size()

    def paintEvent(self, event: QPaintEvent) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        enabled = self.isEnabled()
        hover = self.underMouse() and enabled
        outer = QRectF(1.5, 1.5, CARD_W - 3, CARD_H - 3)
        frame = QColor("#ffe14d") if hover else QColor("#d9d9d2")
        p.setPen(QPen(frame, 2.5 if hover else 1.2))
        p.setBrush(QColor("#2a2d33") if not self.card.speed8 else QColor("#3a2f14"))
        p.drawRoundedRect(outer, 8, 8)
        rows = self.card.rows
        marks = self.row_marks()
        shown_marks = enabled and (hover or self.hasFocus())
        inner = outer.adjusted(6, 8, -6, -8)
        gap = 4.0
        h = (inner.height() - gap * (len(rows) - 1)) / max(1, len(rows))
        font = QFont(self.font())
        for k, (colour, n) in enumerate(rows):
            r = QRectF(inner.left(), inner.top() + k * (h + gap), inner.width(), h)
            # A WILD row that names a car takes that car's colour, edged in dashed white.
            shown = self.named.get(k, colour) if colour == "wild" else colour
            p.setPen(QPen(QColor("#111111"), 0.8))
            p.setBrush(car_colour(shown))
            p.drawRoundedRect(r, 4, 4)
            if shown != colour:
                edge = QPen(QColor("#f4f4f0"), 2)
                edge.setStyle(Qt.PenStyle.DashLine)
                p.setPen(edge)
                p.setBrush(Qt.BrushStyle.NoBrush)
                p.drawRoundedRect(r.adjusted(1.5, 1.5, -1.5, -1.5), 3, 3)
            font.setBold(True)
            font.setPixelSize(int(max(9, min(h * 0.7, 40))))
            p.setFont(font)
            p.setPen(ink(shown))
            if self.card.speed8:
                font.setPixelSize(56)
                p.setFont(font)
                p.drawText(r.adjusted(0, 18, 0, 0), Qt.AlignmentFlag.AlignCenter, str(n))
            else:
                p.drawText(
                    r.adjusted(0, 0, -6, 0),
                    Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignRight,
                    str(n),
                )
            font.setPixelSize(int(max(8, min(h * 0.42, 13))))
            p.setFont(font)
            if self.card.speed8:  # one tall row: the word on top, the car beneath
                p.drawText(
                    r.adjusted(0, 8, 0, 0),
                    Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignHCenter,
                    "SPEED",
                )
            elif colour == "wild":
                p.drawText(
                    r.adjusted(6, 0, 0, 0),
                    Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft,
                    "WILD",
                )
            else:
                self._car_icon(p, r, colour)
            if k in self.done:
                p.setPen(Qt.PenStyle.NoPen)
                p.setBrush(QColor(20, 22, 26, 150))
                p.drawRoundedRect(r, 4, 4)
            if k == self.current:
                p.setPen(QPen(QColor("#ffe14d"), 3))
                p.setBrush(Qt.BrushStyle.NoBrush)
                p.drawRoundedRect(r.adjusted(-2, -2, 2, 2), 5, 5)
            if shown_marks and k in marks:
                self._mark(p, r, marks[k])
            if k in self.struck:
                a, b = r.bottomLeft() + QPointF(4, -3), r.topRight() + QPointF(-4, 3)
                p.setPen(QPen(QColor("#111111"), 5))
                p.drawLine(a, b)
                p.setPen(QPen(QColor("#ffffff"), 2.5))
                p.drawLine(a, b)
        if self.note:
            font.setBold(False)
            font.setPixelSize(12)
            p.setFont(font)
            p.setPen(QColor("#dfe3ea"))
            p.drawText(QRectF(0, CARD_H, CARD_W, 16), Qt.AlignmentFlag.AlignCenter, self.note)
        if not enabled and not self.readonly:
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(QColor(30, 33, 38, 150))
            p.drawRoundedRect(outer, 8, 8)
        p.end()

    @staticmethod
    def _mark(painter: QPainter, r: QRectF, text: str) -> None:
        """A row's preview mark: a dark tag over the row's left, edged red when the
        car would not move."""
        font = QFont(painter.font())
        font.setBold(True)
        font.setPixelSize(int(max(8, min(r.height() * 0.5, 11))))
        painter.setFont(font)
        width = painter.fontMetrics().horizontalAdvance(text) + 8
        height = min(r.height() - 2, font.pixelSize() + 5)
        tag = QRectF(r.left() + 2, r.center().y() - height / 2, width, height)
        painter.setPen(QPen(QColor("#ff5a5f") if text == "blocked" else QColor("#f4f4f0"), 1.2))
        painter.setBrush(QColor(17, 19, 23, 225))
        painter.drawRoundedRect(tag, 3, 3)
        painter.setPen(QColor("#ffffff"))
        painter.drawText(tag, Qt.AlignmentFlag.AlignCenter, text)

    @staticmethod
    def _car_icon(painter: QPainter, r: QRectF, colour: str) -> None:
        """A small car silhouette at the left of a row, so colours read without text."""
        h = min(r.height() * 0.5, 12)
        body = QRectF(r.left() + 6, r.center().y() - h / 2, h * 2.0, h)
        painter.setPen(QPen(ink(colour), 1.2))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRoundedRect(body, h * 0.35, h * 0.35)

    def enterEvent(self, event) -> None:
        self.update()
        super().enterEvent(event)

    def leaveEvent(self, event) -> None:
        self.update()
        super().leaveEvent(event)

    def focusInEvent(self, event) -> None:
        self.update()
        super().focusInEvent(event)
        if self.statusTip():  # as the pointer does: the keyboard on a card reads it too
            QApplication.sendEvent(self, QStatusTipEvent(self.statusTip()))

    def focusOutEvent(self, event) -> None:
        self.update()
        super().focusOutEvent(event)
        if self.statusTip():
            QApplication.sendEvent(self, QStatusTipEvent(""))


class HandWidget(QWidget):
    """A row of cards; only ``playable`` ones can be clicked."""

    cardClicked = Signal(int)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        outer = QHBoxLayout(self)
        outer.setContentsMargins(4, 4, 4, 4)
        self.title = QLabel()
        self.title.setWordWrap(True)
        self.title.setFixedWidth(110)
        outer.addWidget(self.title)
        # A big hand (21 cards in a two-player auction) scrolls instead of widening the window.
        self.scroll_area = QScrollArea()
        self.scroll_area.setWidgetResizable(True)
        self.scroll_area.setFrameShape(QFrame.Shape.NoFrame)
        self.scroll_area.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        inner = QWidget()
        self._layout = QHBoxLayout(inner)
        self._layout.setContentsMargins(0, 0, 0, 0)
        self._layout.setSpacing(6)
        self._layout.addStretch(1)
        self.scroll_area.setWidget(inner)
        self.scroll_area.setMinimumHeight(CARD_H + 16 + 18)
        outer.addWidget(self.scroll_area, 1)
        self.buttons: dict[int, CardButton] = {}
        self._shown: tuple[object, ...] | None = None  # what the buttons show

    def show_cards(
        self,
        title: str,
        cards: list[Card],
        playable: set[int] | None = None,
        notes: dict[int, str] | None = None,
        readonly: bool = False,
        previews: dict[int, tuple[CardPreview, str]] | None = None,
    ) -> None:
        """Show ``cards``; those in ``playable`` are clickable (all when None), the
        others dimmed; ``readonly`` shows them all bright and none clickable;
        ``previews`` tells, by card, what it would do if played now, and in words."""
        self._show(title, cards, playable, notes or {}, readonly)
        previews = previews or {}
        for card_id, button in self.buttons.items():
            button.set_preview(*previews.get(card_id, (None, "")))

    def _show(
        self,
        title: str,
        cards: list[Card],
        playable: set[int] | None,
        notes: dict[int, str],
        readonly: bool,
    ) -> None:
        shown = (
            tuple(card.id for card in cards),
            None if playable is None else frozenset(playable),
            tuple(sorted(notes.items())),
            readonly,
        )
        if shown == self._shown:  # the same hand as on screen: rebuilding costs a relayout
            self.title.setText(title)
            self.setVisible(True)
            return
        self.clear()
        self._shown = shown
        self.title.setText(title)
        for card in cards:
            b = CardButton(card, notes.get(card.id, ""))
            b.setEnabled(playable is None or card.id in playable)
            b.set_readonly(readonly)
            if not b.isEnabled():
                b.setCursor(Qt.CursorShape.ArrowCursor)
            b.clicked.connect(lambda _c=False, cid=card.id: self.cardClicked.emit(cid))
            self._layout.insertWidget(self._layout.count() - 1, b)
            self.buttons[card.id] = b
        self.setVisible(True)

    def clear(self) -> None:
        for b in self.buttons.values():
            b.setParent(None)
            b.deleteLater()
        self.buttons = {}
        self._shown = None
        self.title.setText("")

    def show_message(self, text: str) -> None:
        """No cards, only a line (e.g. 'Hands are hidden')."""
        self.clear()
        self.title.setText(text)
