"""``make run`` checks that Qt's xcb platform can load before it starts the editor
(tools/qt_platform.py), naming the Debian packages of missing libraries from
tools/qt-libraries.txt, the table the README and .ci/run follow too."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from repo_paths import ROOT

sys.path.insert(0, str(ROOT / "tools"))
from qt_platform import TABLE, applies, read_table, xcb_plugin

CHECK = ROOT / "tools" / "qt_platform.py"
linux_only = pytest.mark.skipif(
    not sys.platform.startswith("linux") or shutil.which("ldd") is None,
    reason="the xcb platform and ldd are Linux's",
)


def check(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(CHECK), *argv], capture_output=True, text=True, check=False
    )


@pytest.mark.parametrize(
    ("env", "platform", "expected"),
    [
        ({"DISPLAY": ":0"}, "linux", True),
        ({"DISPLAY": ":0", "QT_QPA_PLATFORM": "xcb"}, "linux", True),
        ({"QT_QPA_PLATFORM": "xcb:nograb"}, "linux", True),
        ({"DISPLAY": ":0", "QT_QPA_PLATFORM": "offscreen"}, "linux", False),
        ({"DISPLAY": ":0", "QT_QPA_PLATFORM": "wayland"}, "linux", False),
        ({"DISPLAY": ":0", "XDG_SESSION_TYPE": "wayland"}, "linux", False),
        ({}, "linux", False),  # no display at all: nothing to open a window on
        ({"DISPLAY": ":0"}, "darwin", False),
        ({"DISPLAY": ":0"}, "win32", False),
    ],
)
def test_the_check_applies_only_to_the_xcb_platform(env, platform, expected):
    assert applies(env, platform) is expected


def fake_plugin(tmp_path: Path, needed: str, instead: str) -> Path:
    """A copy of PySide6's xcb plugin that needs ``instead`` where it needs ``needed``:
    a library that exists nowhere, as one missing on a fresh desktop."""
    plugin = xcb_plugin()
    assert plugin is not None
    assert len(needed) == len(instead)
    qt = tmp_path / "Qt"
    (qt / "plugins" / "platforms").mkdir(parents=True)
    (qt / "lib").symlink_to(plugin.parents[2] / "lib")  # its runpath: $ORIGIN/../../lib
    data = plugin.read_bytes()
    assert needed.encode() + b"\0" in data
    fake = qt / "plugins" / "platforms" / plugin.name
    fake.write_bytes(data.replace(needed.encode() + b"\0", instead.encode() + b"\0"))
    return fake


@linux_only
def test_a_missing_library_is_named_with_the_line_that_installs_it(tmp_path):
    fake = fake_plugin(tmp_path, "libxcb-icccm.so.4", "libxcb-iccxm.so.4")
    table = tmp_path / "table.txt"
    table.write_text(TABLE.read_text() + "libxcb-iccxm.so.4  libxcb-iccxm4\n")
    done = check("--always", "--plugin", str(fake), "--table", str(table))
    assert done.returncode == 1
    assert "needs libxcb-iccxm.so.4" in done.stderr
    lines = [line.strip() for line in done.stderr.splitlines()]
    assert "sudo apt-get install libxcb-iccxm4" in lines  # one line, its package only


@linux_only
def test_a_library_without_a_known_package_is_still_named(tmp_path):
    fake = fake_plugin(tmp_path, "libxcb-keysyms.so.1", "libxcb-keysymz.so.1")
    done = check("--always", "--plugin", str(fake))
    assert done.returncode == 1
    assert "libxcb-keysymz.so.1" in done.stderr and "apt-file search" in done.stderr
    assert "apt-get install" not in done.stderr


def test_off_the_xcb_platform_the_check_passes_at_once(tmp_path):
    missing = tmp_path / "nowhere.so"
    env_check = subprocess.run(
        [sys.executable, str(CHECK), "--plugin", str(missing)],
        capture_output=True,
        text=True,
        check=False,
        env={"PATH": "/usr/bin:/bin", "QT_QPA_PLATFORM": "offscreen"},
    )
    assert env_check.returncode == 0 and env_check.stderr == ""


@linux_only
def test_every_library_the_plugin_loads_is_in_the_table():
    """The table keeps up with PySide6: a library the plugin loads from the system
    (or cannot find) and the table does not name fails here."""
    plugin = xcb_plugin()
    assert plugin is not None
    listed = subprocess.run(["ldd", str(plugin)], capture_output=True, text=True, check=True)
    packages, _linked = read_table(TABLE)
    basic = {"linux-vdso.so.1", "libc.so.6", "libm.so.6", "libdl.so.2", "libpthread.so.0"}
    unknown = []
    for line in listed.stdout.splitlines():
        name = line.split()[0]
        if name in basic or name.startswith("/") or "PySide6" in line or "ld-linux" in name:
            continue
        if name.startswith(("libQt6", "libicu")):
            continue  # PySide6's own
        if name not in packages:
            unknown.append(name)
    assert unknown == []


def test_the_readme_and_ci_install_what_qt_links_to():
    _packages, linked = read_table(TABLE)
    readme = (ROOT / "README.md").read_text()
    block = re.search(r"sudo apt-get install ([^\n`]+)", readme)
    assert block, "the README gives the apt-get line"
    assert set(block.group(1).split()) >= set(linked)
    ci = (ROOT / ".ci" / "run").read_text()
    assert "tools/qt-libraries.txt" in ci and "xvfb" in ci and "xauth" in ci
    # The smoke test runs, never skipped.
    assert re.search(r"TRACKSIDE_REQUIRE_XCB=1 .*make test", ci)


def test_make_run_checks_before_it_starts_the_editor():
    done = subprocess.run(
        ["make", "-n", "run", "STAMP=Makefile"], cwd=ROOT, capture_output=True, text=True
    )
    commands = done.stdout.splitlines()
    checked = next(k for k, c in enumerate(commands) if "tools/qt_platform.py" in c)
    started = next(k for k, c in enumerate(commands) if "trackside edit" in c)
    assert checked < started
