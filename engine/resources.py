"""Where the bundled schemas, tracks and variants live, installed or not."""
from __future__ import annotations

import json
import sys
from functools import lru_cache
from pathlib import Path
from typing import Any

_HERE = Path(__file__).resolve().parent


def data_root() -> Path:
    """The folder that holds schemas/, tracks/ and variants/."""
    source_tree = _HERE.parent
    if (source_tree / "schemas" / "track.schema.json").exists():
        return source_tree
    installed = Path(sys.prefix) / "share" / "trackside"
    if (installed / "schemas").exists():
        return installed
    return source_tree


def schema_path(name: str) -> Path:
    """The path of a bundled JSON schema, e.g. ``schema_path("track")``."""
    return data_root() / "schemas" / f"{name}.schema.json"


@lru_cache(maxsize=None)
def load_schema(name: str) -> dict[str, Any]:
    """A bundled JSON schema as data."""
    with open(schema_path(name), encoding="utf-8") as handle:
        return json.load(handle)


def tracks_dir() -> Path:
    """The folder of bundled circuits."""
    return data_root() / "tracks"


def variants_dir() -> Path:
    """The folder of bundled variants."""
    return data_root() / "variants"


def bundled_tracks() -> list[Path]:
    """Every bundled circuit file, sorted by name."""
    return sorted(tracks_dir().glob("*.yaml"))
