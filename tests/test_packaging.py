"""A non-editable install works: the wheel holds everything and ``trackside`` finds its data.

The wheel is built from a copy of the source tree (so the shared checkout gets
no build/ folder) and installed into a fresh virtual environment that borrows
the dev environment's dependencies through a ``.pth`` path entry; the installed
``trackside`` then runs from an unrelated working directory. (The editable
install is the one every other test runs on.)
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest
from editor_process import editor_stays_up
from house import code_folders, package_folders
from repo_paths import ROOT

# Source folder -> where it lands in the wheel: everything installs inside ``trackside``.
PACKAGES = {folder: package.replace(".", "/") for folder, package in code_folders().items()}
DATA = tuple(folder for folder in package_folders() if folder not in PACKAGES)

# One worker builds the wheel and the venv once (pytest-xdist, --dist loadgroup).
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("packaging")]


def run(cmd: list, cwd: Path, env: dict | None = None, timeout: float = 120):
    return subprocess.run(
        [str(c) for c in cmd], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout
    )


def source_files(folder: str, suffixes: tuple[str, ...]) -> list[str]:
    """Files under ``folder`` of the source tree, as posix paths relative to ``folder``."""
    return sorted(
        p.relative_to(ROOT / folder).as_posix()
        for p in (ROOT / folder).rglob("*")
        if p.is_file() and p.suffix in suffixes and "__pycache__" not in p.parts
    )


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """The wheel built from a copy of the sources (without build isolation when possible)."""
    base = tmp_path_factory.mktemp("pkg")
    src = base / "src"
    src.mkdir()
    for name in ("pyproject.toml", "README.md", "LICENSE", "MANIFEST.in"):
        if (ROOT / name).exists():
            shutil.copy2(ROOT / name, src / name)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for name in (*PACKAGES, *DATA):
        shutil.copytree(ROOT / name, src / name, ignore=ignore)
    out = base / "dist"
    pip = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", out]
    built = run([*pip, "--no-build-isolation", src], cwd=base)
    if built.returncode != 0:  # the dev venv may lack the build backend's requirements
        built = run([*pip, src], cwd=base, timeout=300)
    assert built.returncode == 0, built.stdout + built.stderr
    wheels = list(out.glob("trackside-*.whl"))
    assert len(wheels) == 1
    return wheels[0]


def test_wheel_holds_one_package_its_data_and_the_console_script(wheel):
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        dist_info = next(n.split("/")[0] for n in names if n.endswith(".dist-info/RECORD"))
        entry_points = archive.read(f"{dist_info}/entry_points.txt").decode()
    for folder, target in PACKAGES.items():
        missing = [f for f in source_files(folder, (".py",)) if f"{target}/{f}" not in names]
        assert missing == [], f"modules of {folder}/ missing from the wheel: {missing}"
    expected = [
        f"trackside/{folder}/{f}"
        for folder in DATA
        for f in source_files(folder, (".json", ".yaml", ".yml", ".py"))
    ]
    assert "trackside/schemas/track.schema.json" in expected
    expected.append("trackside/editor/resources/trackside.svg")  # the application icon
    missing = [f for f in expected if f not in names]
    assert missing == [], f"data files missing from the wheel: {missing}"
    tops = {n.split("/")[0] for n in names if not n.split("/")[0].startswith("trackside-")}
    assert tops == {"trackside"}, "the wheel installs something beside the trackside package"
    assert "trackside = trackside.cli.main:main" in entry_points
    assert "trackside-editor = trackside.cli.main:launch_editor" in entry_points


@pytest.fixture(scope="module")
def installed(wheel, tmp_path_factory) -> tuple[Path, dict[str, str]]:
    """A fresh venv with the wheel installed: its folder and an environment to run it in."""
    tmp_path = tmp_path_factory.mktemp("installed")
    venv = tmp_path / "venv"
    made = run([sys.executable, "-m", "venv", "--without-pip", venv], cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    python = venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    site = Path(
        run(
            [python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"], cwd=tmp_path
        ).stdout.strip()
    )
    dev_site = sysconfig.get_path("purelib")
    dev_before = sorted(p.name for p in Path(dev_site).glob("trackside*"))
    installed = run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            python,
            "install",
            "--no-deps",
            "--no-index",
            "--quiet",
            wheel,
        ],
        cwd=tmp_path,
    )
    assert installed.returncode == 0, installed.stdout + installed.stderr
    # Only now borrow PySide6, shapely and the rest from the dev venv: had pip seen the
    # dev venv's trackside during the install, it would have uninstalled it from there.
    # A plain path line does not run the dev venv's own .pth files, so its editable
    # trackside stays out of the new venv.
    (site / "dev-deps.pth").write_text(dev_site + "\n", encoding="utf-8")
    assert sorted(p.name for p in Path(dev_site).glob("trackside*")) == dev_before
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    env.update(
        QT_QPA_PLATFORM="offscreen",
        XDG_DATA_HOME=str(tmp_path / "data"),
        XDG_CONFIG_HOME=str(tmp_path / "config"),
    )
    return venv, env


def _script(venv: Path) -> Path:
    return venv / ("Scripts/trackside.exe" if os.name == "nt" else "bin/trackside")


def test_installed_package_reads_its_data_from_the_install(installed, tmp_path):
    venv, env = installed
    python = venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    probe = run(
        [
            python,
            "-c",
            "import sys, trackside.engine.resources as r; print(r.__file__); "
            "print(r.tracks_dir()); print(len(r.bundled_tracks())); "
            "print(len(list(r.variants_dir().rglob('*.yaml')))); "
            "print(any(m in sys.modules for m in ('engine', 'editor')))",
        ],
        cwd=tmp_path,
        env=env,
    )
    assert probe.returncode == 0, probe.stderr
    module, tracks_dir, tracks, variants, stray = probe.stdout.split("\n")[:5]
    assert Path(module).is_relative_to(venv), "trackside was not imported from the wheel"
    assert Path(tracks_dir).is_relative_to(venv)
    assert int(tracks) == len(source_files("tracks", (".yaml",)))
    assert int(variants) == len(source_files("variants", (".yaml",)))
    assert stray == "False"


def test_installed_command_works_by_circuit_name_from_anywhere(installed, tmp_path):
    venv, env = installed
    script = _script(venv)
    assert run([script, "--help"], cwd=tmp_path, env=env).returncode == 0
    checked = run([script, "validate", "harbour-loop"], cwd=tmp_path, env=env)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    simulated = run(
        [script, "simulate", "--track", "harbour-loop", "--games", "2", "--seed", "1", "--json"],
        cwd=tmp_path,
        env=env,
    )
    assert simulated.returncode == 0, simulated.stderr
    out = tmp_path / "board.svg"
    rendered = run([script, "render", "harbour-loop", "-o", out], cwd=tmp_path, env=env)
    assert rendered.returncode == 0, rendered.stderr
    assert out.read_text(encoding="utf-8").lstrip().startswith("<?xml")
    broken = tmp_path / "broken.yaml"
    broken.write_text("format: trackside-track/1\nname: x\n", encoding="utf-8")
    refused = run([script, "validate", broken], cwd=tmp_path, env=env)
    assert refused.returncode == 1, refused.stderr  # the schema was found and applied


def test_installed_editor_opens_a_bundled_circuit(installed, tmp_path):
    venv, env = installed
    _out, noise = editor_stays_up([str(_script(venv)), "edit", "quarry-hairpin"], env, 3, tmp_path)
    assert noise == []
