"""A quick yes-or-don't-know answer to "does this data meet the schema?".

``compile_schema`` turns a JSON Schema (its local references inlined) into a
function that answers True only when jsonschema, with this project's strict
types (``schema.py``), would find no violation, and False otherwise (then
jsonschema is run for the exact messages). It knows the keywords the bundled
schemas use; a schema with any other keyword is not compiled (None), so
jsonschema checks it every time. A keyword applies to the kinds of value
jsonschema applies it to (``isinstance``), but a type is met only by exactly
that type: in doubt the answer is False. tests/engine/test_schemafast.py
compares its answers with jsonschema's.

Why not a library that compiles schemas: measured against the two kept ones
(``benchmarks/schema_libraries.py``) on the circuits of
``benchmarks/validate_large.py``: the track schema, valid data of 1,000 to
10,000 spaces, CPU milliseconds of one check (best of 5) and of making the
checker, Python 3.11, fastjsonschema 2.22.3, jsonschema-rs 0.61.0:

=================================  ========  ========  =========  =============
checker                            1,000     5,000     10,000     making it
=================================  ========  ========  =========  =============
this module                        3.4       17        34         0.6
fastjsonschema                     24        110       217        33-58
jsonschema-rs                      0.8       4.0       8.9        1.5
jsonschema-rs, strict integers     1.3       6.4       13.5       0.5
=================================  ========  ========  =========  =============

Neither answers as jsonschema with this project's strict types does, which
is the one thing a quick check may not get wrong (its yes is final):

- both take 1.0 where an integer is required, as the JSON Schema
  specification allows. fastjsonschema has no way to change that, and is
  slower than this module anyway. jsonschema-rs can be taught with a keyword
  of our own written in Python (``type(x) is int``, the last row).
- all three refuse true and false where a number is required.
- jsonschema-rs reads patterns as Rust's regex does, not Python's ``re``: a
  space id ``a\\x1cb`` (or with ``\\x1f``, ``\\x85``) meets ``^[^\\s]+$`` there
  and not in jsonschema, so such an id would pass unreported.
- importing jsonschema-rs costs about 17 ms of every process, more than its
  check saves below about 8,000 spaces in ``trackside validate``; the whole
  ``validate_file`` is 78, 366 and 737 ms at these sizes (the schema check
  is under 5% of it).
"""

from __future__ import annotations

import json
import math
import re
import sys
import threading
from collections.abc import Callable
from typing import Any

Check = Callable[[Any], bool]

_ANNOTATIONS = {"description", "title", "$comment", "default", "examples", "$schema", "$id"}
_TYPES: dict[str, Check] = {
    "object": lambda x: type(x) is dict,
    "array": lambda x: type(x) is list,
    "string": lambda x: type(x) is str,
    "integer": lambda x: type(x) is int,
    "number": lambda x: type(x) is int or type(x) is float,
    "boolean": lambda x: type(x) is bool,
    "null": lambda x: x is None,
}


class _Unknown(Exception):
    """A keyword or value this compiler does not know."""


Fallback = Callable[[dict[str, Any]], Check]
_COMPILING = threading.Lock()
_fallback: Fallback | None = None


def compile_schema(schema: dict[str, Any], fallback: Fallback | None = None) -> Check | None:
    """The checker of ``schema``, or None when it uses what is not known here.

    With ``fallback``, a part of the schema that uses what is not known here
    (and no ``$ref``) is checked by the function ``fallback`` makes for it
    (jsonschema on that part), and the rest still quickly."""
    global _fallback
    with _COMPILING:
        _fallback = fallback
        try:
            return _compile(schema)
        except _Unknown:
            return None
        finally:
            _fallback = None


def _compile(schema: Any) -> Check:
    try:
        return _compile_known(schema)
    except _Unknown:
        if _fallback is None or not isinstance(schema, dict) or "$ref" in json.dumps(schema):
            raise
        return _fallback(schema)


def _compile_known(schema: Any) -> Check:
    if schema is True:
        return lambda _x: True
    if not isinstance(schema, dict):
        raise _Unknown
    fused = _fused(schema)
    if fused is not None:
        return fused
    checks = [check for key, value in schema.items() for check in _keyword(key, value, schema)]
    if not checks:
        return lambda _x: True
    if len(checks) == 1:
        return checks[0]
    return lambda x: all(check(x) for check in checks)


def _keyword(key: str, value: Any, schema: dict[str, Any]) -> list[Check]:
    """The checks of one keyword (none for annotations and definitions)."""
    if key in _ANNOTATIONS or key == "$defs":
        return []
    maker = _MAKERS.get(key)
    if maker is None:
        raise _Unknown
    return [maker(value, schema)]


def _type(value: Any, _schema: dict[str, Any]) -> Check:
    names = value if isinstance(value, list) else [value]
    if not all(isinstance(n, str) and n in _TYPES for n in names):
        raise _Unknown
    tests = [_TYPES[n] for n in names]
    if len(tests) == 1:
        return tests[0]
    return lambda x: any(test(x) for test in tests)


def _texts(value: Any) -> list[str]:
    """Values that must all be text: equal to a text only by text equality."""
    values = value if isinstance(value, list) else [value]
    if not all(type(v) is str for v in values):
        raise _Unknown
    return values


def _const(value: Any, _schema: dict[str, Any]) -> Check:
    (text,) = _texts(value)
    return lambda x: type(x) is str and x == text


def _enum(value: Any, _schema: dict[str, Any]) -> Check:
    if not isinstance(value, list):
        raise _Unknown
    allowed = frozenset(_texts(value))
    return lambda x: type(x) is str and x in allowed


def _required(value: Any, _schema: dict[str, Any]) -> Check:
    keys = _texts(value)
    return lambda x: not isinstance(x, dict) or all(k in x for k in keys)


def _properties(value: Any, _schema: dict[str, Any]) -> Check:
    if not isinstance(value, dict):
        raise _Unknown
    subs = {key: _compile(sub) for key, sub in value.items()}

    def check(x: Any) -> bool:
        if not isinstance(x, dict):
            return True
        return all(sub(x[key]) for key, sub in subs.items() if key in x)

    return check


def _additional(value: Any, schema: dict[str, Any]) -> Check:
    if value is not False or "patternProperties" in schema:
        raise _Unknown
    known = frozenset(schema.get("properties", {}))
    return lambda x: not isinstance(x, dict) or all(k in known for k in x)


def _items(value: Any, schema: dict[str, Any]) -> Check:
    if "prefixItems" in schema:
        raise _Unknown
    sub = _compile(value)
    return lambda x: not isinstance(x, list) or all(sub(item) for item in x)


def _all_of(value: Any, _schema: dict[str, Any]) -> Check:
    if not isinstance(value, list):
        raise _Unknown
    subs = [_compile(sub) for sub in value]
    return lambda x: all(sub(x) for sub in subs)


def _bound(value: Any) -> int | float:
    if type(value) not in (int, float):
        raise _Unknown
    return value  # type: ignore[no-any-return]


def _is_number(x: Any) -> bool:
    """Whether a bound applies: to numbers as jsonschema's strict types see them."""
    return isinstance(x, int | float) and not isinstance(x, bool)


def _minimum(value: Any, _schema: dict[str, Any]) -> Check:
    low = _bound(value)
    return lambda x: not _is_number(x) or x >= low


def _maximum(value: Any, _schema: dict[str, Any]) -> Check:
    high = _bound(value)
    return lambda x: not _is_number(x) or x <= high


def _exclusive_minimum(value: Any, _schema: dict[str, Any]) -> Check:
    low = _bound(value)
    return lambda x: not _is_number(x) or x > low


def _exclusive_maximum(value: Any, _schema: dict[str, Any]) -> Check:
    high = _bound(value)
    return lambda x: not _is_number(x) or x < high


def _count(value: Any) -> int:
    if type(value) is not int or value < 0:
        raise _Unknown
    return value


def _min_items(value: Any, _schema: dict[str, Any]) -> Check:
    least = _count(value)
    return lambda x: not isinstance(x, list) or len(x) >= least


def _max_items(value: Any, _schema: dict[str, Any]) -> Check:
    most = _count(value)
    return lambda x: not isinstance(x, list) or len(x) <= most


def _min_length(value: Any, _schema: dict[str, Any]) -> Check:
    least = _count(value)
    return lambda x: not isinstance(x, str) or len(x) >= least


def _max_length(value: Any, _schema: dict[str, Any]) -> Check:
    most = _count(value)
    return lambda x: not isinstance(x, str) or len(x) <= most


def _pattern(value: Any, _schema: dict[str, Any]) -> Check:
    if type(value) is not str:
        raise _Unknown
    search = re.compile(value).search  # jsonschema searches, as here
    return lambda x: not isinstance(x, str) or search(x) is not None


_MAKERS: dict[str, Callable[[Any, dict[str, Any]], Check]] = {
    "type": _type,
    "const": _const,
    "enum": _enum,
    "required": _required,
    "properties": _properties,
    "additionalProperties": _additional,
    "items": _items,
    "allOf": _all_of,
    "minimum": _minimum,
    "maximum": _maximum,
    "exclusiveMinimum": _exclusive_minimum,
    "exclusiveMaximum": _exclusive_maximum,
    "minItems": _min_items,
    "maxItems": _max_items,
    "minLength": _min_length,
    "maxLength": _max_length,
    "pattern": _pattern,
}


# -- fused checks -----------------------------------------------------------
# A schema of one type with only the usual keywords of that type becomes one
# function: tracks hold tens of thousands of points, and a call per keyword
# per value is most of the time of the check.

_NUMBER_KEYS = {"type", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"}
_ARRAY_KEYS = {"type", "minItems", "maxItems", "items"}
_OBJECT_KEYS = {"type", "required", "additionalProperties", "properties"}
_STRING_KEYS = {"type", "minLength", "maxLength", "pattern"}


def _fused(schema: dict[str, Any]) -> Check | None:
    """One function for the whole of ``schema``, or None when it is no plain case."""
    keys = set(schema) - _ANNOTATIONS
    kind = schema.get("type")
    if kind in ("number", "integer") and keys <= _NUMBER_KEYS:
        return _fused_number(schema, kind == "integer")
    if kind == "array" and keys <= _ARRAY_KEYS:
        return _fused_array(schema)
    if kind == "object" and keys <= _OBJECT_KEYS:
        return _fused_object(schema)
    if kind == "string" and keys <= _STRING_KEYS:
        return _fused_string(schema)
    return None


def _fused_string(schema: dict[str, Any]) -> Check:
    least = _count(schema.get("minLength", 0))
    most = _count(schema.get("maxLength", sys.maxsize))
    pattern = schema.get("pattern", "")
    if type(pattern) is not str:
        raise _Unknown
    search = re.compile(pattern).search
    return lambda x: type(x) is str and least <= len(x) <= most and search(x) is not None


def _fused_number(schema: dict[str, Any], whole: bool) -> Check:
    low = _bound(schema.get("minimum", -math.inf))
    high = _bound(schema.get("maximum", math.inf))
    above = _bound(schema.get("exclusiveMinimum", -math.inf))
    below = _bound(schema.get("exclusiveMaximum", math.inf))
    if whole:
        return lambda x: type(x) is int and low <= x <= high and above < x < below
    return lambda x: (type(x) is float or type(x) is int) and low <= x <= high and above < x < below


def _fused_array(schema: dict[str, Any]) -> Check:
    least = _count(schema.get("minItems", 0))
    most = _count(schema.get("maxItems", sys.maxsize))
    sub = _compile(schema.get("items", True))
    return lambda x: type(x) is list and least <= len(x) <= most and all(map(sub, x))


def _fused_object(schema: dict[str, Any]) -> Check:
    extra = schema.get("additionalProperties", True)
    if extra not in (True, False):
        raise _Unknown
    properties = schema.get("properties", {})
    if not isinstance(properties, dict):
        raise _Unknown
    subs = {key: _compile(sub) for key, sub in properties.items()}
    required = _texts(schema.get("required", []))
    closed = extra is False

    def check(x: Any) -> bool:
        if type(x) is not dict:
            return False
        for key in required:
            if key not in x:
                return False
        for key, value in x.items():
            sub = subs.get(key)
            if sub is None:
                if closed:
                    return False
            elif not sub(value):
                return False
        return True

    return check
