"""JSON Schema checks of loaded YAML data against the bundled schemas."""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from typing import Any

import jsonschema

from trackside.engine.resources import load_schema


@cache
def _validator(name: str) -> jsonschema.protocols.Validator:
    schema = load_schema(name)
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(inline_refs(schema))


_ANNOTATIONS = {"description", "title", "$comment", "default", "examples"}


def inline_refs(schema: dict[str, Any]) -> dict[str, Any]:
    """The schema with local ``#/$defs/...`` references replaced by their target.

    Resolving a ``$ref`` costs more than the check it leads to, and a track
    has tens of thousands of numbers; inlining halves the check. A reference
    inside its own definition (recursion) is left as it is.
    """
    defs = schema.get("$defs", {})

    def walk(node: Any, stack: tuple[str, ...]) -> Any:
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
                if set(siblings) <= _ANNOTATIONS:
                    return {**target, **siblings}
                return {"allOf": [target], **siblings}
        return {key: walk(value, stack) for key, value in node.items()}

    return walk(schema, ())


def check(name: str, data: Any) -> list[tuple[str, tuple]]:
    """Schema violations of ``data`` as (message, path) pairs, in path order."""
    errors = list(_validator(name).iter_errors(data))
    out = []
    for err in errors:
        for leaf in _leaves(err):
            out.append((_describe(leaf), tuple(leaf.absolute_path)))
    out.sort(key=lambda item: [str(p) for p in item[1]])
    unique = []
    for item in out:
        if item not in unique:
            unique.append(item)
    return unique


def _leaves(err: jsonschema.ValidationError) -> Iterator[jsonschema.ValidationError]:
    """The most specific errors under an anyOf/oneOf, else the error itself."""
    if err.context and err.validator in ("anyOf", "oneOf"):
        best = jsonschema.exceptions.best_match(err.context)
        yield best
    else:
        yield err


def _describe(err: jsonschema.ValidationError) -> str:
    where = _path_text(tuple(err.absolute_path))
    v = err.validator
    if v == "required":
        missing = [k for k in err.validator_value if k not in (err.instance or {})]
        return f"{where}: missing required key {', '.join(repr(k) for k in missing)}"
    if v == "additionalProperties":
        allowed = sorted(err.schema.get("properties", {}))
        extra = sorted(set(err.instance) - set(allowed), key=str)
        if None in extra:
            return f"{where}: a key is empty (~ or null); give it a name ({', '.join(allowed)})"
        return (
            f"{where}: unknown key {', '.join(repr(k) for k in extra)} "
            f"(allowed: {', '.join(allowed)})"
        )
    if v == "type":
        return f"{where}: expected {_a(err.validator_value)}, found {_kind(err.instance)}"
    if v == "const":
        return f"{where}: must be {err.validator_value!r}, found {err.instance!r}"
    if v == "enum":
        return f"{where}: must be one of {', '.join(map(repr, err.validator_value))}, found {err.instance!r}"
    if v in ("minItems", "maxItems"):
        n = len(err.instance)
        bound = "at least" if v == "minItems" else "at most"
        return f"{where}: needs {bound} {err.validator_value} items, has {n}"
    if v in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
        return f"{where}: {err.instance!r} is out of range ({v} {err.validator_value})"
    if v in ("minLength", "maxLength", "pattern"):
        return f"{where}: {err.message}"
    return f"{where}: {err.message}"


def _path_text(path: tuple) -> str:
    if not path:
        return "document"
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text


def _a(kind: Any) -> str:
    if isinstance(kind, list):
        return " or ".join(_a(k) for k in kind)
    return {
        "object": "a mapping",
        "array": "a list",
        "string": "text",
        "number": "a number",
        "integer": "a whole number",
        "boolean": "true or false",
        "null": "nothing",
    }.get(kind, kind)


def _kind(value: Any) -> str:
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
    return repr(value)
