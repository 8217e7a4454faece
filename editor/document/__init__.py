"""The open track: its model wrapper, undo commands, autosave and files.

Imports no widgets: everything here works without a window, so the canvas,
the tools and the panels can all build on it.
"""
