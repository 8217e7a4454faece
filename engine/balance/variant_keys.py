"""Variant keys named by a dotted path with list indices (``hand.size``,
``payouts.race.0``, ``payouts.bets.2.0``), what each allows in words (from the
variant schema: its choices, range and type), and a variant with some keys set.

A value is checked against the schema where it goes, so that a bad one is named
with its key and what the key allows, before any game is played.
"""

from __future__ import annotations

import copy
import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from trackside.engine.errors import InvalidInput, Place, TracksideError
from trackside.engine.game.variants import Variant, variant_from_data
from trackside.engine.resources import load_schema
from trackside.engine.schema import check

Part = str | int  # a key of a mapping or an index of a list
# Keys that are no rule of the game: a sweep sets rules.
NOT_RULES = {
    "format": "the file format",
    "name": "the variant's name",
    "description": "the variant's description",
    "extends": "where the variant's keys come from",
    "series": "a list of tracks (a sweep plays one circuit per setting: give each with --track)",
}


@dataclass(frozen=True)
class VariantKey:
    """A key of a variant file by its path: ``text`` as written, ``parts`` its steps
    (mapping keys and list indices), ``schema`` what the schema says of its value."""

    text: str
    parts: tuple[Part, ...]
    schema: Mapping[str, Any] = field(compare=False)

    def allowed(self, example: object = None) -> str:
        """What the key takes, in words ("a whole number from 1 to 21")."""
        words = value_words(self.schema)
        if example is not None and isinstance(example, list | dict):
            words += f", such as {written(example)}"
        return words

    def value_in(self, data: Mapping[str, Any]) -> Any:
        """The key's value in variant data (every key present, as ``to_data`` gives)."""
        value: Any = data
        for part in self.parts:
            value = value[part]
        return value


def variant_key(text: str, base: Variant) -> VariantKey:
    """The key of ``text`` in the variant schema, its list indices checked against
    ``base``'s lists; a ``TracksideError`` naming the key and the keys there are."""
    words = text.split(".")
    if not text or any(not w for w in words):
        raise _bad_key(text, "is no key", _keys_hint(_schema()))
    if words[0] in NOT_RULES:
        raise _bad_key(text, f"is {NOT_RULES[words[0]]}, not a rule to set", "")
    node: Mapping[str, Any] = _schema()
    value: Any = base.to_data()
    parts: list[Part] = []
    for word in words:
        where = ".".join(str(p) for p in parts) or "a variant"
        if node.get("type") == "array" or "items" in node:
            index = _index(word)
            if index is None or not 0 <= index < len(value):
                raise _bad_key(
                    text,
                    f"names no item of {where}",
                    f"{where} is a list of {len(value)}: give an index from 0 to {len(value) - 1}",
                )
            parts.append(index)
            node, value = node.get("items", {}), value[index]
        elif "properties" in node:
            if word not in node["properties"] or word in NOT_RULES:
                raise _bad_key(
                    text, f"is no key of {where}", _keys_hint(node, ".".join(map(str, parts)))
                )
            parts.append(word)
            node, value = node["properties"][word], value.get(word)
        else:
            raise _bad_key(
                text, f"goes past {where}, which is {value_words(node)}", f"set {where} itself"
            )
    return VariantKey(text, tuple(parts), node)


def with_values(
    base: Variant, values: Mapping[VariantKey, Any], name: str, folder: str = "."
) -> Variant:
    """``base`` with each key set to its value, named ``name``; relative paths (a
    deck) start at ``folder``. A ``TracksideError`` (exit code 2) naming the key and
    what it allows when a value breaks the schema, or the setting when the values
    together make no playable variant."""
    data = base.to_data()
    data["name"] = name
    for key, value in values.items():
        _put(data, key.parts, copy.deepcopy(value))
    for key, value in values.items():
        problems = [p for p in check("variant", data) if _under(p.path, key.parts)]
        if problems:
            raise TracksideError(
                f"{key.text}={written(value)}: {key.text} takes "
                f"{key.allowed(key.value_in(base.to_data()))}, not {written(value)}",
                Place("--set"),
            )
    problems = check("variant", data)
    if problems:  # a value reaching into another key's rule
        raise TracksideError(problems[0].message, Place("--set"), setting_words(values))
    try:
        return variant_from_data(data, folder, name)
    except InvalidInput as exc:
        raise TracksideError(
            f"{setting_words(values)}: {exc.message}", Place("--set"), exc.hint
        ) from None


def setting_words(values: Mapping[VariantKey, Any]) -> str:
    """The keys set, as ``hand.size=5, payouts.race.0=10``."""
    return ", ".join(f"{key.text}={written(value)}" for key, value in values.items())


def written(value: object) -> str:
    """A value as written on the command line and in a flow-style variant file:
    ``10``, ``true``, ``dealt``, ``[9, 6, 3]``, ``[aggressive, tricky]``."""
    if isinstance(value, str):
        return value
    if isinstance(value, list | tuple):
        return "[" + ", ".join(written(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {written(v)}" for k, v in value.items()) + "}"
    return json.dumps(value)


def value_words(schema: Mapping[str, Any]) -> str:
    """What a value of ``schema`` may be, in words."""
    if "enum" in schema:
        return "one of " + ", ".join(written(v) for v in schema["enum"])
    kind = schema.get("type")
    if kind == "integer":
        low, high = schema.get("minimum"), schema.get("maximum")
        if low is not None and high is not None:
            return f"a whole number from {low} to {high}"
        if low is not None:
            return f"a whole number of at least {low}"
        return "a whole number"
    if kind == "boolean":
        return "true or false"
    if kind == "string":
        return "a path" if "deck" in str(schema.get("description", "")).lower() else "text"
    if kind == "array":
        return _list_words(schema)
    if kind == "object":
        return "a mapping of " + ", ".join(schema.get("properties", {}))
    return "a value"


def _list_words(schema: Mapping[str, Any]) -> str:
    low, high = schema.get("minItems"), schema.get("maxItems")
    count = (
        f"{low} "
        if low is not None and low == high
        else f"{low} to {high} "
        if low is not None and high is not None
        else ""
    )
    items = schema.get("items", {})
    if "enum" in items:
        each = "once each" if schema.get("uniqueItems") else ""
        return (
            f"a list of {count}"
            + ", ".join(written(v) for v in items["enum"])
            + (f" ({each})" if each else "")
        )
    if items.get("type") == "integer":
        return f"a list of {count}whole numbers"
    if items.get("type") == "array":
        return f"a list of {count}lists ({_list_words(items)})"
    return f"a list of {count}values"


@cache
def _schema() -> Mapping[str, Any]:
    schema: Mapping[str, Any] = load_schema("variant")
    return schema


def _keys_hint(node: Mapping[str, Any], prefix: str = "") -> str:
    return (
        f"keys: {', '.join(_known(node, prefix))}; an item of a list by its index, "
        "as payouts.race.0 (docs/variants.md)"
    )


def _known(node: Mapping[str, Any], prefix: str = "") -> list[str]:
    """The rule keys under ``node``, dotted, as far as mappings go."""
    out: list[str] = []
    for name, sub in node.get("properties", {}).items():
        if name in NOT_RULES:
            continue
        path = f"{prefix}.{name}" if prefix else name
        out += _known(sub, path) if "properties" in sub else [path]
    return out


def _index(word: str) -> int | None:
    return int(word) if word.isdigit() else None


def _put(data: dict[str, Any], parts: tuple[Part, ...], value: object) -> None:
    target: Any = data
    for part in parts[:-1]:
        target = target[part]
    target[parts[-1]] = value


def _under(path: tuple[object, ...], parts: tuple[Part, ...]) -> bool:
    """Whether a problem at ``path`` is about the value at ``parts`` (or inside it)."""
    return tuple(path[: len(parts)]) == parts


def _bad_key(text: str, what: str, hint: str) -> TracksideError:
    return TracksideError(f"{text} {what}", Place("--set"), hint or None)


def deck_files(values: Mapping[VariantKey, Any], folder: str = ".") -> list[str]:
    """The deck files some setting reads (a swept ``deck``), as paths from ``folder``."""
    return [
        os.path.join(folder, str(value))
        for key, value in values.items()
        if key.parts == ("deck",) and isinstance(value, str)
    ]
