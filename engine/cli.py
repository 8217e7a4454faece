"""The ``trackside`` command: one subcommand per module in ``engine.commands``.

Exit codes (docs/design.md): 0 success, 1 input understood but invalid (or the
check failed), 2 input unreadable or wrong arguments. User errors are one line
per problem on stderr, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys

from trackside import __version__
from trackside.engine.errors import TracksideError

# Each module defines ``add_parser(subparsers)`` and ``run(args) -> int``.
COMMANDS = ["edit", "validate", "moves", "render", "play", "replay", "simulate"]


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every available subcommand."""
    parser = argparse.ArgumentParser(
        prog="trackside", description="Track editor and variant-rules toolkit for Downforce."
    )
    parser.add_argument("--version", action="version", version=f"trackside {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        try:
            module = importlib.import_module(f"trackside.engine.commands.{name}")
        except ModuleNotFoundError as exc:
            if exc.name == f"trackside.engine.commands.{name}":
                continue
            raise
        sub_parser = module.add_parser(sub)
        sub_parser.set_defaults(run=module.run)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; returns the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "run", None):
        parser.print_help(sys.stderr)
        return 2
    try:
        return int(args.run(args) or 0)
    except TracksideError as exc:
        print(f"trackside: {exc}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print("trackside: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except Exception as exc:  # a bug: still no traceback for the user
        if os.environ.get("TRACKSIDE_DEBUG"):
            raise
        print(
            f"trackside: internal error: {type(exc).__name__}: {exc} "
            "(please report it; set TRACKSIDE_DEBUG=1 to see details)",
            file=sys.stderr,
        )
        return 2


if __name__ == "__main__":
    sys.exit(main())
