"""The score sheet as text, for ``trackside play`` and ``trackside replay``: the finish
order, the bets revealed and the table of winnings of every race, then the winner in
the words of ``engine.game.scoring.winner_sentence`` (the editor's sheet says the same)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TextIO

from trackside.engine.game import COLOURS, Game, Series
from trackside.engine.game.scoring import winner_sentence
from trackside.engine.game.series import race_winner_sentence, tour_winner_sentence
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
    """The finish order and the score sheet of every race as tables, then the winner;
    in a series each race's winner is labelled as that race's, and the series' winner
    on its totals comes last, ruled off as the game's headline."""
    if not isinstance(game, Series):
        for line in race_sheet(game, kinds, seat_names(game.players, names)):
            print(line, file=out)
        return
    names = seat_names(game.players, names)
    races = len(game.boards)
    for k, race in enumerate(game.games):
        lines = race_sheet(race, kinds, names)
        if race.result is not None:  # its winner is this race's only, not the series'
            lines[-1] = race_winner_sentence(names, race.result, race.variant.winner, k, races)
        for line in lines:
            print(f"Race {k + 1}: {line}" if line.startswith("Finish") else line, file=out)
    res = game.result
    if res is not None:
        print(
            "Series totals: "
            + ", ".join(f"{names[seat]} {s}" for seat, s in enumerate(res.scores)),
            file=out,
        )
        headline = tour_winner_sentence(names, res, game.variant)
        rule = "=" * len(headline)
        print(f"{rule}\n{headline}\n{rule}", file=out)


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
