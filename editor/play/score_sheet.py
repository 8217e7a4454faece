"""The end-of-race score sheet, laid out like the paper one, and world tour totals.

``sheet_rows(game, names)`` gives the sheet as data (one column per player);
``ScoreSheet`` shows it in a table with the race result and the winner above,
and, for a world tour, the totals across races below.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QHeaderView,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from trackside.editor.play.cars import car_colour, ink
from trackside.engine.game import COLOURS, Game, Result, Series
from trackside.engine.game.scoring import winner_sentence
from trackside.engine.game.series import race_winner_sentence, tour_name, tour_winner_sentence
from trackside.engine.text import ordinal


def result_of(game: Game) -> Result:
    """The result of a finished race (a sheet is shown only for one)."""
    if game.result is None:
        raise ValueError("the race is not over: it has no score sheet yet")
    return game.result


def sheet_rows(game: Game, names: list[str]) -> list[tuple[str, list[str]]]:
    """The paper sheet of a finished race: (row title, one cell per player)."""
    res = result_of(game)
    assert res is not None, "the race is not over"
    n = game.players
    place = {car: k for k, car in enumerate(res.ranking)}
    v = game.variant

    def cars_of(p: int) -> list[str]:
        return [c for c in COLOURS if game.owner_of(c) == p]

    rows: list[tuple[str, list[str]]] = []
    bought = []
    for p in range(n):
        prices = {COLOURS[c]: price for c, price in game.state.prices[p]}
        bought.append(
            ", ".join(f"{c} ${prices[c]}M" if c in prices else c for c in cars_of(p)) or "no car"
        )
    rows.append(("Cars (auction price)" if v.auction else "Cars (dealt)", bought))
    race = []
    for p in range(n):
        parts = []
        for c in cars_of(p):
            k = place.get(c)
            pay = v.race_payout[k] if k is not None and k < len(v.race_payout) else 0
            parts.append(f"{c} {ordinal(k + 1) if k is not None else 'stalled'} +{pay}")
        race.append(", ".join(parts) or "—")
    rows.append(("Race places", race))
    if v.betting:
        for k in range(3):
            bets = res.bets[k] if k < len(res.bets) else (None,) * n
            cells = []
            for p in range(n):
                car = bets[p]
                if car is None:
                    cells.append("no bet")
                    continue
                at = place.get(car)
                pay = v.bet_payouts[k][at] if at is not None and at < len(v.bet_payouts[k]) else 0
                cells.append(f"{car} +{pay}")
            rows.append((f"Bet {k + 1}", cells))
    rows.append(("Race earnings", [str(x) for x in res.earnings]))
    if v.betting:
        rows.append(("Bet payouts", [str(x) for x in res.bet_payouts]))
    if v.auction:
        rows.append(("Auction prices", [f"-{x}" for x in res.prices]))  # ASCII, as every sign
    # Where a car's place decides (beginner, long distance) money is only for interest.
    rows.append(
        (
            "Winnings" if v.winner == "money" else "Winnings (not scored here)",
            [str(x) for x in res.scores],
        )
    )
    return rows


def result_line(game: Game, names: list[str]) -> str:
    """'1st green, 2nd blue, ...' plus the stalled cars."""
    res = result_of(game)
    text = (
        ", ".join(f"{ordinal(k + 1)} {c}" for k, c in enumerate(res.ranking)) or "no car finished"
    )
    if res.stalled:
        text += "; stalled: " + ", ".join(res.stalled)
    return text


def winner_line(game: Game, names: list[str]) -> str:
    """Who won and why (R-SCORE-2 tie-break named when it decided)."""
    res = result_of(game)
    return winner_sentence(names, res.winners, game.variant.winner, res.scores)


def payout_line(game: Game) -> str:
    """The payout tables printed on the sheet, as this variant sets them."""
    v = game.variant
    race = ", ".join(f"{ordinal(k + 1)} {x}" for k, x in enumerate(v.race_payout))
    text = f"Car owners earn: {race}; stalled 0."
    if v.betting:
        bets = "; ".join(
            f"bet {k + 1}: " + "/".join(str(x) for x in row) for k, row in enumerate(v.bet_payouts)
        )
        text += f"  Bets pay for 1st/2nd/3rd — {bets}."
    return text


class ScoreSheet(QWidget):
    """The score sheet of the race just finished (and tour totals)."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        layout = QVBoxLayout(self)
        self.heading = QLabel()
        font = QFont(self.font())
        font.setPointSizeF(font.pointSizeF() * 1.4)
        font.setBold(True)
        self.heading.setFont(font)
        self.race_heading = QLabel()  # the race's title under a finished tour's winner
        race_font = QFont(self.font())
        race_font.setBold(True)
        self.race_heading.setFont(race_font)
        self.result_label = QLabel()
        self.result_label.setWordWrap(True)
        self.winner_label = QLabel()
        self.winner_label.setWordWrap(True)
        self._big, self._plain = font, QFont(self.font())
        self.table = QTableWidget()
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.totals_label = QLabel()
        self.totals = QTableWidget()
        self.totals.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.totals.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.payouts = QLabel()
        self.payouts.setWordWrap(True)
        for w in (
            self.heading,
            self.race_heading,
            self.result_label,
            self.table,
            self.winner_label,
            self.payouts,
            self.totals_label,
            self.totals,
        ):
            layout.addWidget(w)
        layout.addStretch(1)
        self.race_heading.hide()
        self.totals_label.hide()
        self.totals.hide()
        # Paper: cream sheet, dark ink, ruled lines.
        self.setObjectName("scoreSheet")
        self.setAttribute(Qt.WidgetAttribute.WA_StyledBackground, True)
        self.setStyleSheet(
            "#scoreSheet { background: #f3eddc; border-radius: 6px }"
            "#scoreSheet QLabel { color: #1d1d1b }"
            "#scoreSheet QTableWidget { background: #fbf7ea; color: #1d1d1b;"
            " gridline-color: #b9ae90; border: 1px solid #8f8566; font-size: 14px }"
            "#scoreSheet QHeaderView::section { background: #e6dcc0; color: #1d1d1b;"
            " border: 1px solid #b9ae90; padding: 4px; font-weight: bold }"
        )
        for table in (self.table, self.totals):
            table.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
            table.setSelectionMode(QTableWidget.SelectionMode.NoSelection)

    def show_result(
        self, game: Game | Series, names: list[str], title: str = "", race_index: int | None = None
    ) -> None:
        """Fill the sheet from a finished race: a single game, or race
        ``race_index`` of a tour (default its last) with the totals so far. A tour's
        race names its winner as that race's; once the tour is over, its winner on
        the totals is the sheet's headline, above the last race's title."""
        if not isinstance(game, Series):
            self._show_race(game, names, title or f"Score sheet — {game.board.track.name}")
            self.winner_label.setText(winner_line(game, names))
            self.winner_label.setFont(self._big)
            self.race_heading.hide()
            self.totals_label.hide()
            self.totals.hide()
            return
        k = len(game.games) - 1 if race_index is None else race_index
        race = game.games[k]
        self._show_race(race, names, title or f"Score sheet — {race.board.track.name}")
        self.winner_label.setText(
            race_winner_sentence(names, result_of(race), race.variant.winner, k, len(game.boards))
        )
        self.winner_label.setFont(self._plain)
        self._show_totals(game, names, tour_over=k == len(game.boards) - 1)

    def _show_race(self, race: Game, names: list[str], title: str) -> None:
        """The heading, result, table and payouts of one finished race."""
        self.heading.setText(title)
        self.result_label.setText("Race result: " + result_line(race, names))
        rows = sheet_rows(race, names)
        self._fill(self.table, names, rows, bold_last=race.variant.winner == "money")
        self.payouts.setText(payout_line(race))

    def _show_totals(self, game: Series, names: list[str], tour_over: bool) -> None:
        """The tour's totals so far; after its last race, its winner as the headline."""
        done = [race.result for race in game.games if race.result is not None]
        totals = [sum(r.scores[p] for r in done) for p in range(len(names))]
        trows = [
            (f"Race {k + 1}: {game.boards[k].track.name}", [str(s) for s in r.scores])
            for k, r in enumerate(done)
        ]
        trows.append(("Total", [str(s) for s in totals]))
        self._fill(self.totals, names, trows, bold_last=True)
        name = tour_name(game.variant)
        if tour_over and game.result is not None:
            self.race_heading.setText(self.heading.text())
            self.race_heading.show()
            self.heading.setText(tour_winner_sentence(names, game.result, game.variant))
            self.totals_label.setText(f"{name} totals after all {len(done)} races")
        else:
            self.race_heading.hide()
            self.totals_label.setText(f"{name} after {len(done)} of {len(game.boards)} races")
        self.totals_label.show()
        self.totals.show()

    def _fill(self, table: QTableWidget, names: list[str], rows, bold_last: bool) -> None:
        table.clear()
        table.setColumnCount(len(names))
        table.setRowCount(len(rows))
        table.setHorizontalHeaderLabels(names)
        table.setVerticalHeaderLabels([title for title, _ in rows])
        for r, (_title, cells) in enumerate(rows):
            for c, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
                first = text.split(" ")[0]
                if first in COLOURS and _title.startswith("Bet"):
                    item.setBackground(car_colour(first))
                    item.setForeground(ink(first))
                if bold_last and r == len(rows) - 1:
                    f = item.font()
                    f.setBold(True)
                    item.setFont(f)
                table.setItem(r, c, item)
        table.resizeRowsToContents()
        height = (
            table.horizontalHeader().height()
            + 4
            + sum(table.rowHeight(r) for r in range(table.rowCount()))
        )
        table.setFixedHeight(height)

    def text(self) -> str:
        """The whole sheet as plain text (what a test or a clipboard sees)."""
        lines = [self.heading.text()]
        if self.race_heading.isVisibleTo(self):
            lines.append(self.race_heading.text())
        lines.append(self.result_label.text())
        for table in (self.table,) + ((self.totals,) if self.totals.isVisibleTo(self) else ()):
            heads = [_text(table.horizontalHeaderItem(c)) for c in range(table.columnCount())]
            lines.append(" | ".join(["", *heads]))
            for r in range(table.rowCount()):
                cells = [_text(table.item(r, c)) for c in range(table.columnCount())]
                lines.append(" | ".join([_text(table.verticalHeaderItem(r)), *cells]))
        lines.append(self.winner_label.text())
        lines.append(self.payouts.text())
        if self.totals_label.isVisibleTo(self):
            lines.append(self.totals_label.text())
        return "\n".join(lines)


def _text(item: QTableWidgetItem | None) -> str:
    """A table cell's text ('' for an empty cell)."""
    return "" if item is None else item.text()
