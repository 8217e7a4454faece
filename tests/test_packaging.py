"""A non-editable install works: the wheel holds everything and ``trackside`` finds its data.

The wheel is built from a copy of the source tree (so the shared checkout gets
no build/ folder) and installed into a fresh virtual environment that borrows
the dev environment's dependencies through a ``.pth`` path entry; the installed
``trackside`` then runs from an unrelated working directory.
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

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "editor")
DATA = ("schemas", "tracks", "variants")

pytestmark = pytest.mark.slow


def run(cmd: list, cwd: Path, env: dict | None = None, timeout: float = 120):
    return subprocess.run([str(c) for c in cmd], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=timeout)


def source_files(folder: str, suffixes: tuple[str, ...]) -> list[str]:
    """Files under ``folder`` of the source tree, as posix paths relative to the root."""
    return sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / folder).rglob("*")
                  if p.is_file() and p.suffix in suffixes and "__pycache__" not in p.parts)


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """The wheel built from a copy of the sources (without build isolation when possible)."""
    base = tmp_path_factory.mktemp("pkg")
    src = base / "src"
    src.mkdir()
    for name in ("pyproject.toml", "README.md", "LICENSE", "setup.cfg", "MANIFEST.in"):
        if (ROOT / name).exists():
            shutil.copy2(ROOT / name, src / name)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for name in PACKAGES + DATA:
        shutil.copytree(ROOT / name, src / name, ignore=ignore)
    out = base / "dist"
    pip = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", out]
    built = run(pip + ["--no-build-isolation", src], cwd=base)
    if built.returncode != 0:  # the dev venv may lack the build backend's requirements
        built = run(pip + [src], cwd=base, timeout=300)
    assert built.returncode == 0, built.stdout + built.stderr
    wheels = list(out.glob("trackside-*.whl"))
    assert len(wheels) == 1
    return wheels[0]


def test_wheel_holds_packages_console_script_and_every_data_file(wheel):
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        dist_info = next(n.split("/")[0] for n in names if n.endswith(".dist-info/RECORD"))
        entry_points = archive.read(f"{dist_info}/entry_points.txt").decode()
    for folder in PACKAGES:
        missing = [f for f in source_files(folder, (".py",)) if f not in names]
        assert missing == [], f"modules missing from the wheel: {missing}"
    data_prefix = dist_info.replace(".dist-info", ".data") + "/data/share/trackside/"
    expected = [f for folder in DATA for f in source_files(folder, (".json", ".yaml", ".yml"))]
    assert "schemas/track.schema.json" in expected
    missing = [f for f in expected if data_prefix + f not in names]
    assert missing == [], f"data files missing from the wheel: {missing}"
    assert "[console_scripts]" in entry_points
    assert "trackside = engine.cli:main" in entry_points


def test_installed_trackside_finds_its_data_from_anywhere(wheel, tmp_path):
    venv = tmp_path / "venv"
    made = run([sys.executable, "-m", "venv", "--without-pip", venv], cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    python = venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    site = Path(run([python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                    cwd=tmp_path).stdout.strip())
    dev_site = sysconfig.get_path("purelib")
    dev_before = sorted(p.name for p in Path(dev_site).glob("trackside*"))
    installed = run([sys.executable, "-m", "pip", "--python", python, "install", "--no-deps",
                     "--no-index", "--quiet", wheel], cwd=tmp_path)
    assert installed.returncode == 0, installed.stdout + installed.stderr
    # Only now borrow PySide6, shapely and the rest from the dev venv: had pip seen the
    # dev venv's trackside during the install, it would have uninstalled it from there.
    # A plain path line does not run the dev venv's own .pth files, so its editable
    # trackside stays out of the new venv.
    (site / "dev-deps.pth").write_text(dev_site + "\n", encoding="utf-8")
    assert sorted(p.name for p in Path(dev_site).glob("trackside*")) == dev_before

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    env["QT_QPA_PLATFORM"] = "offscreen"
    probe = run([python, "-c",
                 "import engine, engine.resources as r; print(engine.__file__); "
                 "print(r.data_root()); print(len(r.bundled_tracks())); "
                 "print(len(list(r.variants_dir().rglob('*.yaml'))))"], cwd=elsewhere, env=env)
    assert probe.returncode == 0, probe.stderr
    module, root, tracks, variants = probe.stdout.split("\n")[:4]
    assert Path(module).is_relative_to(venv), "engine was not imported from the installed wheel"
    assert Path(root).resolve() == (venv / "share" / "trackside").resolve()
    assert int(tracks) == len(source_files("tracks", (".yaml",)))
    assert int(variants) == len(source_files("variants", (".yaml",)))

    script = venv / ("Scripts/trackside.exe" if os.name == "nt" else "bin/trackside")
    tracks_dir = Path(root) / "tracks"
    bundled = sorted(tracks_dir.glob("*.yaml"))
    track = bundled[0] if bundled else _write_test_track(elsewhere)
    out = elsewhere / "board.svg"
    rendered = run([script, "render", track, "-o", out], cwd=elsewhere, env=env)
    assert rendered.returncode == 0, rendered.stderr
    assert out.read_text(encoding="utf-8").lstrip().startswith("<?xml")
    broken = elsewhere / "broken.yaml"
    broken.write_text("format: trackside-track/1\nname: x\n", encoding="utf-8")
    refused = run([script, "render", broken, "-o", out], cwd=elsewhere, env=env)
    assert refused.returncode == 1, refused.stderr  # the schema was found and applied
    assert "missing required key" in refused.stderr
    if (ROOT / "engine" / "commands" / "validate.py").exists():
        for path in bundled:
            checked = run([script, "validate", path], cwd=elsewhere, env=env)
            assert checked.returncode == 0, checked.stdout + checked.stderr


def _write_test_track(folder: Path) -> Path:
    """A valid track for the installed command when no circuit is bundled yet."""
    from test_render import oval_track  # tests/ is on sys.path (pytest's prepend mode)

    from engine.track import save_track

    path = folder / "oval.yaml"
    save_track(oval_track(), path)
    return path
