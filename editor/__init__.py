"""Trackside editor: the PySide6 desktop application.

Importing any editor module first guards against a PySide6 build that drops
references to None on Python 3.11 (see ``editor.qtfix``).
"""
from .qtfix import guard_none

guard_none()
