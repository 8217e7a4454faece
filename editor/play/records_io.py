"""Game records from play mode: save the game being played, open one to watch.

The record format and replay are ``engine.records``'; this module only maps
the app's set-up (seats with names, the circuit being edited) to a record and
back. A circuit that is not saved unchanged in a file is stored inline, so the
record replays even after the circuit is edited again; one saved in a file is named
by its path with the fingerprint of what the game read of it, so that watching the
record later can say when the file changed since.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from trackside.editor.play.controller import PlayController
from trackside.editor.play.setup import PERSON, GameSetup, Seat, current_game
from trackside.engine import records
from trackside.engine.game import Decision, Game, Series
from trackside.engine.writer import refuse_replacing_inputs

HUMAN = "human"  # the record's name for a seat played by a person (as in `trackside play`)


def to_record(controller: PlayController) -> records.Record:
    """The record of the game a controller plays: set-up, decisions so far, result."""
    setup, game = controller.setup, controller.game
    refs: list[str | dict] = []
    for track, path in zip(
        setup.tracks, setup.track_files + [None] * len(setup.tracks), strict=False
    ):
        refs.append(str(Path(path).resolve()) if path else track.to_dict())
    seats = [records.SeatInfo(s.name, HUMAN if s.is_person else s.kind) for s in setup.seats]
    variant = (
        str(Path(setup.variant_source).resolve())
        if os.path.exists(setup.variant_source)
        else setup.variant_source
    )
    return records.Record(
        variant=variant,
        tracks=refs,
        players=setup.players,
        seats=seats,
        seed=setup.seed,
        decisions=list(controller.decisions),
        series=isinstance(game, Series),
        result=records.summary(game),
        fingerprints=records.input_fingerprints(refs, setup.tracks, variant, setup.variant),
    )


def save_record(
    controller: PlayController, path: str | os.PathLike, keep: str | os.PathLike | None = None
) -> None:
    """Write the game's record to ``path`` (through ``engine.writer``), never over a file
    the game reads nor over ``keep`` (the track open in the editor)."""
    refuse_replacing_inputs([("the game record", path)], [("the open track", keep)])
    records.save_record(to_record(controller), path)


@dataclass(frozen=True)
class Watched:
    """A record opened to watch: its game after set-up, its seats and its decisions;
    ``cause`` says which files it names changed since the game (so that watching may
    stop before the end) and what to do, None when none did."""

    game: Game | Series
    setup: GameSetup
    decisions: list[Decision]
    cause: tuple[str, str] | None = None


def load_record(path: str | os.PathLike) -> Watched:
    """A record's game after set-up, its seats and its decisions, to watch them."""
    rec = records.load_record(path)
    game = records.start(rec)
    races = game.games if isinstance(game, Series) else [game]
    boards = game.boards if isinstance(game, Series) else [game.board]
    seats = [Seat(s.name, PERSON if s.kind == HUMAN else s.kind) for s in rec.seats]
    setup = GameSetup(
        current_game(races[0]).variant,
        str(rec.variant),
        seats,
        rec.seed,
        [b.track for b in boards],
        [None] * len(boards),
    )
    cause = records.changed_cause(rec, records.fingerprints_now(rec, game))
    return Watched(game, setup, list(rec.decisions), cause)
