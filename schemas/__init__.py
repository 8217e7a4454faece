"""Bundled data: read with importlib.resources, not imported for code."""
