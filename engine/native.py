"""The engine's busiest modules compiled to C, used when built and up to date.

Bots play the game through these modules many thousand times a second: the
rules (``engine/game``), the bots and the value estimate, and car movement.
``tools/build_native.py`` (run by ``make setup``) compiles them with mypyc,
which turns the same type-annotated Python into a C extension (the source
stays the one truth: nothing is written twice), into ``build/native/`` with a
manifest of each source's SHA-256. ``install`` (called when the engine is
first imported) puts a finder first on the import path that loads the
compiled modules, all of them or none: only when every source still hashes
as it did when built, and the build is for this Python. An engine module
edited since the build therefore runs as the Python it is, never as stale C.

Games are the same either way (the determinism digests of the test suite are
checked in both); compiled, bots play about 1.8 times as fast. Set
``TRACKSIDE_PURE=1`` to run the Python source even when a fresh build exists
(for a debugger or a profiler).
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from importlib.abc import MetaPathFinder
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

# The modules compiled, by the folder of the repository they sit in. The rules'
# step and decision types stay Python: enums with fields and dataclasses with
# inherited defaults are beyond the compiler, and cost little.
MODULES: tuple[str, ...] = (
    "engine/game/state.py",
    "engine/game/race.py",
    "engine/game/game.py",
    "engine/game/auction.py",
    "engine/game/board.py",
    "engine/game/hidden.py",
    "engine/game/cards.py",
    "engine/game/scoring.py",
    "engine/game/view.py",
    "engine/game/setup.py",
    "engine/game/result.py",
    "engine/bots/base.py",
    "engine/bots/greedy.py",
    "engine/bots/strong.py",
    "engine/bots/value.py",
    "engine/bots/tables.py",
    "engine/track/movement.py",
)
ROOT = Path(__file__).resolve().parent.parent  # the repository (an editable install)
BUILD = ROOT / "build" / "native"
MANIFEST = "manifest.json"
PURE_VARIABLE = "TRACKSIDE_PURE"


def module_name(source: str) -> str:
    """The import name of a source path of ``MODULES``."""
    return "trackside." + source.removesuffix(".py").replace("/", ".")


def source_digest(path: Path) -> str:
    """The SHA-256 of a source file's bytes."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def build_tag() -> str:
    """What a build must have been made for: this Python's extension suffix."""
    return importlib.machinery.EXTENSION_SUFFIXES[0]


@dataclass(frozen=True)
class Status:
    """Whether the compiled modules are in use, and why (for ``--version`` and
    the benchmarks)."""

    active: bool
    reason: str

    def __str__(self) -> str:
        return ("compiled" if self.active else "pure Python") + f" ({self.reason})"


class _Finder(MetaPathFinder):
    """Loads the compiled module files of a fresh build by their import names."""

    def __init__(self, files: dict[str, Path]):
        self.files = files

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        file = self.files.get(fullname)
        if file is None:
            return None
        return importlib.util.spec_from_file_location(fullname, file)


def fresh_build(build: Path, root: Path) -> tuple[dict[str, Path] | None, str]:
    """The compiled files of the build in ``build`` by import name when it is
    usable for the sources under ``root``, else None; and why."""
    try:
        manifest = json.loads((build / MANIFEST).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None, "not built: make setup builds it"
    except (OSError, ValueError):
        return None, f"unreadable build manifest in {build}: make native builds it again"
    if not isinstance(manifest, dict):
        return None, f"unreadable build manifest in {build}: make native builds it again"
    if "failed" in manifest:
        return None, f"not compiled: {manifest['failed']}; make native tries again"
    if manifest.get("tag") != build_tag():
        return None, "built for another Python: make native builds it again"
    sources = manifest.get("sources", {})
    if set(sources) != set(MODULES):
        return None, "built for other modules: make native builds it again"
    for source, digest in sources.items():
        path = root / source
        if not path.is_file() or source_digest(path) != digest:
            return None, f"{source} changed since the build: make builds it again"
    files = {name: build / file for name, file in manifest.get("files", {}).items()}
    missing = [str(file) for file in files.values() if not file.is_file()]
    if missing or not files:
        return None, "the build is incomplete: make native builds it again"
    return files, f"built {manifest.get('built', 'earlier')}"


_status = Status(False, "not looked at yet")


def install() -> Status:
    """Put the compiled modules first on the import path when a fresh build
    exists and ``TRACKSIDE_PURE`` is not set; say which way the engine runs."""
    global _status
    if os.environ.get(PURE_VARIABLE):
        _status = Status(False, f"{PURE_VARIABLE} is set")
        return _status
    files, reason = fresh_build(BUILD, ROOT)
    if files is not None:
        loaded = [name for name in files if name in sys.modules]
        if loaded:  # imported as Python already: mixing the two is not safe
            files, reason = None, f"{loaded[0]} was imported before the engine"
    if files is not None and not any(isinstance(f, _Finder) for f in sys.meta_path):
        problem = shared_library_problem(files)
        if problem:
            files, reason = None, f"the build does not load here ({problem})"
        else:
            sys.meta_path.insert(0, _Finder(files))
    _status = Status(files is not None, reason)
    return _status


def shared_library_problem(files: dict[str, Path]) -> str:
    """Load the library the compiled modules share; what went wrong, if anything
    (a build copied from another machine, say), so that the engine runs as Python
    rather than failing on its first import."""
    for name, file in files.items():
        if "." in name:
            continue
        spec = importlib.util.spec_from_file_location(name, file)
        if spec is None or spec.loader is None:
            return f"{file.name} is not a module"
        try:
            module = importlib.util.module_from_spec(spec)
            sys.modules[name] = module
            spec.loader.exec_module(module)
        except ImportError as error:
            sys.modules.pop(name, None)
            return str(error)
    return ""


def status() -> Status:
    """Whether the compiled modules are in use, and why."""
    return _status


if __name__ == "__main__":  # the Makefile asks which files the build depends on
    print(" ".join(MODULES))
