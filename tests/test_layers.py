"""The engine never imports Qt (DESIGN.md working agreements)."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_engine_sources_do_not_import_qt():
    offenders = []
    for path in (ROOT / "engine").rglob("*.py"):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            stripped = line.strip()
            if stripped.startswith(("import ", "from ")) and any(
                name in stripped for name in ("PySide6", "PyQt", "shiboken", "editor")
            ):
                offenders.append(f"{path.relative_to(ROOT)}:{n}: {stripped}")
    assert offenders == []


def test_importing_the_whole_engine_loads_no_qt():
    code = (
        "import importlib, pkgutil, sys, engine\n"
        "for m in pkgutil.walk_packages(engine.__path__, 'engine.'):\n"
        "    if m.name != 'engine.__main__':\n"
        "        importlib.import_module(m.name)\n"
        "bad = [m for m in sys.modules if m.startswith(('PySide6', 'shiboken6', 'editor'))]\n"
        "print(bad)\n"
        "sys.exit(1 if bad else 0)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
