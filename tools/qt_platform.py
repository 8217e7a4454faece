"""Check, before the editor starts, that Qt's xcb platform can load: ``make run`` runs it.

On a Linux desktop the editor's window goes through Qt's xcb platform plugin,
which needs a few dozen system libraries. When one is missing Qt aborts with a
message that names the wrong package, so this check runs ``ldd`` on the plugin
first and, for every library that is not found, names its Debian package from
``tools/qt-libraries.txt``, in one ``apt-get install`` line. Exit 0 when all is
there (or when the check does not apply: not Linux, no X display, a Wayland
session, ``QT_QPA_PLATFORM`` set to another platform, no ``ldd``), 1 when a
library is missing.

    python tools/qt_platform.py [--plugin LIBQXCB.so] [--table TABLE] [--always]
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

TABLE = Path(__file__).with_name("qt-libraries.txt")
NOT_FOUND = re.compile(r"^\s*(\S+)\s+=>\s+not found", re.MULTILINE)


def applies(env: Mapping[str, str], platform: str = sys.platform) -> bool:
    """True when the editor would open its window through Qt's xcb platform."""
    if not platform.startswith("linux"):
        return False
    chosen = env.get("QT_QPA_PLATFORM", "")
    if chosen:  # "xcb", "xcb:option", "wayland;xcb", "offscreen"...
        return chosen.split(";")[0].split(":")[0] == "xcb"
    if env.get("XDG_SESSION_TYPE") == "wayland":  # Qt tries Wayland first there
        return False
    return bool(env.get("DISPLAY"))


def xcb_plugin() -> Path | None:
    """PySide6's xcb platform plugin, without loading Qt."""
    spec = importlib.util.find_spec("PySide6")
    if spec is None or not spec.submodule_search_locations:
        return None
    for folder in spec.submodule_search_locations:
        plugin = Path(folder) / "Qt" / "plugins" / "platforms" / "libqxcb.so"
        if plugin.exists():
            return plugin
    return None


def read_table(path: Path) -> tuple[dict[str, str], list[str]]:
    """The package of each library, and the packages of the libraries Qt links to itself
    (the first part of the table), in order."""
    packages: dict[str, str] = {}
    linked: list[str] = []
    part = ""
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        if line.startswith("["):
            part = line
            continue
        library, package = line.split()
        packages[library] = package
        if part == "[linked by Qt]" and package not in linked:
            linked.append(package)
    return packages, linked


def missing_libraries(plugin: Path) -> list[str] | None:
    """The libraries ``ldd`` does not find for ``plugin``, in its order (None: no ldd)."""
    ldd = shutil.which("ldd")
    if ldd is None:
        return None
    done = subprocess.run([ldd, str(plugin)], capture_output=True, text=True, check=False)
    found: list[str] = []
    for name in NOT_FOUND.findall(done.stdout):
        if name not in found:
            found.append(name)
    return found


def advice(missing: list[str], packages: Mapping[str, str]) -> str:
    """What to tell the person: the missing libraries and the one line that installs them."""
    known = []
    for library in missing:
        package = packages.get(library)
        if package is not None and package not in known:
            known.append(package)
    unknown = [library for library in missing if library not in packages]
    lines = [
        "trackside: the editor cannot open its window: Qt's xcb platform needs "
        f"{', '.join(missing)}, not installed on this system.",
    ]
    if known:
        lines += ["Install it with:" if len(known) == 1 else "Install them with:"]
        lines += [f"    sudo apt-get install {' '.join(known)}"]
    if unknown:
        names = ", ".join(unknown)
        lines += [f"(no package known here for {names}: `apt-file search NAME` finds it)"]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plugin", type=Path, help="the plugin to check (default: PySide6's)")
    parser.add_argument("--table", type=Path, default=TABLE, help="libraries and packages")
    parser.add_argument("--always", action="store_true", help="check whatever the display")
    args = parser.parse_args(argv)
    if not args.always and not applies(os.environ):
        return 0
    plugin = args.plugin or xcb_plugin()
    if plugin is None:
        return 0
    missing = missing_libraries(plugin)
    if not missing:
        return 0
    packages, _linked = read_table(args.table)
    print(advice(missing, packages), file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
