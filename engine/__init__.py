"""Trackside engine: track model, geometry, validation, rules, bots and CLI.

Pure Python; never imports Qt. Its busiest modules run compiled when a fresh
build of them exists (``engine/native.py``).
"""

from trackside.engine import native

native.install()
