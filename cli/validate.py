"""``trackside validate TRACK... [--json]``: the validation report of track files
(and of variant files: a file whose ``format`` is a variant's is read as the game
reads it).

Text output: one line per issue, ``file:line:column: severity code: message``,
then one summary line per file. ``--json`` prints one JSON list with one
object per file, in the order given: the report of ``Report.to_dict()``
(``file``, ``ok``, ``errors``, ``warnings``, ``issues``) plus ``readable``;
a file that cannot be read has ``readable: false``, ``ok: false`` and its
problem in ``unreadable`` (``message``, ``line``, ``column``).

Exit code: 0 when no file has errors (warnings allowed), 1 when any has
errors, 2 when any cannot be read (the other files are still reported).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import TYPE_CHECKING, Any

from trackside.cli.terminal import say
from trackside.engine.errors import Place, TracksideError, shown
from trackside.engine.resources import resolve_track
from trackside.engine.text import plural

if TYPE_CHECKING:
    from trackside.cli import Subparsers
    from trackside.engine.track.validate import Issue, Report


def add_parser(subparsers: Subparsers) -> argparse.ArgumentParser:
    """The ``validate`` subcommand and its options."""
    parser = subparsers.add_parser(
        "validate",
        help="check track files and list every problem",
        description="Check track files against the schema and the track model; list every "
        "problem with its code, severity and place. Exit 0 when no file has "
        "errors, 1 when one has, 2 when one cannot be read.",
    )
    parser.add_argument(
        "tracks",
        nargs="+",
        metavar="TRACK",
        help="a track file (YAML) or a bundled circuit's name (harbour-loop)",
    )
    parser.add_argument(
        "--json", action="store_true", help="print one JSON list with a report per file"
    )
    return parser


def run(args: argparse.Namespace) -> int:
    """Validate every file given; the exit code covers the worst one."""
    entries: list[dict[str, Any]] = []
    code = 0
    for name in args.tracks:
        if _says_variant(name):
            code = max(code, _validate_variant(name, entries, args.json))
            continue
        try:
            report = _validate(name)
        except TracksideError as exc:
            code = 2
            entries.append(_unreadable(name, exc))
            if not args.json:
                say(exc)
                print(f"{name or repr(name)}: cannot be read")
            continue
        if not report.ok:
            code = max(code, 1)
        entries.append({"file": report.file, "readable": True, **report.to_dict()})
        if not args.json:
            _print_text(report)
    if args.json:
        json.dump(entries, sys.stdout, indent=2, ensure_ascii=False)
        sys.stdout.write("\n")
    return code


def _validate(name: str) -> Report:
    """The report of one file; a bug becomes an unreadable file, so that the
    other files are still checked and ``--json`` still prints its list."""
    from trackside.engine.track.validate import validate_file

    try:
        return validate_file(resolve_track(name))
    except TracksideError:
        raise
    except Exception as exc:
        if os.environ.get("TRACKSIDE_DEBUG"):
            raise
        raise TracksideError(
            f"internal error: {type(exc).__name__}: {shown(exc, 200, quote=False)}",
            Place(name),
            "please report it; set TRACKSIDE_DEBUG=1 to see details",
        ) from exc


def _says_variant(name: str) -> bool:
    """Whether the file says it is a variant (its ``format``)."""
    from trackside.engine.yamlio import declared_kind  # imports PyYAML: not for --help

    return declared_kind(name) == "variant"


def _validate_variant(name: str, entries: list[dict[str, Any]], as_json: bool) -> int:
    """Read a variant file as the game would (its schema, what it extends, its deck);
    0 when it reads, 1 with every problem it has (a line each)."""
    from trackside.engine.records import open_variant

    try:
        variant = open_variant(name)
    except TracksideError as exc:
        entries.append({**_unreadable(name, exc), "readable": True, "kind": "variant"})
        if not as_json:
            say(exc)
            print(f"{name}: a variant file with {plural(len(exc.lines()), 'problem')}")
        return 1
    notes = [{"severity": "note", "message": note} for note in variant.notes]
    entries.append(
        {
            "file": name,
            "readable": True,
            "kind": "variant",
            "ok": True,
            "errors": 0,
            "warnings": 0,
            "issues": notes,
        }
    )
    if not as_json:
        for note in variant.notes:
            print(f"{name}: note: {note}")
        print(f"{name}: ok (a variant file, {variant.name}: its rules read and checked)")
    return 0


def issue_line(issue: Issue) -> str:
    """``file:line:column: severity code: message``."""
    return f"{issue.where()}: {issue.severity} {issue.code}: {issue.message}"


def _print_text(report: Report) -> None:
    for issue in report.issues:
        print(issue_line(issue))
    if report.issues:
        print(report.summary())
    else:
        print(f"{report.file}: ok")


def _unreadable(name: str, exc: TracksideError) -> dict[str, Any]:
    text = exc.message + (f" ({exc.hint})" if exc.hint else "")
    return {
        "file": name,
        "readable": False,
        "ok": False,
        "errors": 0,
        "warnings": 0,
        "issues": [],
        "unreadable": {"message": text, "line": exc.place.line, "column": exc.place.column},
    }
