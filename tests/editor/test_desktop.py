"""Desktop integration: the icon in the window and the About box, settings names, the menu entry."""

from __future__ import annotations

import configparser
import subprocess
import sys

import pytest
from PySide6.QtCore import QCoreApplication
from repo_paths import ROOT

from trackside import __version__
from trackside.editor.app import make_app
from trackside.editor.widgets.app_icon import app_icon, icon_path

pytestmark = pytest.mark.gui


def test_the_icon_is_shipped_and_draws(qapp):
    assert icon_path().is_file()
    pixmap = app_icon().pixmap(64, 64)
    assert not pixmap.isNull()
    assert pixmap.toImage().pixelColor(32, 8).alpha() > 0  # the tile is opaque, not blank


def test_the_app_names_itself_for_settings_and_the_desktop(qapp):
    make_app()
    assert QCoreApplication.organizationName() == "Trackside"
    assert QCoreApplication.applicationName() == "trackside"
    assert qapp.desktopFileName() == "trackside"
    assert not qapp.windowIcon().isNull()


def test_the_window_and_the_about_box_show_the_icon_and_version(window):
    assert not window.windowIcon().isNull()
    help_menu = window.menuBar().actions()[-1].menu()
    assert help_menu.title().replace("&", "") == "Help"
    assert window.act_about in help_menu.actions()
    assert f"Trackside {__version__}" in window.about_text()


def test_the_window_places_the_play_rooms_menu_between_tools_and_help(window):
    titles = [a.text().replace("&", "") for a in window.menuBar().actions()]
    assert titles[-3:] == ["Tools", "Play", "Help"]
    shown = [a for a in window.play_menu.actions() if not a.isSeparator()]
    assert shown == [a for a in window.play.menu_actions() if a is not None]
    assert window.play.act_play.shortcut().toString() == "F5"


def desktop_entry(*args: str) -> subprocess.CompletedProcess[str]:
    """Run ``tools/desktop_entry.py`` with ``args``, as ``make install-desktop`` does."""
    script = str(ROOT / "tools" / "desktop_entry.py")
    return subprocess.run(
        [sys.executable, script, *args], capture_output=True, text=True, check=False
    )


def test_install_desktop_writes_a_valid_entry_and_the_icon(tmp_path):
    command = tmp_path / "bin" / "trackside"
    done = desktop_entry("install", "--prefix", str(tmp_path), "--command", str(command))
    assert done.returncode == 0, done.stderr
    entry = tmp_path / "share" / "applications" / "trackside.desktop"
    icon = tmp_path / "share" / "icons" / "hicolor" / "scalable" / "apps" / "trackside.svg"
    parser = configparser.ConfigParser(interpolation=None)
    parser.optionxform = str  # keys are case-sensitive in desktop entries
    parser.read(entry, encoding="utf-8")
    section = parser["Desktop Entry"]
    assert section["Type"] == "Application" and section["Icon"] == "trackside"
    assert section["Exec"] == f"{command} edit %f"
    assert icon.read_bytes() == icon_path().read_bytes()
    removed = desktop_entry("uninstall", "--prefix", str(tmp_path))
    assert removed.returncode == 0 and not entry.exists() and not icon.exists()
