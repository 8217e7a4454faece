"""Fingerprints of data: a SHA-256 of its canonical form, the same however it was written.

Game records keep one for each track and variant file they name (docs/records.md,
``fingerprints``) so that a replay can say when a file changed since the game. The
hash is of the data (``Track.played_data``, ``Variant.played_data``), not of the
file's bytes: a file saved again with other formatting, key order, comments or
``10`` written as ``10.0`` keeps its fingerprint.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

PREFIX = "sha256:"


def fingerprint(data: Any) -> str:
    """``sha256:`` and the hex SHA-256 of ``data`` as canonical JSON (keys sorted,
    every number as a float, tuples as lists)."""
    text = json.dumps(_canonical(data), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return PREFIX + hashlib.sha256(text.encode()).hexdigest()


def _canonical(value: Any) -> Any:
    """``value`` with numbers made floats (``-0.0`` as ``0.0``) and tuples lists."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, (int, float)):
        return float(value) + 0.0
    if isinstance(value, dict):
        return {str(k): _canonical(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_canonical(v) for v in value]
    raise TypeError(f"cannot fingerprint a {type(value).__name__}")
