"""What the rule figures of a balance report mean, in plain words.

Each hint is said only when the figures say so beyond chance: a power whose holder
wins more or less than the fair 1 in the number of players (the powers judged
together, ``RuleTotals.powers_beyond_chance``), cars that cost more (or
less) than they return, bets that bring the winner more than half of their
money (or under a quarter), and a last betting line that decides the winner in
more than one game in ten. They are about the variant, not the circuit, so they
are information, listed after what the circuit's own figures say.
"""

from __future__ import annotations

from dataclasses import replace

from trackside.engine.balance.report import BalanceReport
from trackside.engine.balance.rules import CarTotals, RuleTotals
from trackside.engine.balance.wording import RULES, Hint, money_range, percent, percent_range
from trackside.engine.tallies import Tally
from trackside.engine.text import plural

# Plain-word boundaries for the share of the winner's money that came from bets.
BETS_WEIGH = 0.5  # more than half: the bets bring the winner more than the race
BETS_LIGHT = 0.25  # under a quarter: the bets hardly count
LAST_LINE_NOTICE = 0.10  # games the last betting line decides, worth a word


def rule_hints(report: BalanceReport) -> list[Hint]:
    """The findings of the rule figures, in the order powers, auction, betting."""
    rules = report.rules
    found = _powers(rules, report.players)
    if rules.auction:
        found += _auction(rules, report.grid)
    if rules.betting:
        found += _betting(rules)
    return [replace(hint, about=RULES) for hint in found]


def money(tally: Tally) -> str:
    """A mean amount of money with its 95% interval: "$7.2M (6.8-7.6)"."""
    return money_range(tally.mean, *tally.interval())


def _powers(rules: RuleTotals, players: int) -> list[Hint]:
    fair = 1 / players
    beyond = rules.powers_beyond_chance(players)
    held = sum(1 for _name, totals in rules.held_powers() if totals.held)
    out = []
    for name, totals in rules.held_powers():
        if name not in beyond:
            continue
        share, low, high = totals.win_share()
        more = "more" if low > fair else "less"
        out.append(
            Hint(
                f"{name.title()} is worth {more} than the other powers: its holder wins "
                f"{percent_range(share, low, high, 1)} of the "
                f"{plural(totals.held, 'game', spec=',')} it was kept in, against a fair "
                f"{percent(fair)} (1 game in {players}). That is beyond chance, even with "
                f"{held} powers compared at once.",
                "info",
            )
        )
    return out


def _auction(rules: RuleTotals, grid: list[str]) -> list[Hint]:
    """Cars that cost more or less than they return. When cars in general are cheap
    (or dear), that is said once, and of the single cars only the exceptions."""
    every = all_cars(rules)
    norm = car_verdict(every.margin)
    out = []
    if norm:
        cheap = norm == "bargain"
        out.append(
            Hint(
                f"Cars are {'cheap' if cheap else 'dear'} in the auction: on average a car "
                f"costs {money(every.price)} and wins its owner {money(every.returned)} in "
                f"race payouts. As a rule, {'a' if cheap else 'no'} car pays for itself.",
                "info",
            )
        )
    for k, cars in enumerate(rules.slots):
        name = "The pole car" if k == 0 else f"The car from grid slot {k + 1}"
        space = (grid[k],) if k < len(grid) else ()
        out += _car(name, cars, norm, space)
    for power, totals in rules.held_powers():
        out += _car(f"A car with {power.title()}", totals.car, norm, ())
    return out


def all_cars(rules: RuleTotals) -> CarTotals:
    """Every car bought, whatever its grid slot."""
    every = CarTotals()
    for cars in rules.slots:
        every.merge(cars)
    return every


def usual_verdict(rules: RuleTotals) -> str:
    """What cars are as a rule: the ``car_verdict`` of every car bought."""
    return car_verdict(all_cars(rules).margin)


def car_verdict(margin: Tally) -> str:
    """'bargain' when a car surely returns more than it costs, 'overpriced' when
    surely less, '' when the interval cannot tell."""
    if margin.count < 2:
        return ""
    low, high = margin.interval()
    return "bargain" if low > 0 else "overpriced" if high < 0 else ""


def _car(name: str, cars: CarTotals, norm: str, spaces: tuple[str, ...]) -> list[Hint]:
    verdict = car_verdict(cars.margin)
    if not verdict or verdict == norm:
        return []
    return [
        Hint(
            f"{name} is {'a bargain' if verdict == 'bargain' else 'overpriced'}: on average "
            f"it costs {money(cars.price)} and wins {money(cars.returned)} in race payouts.",
            "info",
            spaces,
        )
    ]


def _betting(rules: RuleTotals) -> list[Hint]:
    out = []
    if rules.winner_bets.den:
        share = rules.winner_bets.value
        low, high = rules.winner_bets.interval()
        said = f"{percent_range(share, low, high, 1)} of the winner's money came from bets"
        if low > BETS_WEIGH:
            out.append(Hint(f"Bets weigh more than the race: {said}.", "info"))
        elif high < BETS_LIGHT:
            out.append(Hint(f"Bets hardly count: only {said}.", "info"))
    if rules.last_line_applies and rules.games:
        share, low, high = rules.last_line_share()
        if low > LAST_LINE_NOTICE:
            out.append(
                Hint(
                    "The last betting line decides the winner in "
                    f"{percent_range(share, low, high, 1)} of games: without the bets made "
                    "there, another player would have won.",
                    "info",
                )
            )
    return out
