"""Trackside engine: track model, geometry, validation, rules, bots and CLI.

Pure Python; never imports Qt.
"""

__version__ = "0.1.0"
