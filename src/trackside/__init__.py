"""Trackside: track editor and variant-rules toolkit for the board game Downforce.

The installed package holds the repository's top-level folders as subpackages:
``trackside.engine`` (pure Python, never Qt), ``trackside.editor`` (the PySide6
app) and the bundled data ``trackside.schemas``, ``trackside.tracks`` and
``trackside.variants``.
"""

import os

# Before anything of the package imports numpy: the engine's arrays are small, so
# one BLAS thread is as fast, and OpenBLAS's own threads cost more than they give.
# Starting them took a fifth of a short command's CPU time (`trackside validate`
# of 1,000 spaces: 0.27 s -> 0.21 s), and between calls they spin, taking CPU from
# the other worker on two cores: four strong bots, 1,000 games on two workers,
# 67 -> 58 s. Everything that plays games (the balance lab of the editor, its
# workers, the command line, the benchmarks) starts here.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

__version__ = "0.1.0"
