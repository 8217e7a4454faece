"""What many bot games on one circuit add up to: integer totals, figures with intervals.

Every total is an integer (a shared win counts in sixtieths), so reports of
parts of a run merge into exactly the report of the whole run, in any order.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from trackside.engine.balance.edits import steps_to_line
from trackside.engine.balance.rules import RuleTotals
from trackside.engine.bots.tables import track_tables
from trackside.engine.errors import Place, UnreadableInput
from trackside.engine.game import Game
from trackside.engine.game.board import Board
from trackside.engine.game.cards import COLOURS
from trackside.engine.game.race import first_seat
from trackside.engine.intervals import corrected_z, wilson
from trackside.engine.tallies import SHARE_UNIT, Tally
from trackside.engine.track.movement import FAR
from trackside.engine.yamlio import read_text

SLOTS = len(COLOURS)
FORMAT = "trackside-balance/2"
# Reports this version reads: version 1 has no ``rules`` (its rule figures are absent).
READABLE = ("trackside-balance/1", FORMAT)
WRITE_ONE = "write one with trackside simulate --report FILE.json"
# What each heat map shows, as its legend says it.
HEAT_TITLES = {
    "ends": "Moves ending here, per race",
    "blocked": "Moves ending blocked here, per race",
}


@dataclass
class BalanceReport:
    """Totals over bot games on one circuit; ``to_dict`` gives every figure."""

    track: str
    variant: str
    players: int
    bots: list[str]
    seed: int = 0
    games: int = 0
    slot_wins: list[int] = field(default_factory=lambda: [0] * SLOTS)
    slot_places: list[Tally] = field(default_factory=lambda: [Tally() for _ in range(SLOTS)])
    seat_wins: list[int] = field(default_factory=list)  # in sixtieths
    first_wins: int = 0  # the wins of the player who played first (R-RACE-1), in sixtieths
    kind_wins: dict[str, int] = field(default_factory=dict)  # in sixtieths
    kind_seats: dict[str, int] = field(default_factory=dict)
    turns: Tally = field(default_factory=Tally)
    stalled: Tally = field(default_factory=Tally)
    races_with_stall: int = 0
    stall_steps: Tally = field(default_factory=Tally)  # steps short of the finish
    cards_left: Tally = field(default_factory=Tally)
    line_reached: list[int] = field(default_factory=lambda: [0, 0, 0])
    line_turn: list[Tally] = field(default_factory=lambda: [Tally() for _ in range(3)])
    line_slot: list[list[int]] = field(default_factory=lambda: [[0] * SLOTS for _ in range(3)])
    # Per betting line, over the races that never reached it: how many steps short of it
    # the leading car ended, counted by steps.
    line_short: list[Counter[int]] = field(default_factory=lambda: [Counter() for _ in range(3)])
    money_spread: Tally = field(default_factory=Tally)
    lead_changes: Tally = field(default_factory=Tally)
    ends: Counter[str] = field(default_factory=Counter)  # moves ending on a space
    blocked: Counter[str] = field(default_factory=Counter)  # moves ending blocked there
    stall_spaces: Counter[str] = field(default_factory=Counter)  # where stalled cars stop
    stall_short: Counter[int] = field(default_factory=Counter)  # stalled cars by steps short
    # Per grid slot: races in which its car could not move at all on a card of the
    # first round (the first card of each player): a front row blocking the back row.
    first_round_stuck: list[int] = field(default_factory=lambda: [0] * SLOTS)
    grid: list[str] = field(default_factory=list)  # the start spaces, pole first
    rules: RuleTotals = field(default_factory=RuleTotals)  # powers, betting, auction
    seconds: float = field(default=0.0, compare=False)
    cancelled: bool = field(default=False, compare=False)
    answer: str = field(default="", compare=False)  # why a run until clear stopped

    def __post_init__(self) -> None:
        if not self.seat_wins:
            self.seat_wins = [0] * self.players

    # -- counting ---------------------------------------------------------------
    def add_game(self, game: Game, kinds: list[str]) -> None:
        """Count one finished race; ``kinds`` is the bot kind per seat in that game."""
        result = game.result
        if result is None:
            raise ValueError("the game is not over")
        board = game.board
        if not self.grid:
            self.grid = list(board.track.start_grid)
        slot_of = {colour: k for k, colour in enumerate(game.deal.grid)}
        self.games += 1
        first = first_seat(game.state.owner, game.deal.grid)
        for seat in result.winners:
            self.seat_wins[seat] += SHARE_UNIT // len(result.winners)
            if seat == first:
                self.first_wins += SHARE_UNIT // len(result.winners)
            self.kind_wins[kinds[seat]] = self.kind_wins.get(kinds[seat], 0) + SHARE_UNIT // len(
                result.winners
            )
        for kind in kinds:
            self.kind_seats[kind] = self.kind_seats.get(kind, 0) + 1
        if result.ranking:
            self.slot_wins[slot_of[result.ranking[0]]] += 1
        self.money_spread.add(max(result.scores) - min(result.scores))
        self.cards_left.add(sum(len(hand) for hand in game.state.hands))
        race = _Race(board, game.deal.grid)
        turns = race.replay(game, self, slot_of)
        self.turns.add(turns)
        self.lead_changes.add(race.lead_changes)
        self._add_places(result.ranking, race, slot_of)
        self._add_stalls(result.stalled, race, board)
        self._add_unreached_lines(race, board)
        self.rules.add(game)

    def _add_places(self, ranking: tuple[str, ...], race: _Race, slot_of: dict[str, int]) -> None:
        placed = list(ranking)
        rest = sorted(
            (c for c in COLOURS if c not in placed),
            key=lambda c: (-race.distance(c), slot_of[c]),
        )
        for place, colour in enumerate(placed + rest, 1):
            self.slot_places[slot_of[colour]].add(place)

    def _add_stalls(self, stalled: tuple[str, ...], race: _Race, board: Board) -> None:
        self.stalled.add(len(stalled))
        if stalled:
            self.races_with_stall += 1
        to_finish = track_tables(board).togo  # the bots' steps to the finish, shared
        for colour in stalled:
            space = race.space[colour]
            self.stall_spaces[board.ids[space]] += 1
            if to_finish[space] < FAR:
                self.stall_steps.add(to_finish[space])
                self.stall_short[to_finish[space]] += 1

    def _add_unreached_lines(self, race: _Race, board: Board) -> None:
        for line in range(3):
            if race.crossed[line]:
                continue
            to_line = steps_to_line(board.geometry, line)  # rare: every car fell short
            short = min(to_line[race.space[c]] for c in COLOURS if c not in race.finished)
            self.line_short[line][short] += 1

    def merge(self, other: BalanceReport) -> None:
        """Add the totals of another report of the same circuit and table."""
        self.games += other.games
        for k in range(SLOTS):
            self.slot_wins[k] += other.slot_wins[k]
            self.slot_places[k].merge(other.slot_places[k])
        for seat, wins in enumerate(other.seat_wins):
            self.seat_wins[seat] += wins
        self.first_wins += other.first_wins
        for name in ("kind_wins", "kind_seats"):
            mine, theirs = getattr(self, name), getattr(other, name)
            for kind, value in theirs.items():
                mine[kind] = mine.get(kind, 0) + value
        for name in ("turns", "stalled", "stall_steps", "cards_left", "money_spread"):
            getattr(self, name).merge(getattr(other, name))
        self.lead_changes.merge(other.lead_changes)
        self.races_with_stall += other.races_with_stall
        for line in range(3):
            self.line_reached[line] += other.line_reached[line]
            self.line_turn[line].merge(other.line_turn[line])
            for k in range(SLOTS):
                self.line_slot[line][k] += other.line_slot[line][k]
            self.line_short[line].update(other.line_short[line])
        self.ends.update(other.ends)
        self.blocked.update(other.blocked)
        self.stall_spaces.update(other.stall_spaces)
        self.stall_short.update(other.stall_short)
        for k in range(SLOTS):
            self.first_round_stuck[k] += other.first_round_stuck[k]
        self.grid = self.grid or other.grid
        self.rules.merge(other.rules)
        self.seconds += other.seconds
        self.cancelled = self.cancelled or other.cancelled

    # -- figures ----------------------------------------------------------------
    def slot_shares(self) -> list[tuple[float, float, float]]:
        """Per grid slot: the share of races won by the car starting there, and its
        95% interval."""
        n = self.games
        return [(w / n if n else 0.0, *wilson(w, n)) for w in self.slot_wins]

    @property
    def balance(self) -> float:
        """1 minus the largest gap between two grid slots' win shares (1 = even)."""
        shares = [share for share, _lo, _hi in self.slot_shares()]
        return 1.0 - (max(shares) - min(shares)) if self.games else 1.0

    def balance_interval(self) -> tuple[float, float]:
        """The 95% interval of the balance: every balance the six slots' shares allow
        within intervals that hold all six at once at least 95% of the time (Wilson,
        Bonferroni over the six), so it holds the true balance whenever they do."""
        if not self.games:
            return 0.0, 1.0
        z = corrected_z(SLOTS)
        ends = [wilson(wins, self.games, z) for wins in self.slot_wins]
        lows, highs = [low for low, _ in ends], [high for _, high in ends]
        widest, narrowest = max(highs) - min(lows), max(0.0, max(lows) - min(highs))
        return max(0.0, 1.0 - widest), 1.0 - narrowest

    def first_player_share(self) -> tuple[float, float, float]:
        """The share of games won by the player who played first (the pole car's owner,
        R-RACE-1), and its 95% interval: the first-player advantage."""
        n = self.games
        wins = self.first_wins / SHARE_UNIT
        return (wins / n if n else 0.0, *wilson(wins, n))

    def seat_shares(self) -> list[tuple[float, float, float]]:
        """Per seat in seat order: the share of games won, and its 95% interval."""
        n = self.games
        return [
            (w / SHARE_UNIT / n if n else 0.0, *wilson(w / SHARE_UNIT, n)) for w in self.seat_wins
        ]

    def heat(self) -> dict[str, dict[str, float]]:
        """Per space id: moves ending there and moves ending blocked there, per race."""
        n = max(1, self.games)
        spaces = set(self.ends) | set(self.blocked)
        return {
            s: {"ends": self.ends[s] / n, "blocked": self.blocked[s] / n} for s in sorted(spaces)
        }

    def heat_values(self, mode: str) -> dict[str, float]:
        """Per space id, the per-race value heat map ``mode`` shows (a key of HEAT_TITLES)."""
        return {space: figures[mode] for space, figures in self.heat().items()}

    def to_dict(self) -> dict[str, Any]:
        """Every figure and every total, as plain data (``--report``)."""
        n = self.games
        return {
            "format": FORMAT,
            "track": self.track,
            "variant": self.variant,
            "players": self.players,
            "bots": self.bots,
            "seed": self.seed,
            "games": n,
            "cancelled": self.cancelled,
            "answer": self.answer or None,
            "seconds": round(self.seconds, 3),
            "balance": round(self.balance, 4),
            "balance_interval": [round(end, 4) for end in self.balance_interval()],
            "fair_share": round(1 / SLOTS, 4),
            "grid_slots": [
                {
                    "slot": k + 1,
                    "space": self.grid[k] if k < len(self.grid) else None,
                    "wins": self.slot_wins[k],
                    "win_share": _round3(self.slot_shares()[k]),
                    "mean_place": _round_mean(self.slot_places[k]),
                    "first_round_stuck": _round3(
                        (
                            self.first_round_stuck[k] / n if n else 0.0,
                            *wilson(self.first_round_stuck[k], n),
                        )
                    ),
                }
                for k in range(SLOTS)
            ],
            "seats": [
                {"seat": seat + 1, "win_share": _round3(share)}
                for seat, share in enumerate(self.seat_shares())
            ],
            "first_player": {"win_share": _round3(self.first_player_share())},
            "bot_kinds": {
                kind: {
                    "seats": self.kind_seats[kind],
                    "win_share": _round3(
                        (
                            self.kind_wins.get(kind, 0) / SHARE_UNIT / self.kind_seats[kind],
                            *wilson(
                                self.kind_wins.get(kind, 0) / SHARE_UNIT, self.kind_seats[kind]
                            ),
                        )
                    ),
                }
                for kind in sorted(self.kind_seats)
            },
            "turns": _round_mean(self.turns),
            "rounds": round(self.turns.mean / self.players, 2) if n else None,
            "stalled_per_race": _round_mean(self.stalled),
            "races_with_stall": _round3(
                (self.races_with_stall / n if n else 0.0, *wilson(self.races_with_stall, n))
            ),
            "stall_steps_short": _round_mean(self.stall_steps),
            "cards_left": _round_mean(self.cards_left),
            "betting_lines": [
                {
                    "line": line + 1,
                    "reached": _round3(
                        (
                            self.line_reached[line] / n if n else 0.0,
                            *wilson(self.line_reached[line], n),
                        )
                    ),
                    "turn": _round_mean(self.line_turn[line]),
                    "first_by_slot": self.line_slot[line],
                }
                for line in range(3)
            ],
            "money_spread": _round_mean(self.money_spread),
            "lead_changes": _round_mean(self.lead_changes),
            "heat": self.heat(),
            "stall_spaces": dict(sorted(self.stall_spaces.items())),
            "rules": self.rules.figures(self.money_spread, self.players),
            "totals": self._totals(),
        }

    def _totals(self) -> dict[str, Any]:
        return {
            "slot_wins": self.slot_wins,
            "slot_places": [t.to_list() for t in self.slot_places],
            "seat_wins": self.seat_wins,
            "first_wins": self.first_wins,
            "kind_wins": self.kind_wins,
            "kind_seats": self.kind_seats,
            "turns": self.turns.to_list(),
            "stalled": self.stalled.to_list(),
            "races_with_stall": self.races_with_stall,
            "stall_steps": self.stall_steps.to_list(),
            "cards_left": self.cards_left.to_list(),
            "line_reached": self.line_reached,
            "line_turn": [t.to_list() for t in self.line_turn],
            "line_slot": self.line_slot,
            "line_short": [{str(k): v for k, v in sorted(c.items())} for c in self.line_short],
            "money_spread": self.money_spread.to_list(),
            "lead_changes": self.lead_changes.to_list(),
            "ends": dict(self.ends),
            "blocked": dict(self.blocked),
            "stall_spaces": dict(self.stall_spaces),
            "stall_short": {str(k): v for k, v in sorted(self.stall_short.items())},
            "first_round_stuck": self.first_round_stuck,
            "grid": self.grid,
            "rules": self.rules.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> BalanceReport:
        """A report read back from ``to_dict`` (a saved ``--report``, this version's or
        version 1's, which has no rule figures); ValueError for another format."""
        if data.get("format") not in READABLE:
            raise ValueError(f"format {data.get('format')!r} is not one of {', '.join(READABLE)}")
        t = data["totals"]
        return cls(
            track=str(data["track"]),
            variant=str(data["variant"]),
            players=int(data["players"]),
            bots=[str(b) for b in data["bots"]],
            seed=int(data["seed"]),
            games=int(data["games"]),
            slot_wins=[int(v) for v in t["slot_wins"]],
            slot_places=[Tally.from_list(v) for v in t["slot_places"]],
            seat_wins=[int(v) for v in t["seat_wins"]],
            first_wins=int(t.get("first_wins", 0)),
            kind_wins={str(k): int(v) for k, v in t["kind_wins"].items()},
            kind_seats={str(k): int(v) for k, v in t["kind_seats"].items()},
            turns=Tally.from_list(t["turns"]),
            stalled=Tally.from_list(t["stalled"]),
            races_with_stall=int(t["races_with_stall"]),
            stall_steps=Tally.from_list(t["stall_steps"]),
            cards_left=Tally.from_list(t["cards_left"]),
            line_reached=[int(v) for v in t["line_reached"]],
            line_turn=[Tally.from_list(v) for v in t["line_turn"]],
            line_slot=[[int(v) for v in row] for row in t["line_slot"]],
            line_short=[
                Counter({int(k): int(v) for k, v in c.items()})
                for c in t.get("line_short", [{}, {}, {}])
            ],
            money_spread=Tally.from_list(t["money_spread"]),
            lead_changes=Tally.from_list(t["lead_changes"]),
            ends=Counter({str(k): int(v) for k, v in t["ends"].items()}),
            blocked=Counter({str(k): int(v) for k, v in t["blocked"].items()}),
            stall_spaces=Counter({str(k): int(v) for k, v in t["stall_spaces"].items()}),
            stall_short=Counter({int(k): int(v) for k, v in t.get("stall_short", {}).items()}),
            first_round_stuck=[int(v) for v in t.get("first_round_stuck", [0] * SLOTS)],
            grid=[str(s) for s in t["grid"]],
            rules=RuleTotals.from_dict(t["rules"]) if "rules" in t else RuleTotals(),
            seconds=float(data.get("seconds", 0.0)),
            cancelled=bool(data.get("cancelled", False)),
            answer=str(data.get("answer") or ""),
        )


def read_report(path: str) -> BalanceReport:
    """A saved balance report (``simulate --report``), of this version or version 1;
    a file that is not one is refused, naming it (exit code 2)."""
    text = read_text(path, "balance report")  # the one gate: no pipes, no huge files
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise UnreadableInput(
            f"not a balance report: not JSON ({exc})", Place(path), WRITE_ONE
        ) from None
    if not isinstance(data, dict) or data.get("format") not in READABLE:
        found = data.get("format") if isinstance(data, dict) else None
        raise UnreadableInput(
            f"not a balance report: its format is {found!r}, not {' or '.join(READABLE)}",
            Place(path),
            WRITE_ONE,
        )
    try:
        return BalanceReport.from_dict(data)
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise UnreadableInput(
            f"not a balance report: {type(exc).__name__} {exc}", Place(path), WRITE_ONE
        ) from None


class _Race:
    """Where each car is while a race's log is read again, and who leads."""

    def __init__(self, board: Board, grid: tuple[str, ...]):
        self.board = board
        self.space = {colour: board.grid[k] for k, colour in enumerate(grid)}
        self.laps = dict.fromkeys(COLOURS, 0)
        self.finished: list[str] = []
        self.crossed = [False, False, False]  # betting lines crossed
        self.leader = grid[0]
        self.lead_changes = 0

    def distance(self, colour: str) -> float:
        return self.board.progress[self.space[colour]] + self.laps[colour] * self.board.length

    def replay(self, game: Game, report: BalanceReport, slot_of: dict[str, int]) -> int:
        """Walk the log, counting heat, lines and leads; the number of cards played."""
        turns = 0
        ids, index = self.board.ids, self.board.index
        first_round = game.players  # one card each
        moved: set[str] = set()  # the cars that moved on the card being played
        stuck: set[str] = set()  # cars that could not move on a card of the first round
        for event in game.log:
            data = event.data
            if event.kind == "play":
                turns += 1
                moved.clear()
            elif event.kind == "stay":
                if turns <= first_round and data["car"] not in moved:
                    stuck.add(str(data["car"]))
            elif event.kind in ("move", "finish"):
                colour = str(data["car"])
                moved.add(colour)
                end = index[data["path"][-1]]
                if event.kind == "finish":
                    self.finished.append(colour)
                else:
                    report.ends[ids[end]] += 1
                    if data.get("blocked"):
                        report.blocked[ids[end]] += 1
                    before = self.board.progress[self.space[colour]]
                    if self.board.progress[end] < before - self.board.length / 2:
                        self.laps[colour] += 1  # past the seam: a new lap
                    self.space[colour] = end
                self._update_leader()
            elif event.kind == "cross":
                line = int(data["line"])
                self.crossed[line] = True
                report.line_reached[line] += 1
                report.line_turn[line].add(turns)
                report.line_slot[line][slot_of[str(data["car"])]] += 1
        for colour in stuck:
            report.first_round_stuck[slot_of[colour]] += 1
        return turns

    def _update_leader(self) -> None:
        if self.finished:
            leader = self.finished[0]
        else:
            leader = max(COLOURS, key=lambda c: (self.distance(c), -COLOURS.index(c)))
        if leader != self.leader:
            self.leader = leader
            self.lead_changes += 1


def _round3(values: tuple[float, float, float]) -> list[float]:
    return [round(v, 4) for v in values]


def _round_mean(tally: Tally) -> dict[str, Any] | None:
    """A mean with its interval, as the report writes it. Every mean of a report is of
    a quantity never below none (counts, places, the money spread), so its interval
    is too."""
    if not tally.count:
        return None
    lo, hi = tally.count_interval()
    return {"mean": round(tally.mean, 3), "low": round(lo, 3), "high": round(hi, 3)}
