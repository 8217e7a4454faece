"""The bundled schemas, tracks and variants, read as package data.

They install as the packages ``trackside.schemas``, ``trackside.tracks`` and
``trackside.variants``, so ``importlib.resources`` finds them the same way in a
source checkout (editable install), a normal install and a wheel.
"""

from __future__ import annotations

import json
import os
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any


@cache
def _folder(package: str) -> Path:
    """The folder of a data package on disk (the package is never zipped)."""
    return Path(str(resources.files(package)))


def schema_path(name: str) -> Path:
    """The path of a bundled JSON schema, e.g. ``schema_path("track")``."""
    return _folder("trackside.schemas") / f"{name}.schema.json"


@cache
def load_schema(name: str) -> dict[str, Any]:
    """A bundled JSON schema as data."""
    with open(schema_path(name), encoding="utf-8") as handle:
        schema: dict[str, Any] = json.load(handle)
    return schema


def tracks_dir() -> Path:
    """The folder of bundled circuits."""
    return _folder("trackside.tracks")


def variants_dir() -> Path:
    """The folder of bundled variants (and ``decks/`` inside it)."""
    return _folder("trackside.variants")


def bundled_tracks() -> list[Path]:
    """Every bundled circuit file, sorted by name."""
    return sorted(tracks_dir().glob("*.yaml"))


def is_track_name(ref: str) -> bool:
    """True when ``ref`` reads as a bundled circuit's name (``harbour-loop``), not a path."""
    return (
        bool(ref) and "/" not in ref and os.sep not in ref and not ref.endswith((".yaml", ".yml"))
    )


def resolve_track(ref: str, base: str | os.PathLike[str] | None = None) -> str:
    """The file of a track reference: a bundled name (``harbour-loop``) or a path
    (relative to ``base`` when given). A name that is no bundled circuit stays as
    given, so that the error names what the user typed (an empty one too)."""
    if not ref:
        return ref
    if is_track_name(ref):
        bundled = tracks_dir() / f"{ref}.yaml"
        if bundled.is_file() or base is not None:
            return str(bundled)
    path = Path(ref)
    if base is not None and not path.is_absolute():
        path = Path(base) / path
    return str(path)
