"""Text that fits: the window fits a 1024 x 700 screen, the players table keeps every
heading and number whole, auction chips never break, dock tabs show whole names."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QImage, QPainter
from PySide6.QtWidgets import QApplication, QStyleOptionViewItem, QTabBar, QVBoxLayout, QWidget

from trackside.editor.play.auction_panel import card_html, chip
from trackside.editor.play.players_panel import CARS, NAME_LETTERS, PLAYER, PlayersTable
from trackside.editor.play.setup import Seat
from trackside.editor.widgets.elided_label import ElidedLabel
from trackside.engine.bots import bot_seed, drive, make_bot
from trackside.engine.game import Board, Card, Game, Phase, load_variant
from trackside.engine.resources import tracks_dir
from trackside.engine.track.model import load_track

pytestmark = pytest.mark.gui

SMALL = QSize(1024, 700)


def test_the_editor_fits_a_small_screen(window, qtbot):
    window.resize(SMALL)
    qtbot.waitUntil(lambda: window.size() == SMALL)
    for bar in window.findChildren(QTabBar):
        if bar.isVisible():
            assert bar.elideMode() == Qt.TextElideMode.ElideNone


def race_under_way(seed: int = 4) -> Game:
    board = Board.of(load_track(tracks_dir() / "harbour-loop.yaml"))
    game = Game.new(board, load_variant("standard"), 4, seed)
    bots = [make_bot("greedy", bot_seed(seed, p, "greedy")) for p in range(4)]
    drive(game, bots, until=lambda: game.phase not in (Phase.AUCTION, Phase.POWER))
    return game


def test_the_players_table_keeps_headings_and_numbers_whole_when_narrow(qtbot):
    game = race_under_way()
    seats = [Seat("Alexandra Longname-Whitfield", "greedy")] + [
        Seat(f"Bot {k}", "greedy") for k in (2, 3, 4)
    ]
    holder = QWidget()
    layout = QVBoxLayout(holder)
    table = PlayersTable()
    layout.addWidget(table)
    qtbot.addWidget(holder)
    table.show_table(game, seats, None)
    holder.show()
    holder.resize(100, 300)  # as narrow as the layout lets it be
    qtbot.waitUntil(lambda: holder.width() >= table.minimumSizeHint().width())
    header = table.horizontalHeader()
    for k in range(table.columnCount()):
        if table.isColumnHidden(k):
            continue
        assert header.sectionSize(k) >= header.sectionSizeHint(k), table.horizontalHeaderItem(
            k
        ).text()
        if k != PLAYER:
            assert header.sectionSize(k) >= table.sizeHintForColumn(k)
    assert header.sectionSize(PLAYER) >= table.fontMetrics().horizontalAdvance("M" * NAME_LETTERS)


def test_an_auction_chip_never_breaks_over_two_lines():
    assert "black&nbsp;4" in chip("black", "black 4")
    assert " " not in chip("wild", "WILD 5").split(">", 1)[1].split("<")[0]
    assert "&nbsp;" in card_html(Card(1, (("black", 4), ("blue", 2))))


def whole_in(widget: QWidget, viewport: QWidget) -> bool:
    """True when every pixel of ``widget`` lies inside ``viewport`` (not cut at an edge)."""
    top_left = widget.mapTo(viewport, widget.rect().topLeft())
    bottom_right = widget.mapTo(viewport, widget.rect().bottomRight())
    return viewport.rect().contains(top_left) and viewport.rect().contains(bottom_right)


def test_the_lanes_panel_shows_what_create_does_at_the_default_size(window, qtbot):
    """With the Lanes tool on, a default window shows the panel down to its check boxes;
    a small one shows each whole once scrolled to, text and all."""
    window.resize(QSize(1500, 940))
    qtbot.waitUntil(lambda: window.size() == QSize(1500, 940))
    window.set_tool("lanes")
    panel, room = window.lane_panel, window.lane_dock.widget()
    checks = (panel.close_box, panel.replace_box, panel.furniture_box)
    qtbot.waitUntil(panel.close_box.isVisible)
    window.tools["lanes"].set_start(0.0, 0.0)
    for _ in range(6):  # more pieces than the table shows at once
        panel.add_straight_button.click()
    QApplication.processEvents()  # the layout takes the table's new height
    for check in checks:
        assert whole_in(check, room.viewport()), check.text()
    window.resize(SMALL)
    qtbot.waitUntil(lambda: window.size() == SMALL)
    for check in checks:
        room.ensureWidgetVisible(check)
        assert whole_in(check, room.viewport()), check.text()
        assert check.width() >= check.sizeHint().width(), check.text()


class RecordingPainter(QPainter):
    """A painter that notes the text and the swatches painted through it."""

    def __init__(self, device):
        super().__init__(device)
        self.texts: list[str] = []
        self.swatches: list[QRectF] = []

    def drawText(self, *args):
        self.texts.append(str(args[-1]))
        super().drawText(*args)

    def drawRoundedRect(self, rect, *args):
        self.swatches.append(QRectF(rect))
        super().drawRoundedRect(rect, *args)


def test_the_cars_column_shows_swatches_for_every_seat_alike(qtbot):
    """A person's cars and a bot's are painted the same way: one swatch per car, no
    colour word (a person's one black car read "black", a bot's yellow one a swatch)."""
    game = race_under_way()
    seats = [Seat("Ana")] + [Seat(f"Bot {k}", "greedy") for k in (2, 3, 4)]
    table = PlayersTable()
    qtbot.addWidget(table)
    table.show_table(game, seats, 0)
    table.resize(700, 300)
    table.show()
    qtbot.waitExposed(table)
    delegate = table.itemDelegateForColumn(CARS)
    image = QImage(table.viewport().size(), QImage.Format.Format_ARGB32)
    sizes = set()
    for row in range(table.rowCount()):
        index = table.model().index(row, CARS)
        option = QStyleOptionViewItem()
        option.initFrom(table.viewport())
        option.rect = table.visualRect(index)
        painter = RecordingPainter(image)
        delegate.paint(painter, option, index)
        painter.end()
        cars = table.item(row, CARS).text().split(", ")
        assert painter.texts == [], (seats[row].name, painter.texts)
        assert len(painter.swatches) == len(cars)
        sizes |= {(round(r.width(), 3), round(r.height(), 3)) for r in painter.swatches}
        assert table.item(row, CARS).toolTip() == ", ".join(cars)  # named on hover
    assert len(sizes) == 1  # one swatch size for every seat


def test_the_editor_fits_a_screen_at_200_percent(window, qtbot):
    """A 1600 x 1000 screen at 200 % is 800 x 500 to the window: no panel may ask for
    more (the Movement panel, outside a scroll area, made the window 517 high)."""
    for tool in ("moves", "lanes", "select"):
        window.set_tool(tool)
        QApplication.processEvents()
        hint = window.minimumSizeHint()
        assert hint.width() <= 800 and hint.height() <= 500, (tool, hint)


def test_a_long_status_message_ends_in_an_ellipsis_before_the_counters(window, qtbot):
    """A message too long for the status bar (a fix's preview says this much) is
    shortened with '…' where the issue counters begin, the whole of it in a tooltip:
    the bar's own drawing cut it mid-letter there."""
    text = (
        "Fix 4 is drawn in pink on the board, not made: Finish line 6 spaces earlier (at "
        "the rear edge of a44), the betting lines moved along to keep their share of the "
        "race. Apply makes it (one undo step)."
    )
    window.say(text)
    bar = window.statusBar()
    assert bar.currentMessage() == text
    qtbot.waitUntil(lambda: [w for w in bar.findChildren(ElidedLabel) if w.isVisible()] != [])
    shown = [w for w in bar.findChildren(ElidedLabel) if w.isVisible()]
    assert len(shown) == 1 and shown[0].text() == text and shown[0].toolTip() == text
    assert shown[0].shown_text().endswith("…")
    counters = window.counts_label.geometry()
    assert shown[0].geometry().right() < counters.left()
    bar.clearMessage()
    assert not shown[0].isVisible()
