"""Install (or remove) Trackside's freedesktop menu entry and icon.

``make install-desktop`` runs ``install --prefix ~/.local``: it writes
``share/applications/trackside.desktop``, whose Exec line starts this
environment's ``trackside edit``, and the icon as
``share/icons/hicolor/scalable/apps/trackside.svg``. ``uninstall`` removes both.
Linux and other freedesktop desktops only; macOS and Windows use their own
launchers.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

ENTRY = "trackside.desktop"
ICON = "trackside.svg"
ICON_SOURCE = Path(__file__).resolve().parent.parent / "editor" / "resources" / ICON


def desktop_entry(command: Path) -> str:
    """The text of the .desktop file, starting ``command edit FILE``."""
    exec_line = f'"{command}" edit %f' if " " in str(command) else f"{command} edit %f"
    return "\n".join(
        [
            "[Desktop Entry]",
            "Type=Application",
            "Version=1.5",
            "Name=Trackside",
            "GenericName=Race Circuit Editor",
            "Comment=Draw, check, print and play circuits for the board game Downforce",
            f"Exec={exec_line}",
            "TryExec=" + str(command),
            "Icon=trackside",
            "Terminal=false",
            "Categories=Game;BoardGame;Graphics;",
            "Keywords=Downforce;race;track;circuit;board game;",
            "MimeType=application/yaml;application/x-yaml;",
            "StartupWMClass=trackside",
            "",
        ]
    )


def paths(prefix: Path) -> tuple[Path, Path]:
    """Where the entry and the icon go under ``prefix``."""
    share = prefix / "share"
    return share / "applications" / ENTRY, share / "icons" / "hicolor" / "scalable" / "apps" / ICON


def install(prefix: Path, command: Path) -> list[Path]:
    """Write the entry and the icon; returns the files written."""
    # Imported here: uninstall runs with any Python, without Trackside installed.
    from trackside.engine.writer import write_bytes, write_text

    entry, icon = paths(prefix)
    entry.parent.mkdir(parents=True, exist_ok=True)
    icon.parent.mkdir(parents=True, exist_ok=True)
    write_text(entry, desktop_entry(command), "the desktop entry")
    write_bytes(icon, ICON_SOURCE.read_bytes(), "the icon")
    _refresh(entry.parent)
    return [entry, icon]


def uninstall(prefix: Path) -> list[Path]:
    """Remove the entry and the icon; returns the files removed."""
    removed = [p for p in paths(prefix) if p.exists()]
    for path in removed:
        path.unlink()
    return removed


def _refresh(applications: Path) -> None:
    """Let the menu notice the new entry at once, where the desktop offers the tool."""
    tool = shutil.which("update-desktop-database")
    if tool:
        subprocess.run([tool, str(applications)], check=False, capture_output=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("action", choices=["install", "uninstall"])
    parser.add_argument("--prefix", type=Path, default=Path.home() / ".local")
    parser.add_argument(
        "--command",
        type=Path,
        default=Path(sys.executable).parent / "trackside",
        help="the trackside command the entry starts (default: this environment's)",
    )
    args = parser.parse_args(argv)
    if args.action == "install":
        done = install(args.prefix, args.command.absolute())
        print("installed " + ", ".join(str(p) for p in done))
    else:
        done = uninstall(args.prefix)
        print("removed " + (", ".join(str(p) for p in done) or "nothing"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
