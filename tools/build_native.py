#!/usr/bin/env python3
"""Compile the engine's busiest modules to C with mypyc (``engine/native.py``).

Writes ``build/native/`` (the compiled modules and a manifest of the sources'
SHA-256) from the modules listed in ``engine.native.MODULES``; the engine then
loads them while every source is unchanged. Needs a C compiler and Python's
headers; without them it says so and the engine runs as Python. ``make
setup`` runs it, and ``make`` runs it again when a compiled source changes.

Run from the repository root: ``python tools/build_native.py``.
"""

from __future__ import annotations

import contextlib
import datetime
import io
import json
import os
import re
import shutil
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "engine"))

import native  # noqa: E402  (engine/native.py alone: importing the engine would load it)

GROUP = "trackside_native"  # the name of the library the compiled modules share


def source_tree(tree: Path) -> None:
    """A copy of the package where its modules sit as their names say
    (``trackside/engine/...``), for the compiler to name them."""
    package = tree / "trackside"
    package.mkdir(parents=True)
    for file in (ROOT / "src" / "trackside").glob("*.py"):
        shutil.copy2(file, package / file.name)
    skip = shutil.ignore_patterns("__pycache__")
    shutil.copytree(ROOT / "engine", package / "engine", ignore=skip)


def compile_modules(tree: Path, lib: Path, temp: Path) -> None:
    """mypyc and the C compiler over ``native.MODULES``, into ``lib``."""
    from mypyc.build import mypycify
    from setuptools import setup

    paths = ["trackside/" + source for source in native.MODULES]
    os.chdir(tree)
    extensions = mypycify(
        ["--config-file", str(ROOT / "pyproject.toml"), *paths],
        group_name=GROUP,
        target_dir=str(temp / "c"),
    )
    setup(
        name="trackside-native",
        ext_modules=extensions,
        script_args=["--quiet", "build_ext", "--build-lib", str(lib), "--build-temp", str(temp)],
    )


def manifest(lib: Path) -> dict[str, Any]:
    """What the engine checks before it loads the build."""
    suffix = native.build_tag()
    files = {}
    for source in native.MODULES:
        name = native.module_name(source)
        files[name] = str(Path(*name.split("."))) + suffix
    for file in lib.glob(f"*__mypyc{suffix}"):
        files[file.name.removesuffix(suffix)] = file.name
    return {
        "tag": suffix,
        "built": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "sources": {source: native.source_digest(ROOT / source) for source in native.MODULES},
        "files": {name: f"lib/{file}" for name, file in files.items()},
    }


def write_manifest(work: Path, data: dict[str, Any]) -> None:
    """The manifest the engine reads (``make`` also goes by its date)."""
    (work / native.MANIFEST).write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


def short_reason(error: BaseException) -> str:
    """Why the build stopped, in a line (the compiler's own output is above it)."""
    text = (str(error).splitlines() or [type(error).__name__])[0]
    command = re.search(r"Command '\['([^']+)'", text)
    if command:
        return f"the C compiler {command.group(1)} failed"
    return text if len(text) <= 120 else text[:117] + "..."


def failed(work: Path, reason: str) -> int:
    """Say why nothing was compiled; leave a manifest saying so, so that ``make``
    does not try again until a source changes (``make native`` does)."""
    print(
        f"Not compiled ({reason}): the engine runs as Python, its games about 1.8 times "
        "slower. A C compiler and Python's headers are needed (on Debian: apt-get install "
        "gcc python3-dev), then run make native.",
        file=sys.stderr,
    )
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    write_manifest(work, {"tag": native.build_tag(), "failed": reason})
    return 1


def main() -> int:
    work = native.BUILD
    shutil.rmtree(work, ignore_errors=True)
    tree, lib, temp = work / "src", work / "lib", work / "temp"
    source_tree(tree)
    output = io.StringIO()
    print(f"Compiling {len(native.MODULES)} engine modules with mypyc (about a minute) ...")
    try:
        with contextlib.redirect_stdout(output), contextlib.redirect_stderr(output):
            compile_modules(tree, lib, temp)
    except (Exception, SystemExit) as error:  # the compiler's own failure, said below
        last = [line for line in output.getvalue().splitlines() if line.strip()][-5:]
        print("\n".join(last) or str(error), file=sys.stderr)
        return failed(work, short_reason(error))
    finally:
        os.chdir(ROOT)
    data = manifest(lib)
    missing = [file for file in data["files"].values() if not (work / file).is_file()]
    if missing:
        return failed(work, f"{missing[0]} was not made")
    write_manifest(work, data)
    shutil.rmtree(tree)
    shutil.rmtree(temp)  # the generated C and objects: a build starts afresh
    print(f"Compiled into {work.relative_to(ROOT)}: bots play about 1.8 times as fast.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
