"""The plain-text report of ``trackside simulate``: every figure from the games with its
95% interval in brackets, in the forms the balance lab uses (``engine/balance/wording.py``).

Shares are over games (a seat's wins, a shared win split) or races (a grid slot's
wins), with Wilson intervals; means per race or per game have normal intervals from
their sums of squares, the races of a series counted as independent.
"""

from __future__ import annotations

from trackside.engine.balance.wording import BRACKETS, amount_range, money_range, percent_range
from trackside.engine.intervals import wilson
from trackside.engine.simulate import Stats, count_interval
from trackside.engine.tallies import Tally
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
        f"Mean cards played per race: {_per_race(stats.cards)}",
        f"Stalled cars per race: {_per_race(stats.stalled)}",
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
        lines.append(
            f"  Player {seat + 1} ({stats.bots[seat]}): {plural(wins, 'win', spec='g')}, "
            f"{share}, mean winnings {money_range(winnings.mean, *winnings.interval())}"
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


def _per_race(tally: Tally) -> str:
    """A count's mean per race with its interval (never below none)."""
    ends = count_interval(tally)
    if ends is None:
        return "none raced"
    return amount_range(tally.mean, *ends)


def _line_lines(stats: Stats) -> list[str]:
    lines = []
    for line, tally in enumerate(stats.lines):
        when = f"card {_per_race(tally)}" if tally.count else "never"
        lines.append(f"  line {line + 1}: {when}, crossed in {tally.count} of {stats.races} races")
    return lines


def _blocked_lines(stats: Stats) -> list[str]:
    top = stats.top_blocked()
    if not top:
        return ["  none"]
    races = max(1, stats.races)
    return [f"  {space}: {plural(n, 'time')}, {n / races:.2f} per race" for space, n in top]
