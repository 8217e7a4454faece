"""Frozen dataclasses pickled through their constructor.

The engine's compiled modules (``engine/native.py``) make their dataclasses
native classes, which pickle cannot set up field by field when they are
frozen; the balance lab sends decks, deals and results to worker processes,
so those classes give pickle their constructor and its arguments instead.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any


def by_constructor(obj: Any) -> tuple[type, tuple[Any, ...]]:
    """What ``__reduce__`` returns for a dataclass whose fields are all
    arguments of its constructor, in order."""
    return type(obj), tuple(getattr(obj, f.name) for f in fields(obj))
