"""Trackside editor: the PySide6 desktop application."""
