#!/usr/bin/env python3
"""Compare the validator of another revision with this checkout's, file by file.

For a change that must not alter findings (a speed-up, a refactor): runs
``trackside validate --json`` and the text form on every file given, once with
the package as it was at REV (``git archive``, laid out as installed, first on
``PYTHONPATH``) and once with this checkout, and prints the files whose exit
code, output or messages differ. Exit 0 when none does.

    python tools/compare_validation.py main tests/fixtures/*.yaml tests/fixtures/invalid/*.yaml

Folders given are searched for ``*.yaml``. Each side runs in one process of its
own (``--worker``), so the comparison costs two start-ups, not two per file.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import subprocess
import sys
import tarfile
import tempfile
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def layout(rev: str) -> dict[str, str]:
    """Where each part of the package lived at ``rev``: its folder in the repository and
    its place once installed (that revision's package-dir in pyproject.toml)."""
    text = subprocess.run(
        ["git", "-C", str(ROOT), "show", f"{rev}:pyproject.toml"],
        capture_output=True,
        check=True,
        text=True,
    ).stdout
    mapping: dict[str, str] = tomllib.loads(text)["tool"]["setuptools"]["package-dir"]
    return {folder: package.replace(".", "/") for package, folder in mapping.items()}


def outputs(files: list[str]) -> dict[str, list[object]]:
    """Per file: exit code, stdout and stderr of ``validate --json``, then of ``validate``."""
    from trackside.cli.main import main

    found: dict[str, list[object]] = {}
    for name in files:
        row: list[object] = []
        for extra in (["--json"], []):
            out, err = io.StringIO(), io.StringIO()
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                code = main(["validate", *extra, name])
            row += [code, out.getvalue(), err.getvalue()]
        found[name] = row
    return found


def unpack(rev: str, into: Path) -> None:
    """The package as it was at ``rev``, laid out as installed under ``into``."""
    parts = layout(rev)
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", rev, *parts], capture_output=True, check=True
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        for member in tar.getmembers():
            for source, target in parts.items():
                if member.name == source or member.name.startswith(source + "/"):
                    member.name = target + member.name[len(source) :]
                    tar.extract(member, into, filter="data")
                    break


def run_side(files: list[str], pythonpath: str | None, out: Path) -> dict[str, list[object]]:
    env = dict(os.environ)
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
    listing = out.with_suffix(".files")
    listing.write_text("\n".join(files), encoding="utf-8")
    subprocess.run(
        [sys.executable, __file__, "--worker", str(listing), str(out)], env=env, check=True
    )
    result: dict[str, list[object]] = json.loads(out.read_text(encoding="utf-8"))
    return result


def yaml_files(paths: list[str]) -> list[str]:
    found: list[str] = []
    for name in paths:
        path = Path(name)
        found += sorted(map(str, path.rglob("*.yaml"))) if path.is_dir() else [str(path)]
    return [str(Path(f).resolve()) for f in found]


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["--worker"]:
        files = Path(args[1]).read_text(encoding="utf-8").split("\n")
        Path(args[2]).write_text(json.dumps(outputs(files)), encoding="utf-8")
        return 0
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rev", help="the revision to compare with (main, a commit)")
    parser.add_argument("paths", nargs="+", help="track files or folders of them")
    ns = parser.parse_args(args)
    files = yaml_files(ns.paths)
    with tempfile.TemporaryDirectory() as tmp:
        old_tree = Path(tmp) / "old"
        unpack(ns.rev, old_tree)
        old = run_side(files, str(old_tree), Path(tmp) / "old.json")
        new = run_side(files, None, Path(tmp) / "new.json")
    differ = [name for name in files if old[name] != new[name]]
    for name in differ:
        print(f"differs: {name}")
    print(f"{len(files)} files, {len(differ)} differ")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
