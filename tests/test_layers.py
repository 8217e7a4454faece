"""The house as drawn: the engine never imports Qt, the rooms import downwards only,
and no module imports itself through others (no import circles)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

from house import code_folders, editor_floors
from repo_paths import ROOT

FOLDERS = code_folders()


def modules() -> dict[str, Path]:
    """Every module of the package, by its installed name."""
    found = {}
    for folder, package in FOLDERS.items():
        for path in (ROOT / folder).rglob("*.py"):
            parts = list(path.relative_to(ROOT / folder).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join([package, *parts])] = path
    return found


def imports_of(path: Path, name: str, known: dict[str, Path]) -> set[str]:
    """The modules of ours and the external ones that ``path`` imports, at any depth."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parent, base] if base else parent)
            out.add(base)
            out.update(
                f"{base}.{alias.name}" for alias in node.names if f"{base}.{alias.name}" in known
            )
    return out


def graph() -> dict[str, set[str]]:
    known = modules()
    return {
        name: {m for m in imports_of(path, name, known) if m in known and m != name}
        for name, path in known.items()
    }


def imports_from(package: str, *forbidden: str) -> list[str]:
    """``module: import`` for each import of a module of ``package`` (at any depth) that
    names one of the ``forbidden`` modules or packages."""
    known = modules()
    return [
        f"{name}: {target}"
        for name, path in known.items()
        if name.startswith(package)
        for target in imports_of(path, name, known)
        if target.startswith(forbidden)
    ]


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected groups of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in edges[node]:
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                group.append(top)
                if top == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def test_no_module_imports_itself_through_others():
    edges = graph()
    # A package's __init__ re-exporting its own modules is not a circle of design.
    for name in edges:
        edges[name] = {m for m in edges[name] if not name.startswith(m + ".")}
    assert cycles(edges) == []


def test_engine_sources_do_not_import_qt_the_editor_or_the_command_line():
    assert (
        imports_from(
            "trackside.engine", "PySide6", "PyQt", "shiboken", "trackside.editor", "trackside.cli"
        )
        == []
    )


def test_the_editor_never_imports_the_command_line():
    assert imports_from("trackside.editor", "trackside.cli") == []


STRING_IMPORTS = {"import_module", "__import__"}


def test_no_module_of_ours_is_imported_by_a_string():
    """importlib with a name of ours hides an import from the contracts and the reader."""
    offenders = [
        f"{name}: {node.args[0].value}"
        for name, path in modules().items()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Call)
        and node.args
        and isinstance(node.args[0], ast.Constant)
        and isinstance(node.args[0].value, str)
        and node.args[0].value.startswith("trackside")
        and getattr(node.func, "attr", getattr(node.func, "id", "")) in STRING_IMPORTS
    ]
    assert offenders == []


def test_the_document_room_imports_no_widgets():
    assert imports_from("trackside.editor.document", "PySide6.QtWidgets") == []


def room_of(module: str, rooms: list[str]) -> str | None:
    return next((r for r in rooms if module == r or module.startswith(r + ".")), None)


def test_every_room_imports_only_the_floors_below_it():
    """A room imports no room above it, nor another room on its own floor."""
    floor_of = {room: k for k, floor in enumerate(editor_floors()) for room in floor}
    known = modules()
    offenders = []
    for name, path in known.items():
        room = room_of(name, list(floor_of))
        if room is None:
            continue
        for target in imports_of(path, name, known):
            other = room_of(target, list(floor_of))
            if other is not None and other != room and floor_of[other] <= floor_of[room]:
                offenders.append(f"{name}: {target}")
    assert offenders == []


def test_every_room_of_the_editor_stands_on_a_floor():
    rooms = {room for floor in editor_floors() for room in floor}
    folders = {
        f"trackside.editor.{path.stem if path.is_file() else path.name}"
        for path in (ROOT / "editor").iterdir()
        if (path.is_dir() and (path / "__init__.py").exists())
        or (path.suffix == ".py" and path.stem != "__init__")
    }
    assert folders == rooms


def loaded_after(code: str, prefixes: tuple[str, ...]) -> list[str]:
    """The modules named ``prefixes...`` that a fresh Python has loaded after running
    ``code``."""
    code += f"\nimport sys\nprint([m for m in sys.modules if m.startswith({prefixes!r})])\n"
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    loaded: list[str] = ast.literal_eval(result.stdout.strip().splitlines()[-1])
    return loaded


def test_importing_the_whole_engine_loads_no_qt():
    code = (
        "import importlib, pkgutil, trackside.engine as engine\n"
        "for m in pkgutil.walk_packages(engine.__path__, 'trackside.engine.'):\n"
        "    importlib.import_module(m.name)\n"
    )
    assert loaded_after(code, ("PySide6", "shiboken6", "trackside.editor")) == []


def test_pdfium_is_loaded_only_when_a_pdf_is_opened():
    """The editor starts without PDFium; only a PDF background loads it."""
    code = "import trackside.editor.mainwindow, trackside.cli.main\n"
    assert loaded_after(code, ("pypdfium2",)) == []
