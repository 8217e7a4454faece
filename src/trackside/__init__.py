"""Trackside: track editor and variant-rules toolkit for the board game Downforce.

The installed package holds the repository's top-level folders as subpackages:
``trackside.engine`` (pure Python, never Qt), ``trackside.editor`` (the PySide6
app) and the bundled data ``trackside.schemas``, ``trackside.tracks`` and
``trackside.variants``.
"""

__version__ = "0.1.0"
