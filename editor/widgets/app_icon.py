"""The application's icon, drawn from the SVG shipped in ``trackside.editor``'s resources."""

from __future__ import annotations

from functools import cache
from importlib import resources
from pathlib import Path

from PySide6.QtGui import QIcon


def icon_path() -> Path:
    """The SVG file of the application icon."""
    return Path(str(resources.files("trackside.editor") / "resources" / "trackside.svg"))


@cache
def app_icon() -> QIcon:
    """The application icon (window, task bar, About box)."""
    return QIcon(str(icon_path()))
