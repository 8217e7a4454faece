"""Docks and dialogs around the canvas: inspector, issues, lanes, movement, export.

Each panel is given the objects it works on (document, scene, a tool); the
main window is the only place that puts them together.
"""
