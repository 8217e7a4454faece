"""Subcommands of the ``trackside`` CLI, one module each.

Each module defines ``add_parser(subparsers)`` and ``run(args) -> int``. Setting
up the parser must stay cheap: a module imports what its command needs (YAML,
jsonschema, shapely, numpy, Qt) inside ``run``, so that ``trackside --help``
and ``trackside validate --help`` start at once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeAlias

if TYPE_CHECKING:
    import argparse

    # What ``add_parser`` is given (argparse's class is generic only in the stubs).
    Subparsers: TypeAlias = argparse._SubParsersAction[argparse.ArgumentParser]
