"""``trackside moves TRACK --at COLOUR=SPACE ... --car COLOUR --spaces N [--json]``.

Lists the legal moves of one car with the other cars in place (R-MOVE-1..5,
R-FIN-1): every distinct path, as the spaces entered in order. JSON output:
``{"moves": [["s4", "s5"], ...], "outcomes": [...]}``: ``moves`` sorted; each
entry of ``outcomes`` (same order) has the ``path`` and whether the move
``finished`` (R-FIN-1) or stopped ``blocked`` short (R-MOVE-4).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING

from trackside.cli.validate import issue_line
from trackside.engine.errors import Place, TracksideError, shown
from trackside.engine.resources import resolve_track
from trackside.engine.text import noun, plural

if TYPE_CHECKING:
    from trackside.cli import Subparsers
    from trackside.engine.track.geometry import TrackGeometry
    from trackside.engine.track.movement import Move

COLOURS = ("black", "blue", "green", "yellow", "orange", "red")
MAX_SPACES = 20
# Paths multiply with every space (three lanes: up to 3**N); past this many the
# list would take minutes and gigabytes, so it is refused after counting them.
MAX_LISTED = 10_000
SHOWN_ERRORS = 5


def add_parser(subparsers: Subparsers) -> argparse.ArgumentParser:
    """The ``moves`` subcommand and its options."""
    parser = subparsers.add_parser(
        "moves",
        help="list the legal moves of a car",
        description="List every legal move of one car moving N spaces with the "
        "other cars in place: each path of spaces entered.",
    )
    parser.add_argument(
        "track",
        metavar="TRACK",
        help="a track file (YAML) or a bundled circuit's name (harbour-loop)",
    )
    parser.add_argument(
        "--at",
        action="append",
        default=[],
        metavar="COLOUR=SPACE",
        help="place a car, e.g. --at red=a4 (repeat for each car)",
    )
    parser.add_argument(
        "--car",
        required=True,
        metavar="COLOUR",
        help=f"the car that moves, one of {', '.join(COLOURS)}",
    )
    parser.add_argument(
        "--spaces",
        required=True,
        type=int,
        metavar="N",
        help=f"how far it moves, 1 to {MAX_SPACES}",
    )
    parser.add_argument("--json", action="store_true", help="print the moves as JSON")
    return parser


def run(args: argparse.Namespace) -> int:
    """Print the legal moves; 1 if the track is invalid, 2 for bad arguments."""
    from trackside.engine.track.geometry import TrackGeometry
    from trackside.engine.track.model import read_track_document
    from trackside.engine.track.movement import MoveGraph
    from trackside.engine.track.validate import ERROR, validate_track

    car = _colour(args.car, "--car")
    if not 1 <= args.spaces <= MAX_SPACES:
        raise TracksideError(
            f"cannot move {args.spaces} spaces; give 1 to {MAX_SPACES}", Place("--spaces")
        )
    placed = _placements(args.at)
    track, doc, problems = read_track_document(resolve_track(args.track))
    if track is None:
        _print_errors([str(p) for p in problems], args.track)
        return 1
    geometry = TrackGeometry(track)
    report = validate_track(track, doc, geometry)
    if not report.ok:
        _print_errors([issue_line(i) for i in report.issues if i.severity == ERROR], args.track)
        return 1
    where = _indices(placed, geometry)
    if car not in where:
        raise TracksideError(
            f"the {car} car is not on the track", Place("--car"), f"place it with --at {car}=SPACE"
        )
    start = where[car]
    occupied = {i for colour, i in where.items() if colour != car}
    graph = MoveGraph(geometry)
    total = graph.count_moves(start, args.spaces, occupied)
    if total > MAX_LISTED:
        raise TracksideError(
            f"the {car} car has {plural(total, 'legal path', spec=',')} of "
            f"{plural(args.spaces, 'space')} from "
            f"{geometry.ids[start]}, too many to list (at most {MAX_LISTED:,})",
            Place("--spaces"),
            "give fewer spaces, or place other cars in the way",
        )
    moves = graph.moves(start, args.spaces, occupied)
    moves.sort(key=lambda m: [geometry.ids[i] for i in m.path])
    if args.json:
        _print_json(moves, geometry)
    else:
        _print_text(moves, geometry, car, geometry.ids[start], args.spaces)
    return 0


def _colour(text: str, option: str) -> str:
    colour = text.strip().lower()
    if colour not in COLOURS:
        raise TracksideError(
            f"unknown colour {shown(text)}", Place(option), f"colours are {', '.join(COLOURS)}"
        )
    return colour


def _placements(items: list[str]) -> dict[str, str]:
    """Colour -> space id from the --at options, refusing repeats."""
    placed: dict[str, str] = {}
    taken: dict[str, str] = {}
    for item in items:
        where = Place(f"--at {shown(item, quote=False)}")
        colour, sep, space = item.partition("=")
        if not sep or not space.strip():
            raise TracksideError("expected COLOUR=SPACE", where, "for example --at red=a4")
        colour, space = _colour(colour, str(where)), space.strip()
        if colour in placed:
            raise TracksideError(f"the {colour} car is placed twice", where)
        if space in taken:
            raise TracksideError(
                f"space {shown(space, quote=False)} already holds the {taken[space]} car",
                where,
                "one car per space",
            )
        placed[colour] = space
        taken[space] = colour
    return placed


def _indices(placed: dict[str, str], geometry: TrackGeometry) -> dict[str, int]:
    from trackside.engine.track.geometry import FINISH

    where = {}
    for colour, space in placed.items():
        if space not in geometry.index:
            raise TracksideError(
                f"no space {shown(space)} on this track",
                Place(f"--at {colour}={shown(space, quote=False)}"),
                "use a space id from the track file",
            )
        i = geometry.index[space]
        if geometry.beyond[FINISH][i]:
            raise TracksideError(
                f"space {space} is beyond the finish line, where no car "
                "stands: a car that gets there finishes and leaves the track",
                Place(f"--at {colour}={space}"),
            )
        where[colour] = i
    return where


def _print_errors(lines: list[str], track: str) -> None:
    print(
        f"trackside: {track}: the track is invalid ({len(lines)} "
        f"{noun(len(lines), 'error')}); fix it first",
        file=sys.stderr,
    )
    for line in lines[:SHOWN_ERRORS]:
        print(f"trackside: {line}", file=sys.stderr)
    if len(lines) > SHOWN_ERRORS:
        print(
            f"trackside: ... and {len(lines) - SHOWN_ERRORS} more; run "
            f"'trackside validate {track}'",
            file=sys.stderr,
        )


def _print_json(moves: list[Move], geometry: TrackGeometry) -> None:
    paths = [[geometry.ids[i] for i in m.path] for m in moves]
    outcomes = [
        {"path": p, "finished": m.finished, "blocked": m.blocked}
        for p, m in zip(paths, moves, strict=False)
    ]
    # One move per line: readable, and still one JSON document.
    body = ",\n".join(f"    {json.dumps(p)}" for p in paths)
    more = ",\n".join(f"    {json.dumps(o)}" for o in outcomes)
    sys.stdout.write(
        '{\n  "moves": [' + (f"\n{body}\n  " if paths else "") + "],\n"
        '  "outcomes": [' + (f"\n{more}\n  " if outcomes else "") + "]\n}\n"
    )


def _print_text(moves: list[Move], geometry: TrackGeometry, car: str, start: str, n: int) -> None:
    if not moves:
        print(f"{car} on {start}, moving {n}: no legal move: the car stays on {start}")
        return
    print(f"{car} on {start}, moving {n}: {plural(len(moves), 'legal move')}")
    for m in moves:
        text = " ".join(geometry.ids[i] for i in m.path)
        if m.finished:
            text += "  (finishes)"
        elif m.blocked:
            text += f"  (blocked after {len(m.path)}: no free space ahead)"
        print(f"  {text}")
