"""Many bot games and their statistics, for designers (``trackside simulate``).

``simulate`` plays ``games`` games with one bot per seat (game i from seed
``seed + i``) and gathers: wins and mean winnings by seat, wins by start-grid
slot (the slot the winning car started from), mean cards played per race,
stalled cars per race, when each betting line is first crossed (mean card
number) and the spaces where cars most often end a move blocked.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from trackside.engine.bots import bot_seed, drive, make_bot
from trackside.engine.game import Game, Series, Variant
from trackside.engine.records import new_game
from trackside.engine.track.model import Track


@dataclass
class Stats:
    """Totals over the simulated games; ``to_dict`` and ``report`` give the figures."""

    variant: str
    tracks: list[str]
    players: int
    bots: list[str]
    seed: int
    games: int = 0
    races: int = 0
    seconds: float = 0.0
    wins: list[float] = field(default_factory=list)
    winnings: list[int] = field(default_factory=list)
    slot_wins: list[int] = field(default_factory=lambda: [0] * 6)
    cards: int = 0
    stalled: int = 0
    line_cards: list[int] = field(default_factory=lambda: [0, 0, 0])
    line_races: list[int] = field(default_factory=lambda: [0, 0, 0])
    blocked: Counter[str] = field(default_factory=Counter)

    def add(self, game: Game | Series) -> None:
        """Count one finished game (or series)."""
        races = game.games if isinstance(game, Series) else [game]
        result = game.result
        if result is None:
            raise ValueError("only a finished game has statistics")
        self.games += 1
        for p in result.winners:
            self.wins[p] += 1 / len(result.winners)  # a shared win is split
        for p, s in enumerate(result.scores):
            self.winnings[p] += s
        for race in races:
            self._add_race(race, len(races) > 1 or len(self.tracks) > 1)

    def _add_race(self, race: Game, named: bool) -> None:
        self.races += 1
        res = race.result
        if res is None:
            raise ValueError("only a finished race has statistics")
        if res.ranking:
            self.slot_wins[race.deal.grid.index(res.ranking[0])] += 1
        self.stalled += len(res.stalled)
        cards = 0
        prefix = f"{race.board.track.name}:" if named else ""
        for event in race.log:
            kind = event.kind
            if kind == "play":
                cards += 1
            elif kind == "cross":
                k = event.data["line"]
                self.line_cards[k] += cards
                self.line_races[k] += 1
            elif kind == "move" and event.data.get("blocked"):
                self.blocked[prefix + event.data["path"][-1]] += 1
        self.cards += cards

    def to_dict(self) -> dict[str, Any]:
        """The figures as plain data (``--json``)."""
        g, r = max(1, self.games), max(1, self.races)
        return {
            "games": self.games,
            "races": self.races,
            "seconds": round(self.seconds, 3),
            "games_per_second": round(self.games / self.seconds, 1) if self.seconds else None,
            "variant": self.variant,
            "tracks": self.tracks,
            "players": self.players,
            "seed": self.seed,
            "seats": [
                {
                    "seat": p,
                    "bot": self.bots[p],
                    "wins": round(self.wins[p], 3),
                    "win_rate": round(self.wins[p] / g, 4),
                    "mean_winnings": round(self.winnings[p] / g, 3),
                }
                for p in range(self.players)
            ],
            "grid_slots": [
                {
                    "slot": k + 1,
                    "wins": self.slot_wins[k],
                    "win_rate": round(self.slot_wins[k] / r, 4),
                }
                for k in range(6)
            ],
            "mean_cards_played": round(self.cards / r, 2),
            "stalled_per_race": round(self.stalled / r, 3),
            "betting_lines": [
                {
                    "line": k + 1,
                    "crossed_in": self.line_races[k],
                    "mean_card": round(self.line_cards[k] / self.line_races[k], 2)
                    if self.line_races[k]
                    else None,
                }
                for k in range(3)
            ],
            "blocked_spaces": [{"space": s, "count": n} for s, n in self.top_blocked()],
        }

    def top_blocked(self, n: int = 10) -> list[tuple[str, int]]:
        """The spaces where moves most often ended blocked, most first (ties by id)."""
        return sorted(self.blocked.items(), key=lambda item: (-item[1], item[0]))[:n]

    def report(self) -> str:
        """A designer-readable text report."""
        d = self.to_dict()
        out = [
            f"{d['games']} games of {self.variant} on {', '.join(self.tracks)} with "
            f"{self.players} players ({', '.join(self.bots)}), seeds {self.seed} to "
            f"{self.seed + self.games - 1}: {d['seconds']:.2f} s"
            + (f", {d['games_per_second']} games/s" if d["games_per_second"] else ""),
            "",
            "Wins and mean winnings by seat:",
        ]
        for s in d["seats"]:
            out.append(
                f"  Player {s['seat'] + 1} ({s['bot']}): {s['wins']:g} wins "
                f"({100 * s['win_rate']:.1f}%), mean winnings {money(s['mean_winnings'])}"
            )
        out += ["", "Race wins by start-grid slot (the winning car's slot, pole = 1):"]
        for s in d["grid_slots"]:
            bar = "#" * round(40 * s["win_rate"])
            out.append(f"  slot {s['slot']}: {s['wins']:>5} ({100 * s['win_rate']:5.1f}%) {bar}")
        out += [
            "",
            f"Mean cards played per race: {d['mean_cards_played']}",
            f"Stalled cars per race: {d['stalled_per_race']}",
            "",
            "Betting lines, first crossed at card number (mean):",
        ]
        for b in d["betting_lines"]:
            when = f"card {b['mean_card']}" if b["mean_card"] is not None else "never"
            out.append(
                f"  line {b['line']}: {when} (crossed in {b['crossed_in']} of {d['races']} races)"
            )
        out += ["", "Spaces where cars most often end a move blocked:"]
        top = d["blocked_spaces"]
        if not top:
            out.append("  none")
        for b in top:
            out.append(
                f"  {b['space']}: {b['count']} times ({b['count'] / max(1, d['races']):.2f}"
                " per race)"
            )
        return "\n".join(out)


def money(amount: float) -> str:
    """An amount in $M, the sign before the dollar: ``-$2.25M``."""
    return f"{'-' if amount < 0 else ''}${abs(amount):.2f}M"


def simulate(
    tracks: Sequence[Track],
    variant: Variant,
    players: int,
    games: int,
    seed: int = 0,
    bots: Sequence[str] = ("greedy",),
    track_names: Sequence[str] = (),
    progress: Callable[[int], None] | None = None,
) -> Stats:
    """Play ``games`` bot games and gather their statistics. ``bots`` lists the
    bot kind per seat (cycled when shorter); ``progress(k)`` is called after each game."""
    kinds = [bots[p % len(bots)] for p in range(players)]
    names = list(track_names) or [t.name for t in tracks]
    stats = Stats(
        variant.name, names, players, kinds, seed, wins=[0.0] * players, winnings=[0] * players
    )
    began = time.perf_counter()
    for i in range(games):
        game_seed = seed + i
        game = new_game(tracks, variant, players, game_seed)
        drive(game, [make_bot(k, bot_seed(game_seed, p, k)) for p, k in enumerate(kinds)])
        stats.add(game)
        if progress:
            progress(i + 1)
    stats.seconds = time.perf_counter() - began
    return stats
