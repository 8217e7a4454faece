"""The house as pyproject.toml draws it, for the tests that check the tree against it:
the folders that install as packages, and the editor's rooms floor by floor."""

from __future__ import annotations

import tomllib
from typing import Any

from repo_paths import ROOT


def _config() -> dict[str, Any]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def package_folders() -> dict[str, str]:
    """Each folder that installs as a package, and the package's name: ``engine`` gives
    ``trackside.engine`` (pyproject's package-dir)."""
    mapping: dict[str, str] = _config()["tool"]["setuptools"]["package-dir"]
    return {folder: package for package, folder in mapping.items()}


def code_folders() -> dict[str, str]:
    """The package folders that hold code (modules besides ``__init__.py``)."""
    return {
        folder: package
        for folder, package in package_folders().items()
        if any(p.name != "__init__.py" for p in (ROOT / folder).rglob("*.py"))
    }


def editor_floors() -> list[list[str]]:
    """The editor's rooms floor by floor, top first, as the import contract lists them
    (rooms on one floor sorted by name)."""
    (layers,) = [
        contract["layers"]
        for contract in _config()["tool"]["importlinter"]["contracts"]
        if contract["type"] == "layers" and contract["layers"][0].startswith("trackside.editor")
    ]
    return [sorted(room.strip() for room in floor.split("|")) for floor in layers]
