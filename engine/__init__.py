"""Trackside engine: track model, geometry, validation, rules, bots and CLI.

Pure Python; never imports Qt.
"""
