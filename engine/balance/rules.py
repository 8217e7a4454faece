"""What the rules did in many bot games: the powers, the betting and the auction.

Each finished game is counted through its public data: the result (ranking,
earnings, bet payouts, scores, winners), the state read once the game is over
(who owns which car, at what price, the power each seat kept, the bets) and
the deal (which power came with which car). Every total is an integer (a
shared win counts in sixtieths), so parts of a run played in worker processes
add up to exactly the totals of the whole run. A figure the variant's rules do
not have (no auction, no powers, no betting, a winner not decided by money) is
not counted and is absent from the figures, never zero.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from trackside.engine.game import Game
from trackside.engine.game.cards import COLOURS
from trackside.engine.game.scoring import best_places, bet_payout, money_winners
from trackside.engine.intervals import holm, share_p_value, wilson
from trackside.engine.tallies import SHARE_UNIT, Ratio, Tally

SLOTS = len(COLOURS)
LINES = 3  # betting lines
LAST_LINE = LINES - 1


@dataclass
class CarTotals:
    """Cars bought in the auction: the price paid, the race payout the car brought its
    owner, and the difference (what the car earned over its price)."""

    price: Tally = field(default_factory=Tally)
    returned: Tally = field(default_factory=Tally)
    margin: Tally = field(default_factory=Tally)

    def add(self, price: int, returned: int) -> None:
        self.price.add(price)
        self.returned.add(returned)
        self.margin.add(returned - price)

    def merge(self, other: CarTotals) -> None:
        self.price.merge(other.price)
        self.returned.merge(other.returned)
        self.margin.merge(other.margin)

    def to_list(self) -> list[list[int]]:
        return [self.price.to_list(), self.returned.to_list(), self.margin.to_list()]

    @classmethod
    def from_list(cls, values: list[list[int]]) -> CarTotals:
        return cls(*(Tally.from_list(v) for v in values))


@dataclass
class PowerTotals:
    """One power: its holder (the seat that kept it for the race, R-AUC-9), and the car
    it came with in the auction."""

    held: int = 0  # games in which a seat kept it
    holder_wins: int = 0  # its holder's wins, in sixtieths
    holder_money: Tally = field(default_factory=Tally)  # its holder's winnings
    offered: int = 0  # games in which it came with a car up for auction
    taken: int = 0  # ... and that car was bought (not left unowned)
    car: CarTotals = field(default_factory=CarTotals)  # that car, when bought

    def merge(self, other: PowerTotals) -> None:
        self.held += other.held
        self.holder_wins += other.holder_wins
        self.holder_money.merge(other.holder_money)
        self.offered += other.offered
        self.taken += other.taken
        self.car.merge(other.car)

    def to_dict(self) -> dict[str, Any]:
        return {
            "held": self.held,
            "holder_wins": self.holder_wins,
            "holder_money": self.holder_money.to_list(),
            "offered": self.offered,
            "taken": self.taken,
            "car": self.car.to_list(),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> PowerTotals:
        return cls(
            int(data["held"]),
            int(data["holder_wins"]),
            Tally.from_list(data["holder_money"]),
            int(data["offered"]),
            int(data["taken"]),
            CarTotals.from_list(data["car"]),
        )

    def win_share(self) -> tuple[float, float, float]:
        """The share of games its holder won, and its 95% interval."""
        wins = self.holder_wins / SHARE_UNIT
        return (wins / self.held if self.held else 0.0, *wilson(wins, self.held))

    def taken_share(self) -> tuple[float, float, float]:
        """The share of games its car was bought in, of those it was up for auction."""
        share = self.taken / self.offered if self.offered else 0.0
        return (share, *wilson(self.taken, self.offered))


@dataclass
class RuleTotals:
    """The rules' totals over games on one circuit under one variant."""

    games: int = 0
    # The rules played (from the variant of the first game counted): what applies.
    powers: tuple[str, ...] = ()
    auction: bool = False
    betting: bool = False
    money_decides: bool = False  # the winner is the richest player (R-SCORE-2)
    power: dict[str, PowerTotals] = field(default_factory=dict)
    slots: list[CarTotals] = field(default_factory=lambda: [CarTotals() for _ in range(SLOTS)])
    winner_bets: Ratio = field(default_factory=Ratio)  # the winners' bet payouts / money
    winner_bets_paid: Ratio = field(default_factory=Ratio)  # the winners' bets paying / made
    line_payout: list[Ratio] = field(default_factory=lambda: [Ratio() for _ in range(LINES)])
    last_line_decides: int = 0  # games another player would have won without bet 3

    # -- counting ---------------------------------------------------------------------
    def add(self, game: Game) -> None:
        """Count one finished game."""
        result = game.result
        if result is None:
            raise ValueError("the game is not over")
        if not self.games:
            self._rules_of(game)
        self.games += 1
        state = game.state
        ranking = [COLOURS.index(colour) for colour in result.ranking]
        place = {car: k for k, car in enumerate(ranking)}
        share = SHARE_UNIT // len(result.winners)
        for seat, power in enumerate(state.power):
            if power is not None:
                totals = self._power(power)
                totals.held += 1
                totals.holder_money.add(result.scores[seat])
                if seat in result.winners:
                    totals.holder_wins += share
        if self.auction:
            self._add_auction(game, place)
        if self.betting:
            self._add_bets(game, ranking, place)

    def _rules_of(self, game: Game) -> None:
        variant = game.variant
        self.powers = tuple(variant.powers)
        self.auction = variant.auction
        self.betting = variant.betting
        self.money_decides = variant.winner == "money"

    def _power(self, name: str) -> PowerTotals:
        totals = self.power.get(name)
        if totals is None:
            totals = self.power[name] = PowerTotals()
        return totals

    def _add_auction(self, game: Game, place: dict[int, int]) -> None:
        deal, payouts = game.deal, game.variant.race_payout
        price_of = {car: price for paid in game.state.prices for car, price in paid}
        power_of = dict(zip(deal.speed8, deal.powers, strict=False))  # R-AUC-1: car k, power k
        for car, price in price_of.items():
            colour = COLOURS[car]
            returned = bet_payout(payouts, place.get(car))
            self.slots[deal.grid.index(colour)].add(price, returned)
            power = power_of.get(colour)
            if power is not None:
                self._power(power).car.add(price, returned)
        for colour, power in power_of.items():
            totals = self._power(power)
            totals.offered += 1
            totals.taken += COLOURS.index(colour) in price_of

    def _add_bets(self, game: Game, ranking: list[int], place: dict[int, int]) -> None:
        result, state = game.result, game.state
        assert result is not None
        winners, tables = result.winners, game.variant.bet_payouts
        made = paid = 0
        last_line = [0] * state.players
        for line in range(LINES):
            line_total = line_bets = 0
            for seat, car in enumerate(state.bets[line]):
                if car is None:
                    continue
                value = bet_payout(tables[line], place.get(car))
                line_total += value
                line_bets += 1
                if seat in winners:
                    made += 1
                    paid += value > 0
                if line == LAST_LINE:
                    last_line[seat] = value
            self.line_payout[line].add(line_total, line_bets)
        self.winner_bets_paid.add(paid, made)
        bets = sum(result.bet_payouts[seat] for seat in winners)
        self.winner_bets.add(bets, bets + sum(result.earnings[seat] for seat in winners))
        if self.money_decides:
            without = [score - bet for score, bet in zip(result.scores, last_line, strict=True)]
            best = best_places(state.owner, ranking, state.players)
            self.last_line_decides += set(money_winners(without, best)) != set(winners)

    def merge(self, other: RuleTotals) -> None:
        """Add the totals of another part of the same run."""
        if not self.games and other.games:
            self.powers, self.auction = other.powers, other.auction
            self.betting, self.money_decides = other.betting, other.money_decides
        self.games += other.games
        for name, totals in other.power.items():
            self._power(name).merge(totals)
        for mine, theirs in zip(self.slots, other.slots, strict=True):
            mine.merge(theirs)
        self.winner_bets.merge(other.winner_bets)
        self.winner_bets_paid.merge(other.winner_bets_paid)
        for line in range(LINES):
            self.line_payout[line].merge(other.line_payout[line])
        self.last_line_decides += other.last_line_decides

    # -- what applies -------------------------------------------------------------------
    def held_powers(self) -> list[tuple[str, PowerTotals]]:
        """The variant's powers with their totals, in the variant's order."""
        return [(name, self.power.get(name) or PowerTotals()) for name in self.powers]

    def powers_beyond_chance(self, players: int) -> set[str]:
        """The powers whose holder wins more or less than the fair 1 in ``players``
        beyond chance, the powers held judged together (Holm at 5%: on a fair variant the
        chance that any of them is named stays at 5%, where six plain 95% intervals name
        one in about a quarter of runs). Each one named has a 95% interval that leaves
        the fair share; not every such one is named."""
        held = [(name, totals) for name, totals in self.held_powers() if totals.held]
        fair = 1 / players
        p_values = [share_p_value(t.holder_wins / SHARE_UNIT, t.held, fair) for _n, t in held]
        return {name for (name, _t), out in zip(held, holm(p_values), strict=True) if out}

    @property
    def last_line_applies(self) -> bool:
        """Whether the last betting line can decide the winner: bets, and money wins."""
        return self.betting and self.money_decides

    def last_line_share(self) -> tuple[float, float, float]:
        """The share of games another player would have won without bet 3, with its
        95% interval."""
        n = self.games
        return (self.last_line_decides / n if n else 0.0, *wilson(self.last_line_decides, n))

    # -- figures ------------------------------------------------------------------------
    def figures(self, money_gap: Tally, players: int) -> dict[str, Any]:
        """The rules' figures (the report's ``rules``), each an estimate with its 95%
        interval; ``money_gap`` is the report's money spread, ``players`` the table's.
        Figures the rules do not have are left out."""
        out: dict[str, Any] = {}
        if self.powers:
            beyond = self.powers_beyond_chance(players)
            out["powers"] = [
                self._power_figures(name, p, name in beyond) for name, p in self.held_powers()
            ]
        if self.betting:
            out["betting"] = {
                "winner_bet_share": _ratio_estimate(self.winner_bets, share=True),
                "winner_bets_paid": _ratio_estimate(self.winner_bets_paid, share=True),
                "payout_per_line": [_ratio_estimate(r) for r in self.line_payout],
            }
        if self.auction:
            out["auction"] = {
                "by_slot": [
                    {"slot": k + 1, **_car_estimates(cars)} for k, cars in enumerate(self.slots)
                ],
                "by_power": [
                    {"power": name, **_car_estimates(p.car)} for name, p in self.held_powers()
                ],
            }
        if money_gap.count:
            out["money_gap"] = _mean_estimate(money_gap)
        if self.last_line_applies and self.games:
            out["decided_by_last_line"] = estimate(self.last_line_share())
        return _without_none(out)

    def _power_figures(self, name: str, totals: PowerTotals, beyond: bool) -> dict[str, Any]:
        row: dict[str, Any] = {"power": name, "games": totals.held}
        if totals.held:
            row["win_share"] = estimate(totals.win_share())
            row["beyond_chance"] = beyond
            row["mean_winnings"] = _mean_estimate(totals.holder_money)
        if self.auction and totals.offered:
            row["taken_share"] = estimate(totals.taken_share())
            row["mean_price"] = _mean_estimate(totals.car.price)
        return _without_none(row)

    # -- stored totals ------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """The integer totals (the report's ``totals.rules``)."""
        return {
            "games": self.games,
            "powers": list(self.powers),
            "auction": self.auction,
            "betting": self.betting,
            "money_decides": self.money_decides,
            "power": {name: totals.to_dict() for name, totals in self.power.items()},
            "slots": [cars.to_list() for cars in self.slots],
            "winner_bets": self.winner_bets.to_list(),
            "winner_bets_paid": self.winner_bets_paid.to_list(),
            "line_payout": [r.to_list() for r in self.line_payout],
            "last_line_decides": self.last_line_decides,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RuleTotals:
        """The totals stored by ``to_dict``."""
        return cls(
            games=int(data["games"]),
            powers=tuple(str(p) for p in data["powers"]),
            auction=bool(data["auction"]),
            betting=bool(data["betting"]),
            money_decides=bool(data["money_decides"]),
            power={str(k): PowerTotals.from_dict(v) for k, v in data["power"].items()},
            slots=[CarTotals.from_list(v) for v in data["slots"]],
            winner_bets=Ratio.from_list(data["winner_bets"]),
            winner_bets_paid=Ratio.from_list(data["winner_bets_paid"]),
            line_payout=[Ratio.from_list(v) for v in data["line_payout"]],
            last_line_decides=int(data["last_line_decides"]),
        )


def estimate(values: tuple[float, float, float]) -> dict[str, float]:
    """A figure as the report writes it: value, and the low and high end of its 95%
    interval."""
    value, low, high = values
    return {"value": round(value, 4), "low": round(low, 4), "high": round(high, 4)}


def _mean_estimate(tally: Tally) -> dict[str, float] | None:
    if not tally.count:
        return None
    return estimate((tally.mean, *tally.interval()))


def _ratio_estimate(ratio: Ratio, share: bool = False) -> dict[str, float] | None:
    if not ratio.den:
        return None
    low, high = ratio.interval()
    if share:
        low, high = max(0.0, low), min(1.0, high)
    return estimate((ratio.value, low, high))


def _car_estimates(cars: CarTotals) -> dict[str, Any]:
    return {
        "mean_price": _mean_estimate(cars.price),
        "mean_return": _mean_estimate(cars.returned),
    }


def _without_none(figures: dict[str, Any]) -> dict[str, Any]:
    """The figures with those that have no value (no game counted them) left out; in a
    list of lines, a line without one stays as null so that the lines keep their places."""
    return {key: _cleaned(value) for key, value in figures.items() if value is not None}


def _cleaned(value: Any) -> Any:
    if isinstance(value, dict):
        return _without_none(value)
    if isinstance(value, list):
        return [_cleaned(item) for item in value]
    return value
