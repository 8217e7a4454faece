"""Game records (docs/design.md "Game records"): the PGN of Trackside.

A record names the track(s) and the variant (by path, relative to the record
file, by bundled name, or inline), the seats, the set-up (a seed, plus an
explicit deal per race where one was used), every decision in order, and the
result for checking. Records are YAML, validated by
``schemas/record.schema.json``; the same game gives byte-identical text (no
timestamps). ``replay`` re-runs a record and fails loudly on an illegal
decision or a different result; ``cut`` keeps the first k decisions so that a
game can be continued from there.

Typical use::

    rec = Recorder.start(["harbour-loop"], "standard", players=4, seed=7,
                         seats=[SeatInfo("Player 1", "greedy"), ...])
    drive(rec.game, bots, apply=rec.apply)
    save_record(rec.record(), "game.yaml")
    game = replay(load_record("game.yaml"))
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from trackside.engine.errors import InvalidInput, Place, TracksideError
from trackside.engine.fingerprint import fingerprint
from trackside.engine.game import (
    Bid,
    Board,
    Deal,
    Decision,
    Game,
    IllegalDecision,
    PlayCard,
    Result,
    Series,
    Variant,
    decision_from_dict,
    load_variant,
)
from trackside.engine.game.decisions import Path as PathChoice
from trackside.engine.game.steps import Step
from trackside.engine.game.variants import variant_from_data, variant_path
from trackside.engine.resources import resolve_track, tracks_dir, variants_dir
from trackside.engine.schema import check, refusal
from trackside.engine.stamps import ReadCache
from trackside.engine.text import plural
from trackside.engine.track.model import Track, load_track, read_track_document
from trackside.engine.track.validate import ERROR, validate_track
from trackside.engine.writer import refuse_replacing_inputs, write_text
from trackside.engine.yamlio import (
    YamlDocument,
    dump_yaml,
    parse_yaml,
    read_text,
    refuse_other_kind,
)

# A track or variant: a bundled name, a file path, or inline data.
Ref = str | dict[str, Any]
FORMAT = "trackside-record/1"
HEADER = "Trackside game record: replay with `trackside replay FILE`"


@dataclass(frozen=True)
class SeatInfo:
    """A seat at the table: its name and who played it (``human``, ``greedy``, ...)."""

    name: str
    kind: str


@dataclass
class Record:
    """A game record in memory.

    ``variant`` is a bundled variant name, a file path (absolute once loaded)
    or inline variant data; each of ``tracks`` a bundled track name, a path or
    inline track data. ``deals`` holds one explicit deal per race (None where
    the race was set up from the seed) or is empty. ``result`` is the summary
    written for checking (see ``summary``), None for an unfinished game.
    ``fingerprints`` maps each track and variant file named by path (absolute)
    to the fingerprint of what the game read of it (``input_fingerprints``).
    """

    variant: Ref
    tracks: list[Ref]
    players: int
    seats: list[SeatInfo]
    seed: int
    decisions: list[Decision] = field(default_factory=list)
    deals: list[Deal | None] = field(default_factory=list)
    series: bool = False
    result: dict[str, Any] | None = None
    fingerprints: dict[str, str] = field(default_factory=dict)
    file: str | None = field(default=None, compare=False)
    doc: YamlDocument | None = field(default=None, compare=False, repr=False)

    def place(self, *path: str | int) -> Place:
        """Where a part of the record is in its file (or just the file)."""
        if self.doc is not None:
            return self.doc.place(tuple(path))
        return Place(self.file or "<record>")


# -- tracks and variants ----------------------------------------------------------
_TRACKS: ReadCache[Track] = ReadCache(lambda _track: ())  # a track is read from its file only


def open_track(ref: Ref, base: str | os.PathLike[str] | None = None) -> Track:
    """The track of a reference or inline data, refused (``InvalidInput``) if it
    has validation errors; files are read and checked once and kept (until
    they change), so replays share their boards."""
    if isinstance(ref, dict):
        track, doc, problems = read_track_document("<inline track>", text=dump_yaml(ref))
        if track is None:
            raise InvalidInput(f"inline track: {problems[0].message}")
        return playable(track, doc)
    path = resolve_track(ref, base)
    return _TRACKS.get(path, lambda: _playable_file(path))


def _playable_file(path: str) -> Track:
    """The track in the file ``path``, if it can be played."""
    track, doc, _problems = read_track_document(path)
    if track is None:
        return load_track(path)  # raises the schema problem, placed in the file
    return playable(track, doc)


def playable(track: Track, doc: YamlDocument | None = None) -> Track:
    """``track`` if it has no validation error, else ``InvalidInput`` naming the
    file, where in it and the first error (a game on it could not be played)."""
    errors = [i for i in validate_track(track, doc).issues if i.severity == ERROR]
    if not errors:
        return track
    first = errors[0]
    file = first.file or track.source or "<track>"
    more = f" (and {len(errors) - 1} more errors)" if len(errors) > 1 else ""
    raise InvalidInput(
        f"track {track.name!r} cannot be played: {first.code}: {first.message}{more}",
        Place(file, first.yaml_line, first.yaml_column),
        f"run 'trackside validate {file}' and fix the track",
        problems=errors,
    )


def open_variant(ref: Ref, base: str | os.PathLike[str] | None = None) -> Variant:
    """The variant of a bundled name, a path (relative to ``base``) or inline data,
    whose relative paths (``extends``, ``deck``, series tracks) start at ``base``
    (the record's folder) too."""
    if isinstance(ref, dict):
        return variant_from_data(ref, base if base is not None else ".")
    path = variant_path(ref)
    if base is not None and not path.is_absolute() and path.parent != variants_dir():
        path = Path(base) / path
    return _cached_variant(str(path))


# A variant is kept while its own file, those it extends and its deck are unchanged.
_VARIANTS: ReadCache[Variant] = ReadCache(lambda variant: variant.read_from)


def _cached_variant(path: str) -> Variant:
    return _VARIANTS.get(path, lambda: load_variant(path))


def new_game(
    tracks: Sequence[Track],
    variant: Variant,
    players: int,
    seed: int,
    deals: Sequence[Deal | None] = (),
    series: bool | None = None,
) -> Game | Series:
    """A game on one track, or a series (world tour, or several tracks)."""
    if series is None:
        series = bool(variant.series) or len(tracks) > 1
    if series:
        return Series.new(list(tracks), variant, players, seed, list(deals) or None)
    if len(tracks) != 1:
        raise InvalidInput(
            f"variant {variant.name!r} plays one track, {len(tracks)} given",
            hint="give one --track",
        )
    board = Board.of(tracks[0], variant.use_finish)
    return Game.new(board, variant, players, seed, deals[0] if deals else None)


def summary(game: Game | Series) -> dict[str, Any] | None:
    """The result written in a record: finish order, stalled cars, scores,
    winner(s); for a series the totals and each race. None until the game is over."""
    if isinstance(game, Series):
        res = game.result
        if res is None:
            return None
        return {
            "scores": list(res.scores),
            "winners": list(res.winners),
            "winner": res.winner,
            "races": [_race_summary(r) for r in res.races],
        }
    return None if game.result is None else _race_summary(game.result)


def _race_summary(res: Result) -> dict[str, Any]:
    return {
        "ranking": list(res.ranking),
        "stalled": list(res.stalled),
        "scores": list(res.scores),
        "winners": list(res.winners),
        "winner": res.winner,
    }


# -- recording ------------------------------------------------------------------
class Recorder:
    """A game with the record of its decisions kept as they are applied."""

    def __init__(self, game: Game | Series, record: Record):
        self.game = game
        self._record = record
        # For a resumed record: which files it names changed since it was made, in words.
        self.changed: str | None = None

    @classmethod
    def start(
        cls,
        tracks: Sequence[Ref],
        variant: Ref,
        players: int,
        seed: int,
        seats: Sequence[SeatInfo] | None = None,
        deals: Sequence[Deal | None] = (),
        series: bool | None = None,
        embed: bool = False,
    ) -> Recorder:
        """A new game from track and variant references (names or paths), recorded.
        With no ``tracks`` a series variant plays its own track list; with ``embed``
        the record holds the tracks' data instead of their names (see ``embedded``)."""
        v = open_variant(variant)
        refs: list[Ref] = list(tracks)
        if not refs:
            if not v.series:  # a track is missing from the arguments: exit code 2
                raise TracksideError(
                    f"variant {v.name!r} has no track list",
                    Place("--track"),
                    "give a track with --track",
                )
            refs = list(v.series)
        loaded = [open_track(r) for r in refs]
        game = new_game(loaded, v, players, seed, deals, series)
        seats = list(seats or [SeatInfo(f"Player {p + 1}", "unknown") for p in range(players)])
        if len(seats) != players:
            raise InvalidInput(f"{plural(len(seats), 'seat')} for {players} players")
        record = Record(
            variant=_absolute(variant),
            tracks=[_absolute(r) for r in refs],
            players=players,
            seats=seats,
            seed=seed,
            deals=list(deals) if any(deal is not None for deal in deals) else [],
            series=isinstance(game, Series),
        )
        record.fingerprints = input_fingerprints(record.tracks, loaded, record.variant, v)
        return cls(game, embedded(record, game) if embed else record)

    @classmethod
    def resume(cls, record: Record, embed: bool = False) -> Recorder:
        """A recorder holding a record's game after its decisions (a cut record
        continues from its cut); new decisions are added after them. The game goes
        on with the track and variant files as they are now, so the new record keeps
        their fingerprints of now (``changed`` names those that changed since the record
        was made); with ``embed`` it holds the tracks' data."""
        game = replay(record, check_result=False)
        now = fingerprints_now(record, game)
        again = replace(record, decisions=list(record.decisions), result=None, fingerprints=now)
        recorder = cls(game, embedded(again, game) if embed else again)
        recorder.changed = changed_since(record, now)
        return recorder

    def apply(self, decision: Decision) -> None:
        """Apply a decision to the game and keep it in the record."""
        self.game.apply(decision)
        self._record.decisions.append(decision)

    def record(self) -> Record:
        """The record so far (with the result once the game is over)."""
        return replace(
            self._record, decisions=list(self._record.decisions), result=summary(self.game)
        )


def _inputs_of(game: Game | Series) -> tuple[list[Track], Variant]:
    """The circuits a game is played on (one per race) and its rules."""
    if isinstance(game, Series):
        return [board.track for board in game.boards], game.variant
    return [game.board.track], game.variant


def embedded(record: Record, game: Game | Series) -> Record:
    """``record`` holding the data of the circuits its ``game`` is played on in place
    of their names or paths, so that it replays whatever becomes of the files."""
    tracks, _variant = _inputs_of(game)
    return replace(
        record,
        tracks=[track.to_dict() for track in tracks],
        fingerprints={k: v for k, v in record.fingerprints.items() if k not in record.tracks},
    )


def input_fingerprints(
    refs: Sequence[Ref], tracks: Sequence[Track], variant_ref: Ref, variant: Variant
) -> dict[str, str]:
    """The fingerprint of what a game reads of each track (``refs`` and the ``tracks``
    read from them, in order) and of the variant, for those named by a path outside
    the bundled folders (bundled ones travel with the program, inline data with the
    record), keyed by the absolute path."""
    found = {
        str(ref): fingerprint(track.played_data())
        for ref, track in zip(refs, tracks, strict=False)
        if _own_file(ref, tracks_dir())
    }
    if _own_file(variant_ref, variants_dir()):
        found[str(variant_ref)] = fingerprint(variant.played_data())
    return found


def _own_file(ref: Ref, bundled: Path) -> bool:
    """A reference to a file of the user's (not a bundled one, not inline data)."""
    if isinstance(ref, dict) or not _is_path(ref):
        return False
    return Path(ref).resolve().parent != bundled.resolve()


def _is_path(ref: str) -> bool:
    """A path rather than a bundled name (which has no slash and no .yaml)."""
    return "/" in ref or os.sep in ref or ref.endswith((".yaml", ".yml"))


def _absolute(ref: Ref) -> Ref:
    """Paths made absolute so that saving can make them relative to the record."""
    if isinstance(ref, dict) or not _is_path(ref):
        return ref
    return str(Path(ref).resolve())


# -- replay -----------------------------------------------------------------------
def start(record: Record) -> Game | Series:
    """The game of a record after set-up, before any decision."""
    base = Path(record.file).parent if record.file else None
    try:
        variant = open_variant(record.variant, base)
    except TracksideError as exc:
        raise type(exc)(
            f"variant {_name(record.variant)}: {exc}", record.place("variant")
        ) from None
    check_cards(record, variant)
    tracks = []
    for k, ref in enumerate(record.tracks):
        try:
            tracks.append(open_track(ref, base))
        except TracksideError as exc:
            raise type(exc)(f"track {_name(ref)}: {exc}", record.place("tracks", k)) from None
    try:
        return new_game(tracks, variant, record.players, record.seed, record.deals, record.series)
    except TracksideError as exc:
        raise _refused(
            record, (tracks, variant), f"set-up: {exc.message}", record.place("setup"), exc.hint
        ) from None


def check_cards(record: Record, variant: Variant) -> None:
    """Refuse a decision whose card id is not a card of the variant's deck (the
    record's schema cannot know the deck in use), naming the decision and the deck."""
    deck = variant.deck
    for k, decision in enumerate(record.decisions):
        card = decision.card if isinstance(decision, (Bid, PlayCard)) else None
        if card is not None and not 0 <= card < len(deck.cards):
            raise _refused(
                record,
                ([], variant),
                f"decision {k + 1}: card id {card} is not in the deck "
                f"(cards 0 to {len(deck.cards) - 1}, Speed-8 cards last)",
                record.place("decisions", k, "card"),
                f"the deck is {deck.source}; was the record made with another deck?",
            )


def _name(ref: Ref) -> str:
    return "(inline)" if isinstance(ref, dict) else ref


def replay(record: Record, upto: int | None = None, check_result: bool = True) -> Game | Series:
    """Re-run a record: set up, then apply its decisions (the first ``upto``).

    Raises ``InvalidInput`` naming the decision if one is illegal, and, for a
    complete replay, if the result differs from the one recorded."""
    game = start(record)
    decisions = record.decisions if upto is None else record.decisions[:upto]
    for k, decision in enumerate(decisions):
        if game.over:
            raise _refused(
                record,
                _inputs_of(game),
                f"decision {k + 1} comes after the end of the game",
                record.place("decisions", k),
                "remove the extra decisions",
            )
        try:
            game.apply(decision)
        except IllegalDecision as exc:
            ruling = _rule_change(game, decision)
            if ruling is None:
                raise _refused(
                    record,
                    _inputs_of(game),
                    f"decision {k + 1} {_brief(decision)} is illegal: {exc.message}",
                    record.place("decisions", k),
                    exc.hint,
                    before=k,
                ) from None
            raise InvalidInput(
                f"decision {k + 1} {_brief(decision)} is illegal: {exc.message} ({ruling})",
                record.place("decisions", k),
                f"the record was made under the older rule; record the game again, or "
                f"continue it from before this decision (play --resume FILE --cut {k})",
            ) from None
    if check_result and upto is None and record.result is not None:
        _check_result(record, game)
    return game


def _rule_change(game: Game | Series, decision: Decision) -> str | None:
    """Why an older record's decision may no longer fit: a ruling that changed
    which decisions are asked, or None."""
    race = game.game if isinstance(game, Series) else game
    forced = any(e.kind == "bids" and e.data.get("forced") for e in race.log)
    if forced and isinstance(decision, Bid) and decision.car is None:
        return "the last car now goes by the lowest cards shown, without bids"
    if race.state.step is Step.PATH and race.pending.extra and not isinstance(decision, PathChoice):
        return "the Aggressive extra space is now the owner's choice, asked as a path"
    return None


def _brief(decision: Decision) -> str:
    return "{" + ", ".join(f"{k}: {v}" for k, v in _compact(decision).items()) + "}"


def _check_result(record: Record, game: Game | Series) -> None:
    got = summary(game)
    if got is None:
        raise _refused(
            record,
            _inputs_of(game),
            f"the record has a result but its {len(record.decisions)} "
            "decisions do not finish the game",
            record.place("result"),
            "the record is cut short; remove 'result' to continue it",
        )
    for key, want in (record.result or {}).items():
        if key in got and got[key] != want:
            raise _refused(
                record,
                _inputs_of(game),
                f"replay gives {key} {got[key]}, the record says {want}",
                record.place("result", key),
                "the track, variant or engine changed since it was recorded",
            )


def _fingerprints_read(record: Record, tracks: Sequence[Track], variant: Variant) -> dict[str, str]:
    """The fingerprint of what a replay of ``record`` read of each file the record names
    by path (the ``tracks`` and ``variant`` it was set up with, as the files are now)."""
    return input_fingerprints(record.tracks, tracks, record.variant, variant)


def fingerprints_now(record: Record, game: Game | Series) -> dict[str, str]:
    """``_fingerprints_read`` of the circuits and rules ``game``, the replay of
    ``record``, is played with."""
    return _fingerprints_read(record, *_inputs_of(game))


def changed_files(record: Record, now: dict[str, str]) -> list[tuple[str, str]]:
    """The files the record names whose fingerprint ``now`` (``fingerprints_now``) is
    not the one recorded, each with what it is (``track`` or ``variant``); a record
    without fingerprints (an older one) has none."""
    return [
        (path, "variant" if path == record.variant else "track")
        for path, recorded in record.fingerprints.items()
        if path in now and now[path] != recorded
    ]


_CHANGED_PARTS = {
    "track": "its spaces, lines, grid or centre line differ",
    "variant": "its rules or deck differ",
}


def changed_since(record: Record, now: dict[str, str]) -> str | None:
    """A sentence naming each file of the record (as the record names it) whose
    fingerprint ``now`` says it changed since the game was recorded, or None."""
    return _changed_words(record, changed_files(record, now))


def _changed_words(record: Record, changed: list[tuple[str, str]]) -> str | None:
    if not changed:
        return None
    folder = Path(record.file).parent.resolve() if record.file else None
    return "; ".join(
        f"{_shown(path, folder)} has changed since this game was recorded ({_CHANGED_PARTS[kind]})"
        for path, kind in changed
    )


def changed_cause(record: Record, now: dict[str, str]) -> tuple[str, str] | None:
    """Why a record may no longer replay, when files it names changed since the game
    (their fingerprints ``now`` differ), and what to do: (cause, fix); None when
    nothing changed."""
    changed = changed_files(record, now)
    words = _changed_words(record, changed)
    if words is None:
        return None
    kinds = {kind for _path, kind in changed}
    what = " and ".join(w for k, w in (("track", "circuit"), ("variant", "rules")) if k in kinds)
    was = "it was" if what == "circuit" else "they were"
    return (
        f"{words}: the record replays only on the {what} as {was}",
        f"put the {what} back as {was} when the game was recorded; keep a copy beside "
        "the record, or record with 'play --record FILE --embed', which keeps the circuit "
        "inside the record",
    )


def _shown(path: str, folder: Path | None) -> str:
    """A file's path as the record writes it: relative to the record's folder."""
    if folder is None:
        return path
    try:
        return os.path.relpath(path, folder)
    except ValueError:  # another drive (Windows)
        return path


def _refused(
    record: Record,
    read: tuple[Sequence[Track], Variant],
    message: str,
    place: Place,
    hint: str | None = None,
    before: int | None = None,
) -> InvalidInput:
    """The error of a record that does not replay (at ``place``, ``before`` the
    decision that failed if one did); when a file it names has changed since the game
    in what the replay ``read`` of it (the tracks and variant it was set up with), the
    message starts with that, the likely cause, and the hint says what to do."""
    cause = changed_cause(record, _fingerprints_read(record, *read))
    if cause is None:
        return InvalidInput(message, place, hint)
    why, fix = cause
    if before is not None:
        fix += (
            "; or go on with the files as they are now from before this decision: "
            f"play --resume {record.file or 'FILE'} --cut {before}"
        )
    return InvalidInput(f"{why}, and {message}", place, fix)


def cut(record: Record, k: int) -> Record:
    """The record of the same game stopped after its first ``k`` decisions."""
    if not 0 <= k <= len(record.decisions):
        raise InvalidInput(f"cannot cut at decision {k}: the record has {len(record.decisions)}")
    return replace(record, decisions=list(record.decisions[:k]), result=None, doc=None)


# -- YAML -------------------------------------------------------------------------
def _compact(decision: Decision) -> dict[str, Any]:
    """A decision's record form without fields left at None where that is the default."""
    out = decision.to_dict()
    if out.get("type") == "bid" and out.get("car") is None:
        out.pop("car", None)
    return out


_PLAIN = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]*\Z")
_RESERVED = {"y", "n", "yes", "no", "on", "off", "true", "false", "null", "nan", "inf"}


def _scalar(value: Any) -> str:
    """One YAML scalar: plain when safe, else a double-quoted (JSON) string."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    text = str(value)
    if _PLAIN.match(text) and text.lower() not in _RESERVED:
        return text
    return json.dumps(text, ensure_ascii=False)


def _flow(data: dict[str, Any]) -> str:
    """A decision as a one-line flow mapping (fast; plain values and lists only)."""
    parts = []
    for key, value in data.items():
        if isinstance(value, (list, tuple)):
            text = "[" + ", ".join(_scalar(v) for v in value) + "]"
        else:
            text = _scalar(value)
        parts.append(f"{key}: {text}")
    return "{" + ", ".join(parts) + "}"


def record_text(record: Record, folder: str | os.PathLike[str] | None = None) -> str:
    """The YAML text of a record; paths are written relative to ``folder``."""
    variant = _relative(record.variant, folder, variants_dir(), "variant")
    tracks = [_relative(t, folder, tracks_dir(), "track") for t in record.tracks]
    head: dict[str, Any] = {
        "format": FORMAT,
        "variant": variant,
        "tracks": tracks,
        "series": record.series,
        "players": record.players,
        "seats": [{"name": s.name, "kind": s.kind} for s in record.seats],
        "setup": {"seed": record.seed},
    }
    if record.deals:
        head["setup"]["deals"] = [None if deal is None else deal.to_dict() for deal in record.deals]
    # Each fingerprint under its file's name as the record writes it.
    written = zip([record.variant, *record.tracks], [variant, *tracks], strict=True)
    kept = {
        name: record.fingerprints[ref]
        for ref, name in written
        if isinstance(ref, str) and isinstance(name, str) and ref in record.fingerprints
    }
    if kept:
        head["fingerprints"] = kept
    text = dump_yaml(head, HEADER)
    text += "decisions:" + (" []\n" if not record.decisions else "\n")
    text += "".join(f"- {_flow(_compact(decision))}\n" for decision in record.decisions)
    if record.result is not None:
        text += dump_yaml({"result": record.result})
    return text


def _relative(ref: Ref, folder: str | os.PathLike[str] | None, bundled: Path, what: str) -> Ref:
    if isinstance(ref, dict):
        return ref
    if "/" not in ref and os.sep not in ref and not ref.endswith((".yaml", ".yml")):
        return ref
    path = Path(ref).resolve()
    if path.parent == bundled.resolve() and path.suffix == ".yaml":
        return path.stem  # a bundled name travels with the program
    if folder is None:
        return str(path)
    try:
        return os.path.relpath(path, Path(folder).resolve())
    except ValueError:  # another drive (Windows)
        return str(path)


def save_record(record: Record, path: str | os.PathLike[str]) -> None:
    """Write a record (through ``engine.writer``); paths become relative to its folder.
    Refused when ``path`` is a track or variant file the record names."""
    refuse_replacing_inputs([("the game record", path)], record_inputs(record))
    write_text(path, record_text(record, Path(path).parent), "the game record")


def game_inputs(
    tracks: Sequence[Ref], variant: Ref, base: str | os.PathLike[str] | None = None
) -> list[tuple[str, str]]:
    """The files a game on ``tracks`` under ``variant`` reads (references as the command
    line or a record gives them, relative to ``base``), each with what it is: every
    track (the variant's own list when none is given), the variant file and those it
    extends, its deck."""
    rules = open_variant(variant, base)
    refs = list(tracks) or list(rules.series)
    found = [("the track", resolve_track(t, base)) for t in refs if isinstance(t, str)]
    found += [("the variant", file) for file in rules.files]
    if rules.deck_path:
        found.append(("the deck", rules.deck_path))
    return found


def record_inputs(record: Record) -> list[tuple[str, str]]:
    """The files a record's game is read from (its tracks and variant, bundled ones
    too), each with what it is: what writing the record must never replace."""
    found = [("the track", resolve_track(t)) for t in record.tracks if isinstance(t, str)]
    if isinstance(record.variant, str):
        found.append(("the variant", str(variant_path(record.variant))))
    return found


def load_record(path: str | os.PathLike[str]) -> Record:
    """Read a record file safely; errors name the file and line."""
    return parse_record(read_text(path, "game record"), str(path))


def parse_record(text: str, file: str = "<record>") -> Record:
    """A record from YAML text (see ``load_record``)."""
    doc = parse_yaml(text, file)
    if not isinstance(doc.data, dict):
        raise InvalidInput(
            f"a game record must be a mapping with 'format: {FORMAT}'", Place(file, 1)
        )
    refuse_other_kind(doc, "record")
    if doc.data.get("format") != FORMAT:
        found = doc.data.get("format")
        raise InvalidInput(
            f"not a game record: format is {found!r}, expected {FORMAT!r}",
            doc.place(("format",)),
            f"a game record starts with 'format: {FORMAT}'",
        )
    problems = check("record", doc.data)
    if problems:
        raise refusal(problems, doc, "record", "see docs/records.md")
    data = doc.data
    decisions = []
    for k, item in enumerate(data["decisions"]):
        try:
            decisions.append(decision_from_dict(item))
        except TracksideError as exc:
            raise InvalidInput(
                f"decision {k + 1}: {exc.message}", doc.place(("decisions", k)), exc.hint
            ) from None
    deals: list[Deal | None] = []
    for k, item in enumerate(data["setup"].get("deals", [])):
        try:
            deals.append(None if item is None else Deal.from_dict(item))
        except TracksideError as exc:
            raise InvalidInput(exc.message, doc.place(("setup", "deals", k)), exc.hint) from None
    base = Path(file).parent
    seats = [SeatInfo(s["name"], s["kind"]) for s in data["seats"]]
    if len(seats) != data["players"]:
        raise InvalidInput(
            f"{plural(len(seats), 'seat')} for {data['players']} players",
            doc.place(("seats",)),
            "list one seat per player",
        )
    tracks = [
        t if isinstance(t, dict) else _absolute(resolve_track(t, base)) if _is_path(t) else t
        for t in data["tracks"]
    ]
    variant = data["variant"]
    if isinstance(variant, str) and _is_path(variant):
        variant = _absolute(str(base / variant))
    fingerprints = {
        str((base / path).resolve()): value for path, value in data.get("fingerprints", {}).items()
    }
    return Record(
        variant=variant,
        tracks=tracks,
        players=data["players"],
        seats=seats,
        seed=data["setup"]["seed"],
        decisions=decisions,
        deals=deals,
        series=data.get("series", False),
        result=data.get("result"),
        fingerprints=fingerprints,
        file=file,
        doc=doc,
    )


__all__ = [
    "FORMAT",
    "Record",
    "Recorder",
    "SeatInfo",
    "changed_cause",
    "changed_files",
    "changed_since",
    "cut",
    "embedded",
    "fingerprints_now",
    "game_inputs",
    "input_fingerprints",
    "load_record",
    "new_game",
    "open_track",
    "open_variant",
    "parse_record",
    "record_inputs",
    "record_text",
    "replay",
    "save_record",
    "start",
    "summary",
]
