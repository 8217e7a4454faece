"""Where the bundled schemas, tracks and variants live, installed or not."""
from __future__ import annotations

import json
import sysconfig
from functools import lru_cache
from importlib import metadata
from pathlib import Path
from typing import Any, Iterator

_HERE = Path(__file__).resolve().parent
_MARKER = Path("schemas") / "track.schema.json"


@lru_cache(maxsize=None)
def data_root() -> Path:
    """The folder that holds schemas/, tracks/ and variants/."""
    for folder in _candidates():
        if (folder / _MARKER).is_file():
            return folder
    return _HERE.parent


def _candidates() -> Iterator[Path]:
    """Where the data can be: the source tree, then where pip puts data files."""
    yield _HERE.parent
    for scheme in (sysconfig.get_default_scheme(), sysconfig.get_preferred_scheme("user")):
        yield Path(sysconfig.get_path("data", scheme)) / "share" / "trackside"
    # Installs with --prefix, --root or --target land elsewhere; the wheel's file list knows.
    try:
        files = metadata.files("trackside") or []
    except metadata.PackageNotFoundError:
        files = []
    for entry in files:
        if entry.as_posix().endswith("share/trackside/" + _MARKER.as_posix()):
            yield Path(str(entry.locate())).resolve().parent.parent


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
