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

from trackside.engine.text import closest

YAML_SUFFIXES = (".yaml", ".yml")


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
    return bool(ref) and "/" not in ref and os.sep not in ref and not ref.endswith(YAML_SUFFIXES)


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


def missing_track_hint(ref: str) -> str | None:
    """What a track reference that names no file may have meant: the file with .yaml
    added, a file of a close name in the same folder, or a bundled circuit of a close
    name; for a bare name, the bundled circuits (None when nothing is near)."""
    if not ref:
        return None
    if not ref.endswith(YAML_SUFFIXES):
        for suffix in YAML_SUFFIXES:
            if os.path.isfile(ref + suffix):
                return f"{ref}{suffix} exists: give the name with {suffix}"
    path = Path(ref)
    stem = path.stem if path.suffix in YAML_SUFFIXES else path.name
    if path.parent != tracks_dir():  # a bundled name looked for beside a record: said below
        files = yaml_files(path.parent)
        near_file = closest(stem, files)
        if near_file:
            return f"did you mean {path.with_name(files[near_file])}?"
    bundled = [p.stem for p in bundled_tracks()]
    listed = f"bundled circuits: {', '.join(bundled)}"
    near = closest(stem, bundled)
    if near:
        return f"did you mean {near}? {listed}"
    if is_track_name(ref):
        return f"a name without .yaml is looked for among the {listed}"
    return None


def yaml_files(folder: Path) -> dict[str, str]:
    """The YAML files of a folder, by name without the suffix (none if it cannot be read)."""
    try:
        with os.scandir(folder) as entries:
            names = [e.name for e in entries if e.name.endswith(YAML_SUFFIXES)]
    except OSError:
        return {}
    return {Path(name).stem: name for name in names}
