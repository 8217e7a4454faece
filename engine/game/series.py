"""World tour (R-VAR): several races in a row, winnings added up."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from trackside.engine.errors import InvalidInput
from trackside.engine.game.board import Board
from trackside.engine.game.decisions import Decision, IllegalDecision, Path
from trackside.engine.game.events import Event, Pending, Phase
from trackside.engine.game.game import Game
from trackside.engine.game.result import Result
from trackside.engine.game.scoring import winner_sentence
from trackside.engine.game.setup import Deal
from trackside.engine.game.variants import Variant
from trackside.engine.game.view import PlayerView
from trackside.engine.track.model import Track, load_track


def tour_name(variant: Variant) -> str:
    """What a series is called on its sheet: 'World tour' for a variant with its own
    track list, else 'Series' (several tracks given to a one-race variant)."""
    return "World tour" if variant.series else "Series"


def race_winner_sentence(
    names: Sequence[str], result: Result, rule: str, race: int, races: int
) -> str:
    """Who won race ``race`` (0-based) of a series, labelled as that race's, so that
    nobody takes it for the series' winner: 'Race 2 of 2: won by Ben (highest
    winnings, $17M)'."""
    said = winner_sentence(names, result.winners, rule, result.scores)
    return f"Race {race + 1} of {races}: won by " + said.removeprefix("Winner: ")


def tour_winner_sentence(names: Sequence[str], result: SeriesResult, variant: Variant) -> str:
    """Who won the series on its totals (R-VAR world tour), the headline of its last
    sheet: 'World tour — Winner: Chloé (highest total, $36M)'."""
    said = winner_sentence(names, result.winners, "total", result.scores)
    return f"{tour_name(variant)} — {said}"


@dataclass(frozen=True)
class SeriesResult:
    """Each race's result, the totals by seat, and the seats with the highest total."""

    races: tuple[Result, ...]
    scores: tuple[int, ...]
    winners: tuple[int, ...]

    @property
    def winner(self) -> int | None:
        return self.winners[0] if len(self.winners) == 1 else None

    def to_dict(self) -> dict[str, Any]:
        return {
            "scores": list(self.scores),
            "winners": list(self.winners),
            "races": [r.to_dict() for r in self.races],
        }


class Series:
    """A world tour: one ``Game`` per board, played in order, with the same
    decision interface as a single game. Race k is set up from the k-th
    number drawn from ``random.Random(seed)``, or from ``deals[k]``."""

    def __init__(
        self,
        boards: list[Board],
        variant: Variant,
        players: int,
        seed: int,
        deals: Sequence[Deal | None] | None = None,
    ):
        if not boards:
            raise InvalidInput(
                "a series needs at least one track",
                hint="list tracks under series.tracks in the variant",
            )
        self.boards, self.variant, self.players, self.seed = boards, variant, players, seed
        rng = random.Random(seed)
        self.seeds = [rng.randrange(2**31) for _ in boards]
        self.deals = list(deals) if deals else [None] * len(boards)
        self.games: list[Game] = [self._game(0)]

    @classmethod
    def new(
        cls,
        tracks: Sequence[Track | Board] | None,
        variant: Variant,
        players: int,
        seed: int = 0,
        deals: Sequence[Deal | None] | None = None,
    ) -> Series:
        """A series on ``tracks``, or on the variant's own track list if None."""
        if not tracks:
            tracks = [load_track(path) for path in variant.series]
        boards = [t if isinstance(t, Board) else Board.of(t, variant.use_finish) for t in tracks]
        return cls(boards, variant, players, seed, deals)

    def _game(self, k: int) -> Game:
        return Game.new(self.boards[k], self.variant, self.players, self.seeds[k], self.deals[k])

    def determinized(
        self, seat: int, rng: random.Random, bet_guess: Mapping[int, int] | None = None
    ) -> Series:
        """The tour as ``seat`` may believe it: the race being played drawn again
        (``Game.determinized``), and the races still to come set up from seeds
        drawn from ``rng`` (their deals are not known yet)."""
        twin = self.copy()
        twin.games[-1] = self.games[-1].determinized(seat, rng, bet_guess)
        begun = len(self.games)
        later = range(begun, len(self.boards))
        twin.seeds = self.seeds[:begun] + [rng.randrange(2**31) for _ in later]
        twin.deals = self.deals[:begun] + [None for _ in later]
        return twin

    def copy(self) -> Series:
        twin = Series.__new__(Series)
        twin.boards, twin.variant, twin.players, twin.seed = (
            self.boards,
            self.variant,
            self.players,
            self.seed,
        )
        twin.seeds, twin.deals = self.seeds, self.deals
        twin.games = [*self.games[:-1], self.games[-1].copy()]
        return twin

    @property
    def game(self) -> Game:
        """The race being played (or the last one)."""
        return self.games[-1]

    @property
    def race(self) -> int:
        """The 0-based number of the current race."""
        return len(self.games) - 1

    @property
    def phase(self) -> Phase:
        return self.game.phase

    @property
    def over(self) -> bool:
        return self.games[-1].over and len(self.games) == len(self.boards)

    @property
    def pending(self) -> Pending:
        return self.game.pending

    def due(self) -> list[int]:
        return self.game.due()

    def options(self, seat: int) -> list[Decision]:
        return self.game.options(seat)

    def all_paths(self, seat: int) -> list[Path]:
        return self.game.all_paths(seat)

    def is_legal(self, decision: Decision) -> bool:
        return self.game.is_legal(decision)

    def view(self, seat: int) -> PlayerView:
        return self.game.view(seat)

    def apply(self, decision: Decision) -> None:
        """Apply to the current race; when it ends, the next race is set up."""
        game = self.games[-1]  # looked up once: this runs at every decision of a tour
        if game.over and len(self.games) == len(self.boards):
            raise IllegalDecision("the series is over; no decision is due")
        game.apply(decision)
        if game.over and len(self.games) < len(self.boards):
            self.games.append(self._game(len(self.games)))

    @property
    def history(self) -> tuple[Decision, ...]:
        """The decisions applied so far, race after race, oldest first."""
        return tuple(decision for race in self.games for decision in race.history)

    def undo(self) -> Decision:
        """Take back the last decision applied (``Game.undo``), into the race
        before when the race being played has none yet."""
        if not self.games[-1].history and len(self.games) > 1:
            self.games.pop()
            self.games[-1] = self.games[-1].copy()  # finished races are shared with copies
        return self.games[-1].undo()

    @property
    def log(self) -> list[Event]:
        """Every race's log under its title, each race's winner labelled as that
        race's, then the totals and the series' winner."""
        out: list[Event] = []
        names = [f"Player {seat + 1}" for seat in range(self.players)]
        for k, race in enumerate(self.games):
            out.append(
                Event(
                    "race",
                    f"Race {k + 1} of {len(self.boards)}: {self.boards[k].track.name}",
                    {"race": k},
                )
            )
            out.extend(race.log)
            res_k = race.result
            # The race's sheet ends on 'Winner: ...'; in a series that is only this race's.
            if res_k is not None and out[-1].kind == "score" and out[-1].text == res_k.sheet[-1]:
                said = race_winner_sentence(names, res_k, race.variant.winner, k, len(self.boards))
                out[-1] = Event("score", said, dict(out[-1].data))
        res = self.result
        if res is not None:
            totals = ", ".join(
                f"Player {seat + 1} {score}" for seat, score in enumerate(res.scores)
            )
            out.append(Event("score", f"Series totals: {totals}"))
            out.append(Event("score", tour_winner_sentence(names, res, self.variant)))
        return out

    @property
    def result(self) -> SeriesResult | None:
        """Totals over the races (R-VAR world tour); None until the last race ends."""
        if not self.over:
            return None
        races = tuple(race.result for race in self.games if race.result is not None)
        totals = [sum(r.scores[seat] for r in races) for seat in range(self.players)]
        top = max(totals)
        return SeriesResult(
            races, tuple(totals), tuple(seat for seat, t in enumerate(totals) if t == top)
        )
