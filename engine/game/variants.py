"""Variants as data (R-VAR): a YAML file of switches and parameters.

A variant file may ``extends`` another (a bundled name such as ``standard`` or
a path relative to the file); its keys override the parent's, mappings merge
key by key. Every key is optional: a missing key keeps the standard rule.
Keys are documented in ``docs/variants.md``.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, NoReturn

from trackside.engine.errors import InvalidInput, Place, UnreadableInput
from trackside.engine.game.cards import Deck, load_deck
from trackside.engine.resources import resolve_track, variants_dir, yaml_files
from trackside.engine.schema import check, refusal
from trackside.engine.text import closest
from trackside.engine.yamlio import YamlDocument, load_yaml, refuse_other_kind

FORMAT = "trackside-variant/1"
POWERS: tuple[str, ...] = (
    "aggressive",
    "cunning",
    "determined",
    "strategic",
    "tricky",
    "unpredictable",
)


@dataclass(frozen=True)
class Variant:
    """The rules of a game, as read from a variant file."""

    name: str = "Standard"
    description: str = ""
    min_players: int = 3
    max_players: int = 6
    deck_path: str = ""
    auction: bool = True
    powers: tuple[str, ...] = POWERS
    hand_mode: str = "dealt"  # dealt | common | private
    hand_size: int = 7  # cards in hand for common and private draw piles
    speed8: str = "hand"  # hand | face_up
    betting: bool = True
    race_payout: tuple[int, ...] = (12, 9, 6, 4, 2, 0)
    bet_payouts: tuple[tuple[int, ...], ...] = ((9, 6, 3), (6, 4, 2), (3, 2, 1))
    finish: str = "line"  # line | distance
    winner: str = "money"  # money | first_car | furthest_car
    aggressive_bonus: int = 1
    determined_bonus: int = 1
    series: tuple[str, ...] = ()  # track files of a series (world tour)
    cunning_swap: bool = False
    source: str = "<variant>"
    # Every variant file read to build it: its own and those it extends, in that order.
    files: tuple[str, ...] = field(default=(), compare=False)
    # What the file sets that these rules never use, in words (a note, not an error).
    notes: tuple[str, ...] = field(default=(), compare=False)

    @cached_property  # every new game asks; loading resolves the file's path
    def deck(self) -> Deck:
        """The speed-card deck this variant names (R-DECK)."""
        return load_deck(self._deck_file)

    @property
    def read_from(self) -> tuple[str, ...]:
        """Every file this variant was built from: its own, those it extends and its
        deck, resolved."""
        return (*self.files, str(Path(self._deck_file).resolve()))

    @property
    def _deck_file(self) -> str | Path:
        return self.deck_path or variants_dir() / "decks" / "standard.yaml"

    @property
    def use_finish(self) -> bool:
        """False in long distance, where the finish line is ignored."""
        return self.finish == "line"

    def to_data(self) -> dict[str, Any]:
        """Every key of the variant as a variant file states it, nothing inherited
        (``variant_from_data`` reads it back as this variant); the deck as an
        absolute path, left out for the standard deck."""
        data: dict[str, Any] = {
            "format": FORMAT,
            "name": self.name,
            "description": self.description,
            "players": {"min": self.min_players, "max": self.max_players},
            "auction": self.auction,
            "powers": list(self.powers),
            "hand": {"mode": self.hand_mode, "size": self.hand_size},
            "speed8": self.speed8,
            "betting": self.betting,
            "payouts": {
                "race": list(self.race_payout),
                "bets": [list(row) for row in self.bet_payouts],
            },
            "finish": self.finish,
            "winner": self.winner,
            "bonuses": {"aggressive": self.aggressive_bonus, "determined": self.determined_bonus},
            "cunning_swap": self.cunning_swap,
        }
        if self.deck_path:
            data["deck"] = str(Path(self.deck_path).resolve())
        if self.series:
            data["series"] = {"tracks": list(self.series)}
        return data

    def played_data(self) -> dict[str, Any]:
        """What a game reads of the rules (what game records fingerprint): ``to_data``
        without the words, with the deck's cards in place of its file's path, and
        without the series' track list (a record names its tracks itself)."""
        data = self.to_data()
        for key in ("format", "name", "description", "deck", "series"):
            data.pop(key, None)
        data["deck"] = [[list(row) for row in card.rows] for card in self.deck.cards]
        return data


def variant_path(name_or_path: str | os.PathLike[str]) -> Path:
    """The file of a bundled variant name (``two-player``) or a path as given."""
    text = str(name_or_path)
    if os.sep not in text and "/" not in text and not text.endswith((".yaml", ".yml")):
        return variants_dir() / f"{text}.yaml"
    return Path(text)


def bundled_variants() -> list[Path]:
    """Every bundled variant file, sorted by name."""
    return sorted(variants_dir().glob("*.yaml"))


def load_variant(name_or_path: str | os.PathLike[str]) -> Variant:
    """Read a variant (bundled name or file), following ``extends``."""
    path = variant_path(name_or_path)
    if not path.exists() and path.parent == variants_dir():
        names = [p.stem for p in bundled_variants()]
        near = closest(path.stem, names)
        raise UnreadableInput(
            "no bundled variant of that name",
            Place(path.stem),  # the name as typed, not the folder it was looked for in
            (f"did you mean {near}? " if near else "")
            + f"bundled variants: {', '.join(names)}; or give the path of a variant file",
        )
    data, places, files = _resolved(path, ())
    return _build(data, str(path), places, files)


# The merged data of a variant, the place of each top-level key, the files read.
_Resolved = tuple[dict[str, Any], dict[str, Place], tuple[Path, ...]]


def _resolved(path: Path, chain: tuple[Path, ...]) -> _Resolved:
    """The merged data of a variant file and its ancestors, with the place of
    each top-level key for error messages (the file named as it was given), and the
    files read (``chain`` first, each resolved)."""
    real = path.resolve()
    if real in chain:
        names = " -> ".join(p.name for p in (*chain, real))
        raise InvalidInput(
            f"variant 'extends' loops: {names}",
            Place(str(chain[0])),
            "remove the 'extends' that points back",
        )
    return _resolved_doc(load_yaml(path, "variant file"), path.parent, (*chain, real))


def _resolved_doc(doc: YamlDocument, base: Path, chain: tuple[Path, ...]) -> _Resolved:
    """``_resolved`` for parsed data whose relative paths start at ``base``."""
    refuse_other_kind(doc, "variant")
    problems = check("variant", doc.data)
    if problems:
        raise refusal(problems, doc, "variant", "see docs/variants.md for every key and its values")
    own = dict(doc.data)
    places = {k: doc.place((k,)) for k in own}
    if "deck" in own:
        own["deck"] = str((base / own["deck"]).resolve())
    if "series" in own:
        own["series"] = dict(own["series"])
        own["series"]["tracks"] = [resolve_track(t, base) for t in own["series"].get("tracks", [])]
    parent_name = own.pop("extends", None)
    if parent_name is None:
        return own, places, chain
    parent_path = variant_path(parent_name)
    if not parent_path.is_absolute() and parent_path != variants_dir() / f"{parent_name}.yaml":
        parent_path = base / parent_path
    if not parent_path.exists():
        raise _no_parent(parent_name, parent_path, doc.place(("extends",)))
    parent, parent_places, files = _resolved(parent_path, chain)
    return _merge(parent, own), {**parent_places, **places}, files


def _no_parent(name: str, path: Path, place: Place) -> InvalidInput:
    """The refusal of an ``extends`` that names no variant, at its place, with the
    bundled variant or the file beside ``path`` that it most likely misspells."""
    bundled = [p.stem for p in bundled_variants()]
    if path.parent == variants_dir():
        near = closest(name, bundled)
    else:
        beside = yaml_files(path.parent)
        near = closest(path.stem, beside)
        near = near and str(Path(name).with_name(beside[near]))
    return InvalidInput(
        f"extends {name}: no such variant",
        place,
        (f"did you mean {near}? " if near else "")
        + f"bundled variants: {', '.join(bundled)}; or give a path relative to this file",
    )


def variant_from_data(
    data: Any, base: str | os.PathLike[str] = ".", file: str = "<inline variant>"
) -> Variant:
    """A variant given as data (e.g. inline in a game record); relative paths
    (``extends``, ``deck``, series tracks) start at ``base``."""
    folder = Path(base).resolve()
    data, places, files = _resolved_doc(YamlDocument(data, file), folder, (folder / file,))
    return _build(data, file, places, files[1:])  # the first stands for the data: no file


def _merge(parent: dict[str, Any], child: dict[str, Any]) -> dict[str, Any]:
    out = dict(parent)
    for key, value in child.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _merge(out[key], value)
        else:
            out[key] = value
    return out


# Why a hand size is no rule where hands are dealt: said of a variant file and a sweep.
SIZE_UNUSED = "changes nothing while hand.mode is dealt (every card is dealt out equally)"


def _unused(hand: dict[str, Any]) -> tuple[str, ...]:
    """What a variant's hand sets that its rules never use (R-SET-3)."""
    if "size" in hand and hand.get("mode", "dealt") == "dealt":
        return (
            f"hand.size {hand['size']} {SIZE_UNUSED}: set hand.mode to common or private "
            "for hands of that size",
        )
    return ()


def _build(
    data: dict[str, Any], file: str, places: dict[str, Place], files: tuple[Path, ...]
) -> Variant:
    def fail(key: str, message: str, hint: str) -> NoReturn:
        raise InvalidInput(f"variant: {message}", places.get(key, Place(file)), hint)

    players = data.get("players", {})
    hand = data.get("hand", {})
    payouts = data.get("payouts", {})
    bonuses = data.get("bonuses", {})
    defaults = Variant()
    variant = Variant(
        name=data.get("name", defaults.name),
        description=data.get("description", ""),
        min_players=players.get("min", defaults.min_players),
        max_players=players.get("max", defaults.max_players),
        deck_path=data.get("deck", defaults.deck_path),
        auction=data.get("auction", defaults.auction),
        powers=tuple(data.get("powers", defaults.powers)),
        hand_mode=hand.get("mode", defaults.hand_mode),
        hand_size=hand.get("size", defaults.hand_size),
        speed8=data.get("speed8", defaults.speed8),
        betting=data.get("betting", defaults.betting),
        race_payout=tuple(payouts.get("race", defaults.race_payout)),
        bet_payouts=tuple(tuple(row) for row in payouts.get("bets", defaults.bet_payouts)),
        finish=data.get("finish", defaults.finish),
        winner=data.get("winner", defaults.winner),
        aggressive_bonus=bonuses.get("aggressive", defaults.aggressive_bonus),
        determined_bonus=bonuses.get("determined", defaults.determined_bonus),
        series=tuple(data.get("series", {}).get("tracks", ())),
        cunning_swap=data.get("cunning_swap", defaults.cunning_swap),
        source=file,
        files=tuple(str(f) for f in files),
        notes=_unused(hand),
    )
    if variant.min_players > variant.max_players:
        fail(
            "players",
            f"players.min {variant.min_players} is more than players.max {variant.max_players}",
            "make min at most max",
        )
    if len(set(variant.powers)) != len(variant.powers):
        fail("powers", "a power is listed twice", "list each power once")
    deck = variant.deck
    if variant.hand_mode != "dealt" and variant.hand_size * variant.max_players > deck.size:
        fail(
            "hand",
            f"{variant.max_players} hands of {variant.hand_size} need more than the "
            f"{deck.size} cards of the deck",
            "lower hand.size or players.max",
        )
    if variant.finish == "distance" and variant.winner == "first_car":
        fail(
            "winner",
            "no car finishes in a long-distance race, so 'first_car' cannot win",
            "use winner: furthest_car or money",
        )
    return variant
