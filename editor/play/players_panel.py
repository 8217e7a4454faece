"""The table of players beside the board: cars, power, cards left, money paid, bets.

Bets are shown only to their owner (``private``) until the game is over
(R-BET-2); everything else in the table is public.
"""

from __future__ import annotations

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QColor, QPainter
from PySide6.QtWidgets import (
    QHeaderView,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableWidget,
    QTableWidgetItem,
)

from trackside.editor.play.cars import car_colour
from trackside.editor.play.setup import Seat
from trackside.engine.game import COLOURS, Game

HEADERS = ["Player", "Cars", "Power", "Cards", "Paid", "Bets"]
BETS = HEADERS.index("Bets")
PLAYER = HEADERS.index("Player")
CARS = HEADERS.index("Cars")
NAME_LETTERS = 8  # the names' column is never narrower than this many wide letters


def owner_marks(names: list[str]) -> list[str]:
    """What is written on each seat's cars: the initial, two letters where
    initials clash, the seat number where those clash too."""
    for size in (1, 2):
        marks = [(n.strip()[:size] or str(k + 1)).title() for k, n in enumerate(names)]
        if len(set(m.lower() for m in marks)) == len(marks):
            return marks
    return [str(k + 1) for k in range(len(names))]


def distance_ranking(race: Game) -> list[str]:
    """Long distance (R-VAR): cars by distance travelled (laps and progress),
    ties to the more inside lane, as the engine ranks them at the end."""
    board = race.board

    def key(k: int) -> tuple:
        at = race.state.car_spaces[k]
        return (-(race.state.laps[k] * board.length + board.progress[at]), board.lanes[at], k)

    return [COLOURS[k] for k in sorted(range(len(COLOURS)), key=key)]


class CarChips(QStyledItemDelegate):
    """Paints a 'blue, red' cell as colour swatches, one per car, the same size in
    every row (a person's cars as a bot's, one car as two); the tooltip names them."""

    @staticmethod
    def chip_rects(cell: QRectF, cars: int, line_height: int) -> list[QRectF]:
        """Where the swatches of ``cars`` cars go in a cell: one size for every row."""
        gap = 3.0
        box = cell.adjusted(3, 4, -3, -4)
        side = min(box.height(), 22.0, round(line_height * 1.3))
        width = min(side * 1.3, (box.width() - gap * (cars - 1)) / max(1, cars))
        top = box.top() + (box.height() - side) / 2
        return [QRectF(box.left() + k * (width + gap), top, width, side) for k in range(cars)]

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index) -> None:
        cars = [c for c in str(index.data() or "").split(", ") if c in COLOURS]
        if not cars:
            super().paint(painter, option, index)
            return
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        rects = self.chip_rects(QRectF(option.rect), len(cars), option.fontMetrics.height())
        for car, box in zip(cars, rects, strict=True):
            painter.setPen(QColor("#d9d9d2"))
            painter.setBrush(car_colour(car))
            painter.drawRoundedRect(box, 4, 4)
        painter.restore()

    def sizeHint(self, option: QStyleOptionViewItem, index) -> QSize:
        cars = str(index.data() or "").split(", ")
        # Wide enough for a swatch a little wider than the font's height per car, at any scale.
        chip = round(option.fontMetrics.height() * 1.3 * 1.3)
        return QSize(
            6 + (chip + 3) * len(cars), max(30, round(option.fontMetrics.height() * 1.3) + 8)
        )


class PlayersTable(QTableWidget):
    """One row per seat; the seat to play is marked, those due are bold."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setColumnCount(len(HEADERS))
        self.setHorizontalHeaderLabels(HEADERS)
        self.verticalHeader().hide()
        self.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.setSelectionMode(QTableWidget.SelectionMode.NoSelection)
        # Fit the side panel: every column as wide as its contents and heading, but the
        # names take the spare width and wrap (rows grow), so no heading is ever cut.
        header = self.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(PLAYER, QHeaderView.ResizeMode.Stretch)
        self.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setWordWrap(True)
        self.setItemDelegateForColumn(CARS, CarChips(self))

    def minimumSizeHint(self) -> QSize:
        """Room for every column but the names at their full width, and a dozen letters of
        name: the side panel never squeezes a heading or a number out of sight."""
        hint = super().minimumSizeHint()
        header = self.horizontalHeader()
        shown = [k for k in range(self.columnCount()) if not self.isColumnHidden(k)]
        others = sum(
            max(self.sizeHintForColumn(k), header.sectionSizeHint(k)) for k in shown if k != PLAYER
        )
        name = self.fontMetrics().horizontalAdvance("M" * NAME_LETTERS)
        scroll = self.verticalScrollBar().sizeHint().width()
        return QSize(others + name + scroll + 2 * self.frameWidth(), hint.height())

    def show_table(self, race: Game, seats: list[Seat], private: int | None) -> None:
        """Fill the rows from the race; ``private`` is the seat whose bets may show."""
        view = race.view(0)
        due = race.due()
        # Columns a variant never uses (beginner: no auction, no bets) are hidden.
        self.setColumnHidden(HEADERS.index("Paid"), not race.variant.auction)
        self.setColumnHidden(BETS, not race.variant.betting)
        self.setRowCount(race.players)
        changed = False
        for p in range(race.players):
            cars = [car for car in COLOURS if race.owner_of(car) == p]
            lines = [f"{view.hand_sizes[p]} in hand"]
            if race.variant.hand_mode == "private":
                lines.append(f"{len(race.state.piles[p])} in pile")
            if view.face_up[p]:
                lines.append(f"{len(view.face_up[p])} Speed-8")
            cards = "\n".join(lines) if len(lines) > 1 else str(view.hand_sizes[p])
            power = view.powers[p] or ", ".join(view.held_powers[p]) or "—"
            made = sum(1 for k in range(3) if race.state.bets[k][p] is not None)
            if race.over or p == private:
                bets = ", ".join(b for b in race.view(p).my_bets if b) or "—"
            else:
                bets = f"{made} secret" if made else "—"
            turn = "▶ " if (race.state.turn == p and not race.over) else ""
            kind = "" if seats[p].is_person else f"\n{seats[p].kind} bot"
            values = [
                turn + seats[p].name + kind,
                ", ".join(cars) or "—",
                power.title(),
                cards,
                f"${view.prices[p]}M",
                bets,
            ]
            for col, text in enumerate(values):
                bold = col == 0 and p in due
                shown = self.item(p, col)
                if shown is not None and shown.text() == text and shown.font().bold() == bold:
                    continue  # unchanged: setting it again re-measures the whole table
                item = QTableWidgetItem(text)
                item.setToolTip(text)
                if bold:
                    font = item.font()
                    font.setBold(True)
                    item.setFont(font)
                    item.setForeground(QColor("#ffe14d"))
                self.setItem(p, col, item)
                changed = True
        if changed:
            self.updateGeometry()  # the widths wanted change with the contents
