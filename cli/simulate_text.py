"""The plain-text report of ``trackside simulate``: every figure from the games with its
95% interval in brackets, in the forms the balance lab uses (``engine/balance/wording.py``).

Shares are over games (a seat's wins, a shared win split) or races (a grid slot's
wins), with Wilson intervals; means per race or per game have normal intervals from
their sums of squares, the races of a series counted as independent.
"""

from __future__ import annotations

from trackside.engine.balance.intervals import mean_interval, wilson
from trackside.engine.balance.wording import BRACKETS, amount_range, money_range, percent_range
from trackside.engine.simulate import Stats
from trackside.engine.text import plural

SHARE_WIDTH = 19  # "100.0% (98.2-100.0)": the slot bars start in one column


def stats_text(stats: Stats) -> str:
    """A designer-readable text report of ``stats``."""
    figures = stats.to_dict()
    rate = f", {figures['games_per_second']} games/s" if figures["games_per_second"] else ""
    out = [
        f"{plural(stats.games, 'game')} of {stats.variant} on {', '.join(stats.tracks)} with "
        f"{stats.players} players ({', '.join(stats.bots)}), seeds {stats.seed} to "
        f"{stats.seed + stats.games - 1}: {figures['seconds']:.2f} s{rate}",
        BRACKETS,
        "",
        "Wins and mean winnings by seat:",
        *_seat_lines(stats),
        "",
        "Race wins by start-grid slot (the winning car's slot, pole = 1):",
        *_slot_lines(stats),
        "",
        f"Mean cards played per race: {_per_race(stats.cards, stats.cards_squares, stats.races)}",
        f"Stalled cars per race: {_per_race(stats.stalled, stats.stalled_squares, stats.races)}",
        "",
        "Betting lines, first crossed at card number (mean):",
        *_line_lines(stats),
        "",
        "Spaces where cars most often end a move blocked:",
        *_blocked_lines(stats),
    ]
    return "\n".join(out)


def _seat_lines(stats: Stats) -> list[str]:
    games = stats.games
    lines = []
    for seat in range(stats.players):
        wins = stats.wins[seat]
        share = percent_range(wins / max(1, games), *wilson(wins, games), digits=1)
        winnings = stats.winnings[seat]
        low, high = mean_interval(winnings, stats.winnings_squares[seat], games)
        lines.append(
            f"  Player {seat + 1} ({stats.bots[seat]}): {plural(wins, 'win', spec='g')}, "
            f"{share}, mean winnings {money_range(winnings / max(1, games), low, high)}"
        )
    return lines


def _slot_lines(stats: Stats) -> list[str]:
    races = stats.races
    lines = []
    for slot, wins in enumerate(stats.slot_wins):
        share = wins / max(1, races)
        shown = percent_range(share, *wilson(wins, races), digits=1)
        bar = "#" * round(40 * share)
        lines.append(f"  slot {slot + 1}: {wins:>5} {shown:<{SHARE_WIDTH}} {bar}")
    return lines


def _per_race(total: int, squares: int, races: int) -> str:
    """A count's mean per race with its interval (never below none)."""
    if not races:
        return "none raced"
    low, high = mean_interval(total, squares, races)
    return amount_range(total / races, max(0.0, low), high)


def _line_lines(stats: Stats) -> list[str]:
    lines = []
    for line in range(3):
        crossed = stats.line_races[line]
        when = (
            f"card {_per_race(stats.line_cards[line], stats.line_squares[line], crossed)}"
            if crossed
            else "never"
        )
        lines.append(f"  line {line + 1}: {when}, crossed in {crossed} of {stats.races} races")
    return lines


def _blocked_lines(stats: Stats) -> list[str]:
    top = stats.top_blocked()
    if not top:
        return ["  none"]
    races = max(1, stats.races)
    return [f"  {space}: {plural(n, 'time')}, {n / races:.2f} per race" for space, n in top]
