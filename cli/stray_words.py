"""Why words of a command line are not taken, and the command line that takes them.

A file given without its option is told the option by what the file says it is (its
``format:`` line): a circuit goes with ``--track``, a variant file with ``--variant``,
and a game record is continued with ``play --resume`` or re-run with ``replay``. An
option the command does not have names the command's help.
"""

from __future__ import annotations

import argparse
import os
import shlex
from collections.abc import Sequence

from trackside.engine.errors import Place, TracksideError
from trackside.engine.resources import YAML_SUFFIXES, resolve_track
from trackside.engine.yamlio import declared_kind, other_kind


def leftover_error(
    args: argparse.Namespace, words: Sequence[str], leftover: list[str]
) -> TracksideError:
    """Why the words ``leftover`` of the command line ``words`` are not taken: an option
    the command does not have, or a word without an option (a circuit, variant or game
    record where the command takes one with an option: the command line that gives it so)."""
    command = args.command
    usage = f"see trackside {command} --help" if command else "see trackside --help"
    options = [w for w in leftover if w.startswith("-") and w != "-"]
    if options:
        return TracksideError(
            f"{command or 'trackside'} has no such option", Place(options[0].split("=")[0]), usage
        )
    kinds = [_file_kind(word) for word in leftover]
    if getattr(args, "circuit_option", None) is None or None in kinds:
        return TracksideError(
            f"{command or 'trackside'} does not take this argument", Place(leftover[0]), usage
        )
    if "record" in kinds:
        return _record_error(command, words, leftover, leftover[kinds.index("record")])
    return _files_error(args, words, leftover, kinds)


def _file_kind(word: str) -> str | None:
    """What a stray word names: "record" or "variant" when the file says so, "track" for
    any other YAML file's name, file or bundled circuit's name, None for none of these."""
    kind = declared_kind(word)
    if kind in ("record", "variant"):
        return kind
    if word.endswith(YAML_SUFFIXES) or os.path.isfile(resolve_track(word)):
        return "track"
    return None


def _record_error(
    command: str, words: Sequence[str], leftover: list[str], record: str
) -> TracksideError:
    """A game record given as a circuit: ``play`` continues it with --resume (the
    command line that does, when the record is the only stray word), ``replay`` re-runs it."""
    message = other_kind("record", "track")
    if command == "play" and leftover == [record]:
        fixed = _with_options(words, [(record, "--resume")])
        return TracksideError(
            f"{message}: play continues a record with --resume", Place(record), _run_hint(fixed)
        )
    return TracksideError(
        message,
        Place(record),
        f"continue its game with: trackside play --resume {shlex.quote(record)}; "
        f"check its result with: trackside replay {shlex.quote(record)}",
    )


def _files_error(
    args: argparse.Namespace, words: Sequence[str], leftover: list[str], kinds: list[str | None]
) -> TracksideError:
    """Circuits and variant files given without their options: the command line that
    gives each with its own (one variant at most: a second is not guessed at)."""
    variants = [word for word, kind in zip(leftover, kinds, strict=True) if kind == "variant"]
    if len(variants) > 1:
        return TracksideError(
            f"{args.command} takes one variant (with --variant)",
            Place(variants[1]),
            f"give one of {', '.join(map(shlex.quote, variants))} with --variant",
        )
    option = {"track": args.circuit_option, "variant": "--variant"}
    fixed = _with_options(
        words, [(word, option[kind]) for word, kind in zip(leftover, kinds, strict=True) if kind]
    )
    tracks = len(leftover) - len(variants)
    said = [f"{'the circuit' if tracks == 1 else 'each circuit'} with {args.circuit_option}"]
    said = (said if tracks else []) + (["the variant with --variant"] if variants else [])
    return TracksideError(
        f"{args.command} takes {' and '.join(said)}", Place(leftover[0]), _run_hint(fixed)
    )


def _with_options(words: Sequence[str], strays: list[tuple[str, str]]) -> list[str]:
    """The command line ``words`` with an option put before each stray word, as
    ``strays`` pairs them in order (matched from the end, as argparse left them in order)."""
    fixed, end = list(words), len(words)
    for stray, option in reversed(strays):
        end = max(i for i in range(end) if fixed[i] == stray)
        fixed.insert(end, option)
    return fixed


def _run_hint(words: list[str]) -> str:
    """The fix: run this command line."""
    return "run: trackside " + shlex.join(w for w in words if w != "--")
