"""The fast reading of plain YAML, the kind every tool here writes.

``read_plain`` builds the data straight from libyaml's events, without the
node tree and the per-node checks of the careful reader in ``yamlio``. It
takes only what it is sure of: block and flow mappings and lists, string
keys met once, plain or quoted scalars that read as text, whole numbers,
finite decimals, true/false or null. Anything else (an anchor, an alias, a
tag, a non-text key, a repeated key, nesting past the limit, more values
than the limit, a syntax error, a second document) makes it give up and
return ``GIVE_UP``; the careful reader then reads the file and gives the
message. On what it takes, both give the same data and the same positions
(tests/engine/test_yamlfast.py compares them).
"""

from __future__ import annotations

import math
import re
from typing import Any, Final

import yaml

try:  # libyaml is what makes this fast; without it the careful reader is used.
    from yaml import CSafeLoader as _EventLoader

    AVAILABLE = True
except ImportError:  # pragma: no cover - depends on the PyYAML build
    from yaml import SafeLoader as _EventLoader  # type: ignore[assignment]

    AVAILABLE = False


class _GiveUp(Exception):
    """Raised inside the reader when the careful reader must take over."""


GIVE_UP: Final = object()

# The last part of the path of a mapping key's own place: (*mapping, key, KEY).
KEY: Final = "<key>"
# Place of each value: the path of keys and indices -> (line, column), 1-based;
# and of each mapping key, by its path and KEY.
Positions = dict[tuple[Any, ...], tuple[int, int]]

_TAG = "tag:yaml.org,2002:"
_STR, _TIMESTAMP = _TAG + "str", _TAG + "timestamp"
_CONSTRUCTED = {_TAG + kind for kind in ("null", "bool", "int", "float")}
# YAML 1.1 reads these as a float and an int exactly as Python does (the
# resolver's first match for them is the float, then the int pattern); the
# digit limits keep them far from overflow and Python's limit on long ints.
_DECIMAL = re.compile(r"-?[0-9]{1,15}\.[0-9]{1,17}")
_WHOLE = re.compile(r"-?(?:0|[1-9][0-9]{0,17})")
_RESOLVER = yaml.resolver.Resolver()
_CONSTRUCTOR = yaml.constructor.SafeConstructor()
_MISSING = object()


def _plain_scalar(value: str) -> Any:
    """The value of a plain (unquoted) scalar, as the safe loader reads it."""
    if _DECIMAL.fullmatch(value):
        return float(value)
    if _WHOLE.fullmatch(value):
        return int(value)
    tag = _RESOLVER.resolve(yaml.ScalarNode, value, (True, False))  # type: ignore[no-untyped-call]
    if tag in (_STR, _TIMESTAMP):  # a date is only ever free text here
        return value
    if tag not in _CONSTRUCTED:
        raise _GiveUp
    try:
        result = _CONSTRUCTOR.yaml_constructors[tag](_CONSTRUCTOR, yaml.ScalarNode(tag, value))
    except Exception:  # the careful reader words the problem
        raise _GiveUp from None
    if isinstance(result, float) and not math.isfinite(result):
        raise _GiveUp
    return result


def read_plain(
    text: str, max_depth: int, max_nodes: int, positions: Positions | None = None
) -> Any:
    """The data of one plain YAML document, or ``GIVE_UP``; with ``positions``,
    also the place of every value (keys excluded) into it."""
    if not AVAILABLE:  # pragma: no cover - depends on the PyYAML build
        return GIVE_UP
    loader = _EventLoader(text)
    try:
        return _read(loader, max_depth, max_nodes, positions)
    except (_GiveUp, yaml.YAMLError):
        return GIVE_UP
    finally:
        loader.dispose()


def _read(loader: Any, max_depth: int, max_nodes: int, positions: Positions | None) -> Any:
    get = loader.get_event
    if type(get()) is not yaml.StreamStartEvent or type(get()) is not yaml.DocumentStartEvent:
        raise _GiveUp  # no document at all: the careful reader says what it is
    scalar_t, map_t, seq_t = yaml.ScalarEvent, yaml.MappingStartEvent, yaml.SequenceStartEvent
    end_ts = (yaml.MappingEndEvent, yaml.SequenceEndEvent)
    plain: dict[str, Any] = {}
    # One frame per open collection: [container, key awaiting its value or _MISSING, path].
    stack: list[list[Any]] = []
    count = 0
    root: Any = _MISSING
    while root is _MISSING:
        event = get()
        kind = type(event)
        if kind is scalar_t:
            if event.anchor is not None or event.tag is not None:
                raise _GiveUp
            value = event.value
            if event.implicit[0]:
                node = plain.get(value, _MISSING)
                if node is _MISSING:
                    node = plain[value] = _plain_scalar(value)
            else:
                node = value
            opened = False
        elif kind is map_t or kind is seq_t:
            if event.anchor is not None or event.tag is not None or len(stack) >= max_depth:
                raise _GiveUp
            node = {} if kind is map_t else []
            opened = True
        elif kind in end_ts:
            frame = stack.pop()
            if not stack:
                root = frame[0]
            continue
        else:  # an alias, or something unforeseen
            raise _GiveUp
        count += 1
        if count > max_nodes:
            raise _GiveUp
        path: tuple[Any, ...] = ()
        if stack:
            top = stack[-1]
            into = top[0]
            if type(into) is dict:
                key = top[1]
                if key is _MISSING:  # this node is a key
                    if type(node) is not str or node in into:
                        raise _GiveUp
                    top[1] = node
                    if positions is not None:
                        mark = event.start_mark
                        positions[(*top[2], node, KEY)] = (mark.line + 1, mark.column + 1)
                    continue
                into[key] = node
                top[1] = _MISSING
            else:
                key = len(into)
                into.append(node)
            if positions is not None:
                path = (*top[2], key)
        if positions is not None:
            mark = event.start_mark
            positions[path] = (mark.line + 1, mark.column + 1)
        if opened:
            stack.append([node, _MISSING, path])
        elif not stack:
            root = node
    if type(get()) is not yaml.DocumentEndEvent or type(get()) is not yaml.StreamEndEvent:
        raise _GiveUp
    return root
