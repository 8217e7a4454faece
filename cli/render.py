"""``trackside render TRACK -o FILE``: a picture (PNG, SVG) or a true-scale PDF of a track.

Qt is needed only here, so the drawing code (``editor.canvas.render``) is loaded
inside ``run``: every other command works without it.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from trackside.engine.errors import Place, TracksideError
from trackside.engine.resources import resolve_track
from trackside.engine.writer import refuse_replacing_inputs

if TYPE_CHECKING:
    from trackside.cli import Subparsers
    from trackside.engine.track.model import Track
    from trackside.engine.yamlio import YamlDocument

FORMATS = (".png", ".svg", ".pdf")
PAPERS = ("a4", "letter", "a3")
# Validation errors after which there is nothing sensible to draw.
UNDRAWABLE = frozenset({"space-size"})
SHOWN = 20  # problems listed before the rest are counted


def add_parser(subparsers: Subparsers) -> argparse.ArgumentParser:
    """The ``render`` subcommand and its options."""
    parser = subparsers.add_parser(
        "render",
        help="draw a track as PNG, SVG or a true-scale PDF",
        description="Draw a track as a PNG or SVG picture, or as a PDF that prints at true "
        "scale: one page the size of the board, or tiled over paper pages.",
    )
    parser.add_argument(
        "track",
        metavar="TRACK",
        help="a track file (YAML) or a bundled circuit's name (harbour-loop)",
    )
    parser.add_argument(
        "-o",
        "--output",
        required=True,
        metavar="FILE",
        help="output file; the suffix .png, .svg or .pdf chooses the format",
    )
    parser.add_argument(
        "--heatmap",
        metavar="REPORT",
        help="tint the spaces from a balance report (simulate --report FILE.json)",
    )
    parser.add_argument(
        "--heat",
        choices=("ends", "blocked"),
        default="ends",
        help="with --heatmap: where moves end (default) or where they end blocked",
    )
    parser.add_argument(
        "--paper",
        choices=PAPERS,
        help="PDF only: tile the board over pages of this paper, with overlap and cut marks",
    )
    parser.add_argument(
        "--dpi",
        type=int,
        default=None,
        metavar="N",
        help="PNG resolution in dots per inch (default 100)",
    )
    parser.add_argument("--no-ids", action="store_true", help="leave out the space ids")
    parser.add_argument(
        "--no-title",
        action="store_true",
        help="leave out the name plate and scale bar below the board",
    )
    parser.add_argument(
        "--no-grass",
        action="store_true",
        help="leave out the green striped grass background: the board on white paper, "
        "saving ink (true scale, lines, labels and cut marks unchanged)",
    )
    parser.add_argument(
        "--racing-line",
        action="store_true",
        help="draw the racing line (centerline) with direction arrows",
    )
    return parser


def run(args: argparse.Namespace) -> int:
    """Render the track; 0 on success, 1 if it is invalid beyond drawing (its schema,
    its scale), 2 if unusable."""
    from trackside.engine.track.model import read_track_document

    output = Path(args.output)
    if output.suffix.lower() not in FORMATS:
        raise TracksideError(
            f"cannot tell the format from the suffix '{output.suffix}'",
            Place(str(output)),
            "use .png, .svg or .pdf",
        )
    if args.paper and output.suffix.lower() != ".pdf":
        raise TracksideError("--paper applies only to PDF output", Place(str(output)))
    if args.dpi is not None and output.suffix.lower() != ".png":
        raise TracksideError("--dpi applies only to PNG output", Place(str(output)))
    source = resolve_track(args.track)
    refuse_replacing_inputs(
        [("--output", output)], [("the track", source), ("the balance report", args.heatmap)]
    )
    track, doc, problems = read_track_document(source)
    if track is None:
        _print_capped([f"trackside: {p}" for p in problems], args.track)
        return 1
    if not _drawable(track, doc):
        return 1
    try:
        from trackside.editor.canvas import render as drawing
    except ImportError as exc:
        raise TracksideError(
            f"rendering needs PySide6, which cannot be loaded ({exc})",
            Place(str(output)),
            "install trackside with its dependencies",
        ) from None
    options = {
        "paper": args.paper,
        "show_ids": not args.no_ids,
        "show_racing_line": args.racing_line,
        "title": not args.no_title,
        "grass": not args.no_grass,
    }
    if args.dpi is not None:
        options["dpi"] = args.dpi
    if args.heatmap:
        options["heat"] = _heat(args.heatmap, args.heat, track)
    result = drawing.render(track, output, **options)
    size = f"{result.page_size_mm[0]:.1f} x {result.page_size_mm[1]:.1f} mm"
    pages = f"{result.pages} pages of {size}" if result.pages > 1 else size
    print(f"wrote {output} ({result.format.upper()}, {pages})")
    return 0


def _drawable(track: Track, doc: YamlDocument) -> bool:
    """Validation errors do not stop a render, but the designer should know; a
    board at the wrong scale cannot be drawn (or takes minutes to fail)."""
    from trackside.engine.track.validate import ERROR, validate_track

    report = validate_track(track, doc)
    errors = [issue for issue in report.issues if issue.severity == ERROR]
    fatal = [issue for issue in errors if issue.code in UNDRAWABLE]
    kind = "error" if fatal else "warning"
    _print_capped(
        [f"trackside: {kind}: {i.where()}: {i.message} [{i.code}]" for i in fatal or errors],
        report.file or "",
    )
    if fatal:
        print(f"trackside: {report.file}: cannot draw this track; fix it first", file=sys.stderr)
        return False
    if errors:
        print(f"trackside: warning: {report.summary()}; rendering anyway", file=sys.stderr)
    return True


def _print_capped(lines: list[str], track: str) -> None:
    """The first ``SHOWN`` problems on stderr; ``validate`` lists them all."""
    for line in lines[:SHOWN]:
        print(line, file=sys.stderr)
    if len(lines) > SHOWN:
        print(
            f"trackside: … and {len(lines) - SHOWN} more (trackside validate {track} lists all)",
            file=sys.stderr,
        )


def _heat(path: str, mode: str, track: Track) -> tuple[dict[str, float], str]:
    """The per-space values of a saved balance report, and the legend's title."""
    from trackside.engine.balance.report import HEAT_TITLES, read_report

    report = read_report(path)
    if report.track != track.name:
        print(
            f"trackside: warning: {path}: the report is for {report.track!r}, "
            f"this track is {track.name!r}",
            file=sys.stderr,
        )
    return report.heat_values(mode), HEAT_TITLES[mode]
