"""JSON Schema checks of loaded YAML data against the bundled schemas.

Data that meets its schema is passed by a quick check compiled from the
schema (``schemafast``); jsonschema, imported only then, words what is wrong.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from functools import cache
from typing import TYPE_CHECKING, Any, Protocol

from trackside.engine.errors import InvalidInput, more_problems, shown
from trackside.engine.resources import load_schema
from trackside.engine.schemafast import Check, compile_schema
from trackside.engine.text import closest, plural
from trackside.engine.yamlfast import KEY
from trackside.engine.yamlio import JsonPath, YamlDocument, path_text

if TYPE_CHECKING:
    import jsonschema
    from jsonschema.protocols import Validator


class ViolationKind(Enum):
    """What kind of rule a value breaks, for code that acts on it (never the wording)."""

    MISSING_KEY = "missing-key"
    UNKNOWN_KEY = "unknown-key"
    WRONG_TYPE = "wrong-type"
    WRONG_VALUE = "wrong-value"  # not the constant, not one of the choices, no pattern match
    TOO_FEW = "too-few"  # fewer items than the least allowed
    TOO_MANY = "too-many"
    OUT_OF_RANGE = "out-of-range"
    WRONG_LENGTH = "wrong-length"  # text too short or too long
    REPEATED = "repeated"  # an item that must be unique appears twice
    OTHER = "other"


# The kind of each JSON Schema keyword that can fail; any other keyword is OTHER.
_KIND_OF_KEYWORD = {
    "required": ViolationKind.MISSING_KEY,
    "additionalProperties": ViolationKind.UNKNOWN_KEY,
    "type": ViolationKind.WRONG_TYPE,
    "const": ViolationKind.WRONG_VALUE,
    "enum": ViolationKind.WRONG_VALUE,
    "pattern": ViolationKind.WRONG_VALUE,
    "minItems": ViolationKind.TOO_FEW,
    "maxItems": ViolationKind.TOO_MANY,
    "minProperties": ViolationKind.TOO_FEW,
    "maxProperties": ViolationKind.TOO_MANY,
    "minimum": ViolationKind.OUT_OF_RANGE,
    "maximum": ViolationKind.OUT_OF_RANGE,
    "exclusiveMinimum": ViolationKind.OUT_OF_RANGE,
    "exclusiveMaximum": ViolationKind.OUT_OF_RANGE,
    "minLength": ViolationKind.WRONG_LENGTH,
    "maxLength": ViolationKind.WRONG_LENGTH,
    "uniqueItems": ViolationKind.REPEATED,
}


@dataclass(frozen=True)
class Violation:
    """One schema violation: what is wrong in words, where (the path of the value in
    the document) and its kind; ``spot``, when the place to point at is not the
    value's own (an unknown key's line rather than its mapping's); ``missing``, the
    keys the mapping at ``path`` lacks that a missing-key violation names."""

    message: str
    path: JsonPath
    kind: ViolationKind
    spot: JsonPath | None = None
    missing: tuple[object, ...] = ()

    @property
    def where(self) -> JsonPath:
        """The path of the place to point at in the document."""
        return self.path if self.spot is None else self.spot


def _is_whole_number(_checker: object, instance: object) -> bool:
    """JSON Schema's "integer" takes 15.0 too; a count or an index must be written 15."""
    return isinstance(instance, int) and not isinstance(instance, bool)


def _is_number(_checker: object, instance: object) -> bool:
    return isinstance(instance, int | float) and not isinstance(instance, bool)


@cache
def _quick_check(name: str, pointer: str = "") -> Check | None:
    def careful(part: dict[str, Any]) -> Check:
        """jsonschema on one part of the schema, made when first needed."""
        made: list[Validator] = []

        def check(instance: object) -> bool:
            if not made:
                made.append(_validator(name).evolve(schema=part))
            return bool(made[0].is_valid(instance))  # type: ignore[arg-type]

        return check

    return compile_schema(_part(name, pointer), careful)


@cache
def _part(name: str, pointer: str) -> dict[str, Any]:
    """The part of schema ``name`` at ``pointer`` ('' for the whole), references inlined
    (read it, never change it: it is shared)."""
    node: dict[str, Any] = inline_refs(load_schema(name))
    for key in filter(None, pointer.split("/")):
        node = node[key]
    return node


@cache
def _validator(name: str) -> Validator:
    import jsonschema

    schema = load_schema(name)
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    checker = cls.TYPE_CHECKER.redefine("integer", _is_whole_number).redefine("number", _is_number)
    # The stubs leave extend() unannotated; it returns a class like ``cls``.
    strict: type[Validator] = jsonschema.validators.extend(  # type: ignore[no-untyped-call]
        cls, type_checker=checker
    )
    return strict(inline_refs(schema))


_ANNOTATIONS = {"description", "title", "$comment", "default", "examples"}


def inline_refs(schema: dict[str, Any]) -> dict[str, Any]:
    """The schema with local ``#/$defs/...`` references replaced by their target.

    Resolving a ``$ref`` costs more than the check it leads to, and a track
    has tens of thousands of numbers; inlining halves the check. A reference
    inside its own definition (recursion) is left as it is.
    """
    defs: dict[str, Any] = schema.get("$defs", {})

    def walk(node: object, stack: tuple[str, ...]) -> object:
        if isinstance(node, list):
            return [walk(item, stack) for item in node]
        if not isinstance(node, dict):
            return node
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/"):
            name = ref[len("#/$defs/") :]
            if name in defs and "/" not in name and name not in stack:
                siblings = {k: walk(v, stack) for k, v in node.items() if k != "$ref"}
                target = walk(defs[name], (*stack, name))
                if set(siblings) <= _ANNOTATIONS and isinstance(target, dict):
                    return {**target, **siblings}
                return {"allOf": [target], **siblings}
        return {key: walk(value, stack) for key, value in node.items()}

    return {key: walk(value, ()) for key, value in schema.items()}


class Found(Protocol):
    """A problem at a place in a document: what is wrong, and the path to point at."""

    @property
    def message(self) -> str: ...
    @property
    def where(self) -> JsonPath: ...


def refusal(
    problems: Sequence[Found],
    doc: YamlDocument,
    what: str = "",
    hint: str | None = None,
    code: str = "",
) -> InvalidInput:
    """The error that refuses ``doc`` for these problems: the first, at its place, and
    how many more, each of them kept with its place (``lines``); ``what`` (a deck, a
    variant...) begins each message; ``code``, the severity and code the command line
    puts before each (``TracksideError.code``)."""
    first = problems[0]
    head = f"{what}: " if what else ""
    error = InvalidInput(
        head + first.message + more_problems(len(problems) - 1),
        doc.place(first.where),
        hint,
        problems=problems,
    )
    error.more = [(head + p.message, doc.place(p.where)) for p in problems[1:]]
    error.code = code
    return error


def schema_part(name: str, pointer: str) -> dict[str, Any]:
    """The part of schema ``name`` at ``pointer`` (``"properties/name"``), its local
    references inlined: where a limit is read (``["maxLength"]``), so that it is stated
    once, in the schema."""
    return copy.deepcopy(_part(name, pointer))


def check(name: str, data: object) -> list[Violation]:
    """Schema violations of ``data``, in path order."""
    return check_part(name, "", data)


def check_part(name: str, pointer: str, data: object, at: JsonPath = ()) -> list[Violation]:
    """Violations of ``data`` against the part of schema ``name`` at ``pointer``
    (``"$defs/space"``, ``"properties/name"``; '' for the whole), ``data`` standing at
    ``at`` in a document: what a value must be before it goes into a document."""
    quick = _quick_check(name, pointer)
    if quick is not None and quick(data):
        return []
    validator = _validator(name)
    if pointer:
        validator = validator.evolve(schema=_part(name, pointer))
    # YAML may have keys that are no strings, unlike the JSON the stubs describe: the
    # schema then reports them.
    leaves = [leaf for err in validator.iter_errors(data) for leaf in _leaves(err)]  # type: ignore[arg-type]
    meant = _misspelt_keys(leaves)
    found: list[Violation] = []
    for leaf in leaves:
        kind = _KIND_OF_KEYWORD.get(str(leaf.validator), ViolationKind.OTHER)
        path = (*at, *leaf.absolute_path)
        for problem, missing in _problems(leaf, meant.get(tuple(leaf.absolute_path), {})):
            where = f"{path_text(path)}: {problem}"
            found.append(Violation(where, path, kind, _spot(leaf, path), missing))
    found.sort(key=lambda item: [str(p) for p in item.path])
    return list(dict.fromkeys(found))


# The allowed key that each unknown key of a mapping most likely misspells.
_Meant = dict[str, str]


def _misspelt_keys(leaves: Sequence[jsonschema.ValidationError]) -> dict[JsonPath, _Meant]:
    """For each mapping with unknown keys (by its path): the key each of them most
    likely misspells, a missing required key of that mapping first, else any
    allowed key ("betting_lines" for "beting_lines")."""
    meant: dict[JsonPath, _Meant] = {}
    for leaf in leaves:
        if leaf.validator != "additionalProperties":
            continue
        lacking, allowed = _lacking_keys(leaf), _allowed_keys(leaf)
        for key in _unknown_keys(leaf):
            near = isinstance(key, str) and (closest(key, lacking) or closest(key, allowed))
            if near:
                meant.setdefault(tuple(leaf.absolute_path), {})[key] = near
    return meant


def _spot(err: jsonschema.ValidationError, path: JsonPath) -> JsonPath | None:
    """Where an unknown key is written: the first one in the file (None for others)."""
    if err.validator != "additionalProperties":
        return None
    extra = _unknown_keys(err)
    return (*path, extra[0], KEY) if extra else None


def _allowed_keys(err: jsonschema.ValidationError) -> list[str]:
    """The keys the mapping of an additionalProperties violation may hold, sorted."""
    return sorted(err.schema.get("properties", {}) if isinstance(err.schema, Mapping) else {})


def _unknown_keys(err: jsonschema.ValidationError) -> list[Any]:
    """The keys of an additionalProperties violation's mapping that it may not hold,
    in file order."""
    found = err.instance if isinstance(err.instance, Mapping) else {}
    allowed = set(_allowed_keys(err))
    return [k for k in found if k not in allowed]


def _leaves(err: jsonschema.ValidationError) -> Iterator[jsonschema.ValidationError]:
    """The most specific errors under an anyOf/oneOf, else the error itself."""
    import jsonschema

    best = None
    if err.context and err.validator in ("anyOf", "oneOf"):
        best = jsonschema.exceptions.best_match(err.context)
    yield best if isinstance(best, jsonschema.ValidationError) else err


def _missing_keys(err: jsonschema.ValidationError) -> list[object]:
    """The keys of a required violation that its mapping lacks."""
    return _absent(err.validator_value, err.instance)


def _lacking_keys(err: jsonschema.ValidationError) -> list[str]:
    """The required keys that the mapping of an additionalProperties violation lacks."""
    schema = err.schema if isinstance(err.schema, Mapping) else {}
    return [str(k) for k in _absent(schema.get("required", []), err.instance)]


def _absent(keys: object, mapping: object) -> list[object]:
    present = mapping if isinstance(mapping, Mapping) else {}
    return [k for k in _listed(keys) if k not in present]


def _problems(
    err: jsonschema.ValidationError, meant: _Meant
) -> list[tuple[str, tuple[object, ...]]]:
    """What is wrong, in the user's terms, each with the keys it says are missing: one
    problem per missing key (none for a key said with the unknown key misspelling it:
    one message, at the line of the typo), else one. ``meant``, the allowed key each
    unknown key of the mapping most likely misspells."""
    if err.validator == "required":
        missing = [k for k in _missing_keys(err) if k not in meant.values()]
        return [(f"missing required key {shown(key)}", (key,)) for key in missing]
    return [(_problem(err, meant), ())]


def _problem(err: jsonschema.ValidationError, meant: _Meant) -> str:
    """What is wrong, in the user's terms (but a missing key: ``_problems``)."""
    v, expected, found = err.validator, err.validator_value, err.instance
    if v == "additionalProperties":
        return _unknown_key_problem(err, meant)
    if v == "type":
        return f"expected {_a(expected)}, found {_kind(found)}"
    if v == "const":
        return f"must be {shown(expected)}, found {shown(found)}"
    if v == "enum":
        return f"must be one of {', '.join(map(shown, _listed(expected)))}, found {shown(found)}"
    if v in ("minItems", "maxItems"):
        bound = "at least" if v == "minItems" else "at most"
        return f"needs {bound} {plural(_count_of(expected), 'item')}, has {_count(found)}"
    if v in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
        return f"{shown(found)} is out of range ({v} {expected})"
    if v in ("minLength", "maxLength"):
        bound = "at least" if v == "minLength" else "at most"
        return f"text of {_count(found)} characters; give {bound} {expected}"
    if v == "pattern":
        return f"{shown(found)} does not match the pattern {expected}"
    # jsonschema's own message quotes the value in full: keep the echo short.
    return shown(err.message, 200, quote=False)


def _unknown_key_problem(err: jsonschema.ValidationError, meant: _Meant) -> str:
    """The words for the unknown keys of a mapping, with the key each one most likely
    misspells: "unknown key 'beting_lines' (the required key 'betting_lines' is
    missing): did you mean 'betting_lines'?"."""
    allowed = _allowed_keys(err)
    extra = sorted(_unknown_keys(err), key=str)
    if None in extra:
        return f"a key is empty (~ or null); give it a name ({', '.join(allowed)})"
    if len(extra) == 1 and extra[0] in meant:
        near = meant[extra[0]]
        lack = f" (the required key {shown(near)} is missing)" if near in _lacking_keys(err) else ""
        return f"unknown key {shown(extra[0])}{lack}: did you mean {shown(near)}?"
    keys = [shown(k) + (f" (did you mean {shown(meant[k])}?)" if k in meant else "") for k in extra]
    listed = "" if all(k in meant for k in extra) else f" (allowed: {', '.join(allowed)})"
    return f"unknown key {', '.join(keys)}{listed}"


def _listed(value: object) -> list[object]:
    return list(value) if isinstance(value, list | tuple) else [value]


def _count_of(bound: object) -> int:
    """A schema's bound on a count (minItems...) as a number."""
    return bound if isinstance(bound, int) else 0


def _count(value: object) -> int:
    return len(value) if isinstance(value, str | list | dict) else 0


_KINDS = {
    "object": "a mapping",
    "array": "a list",
    "string": "text",
    "number": "a number",
    "integer": "a whole number",
    "boolean": "true or false",
    "null": "nothing",
}


def _a(kind: object) -> str:
    if isinstance(kind, list):
        return " or ".join(_a(k) for k in kind)
    return _KINDS.get(str(kind), str(kind))


def _kind(value: object) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return f"{str(value).lower()}"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str):
        return f"text {value!r}" if len(value) < 40 else "text"
    return shown(value)
