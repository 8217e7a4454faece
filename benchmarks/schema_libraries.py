#!/usr/bin/env python3
"""The quick schema check (``engine/schemafast.py``) against schema-compiling libraries.

On the circuits of ``validate_large.py`` (1,000 to 10,000 spaces, the track
schema, valid data): the CPU time of one check, best of ``--runs``, and of
making the checker; then whether each refuses what jsonschema with the
project's strict types refuses (1.0 or true where an integer is required,
true where a number is, a space id holding a character Python's ``\\s``
takes). The libraries are not dependencies: install them beside the project
to measure (``.venv/bin/pip install fastjsonschema jsonschema-rs``); those
missing are left out. Prints figures and asserts nothing. Run:
``python benchmarks/schema_libraries.py [--sizes 1000,5000,10000] [--runs 5]``.
"""

from __future__ import annotations

import argparse
import copy
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from editor_large import cpu, oval

from trackside.engine import schema
from trackside.engine.resources import load_schema
from trackside.engine.track.model import save_track
from trackside.engine.yamlio import load_yaml

Check = Callable[[Any], bool]


def timed(make: Callable[[], Check]) -> tuple[Check, float]:
    """What ``make`` returns, and the CPU seconds it took."""
    start = time.process_time()
    made = make()
    return made, time.process_time() - start


class StrictInteger:
    """A jsonschema-rs keyword: an integer must be written as one (1.0 is refused)."""

    def __init__(self, _parent_schema: object, _value: object, _schema_path: object) -> None:
        pass

    def validate(self, instance: object) -> None:
        if type(instance) is not int:
            raise ValueError(f"{instance!r} is not a whole number")


def strict_integers(node: Any) -> Any:
    """The schema with ``strictInteger`` beside every integer type."""
    if isinstance(node, list):
        return [strict_integers(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: strict_integers(value) for key, value in node.items()}
    kind = node.get("type")
    if kind == "integer" or (isinstance(kind, list) and "integer" in kind):
        out["strictInteger"] = True
    return out


def checkers() -> dict[str, tuple[Check, float]]:
    """Each checker of the track schema that can be made here, and its making time."""
    track = load_schema("track")
    schema._quick_check.cache_clear()
    found = {"engine/schemafast.py": timed(lambda: schema._quick_check("track"))}
    try:
        import fastjsonschema
    except ImportError:
        print("fastjsonschema is not installed: left out")
    else:

        def fast() -> Check:
            validate = fastjsonschema.compile(track)

            def check(data: Any) -> bool:
                try:
                    validate(data)
                except fastjsonschema.JsonSchemaException:
                    return False
                return True

            return check

        found["fastjsonschema"] = timed(fast)
    try:
        import jsonschema_rs
    except ImportError:
        print("jsonschema-rs is not installed: left out")
    else:
        found["jsonschema-rs"] = timed(lambda: jsonschema_rs.validator_for(track).is_valid)
        found["jsonschema-rs, strict integers"] = timed(
            lambda: (
                jsonschema_rs.validator_for(
                    strict_integers(track), keywords={"strictInteger": StrictInteger}
                ).is_valid
            )
        )
    return found


def refusals(data: dict[str, Any]) -> dict[str, Callable[[dict[str, Any]], None]]:
    """Changes that jsonschema with the project's strict types refuses."""

    def space_id(value: str) -> Callable[[dict[str, Any]], None]:
        def change(d: dict[str, Any]) -> None:
            old = d["spaces"][0]["id"]
            d["spaces"][0]["id"] = value
            d["start_grid"] = [value if g == old else g for g in d["start_grid"]]

        return change

    return {
        "lane 1.0": lambda d: d["spaces"][0].__setitem__("lane", 1.0),
        "lane true": lambda d: d["spaces"][0].__setitem__("lane", True),
        "corner x true": lambda d: d["spaces"][0]["corners"][0].__setitem__(0, True),
        "tolerance false": lambda d: d.__setitem__("tolerance", False),
        "space id a\\x1cb": space_id("a\x1cb"),
        "space id a\\x85b": space_id("a\x85b"),
    }


def safely(check: Check, data: Any) -> bool | str:
    try:
        return check(data)
    except Exception as exc:  # a library that cannot take the data at all
        return type(exc).__name__


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,5000,10000")
    parser.add_argument("--runs", type=int, default=5, help="timed runs (the best is shown)")
    args = parser.parse_args(argv)
    found = checkers()
    print(f"Python {sys.version.split()[0]}, CPU milliseconds, best of {args.runs} runs")
    print(f"{'checker':<32}" + "".join(f"{int(s):>10,}" for s in args.sizes.split(",")) + "   made")
    tracks = []
    with tempfile.TemporaryDirectory() as tmp:
        for size in (int(s) for s in args.sizes.split(",")):
            path = Path(tmp) / f"oval-{size}.yaml"
            save_track(oval(size), path)
            tracks.append(load_yaml(path).data)
    for name, (check, making) in found.items():
        times = []
        for data in tracks:
            if safely(check, data) is not True:
                raise SystemExit(f"{name} refuses a valid circuit")
            times.append(cpu(lambda check=check, data=data: check(data), args.runs))
        row = "".join(f"{t * 1000:10.1f}" for t in times)
        print(f"{name:<32}{row}   {making * 1000:.1f}")
    print("\nrefused as jsonschema with strict types refuses?")
    for change_name, change in refusals(tracks[0]).items():
        data = copy.deepcopy(tracks[0])
        change(data)
        assert schema.check("track", data), change_name
        verdicts = []
        for name, (check, _making) in found.items():
            answer = safely(check, data)
            verdict = "PASSES" if answer is True else "refused" if answer is False else answer
            verdicts.append(f"{name}: {verdict}")
        print(f"  {change_name:<18} " + "; ".join(verdicts))
    return 0


if __name__ == "__main__":
    sys.exit(main())
