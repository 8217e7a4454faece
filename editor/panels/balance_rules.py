"""The Balance panel's Rules section: what the variant's powers, auction and betting did
in a run, each figure with its 95% interval and its change from the run compared with.
A share is shown with its interval as it lies ("31% (27-35)", an en dash between the
ends), an amount of money in the same form ("$16.9M (16.4-17.4)").

Three tables: the powers (the games each was kept in, under its name, how often its
holder wins, their winnings), the auction (each car's price against what it returned,
by grid slot and by the power that came with it) and the betting (the winner's money
from bets, bets that paid, each line's payout, how often the last line decided the
winner, how often each power was taken).
A variant without an auction, powers or betting has no such rows: the heading says
which it lacks.
"""

from __future__ import annotations

import html

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QTableWidgetItem, QVBoxLayout, QWidget

from trackside.editor.panels.balance_tables import (
    change_cell,
    figure_table,
    fill_rows,
    marked,
)
from trackside.engine.balance import BalanceReport, Change
from trackside.engine.balance.compare import (
    LAST_LINE_DECIDES,
    WINNER_BET_SHARE,
    WINNER_BETS_PAID,
    car_price,
    car_return,
    holder_money,
    holder_share,
    line_payout,
    power_taken,
    slot_car,
)
from trackside.engine.balance.rule_hints import car_verdict, usual_verdict
from trackside.engine.balance.rules import CarTotals, RuleTotals
from trackside.engine.balance.wording import money_range, percent_range, range_digits
from trackside.engine.tallies import Ratio, Tally
from trackside.engine.text import plural

# The power table's games, under each name: each share is judged by its own games.
GAMES_TIP = (
    "Under each power, the games a player kept it for the race: the fewer, the wider "
    "its interval, and the further from the fair share its holder's wins must be to be "
    "marked"
)
VERDICT_WORDS = {
    "bargain": "returns more than it costs",
    "overpriced": "costs more than it returns",
}


class RulesBox(QWidget):
    """The rule figures of a report, with their changes; hidden until a run shows them."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.heading = QLabel()
        self.heading.setWordWrap(True)
        self.heading.setTextFormat(Qt.TextFormat.RichText)
        layout.addWidget(self.heading)
        self.power_table = figure_table(
            ["Power", "Wins", "Change", "Winnings", "Change"], stretch=0
        )
        self.auction_table = figure_table(
            ["Car", "Price", "Change", "Returns", "Change"], stretch=0
        )
        self.figure_table = figure_table(["Figure", "Value (95%)", "Change"], stretch=0)
        for table in self.tables:
            layout.addWidget(table)
            table.hide()
        self._tips()

    @property
    def tables(self) -> tuple[QWidget, ...]:
        return (self.power_table, self.auction_table, self.figure_table)

    def _tips(self) -> None:
        tips = {
            self.power_table: {
                0: GAMES_TIP,
                1: "The share of games won by the power's holder, the player who kept it for "
                "the race",
                3: "Its holder's mean winnings at the end ($M)",
            },
            self.auction_table: {
                0: "Cars bought in the auction, by grid slot, then by the power that came "
                "with them",
                1: "The mean price paid for the car ($M)",
                3: "The mean race payout the car brought its owner ($M)",
            },
        }
        for table, by_column in tips.items():
            for column, tip in by_column.items():
                item = table.horizontalHeaderItem(column)
                if item is not None:
                    item.setToolTip(tip)

    def show_rules(self, report: BalanceReport, changes: dict[str, Change]) -> None:
        """Fill the tables from ``report``'s rule figures and the ``changes`` by name."""
        rules = report.rules
        lacks = _lacks(report)
        name = html.escape(report.variant)  # a variant file's own words, shown as rich text
        self.heading.setText(f"<b>Rules</b>: {name}" + (f" ({lacks})" if lacks else ""))
        self.power_table.setVisible(bool(rules.games and rules.powers))
        self.auction_table.setVisible(bool(rules.games and rules.auction))
        self.figure_table.setVisible(bool(rules.games and rules.betting))
        if rules.games and rules.powers:
            fill_rows(self.power_table, _power_rows(rules, report.players, changes))
        if rules.games and rules.auction:
            fill_rows(self.auction_table, _auction_rows(rules, report.grid, changes))
        if rules.games and (rules.betting or rules.auction):
            rows = _betting_rows(rules, changes) + _taken_rows(rules, changes)
            self.figure_table.setVisible(bool(rows))
            if rows:
                fill_rows(self.figure_table, rows)
        self.show()


def _lacks(report: BalanceReport) -> str:
    rules = report.rules
    if not rules.games:
        return "no rule figures: the report was written before they were counted"
    missing = [
        name
        for name, has in (
            ("auction", rules.auction),
            ("powers", rules.powers),
            ("betting", rules.betting),
        )
        if not has
    ]
    return f"no {', no '.join(missing)}" if missing else ""


def _money_text(tally: Tally) -> str:
    """A mean amount of money with its 95% interval, as every money figure is shown,
    the interval under the amount: "$16.9M" over "(16.4-17.4)" (a table of five
    columns fits the dock so, and its rows of grid slots take two lines anyway)."""
    if not tally.count:
        return ""
    return money_range(tally.mean, *tally.interval()).replace(" (", "\n(", 1)


def _power_rows(
    rules: RuleTotals, players: int, changes: dict[str, Change]
) -> list[list[QTableWidgetItem]]:
    fair = 1 / players
    beyond = rules.powers_beyond_chance(players)
    rows = []
    for name, totals in rules.held_powers():
        label = QTableWidgetItem(f"{name.title()}\n{plural(totals.held, 'game', spec=',')}")
        label.setToolTip(GAMES_TIP)
        wins = QTableWidgetItem("")
        if totals.held:
            wins = _wins_item(totals.win_share(), fair, name in beyond)
        rows.append(
            [
                label,
                wins,
                change_cell(changes.get(holder_share(name))),
                QTableWidgetItem(_money_text(totals.holder_money)),
                change_cell(changes.get(holder_money(name))),
            ]
        )
    return rows


def _wins_item(share: tuple[float, float, float], fair: float, beyond: bool) -> QTableWidgetItem:
    """A holder's wins with their 95% interval, marked when the powers judged together
    put it beyond chance; an interval that leaves the fair share on its own is said so."""
    _value, low, high = share
    item = QTableWidgetItem(percent_range(*share, range_digits(low, high, fair)))
    item.setToolTip(f"The share of games its holder won, and its 95% interval (fair {fair:.0%})")
    if beyond:
        marked(item, f"beyond chance with the powers judged together (fair share {fair:.0%})")
    elif not low <= fair <= high:
        item.setToolTip(
            f"Its 95% interval leaves the fair {fair:.0%}, but with several powers one "
            "does so by chance now and then: not beyond chance with the powers judged "
            "together, so not marked"
        )
    return item


def _auction_rows(
    rules: RuleTotals, grid: list[str], changes: dict[str, Change]
) -> list[list[QTableWidgetItem]]:
    usual = usual_verdict(rules)
    rows = []
    for k, cars in enumerate(rules.slots):
        space = grid[k] if k < len(grid) else ""
        name = f"Slot {k + 1} {space}".strip()
        rows.append(_car_row(name, cars, slot_car(k), usual, changes))
    for power, totals in rules.held_powers():
        rows.append(_car_row(power.title(), totals.car, power, usual, changes))
    return rows


def _car_row(
    name: str, cars: CarTotals, car: str, usual: str, changes: dict[str, Change]
) -> list[QTableWidgetItem]:
    label = QTableWidgetItem(name)
    what = name if name.startswith("Slot") else f"with {name}"
    label.setToolTip(f"The car {what}: {plural(cars.price.count, 'car', spec=',')} bought")
    returns = QTableWidgetItem(_money_text(cars.returned))
    verdict = car_verdict(cars.margin)
    if verdict:
        returns.setToolTip(f"The car {VERDICT_WORDS[verdict]} (95%)")
        if verdict != usual:  # the exceptions stand out; what every car does, the hints say
            marked(returns, "unlike cars as a rule")
    return [
        label,
        QTableWidgetItem(_money_text(cars.price)),
        change_cell(changes.get(car_price(car))),
        returns,
        change_cell(changes.get(car_return(car))),
    ]


def _ratio_text(ratio: Ratio, share: bool) -> str:
    if not ratio.den:
        return ""
    low, high = ratio.interval()
    if share:
        return percent_range(ratio.value, max(0.0, low), min(1.0, high))
    return money_range(ratio.value, low, high)


def _betting_rows(rules: RuleTotals, changes: dict[str, Change]) -> list[list[QTableWidgetItem]]:
    if not rules.betting:
        return []
    rows = [
        [
            QTableWidgetItem("Winner's money from bets"),
            QTableWidgetItem(_ratio_text(rules.winner_bets, True)),
            change_cell(changes.get(WINNER_BET_SHARE)),
        ],
        [
            QTableWidgetItem("Winner's bets that paid"),
            QTableWidgetItem(_ratio_text(rules.winner_bets_paid, True)),
            change_cell(changes.get(WINNER_BETS_PAID)),
        ],
    ]
    for line in range(len(rules.line_payout)):
        rows.append(
            [
                QTableWidgetItem(f"Bet {line + 1} payout"),
                QTableWidgetItem(_ratio_text(rules.line_payout[line], False)),
                change_cell(changes.get(line_payout(line))),
            ]
        )
    if rules.last_line_applies:
        rows.append(
            [
                QTableWidgetItem("Winner decided by bet 3"),
                QTableWidgetItem(percent_range(*rules.last_line_share())),
                change_cell(changes.get(LAST_LINE_DECIDES)),
            ]
        )
        rows[-1][0].setToolTip("Games another player would have won without the last bets")
    return rows


def _taken_rows(rules: RuleTotals, changes: dict[str, Change]) -> list[list[QTableWidgetItem]]:
    if not rules.auction:
        return []
    return [
        [
            QTableWidgetItem(f"{name.title()} taken in the auction"),
            QTableWidgetItem(percent_range(*totals.taken_share()) if totals.offered else ""),
            change_cell(changes.get(power_taken(name))),
        ]
        for name, totals in rules.held_powers()
    ]
