"""The score sheet as text, for ``trackside play`` and ``trackside replay``: the finish
order, the bets revealed and the table of winnings of every race, then the winner in
the words of ``engine.game.scoring.winner_sentence`` (the editor's sheet says the same)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TextIO

from trackside.engine.game import COLOURS, Game, Series
from trackside.engine.game.scoring import winner_sentence
from trackside.engine.text import ordinal, terminal_safe

HEADER = ["seat", "kind", "cars", "price", "bet 1", "bet 2", "bet 3", "race", "bets", "winnings"]
NUMERIC = {3, 7, 8, 9}  # the columns of amounts, right-aligned


def seat_names(players: int, names: Sequence[str] | None = None) -> list[str]:
    """The seats' names (a record's, escaped where a terminal would act on them),
    else 'Player 1', 'Player 2', ..."""
    clean = [terminal_safe(str(n)).strip() for n in names or []]
    return [
        clean[seat] if seat < len(clean) and clean[seat] else f"Player {seat + 1}"
        for seat in range(players)
    ]


def print_score_sheet(
    game: Game | Series, kinds: list[str], out: TextIO, names: Sequence[str] | None = None
) -> None:
    """The finish order and the score sheet of every race as tables, then the winner."""
    races = game.games if isinstance(game, Series) else [game]
    names = seat_names(races[0].players, names)
    for k, race in enumerate(races):
        title = f"Race {k + 1}: " if len(races) > 1 else ""
        for line in race_sheet(race, kinds, names):
            print(f"{title}{line}" if line.startswith("Finish") else line, file=out)
    res = game.result if isinstance(game, Series) else None
    if res is not None:
        print(
            "Series totals: "
            + ", ".join(f"{names[seat]} {s}" for seat, s in enumerate(res.scores)),
            file=out,
        )
        print(winner_sentence(names, res.winners, "total", res.scores), file=out)


def race_sheet(race: Game, kinds: list[str], names: Sequence[str] | None = None) -> list[str]:
    """Finish order, bets revealed and the score table of one finished race."""
    res = race.result
    if res is None:
        return ["The race is not over."]
    lines = [
        "Finish order: "
        + (", ".join(f"{ordinal(i + 1)} {c}" for i, c in enumerate(res.ranking)) or "nobody")
    ]
    if res.stalled:
        lines.append("Stalled: " + ", ".join(res.stalled))
    rows = [HEADER]
    names = seat_names(race.players, names)
    for seat in range(race.players):
        cars = " ".join(c for c in COLOURS if race.owner_of(c) == seat) or "-"
        bets = [(res.bets[k][seat] or "-") if res.bets else "-" for k in range(3)]
        rows.append(
            [
                names[seat],
                kinds[seat] if seat < len(kinds) else "?",
                cars,
                str(res.prices[seat]),
                *bets,
                str(res.earnings[seat]),
                str(res.bet_payouts[seat]),
                str(res.scores[seat]),
            ]
        )
    widths = [max(len(r[i]) for r in rows) for i in range(len(HEADER))]
    for r in rows:
        lines.append(
            "  ".join(
                cell.rjust(w) if i in NUMERIC else cell.ljust(w)
                for i, (cell, w) in enumerate(zip(r, widths, strict=False))
            ).rstrip()
        )
    lines.append("  (winnings = race payouts + bet payouts - auction prices, in $M)")
    lines.append(winner_sentence(names, res.winners, race.variant.winner, res.scores))
    return lines
