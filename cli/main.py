"""The ``trackside`` command: one subcommand per module of this package.

Exit codes (docs/design.md): 0 success, 1 input understood but invalid (or the
check failed), 2 input unreadable, an output that cannot be written, or wrong
arguments; 130 when stopped with Ctrl-C. User errors are one line per problem on
stderr, never a traceback; text output shows escaped what a terminal would act on
(``cli.terminal``).

Only the module of the subcommand given is imported (the others are listed by
their summary below), so ``trackside --help`` loads none of them.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import TYPE_CHECKING

from trackside import __version__
from trackside.cli.terminal import safe_output, say
from trackside.engine import native
from trackside.engine.errors import TracksideError, shown

if TYPE_CHECKING:
    from trackside.cli import Subparsers

# Each subcommand and its one-line summary, as its module's ``add_parser`` gives it.
COMMANDS: dict[str, str] = {
    "edit": "open the track editor",
    "validate": "check track files and list every problem",
    "diff": "list the spaces added, removed and moved between two tracks",
    "moves": "list the legal moves of a car",
    "render": "draw a track as PNG, SVG or a true-scale PDF",
    "play": "play a game in the terminal against bots",
    "replay": "re-run a game record and print the result",
    "simulate": "play many bot games and report statistics",
    "suggest": "try candidate fixes of a circuit by simulation and rank them",
    "sweep": "measure a grid of variant values and circuits by simulation",
}


def chosen_command(argv: Sequence[str]) -> str | None:
    """The subcommand named on the command line, if any (the first word that is
    no option: the top-level options take no value)."""
    for word in argv:
        if word == "--":
            return None
        if not word.startswith("-"):
            return word if word in COMMANDS else None
    return None


def build_parser(argv: Sequence[str] = ()) -> argparse.ArgumentParser:
    """The argument parser: every subcommand listed, the one named in ``argv``
    (if any) with all of its options."""
    parser = argparse.ArgumentParser(
        prog="trackside", description="Track editor and variant-rules toolkit for Downforce."
    )
    parser.add_argument(
        "--version",
        action="version",
        version=f"trackside {__version__}; engine {native.status()}",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    chosen = chosen_command(argv)
    for name, summary in COMMANDS.items():
        if name == chosen:
            add_command(sub, name)
        else:
            sub.add_parser(name, help=summary, add_help=False)
    return parser


def command_module(name: str) -> ModuleType:
    """The module of one subcommand, imported only when asked for (plain imports, so
    the import contracts and a reader see them)."""
    if name == "edit":
        from trackside.cli import edit

        return edit
    if name == "validate":
        from trackside.cli import validate

        return validate
    if name == "diff":
        from trackside.cli import diff

        return diff
    if name == "moves":
        from trackside.cli import moves

        return moves
    if name == "render":
        from trackside.cli import render

        return render
    if name == "play":
        from trackside.cli import play

        return play
    if name == "replay":
        from trackside.cli import replay

        return replay
    if name == "simulate":
        from trackside.cli import simulate

        return simulate
    if name == "suggest":
        from trackside.cli import suggest

        return suggest
    if name == "sweep":
        from trackside.cli import sweep

        return sweep
    raise KeyError(name)


def add_command(sub: Subparsers, name: str) -> argparse.ArgumentParser:
    """Import the module of one subcommand and add its parser."""
    module = command_module(name)
    add_parser: Callable[[Subparsers], argparse.ArgumentParser] = module.add_parser
    sub_parser = add_parser(sub)
    sub_parser.set_defaults(run=module.run)
    return sub_parser


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; returns the exit code."""
    words = sys.argv[1:] if argv is None else argv
    parser = build_parser(words)
    # Words the command does not take are ours to explain (argparse would show the
    # top-level usage): a circuit given without --track, an option of another command.
    args, known_not = parser.parse_known_args(words)
    leftover = [w for w in known_not if w != "--"]  # "--" ends the options: no word itself
    if not getattr(args, "run", None) and not leftover:
        parser.print_help(sys.stderr)
        return 2
    # Text for a terminal is escaped where a file's text would steer it; JSON stays data.
    with safe_output(enabled=not getattr(args, "json", False) and args.command != "edit"):
        return _run(args, words, leftover)


def _run(args: argparse.Namespace, words: Sequence[str], leftover: list[str]) -> int:
    """Run the chosen subcommand; every failure becomes its exit code and one line
    per problem."""
    try:
        if leftover:
            from trackside.cli.stray_words import leftover_error

            raise leftover_error(args, words, leftover)
        return int(args.run(args) or 0)
    except TracksideError as exc:
        say(exc)
        if getattr(args, "json", False):  # --json promises JSON on stdout, errors included
            print(json.dumps(exc.to_dict(), indent=2))
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
            f"trackside: internal error: {type(exc).__name__}: {shown(exc, 200, quote=False)} "
            "(please report it; set TRACKSIDE_DEBUG=1 to see details)",
            file=sys.stderr,
        )
        return 2


def launch_editor() -> int:
    """The ``trackside-editor`` launcher: ``trackside edit --in-window`` with this process's
    arguments. The desktop starts it without a terminal (its entry says Terminal=false),
    so a file it cannot open is shown in a dialog over the start page, not on stderr alone."""
    return main(["edit", "--in-window", *sys.argv[1:2]])


if __name__ == "__main__":
    sys.exit(main())
