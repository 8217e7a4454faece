"""Sweeps: the balance lab over a grid of variant values and circuits
(``trackside sweep``).

A sweep sets variant keys (``--set payouts.race.0=10,12,14 --set hand.size=5..8``)
on a base variant, and plays every setting of the grid (the product of the values
and the circuits) with the same games: game i of every setting from seed
``seed + i``, the same bots in the same seats (paired across settings). Every
setting is built and set up once before any game is played, so that a bad value
is named at once. The games are handed out in parts, setting by setting, to the
executor (here, local processes or a Dask cluster); each setting adds its parts
up into a balance report, and says when it is complete, so that the caller can
save it as it ends. ``SweepResults`` is the report (``trackside-sweep/1``,
docs/balance.md); read back, it tells which games each setting still needs, so
that a stopped sweep continues where it stopped.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from trackside import __version__
from trackside.engine.balance.executors import Executor, executor_for
from trackside.engine.balance.players import LAB_BOTS
from trackside.engine.balance.report import FORMAT as REPORT_FORMAT
from trackside.engine.balance.report import BalanceReport
from trackside.engine.balance.runner import BalanceRun, chunks, played_parts
from trackside.engine.balance.variant_keys import (
    VariantKey,
    setting_words,
    variant_key,
    with_values,
    written,
)
from trackside.engine.errors import Place, TracksideError
from trackside.engine.game import Game, Series, Variant
from trackside.engine.game.variants import SIZE_UNUSED
from trackside.engine.records import new_game, open_track
from trackside.engine.resources import resolve_track
from trackside.engine.simulate import play_games
from trackside.engine.track.model import Track

FORMAT = "trackside-sweep/1"
MAX_SETTINGS = 1_000
MAX_VALUES = 200  # values of one key
_RANGE = re.compile(r"\s*(-?\d+)\s*\.\.\s*(-?\d+)\s*")
Span = tuple[int, int]  # games first to stop - 1


# -- the grid -----------------------------------------------------------------------


@dataclass(frozen=True)
class Axis:
    """One key of the sweep and the values it takes, in order."""

    key: VariantKey
    values: tuple[Any, ...]


def parse_set(text: str, base: Variant) -> Axis:
    """The axis of ``--set KEY=VALUES``: values separated by commas (a list or a
    mapping as in a variant file, ``[9, 6, 3]``, counts as one value), whole
    numbers also as a range ``a..b`` (both ends in)."""
    key_text, equals, values_text = text.partition("=")
    if not equals:
        raise TracksideError(
            f"{text}: no values", Place("--set"), "give KEY=VALUES, as hand.size=5,6,7 or 5..8"
        )
    key = variant_key(key_text.strip(), base)
    values = parse_values(values_text, key.text)
    return Axis(key, tuple(values))


def parse_values(text: str, key: str = "the key") -> list[Any]:
    """The values of ``a,b,c`` (each read as a YAML value: ``10``, ``true``, ``dealt``,
    ``[9, 6, 3]``) with ranges ``5..8`` spelled out."""
    values: list[Any] = []
    for item in _top_level_items(text):
        span = _RANGE.fullmatch(item)
        if span:
            low, high = int(span[1]), int(span[2])
            if low > high:
                raise TracksideError(
                    f"{key}={item}: the range goes down", Place("--set"), f"write {high}..{low}"
                )
            if high - low >= MAX_VALUES:
                raise TracksideError(
                    f"{key}={item}: {high - low + 1} values", Place("--set"), _max_values_hint()
                )
            values += range(low, high + 1)
            continue
        if not item.strip():
            raise TracksideError(
                f"{key}={text}: an empty value", Place("--set"), "separate values by one comma"
            )
        try:
            values.append(yaml.safe_load(item))
        except yaml.YAMLError:
            raise TracksideError(
                f"{key}={item}: cannot read the value",
                Place("--set"),
                "write it as in a variant file: 10, true, dealt, [9, 6, 3]",
            ) from None
    repeated = [written(v) for k, v in enumerate(values) if v in values[:k]]
    if repeated:
        raise TracksideError(
            f"{key}={repeated[0]} is given twice", Place("--set"), "give each value once"
        )
    if len(values) > MAX_VALUES:
        raise TracksideError(f"{key}: {len(values)} values", Place("--set"), _max_values_hint())
    return values


def _max_values_hint() -> str:
    return f"give at most {MAX_VALUES} values a key"


def _top_level_items(text: str) -> list[str]:
    """``text`` split at the commas outside brackets, braces and quotes."""
    items, depth, quote, start = [], 0, "", 0
    for k, char in enumerate(text):
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char in "[{":
            depth += 1
        elif char in "]}":
            depth -= 1
        elif char == "," and depth == 0:
            items.append(text[start:k])
            start = k + 1
    items.append(text[start:])
    return items


@dataclass(frozen=True)
class Circuit:
    """A circuit of the sweep: the reference as given, the track, and a digest of its
    file (a changed file is another circuit)."""

    ref: str
    track: Track
    digest: str

    @classmethod
    def open(cls, ref: str) -> Circuit:
        """The circuit of a file or bundled name (refused if it has errors)."""
        track = open_track(ref)
        return cls(ref, track, _digest(Path(resolve_track(ref)).read_bytes()))


@dataclass(frozen=True)
class Setting:
    """One point of the grid: a value per axis, a circuit, and the games to play."""

    values: tuple[Any, ...]
    circuit: int
    run: BalanceRun


@dataclass(frozen=True)
class Sweep:
    """What a sweep plays: the base variant, the axes, the circuits, and the table."""

    base_ref: str
    base: Variant
    axes: tuple[Axis, ...]
    circuits: tuple[Circuit, ...]
    players: int
    games: int
    seed: int = 0
    bots: tuple[str, ...] = LAB_BOTS

    def __post_init__(self) -> None:
        keys = [axis.key for axis in self.axes]
        for k, key in enumerate(keys):
            for other in keys[:k]:
                if key.parts[: len(other.parts)] == other.parts or (
                    other.parts[: len(key.parts)] == key.parts
                ):
                    raise TracksideError(
                        f"{other.text} and {key.text} set the same value",
                        Place("--set"),
                        "give each key once",
                    )
        count = len(self.circuits) * _product([len(a.values) for a in self.axes])
        if count > MAX_SETTINGS:
            raise TracksideError(
                f"{count:,} settings", Place("--set"), f"a sweep plays at most {MAX_SETTINGS:,}"
            )

    def settings(self, folder: str = ".") -> list[Setting]:
        """Every setting, circuits outermost, then the axes in order; each variant
        built, checked and set up once (an error names the setting)."""
        grid = list(itertools.product(*(axis.values for axis in self.axes)))
        variants = [self._variant(values, folder) for values in grid]
        out = []
        for c, circuit in enumerate(self.circuits):
            for values, variant in zip(grid, variants, strict=True):
                run = BalanceRun(
                    circuit.track,
                    variant,
                    self.players,
                    self.games,
                    self.seed,
                    self.bots,
                    circuit.track.name,
                )
                _check_setup(run, self.setting_text(values, circuit.ref))
                out.append(Setting(values, c, run))
        return out

    def _variant(self, values: tuple[Any, ...], folder: str) -> Variant:
        if not self.axes:
            variant = self.base
        else:
            chosen = {axis.key: value for axis, value in zip(self.axes, values, strict=True)}
            variant = with_values(
                self.base, chosen, f"{self.base.name} ({setting_words(chosen)})", folder
            )
        if variant.series:
            raise TracksideError(
                f"variant {variant.name!r} races a list of tracks",
                Place("--variant"),
                "a sweep plays one circuit per setting: give a variant without one",
            )
        n = self.players
        if not variant.min_players <= n <= variant.max_players:
            said = (
                f"variant {variant.name!r} is for {variant.min_players} to "
                f"{variant.max_players} players, not {n}"
            )
            if self.base.min_players <= n <= self.base.max_players:  # a --set value's doing
                raise TracksideError(
                    said,
                    Place("--set"),
                    f"every setting plays with the same {n} players: keep players.min at "
                    f"{n} or below and players.max at {n} or above, or give --players",
                )
            raise TracksideError(said, Place("--players"))
        variant.deck  # noqa: B018  read now: workers elsewhere get the cards, not the path
        return variant

    def setting_text(self, values: Sequence[Any], ref: str) -> str:
        """A setting in words: ``hand.size=5, payouts.race.0=10 on harbour-loop``."""
        chosen = ", ".join(
            f"{axis.key.text}={written(v)}" for axis, v in zip(self.axes, values, strict=True)
        )
        return f"{chosen} on {ref}" if chosen else ref

    def notes(self, settings: Sequence[Setting]) -> list[str]:
        """What a designer should know about the grid before it is played."""
        sizes = [a for a in self.axes if a.key.parts == ("hand", "size")]
        if sizes and all(s.run.variant.hand_mode == "dealt" for s in settings):
            return [
                f"hand.size {SIZE_UNUSED}: the settings that differ only in it play the same games"
            ]
        return []

    def identity(self) -> dict[str, Any]:
        """What decides the games of every setting: the same identity, the same games."""
        base = self.base.to_data()
        if "deck" in base:
            base["deck"] = _digest(Path(base["deck"]).read_bytes())
        return {
            "trackside": __version__,
            "variant": {"ref": self.base_ref, "name": self.base.name, "digest": _digest(base)},
            "keys": [{"key": a.key.text, "values": list(a.values)} for a in self.axes],
            "tracks": [
                {"ref": c.ref, "name": c.track.name, "digest": c.digest} for c in self.circuits
            ],
            "players": self.players,
            "bots": list(self.bots),
            "games": self.games,
            "seed": self.seed,
        }


def _product(counts: list[int]) -> int:
    out = 1
    for n in counts:
        out *= n
    return out


def _digest(data: object) -> str:
    text = data if isinstance(data, bytes) else json.dumps(data, sort_keys=True).encode()
    return hashlib.sha256(text).hexdigest()[:16]


def _check_setup(run: BalanceRun, words: str) -> None:
    """Set the setting's first game up (no move played): a variant that cannot be
    played on the circuit is refused before any game."""
    try:
        new_game([run.track], run.variant, run.players, run.seed, series=False)
    except TracksideError as exc:
        raise TracksideError(f"{words}: {exc.message}", Place("--set"), exc.hint) from None


# -- playing ------------------------------------------------------------------------


@dataclass
class SettingResult:
    """What a setting has played so far: its balance report and the games in it."""

    report: BalanceReport
    played: list[Span] = field(default_factory=list)

    @property
    def games(self) -> int:
        return sum(stop - first for first, stop in self.played)

    def add(self, part: BalanceReport, first: int, stop: int) -> None:
        """Add the report of games ``first`` to ``stop - 1``."""
        self.report.merge(part)
        self.played = _merged([*self.played, (first, stop)])

    def missing(self, games: int) -> list[Span]:
        """The games of 0 to ``games - 1`` not played yet."""
        out, at = [], 0
        for first, stop in self.played:
            if first > at:
                out.append((at, first))
            at = max(at, stop)
        if at < games:
            out.append((at, games))
        return out


def _merged(spans: list[Span]) -> list[Span]:
    out: list[Span] = []
    for first, stop in sorted(spans):
        if out and first <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], stop))
        else:
            out.append((first, stop))
    return out


def play_report(run: BalanceRun, first: int, stop: int) -> BalanceReport:
    """The balance report of games ``first`` to ``stop - 1`` of ``run`` (a task)."""
    report = run.empty_report()

    def count(game: Game | Series, kinds: list[str]) -> None:
        assert isinstance(game, Game)  # a sweep races once per game
        report.add_game(game, kinds)

    began = time.perf_counter()
    play_games(run.bot_run, first, stop, count)
    report.seconds = time.perf_counter() - began
    return report


def run_sweep(
    settings: Sequence[Setting],
    results: list[SettingResult],
    workers: int | Executor = 1,
    progress: Callable[[int, int], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
    finished: Callable[[int], None] | None = None,
) -> bool:
    """Play the games each setting still misses (``results``, one per setting,
    grow as parts finish), setting by setting; ``progress(done, total)`` with the
    games played by this call, ``finished(k)`` once setting k is complete. True
    when every setting is complete (False: cancelled)."""
    runs = [s.run for s in settings]
    with executor_for(workers) as executor:
        tasks = [
            (k, first, stop)
            for k, setting in enumerate(settings)
            for low, high in results[k].missing(setting.run.games)
            for first, stop in chunks(high, low, executor.task_games)
        ]
        total, done = sum(stop - first for _k, first, stop in tasks), 0
        for t, part in played_parts(play_report, runs, tasks, executor, cancelled):
            k, first, stop = tasks[t]
            results[k].add(part, first, stop)
            done += stop - first
            if finished and results[k].games == settings[k].run.games:
                finished(k)
            if progress:
                progress(done, total)
    return all(r.games == s.run.games for r, s in zip(results, settings, strict=True))


# -- the report -----------------------------------------------------------------------


@dataclass
class SweepResults:
    """A sweep and what each setting has played: the report (``trackside-sweep/1``)."""

    sweep: Sweep
    settings: list[Setting]
    results: list[SettingResult]
    seconds: float = 0.0  # spent playing, over every run of the sweep

    @classmethod
    def fresh(cls, sweep: Sweep, settings: list[Setting]) -> SweepResults:
        """A sweep that has played nothing yet."""
        return cls(sweep, settings, [SettingResult(s.run.empty_report()) for s in settings])

    @property
    def complete(self) -> bool:
        return all(r.games == self.sweep.games for r in self.results)

    def finished_settings(self) -> int:
        """How many settings have played all their games."""
        return sum(r.games == self.sweep.games for r in self.results)

    def to_dict(self) -> dict[str, Any]:
        """The report: the sweep, and per setting its values, circuit, the games
        played and its balance report (null before its first game)."""
        identity = self.sweep.identity()
        return {
            "format": FORMAT,
            "complete": self.complete,
            "seconds": round(self.seconds, 3),
            "sweep": identity,
            "settings": [
                {
                    "values": {
                        axis.key.text: value
                        for axis, value in zip(self.sweep.axes, setting.values, strict=True)
                    },
                    "track": self.sweep.circuits[setting.circuit].ref,
                    "games": result.games,
                    "played": [list(span) for span in result.played],
                    "report": result.report.to_dict() if result.games else None,
                }
                for setting, result in zip(self.settings, self.results, strict=True)
            ],
        }

    def resume(self, data: Any, file: str) -> None:
        """Take what a saved report of this very sweep has played; a report of another
        sweep is refused, naming the first difference."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise TracksideError(
                f"holds no {FORMAT} report", Place(file), "give --fresh to replace it"
            )
        saved, identity = data.get("sweep"), self.sweep.identity()
        if saved != identity:
            raise TracksideError(
                f"holds another sweep ({_first_difference(saved, identity)})",
                Place(file),
                "run the sweep it holds, give another --report, or --fresh to start again",
            )
        entries = data.get("settings")
        if not isinstance(entries, list) or len(entries) != len(self.results):
            raise TracksideError("its settings are damaged", Place(file), "give --fresh")
        try:
            for k, entry in enumerate(entries):
                _check_counted_alike(entry, file)
                if entry["games"]:
                    self.results[k] = SettingResult(
                        BalanceReport.from_dict(entry["report"]),
                        _merged([(int(a), int(b)) for a, b in entry["played"]]),
                    )
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise TracksideError(
                f"its settings are damaged ({exc})", Place(file), "give --fresh"
            ) from None
        self.seconds = float(data.get("seconds") or 0.0)


def _check_counted_alike(entry: Any, file: str) -> None:
    """Refuse a setting whose report counts other figures than this version's (a
    balance report of version 1 has no rule totals: the games added to it would
    count figures its first games never did)."""
    report = entry.get("report") if isinstance(entry, dict) else None
    found = report.get("format") if isinstance(report, dict) else REPORT_FORMAT
    if found != REPORT_FORMAT:
        raise TracksideError(
            f"its settings hold balance reports of {found!r}, not {REPORT_FORMAT!r}: "
            "their games were counted without some of the figures",
            Place(file),
            "give --fresh to play the sweep again",
        )


def _first_difference(saved: Any, here: dict[str, Any]) -> str:
    """The first thing a saved sweep does differently, in words."""
    if not isinstance(saved, dict):
        return "no sweep is described"
    for name, value in here.items():
        there = saved.get(name)
        if there == value:
            continue
        if name == "trackside":
            return f"made by Trackside {there}, this is {value}"
        if name == "variant" and isinstance(there, dict) and there.get("ref") == value["ref"]:
            return f"the variant {value['ref']} has changed since"
        if name == "keys":
            return "set " + _keys_words(there) + " there, " + _keys_words(value) + " here"
        if name == "tracks":
            refs = [t.get("ref") for t in there] if isinstance(there, list) else []
            if isinstance(there, list) and refs == [t["ref"] for t in value]:
                changed = [t["ref"] for t, o in zip(value, there, strict=True) if t != o]
                return f"the track {changed[0]} has changed since"
            return (
                f"tracks {', '.join(map(str, refs))} there, "
                + ", ".join(t["ref"] for t in value)
                + " here"
            )
        return f"{name} {_short(there)} there, {_short(value)} here"
    return "it is described otherwise"


def _keys_words(keys: Any) -> str:
    if not isinstance(keys, list) or not keys:
        return "no key"
    return "; ".join(
        f"{k.get('key')}={','.join(written(v) for v in k.get('values', []))}"
        for k in keys
        if isinstance(k, dict)
    )


def _short(value: object) -> str:
    text = json.dumps(value)
    return text if len(text) <= 80 else text[:79] + "…"
