"""Mutated tracks, variants and records fed to every command in-process: each gets a
clear answer (exit 0, 1 or 2, one message), never a traceback or an "internal error",
and ``--json`` always prints JSON.

Mutations are those users and their tools produce: a value of another type, a key
dropped, a list item duplicated or cut, a number scaled far up or down, an explicit
YAML tag. Cases the fuzzer found are kept in ``tests/fixtures/fuzz`` and re-run here.
"""

from __future__ import annotations

import copy
import json
import math
from pathlib import Path
from typing import Any

import pytest
import yaml
from depth import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from repo_paths import FIXTURES, ROOT

from trackside.cli.main import main

TRACK = FIXTURES / "valid-loop.yaml"
VARIANT = ROOT / "variants" / "standard.yaml"
RECORD = FIXTURES / "records" / "auction-example.yaml"
CORPUS = FIXTURES / "fuzz"

ODD_VALUES: list[Any] = [
    None,
    True,
    0,
    -1,
    1.5,
    0.0,
    10**30,
    math.nan,
    math.inf,
    "",
    "x" * 5000,
    [],
    {},
    [[]],
    {"a": 1},
]


def paths(data: Any, prefix: tuple = ()) -> list[tuple]:
    """Every place in a YAML tree, as a tuple of keys and indices."""
    found = [prefix]
    if isinstance(data, dict):
        for key, value in data.items():
            found += paths(value, (*prefix, key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            found += paths(value, (*prefix, index))
    return found


def parent_of(data: Any, place: tuple) -> Any:
    for key in place[:-1]:
        data = data[key]
    return data


@st.composite
def mutated(draw: st.DrawFn, original: Any) -> Any:
    """``original`` with one to three mutations."""
    data = copy.deepcopy(original)
    for _ in range(draw(st.integers(1, 3))):
        places = [p for p in paths(data) if p]
        if not places:
            break
        place = draw(st.sampled_from(places))
        holder, key = parent_of(data, place), place[-1]
        kind = draw(st.sampled_from(["replace", "drop", "duplicate", "truncate", "scale"]))
        value = holder[key]
        if kind == "replace":
            holder[key] = draw(st.sampled_from(ODD_VALUES))
        elif kind == "drop":
            del holder[key]
        elif kind == "duplicate" and isinstance(holder, list):
            holder.insert(key, copy.deepcopy(value))
        elif kind == "truncate" and isinstance(value, list):
            holder[key] = value[: draw(st.integers(0, max(0, len(value) - 1)))]
        elif kind == "scale" and isinstance(value, int | float) and not isinstance(value, bool):
            holder[key] = value * draw(st.sampled_from([1e-4, 1e4, -1, 1.0]))
    return data


def tagged(text: str, draw_index: int) -> str:
    """Put an explicit standard tag in front of one scalar value of the text."""
    lines = text.splitlines()
    candidates = [i for i, line in enumerate(lines) if ": " in line and not line.endswith(":")]
    if not candidates:
        return text
    i = candidates[draw_index % len(candidates)]
    tag = ["!!binary", "!!timestamp", "!!bool", "!!float", "!!set"][draw_index % 5]
    head, _, value = lines[i].partition(": ")
    lines[i] = f"{head}: {tag} {value}"
    return "\n".join(lines) + "\n"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def assert_clear(code: int, out: str, err: str, json_output: bool = False) -> None:
    assert code in (0, 1, 2), (code, err[-500:])
    assert "internal error" not in err and "Traceback" not in err, err[-2000:]
    assert len(err) < 20_000  # messages shorten what they echo
    if json_output:
        json.loads(out)


def write(tmp: Path, name: str, data: Any, tag_at: int | None) -> Path:
    text = yaml.safe_dump(data, sort_keys=False, allow_unicode=True)
    if tag_at is not None:
        text = tagged(text, tag_at)
    path = tmp / name
    path.write_text(text, encoding="utf-8")
    return path


def fuzz(ci: int) -> settings:
    """Hypothesis settings: ``ci`` examples in ``make test``, ten times more when deep."""
    return settings(
        max_examples=examples(ci),
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )


TAG = st.one_of(st.none(), st.integers(0, 40))


@fuzz(8)
@given(data=mutated(yaml.safe_load(TRACK.read_text())), tag_at=TAG)
def test_mutated_tracks_get_clear_answers(tmp_path_factory, capsys, data, tag_at):
    tmp = tmp_path_factory.mktemp("track")
    track = str(write(tmp, "track.yaml", data, tag_at))
    code, out, err = run(capsys, "validate", track)
    assert_clear(code, out, err)
    assert_clear(*run(capsys, "validate", "--json", track), json_output=True)
    if code == 0:  # a track the validator passes must work in every command
        assert_clear(*run(capsys, "render", track, "-o", str(tmp / "board.svg")))
        assert_clear(*run(capsys, "moves", track, "--car", "red", "--spaces", "8"))
        result = run(capsys, "simulate", "--track", track, "--games", "1", "--json")
        assert_clear(*result, json_output=result[0] == 0)


@fuzz(12)
@given(data=mutated(yaml.safe_load(VARIANT.read_text())), tag_at=TAG)
def test_mutated_variants_get_clear_answers(tmp_path_factory, capsys, data, tag_at):
    tmp = tmp_path_factory.mktemp("variant")
    if isinstance(data, dict) and data.get("deck") == "decks/standard.yaml":
        data["deck"] = str(ROOT / "variants" / "decks" / "standard.yaml")  # found from tmp
    variant = str(write(tmp, "variant.yaml", data, tag_at))
    assert_clear(
        *run(capsys, "simulate", "--track", str(TRACK), "--variant", variant, "--games", "1")
    )


@fuzz(12)
@given(data=mutated(yaml.safe_load(RECORD.read_text())), tag_at=TAG)
def test_mutated_records_get_clear_answers(tmp_path_factory, capsys, data, tag_at):
    tmp = tmp_path_factory.mktemp("record")
    record = str(write(tmp, "record.yaml", data, tag_at))
    assert_clear(*run(capsys, "replay", record))
    assert_clear(*run(capsys, "replay", "--json", record))


def corpus(kind: str) -> list[Path]:
    return sorted((CORPUS / kind).glob("*.yaml"))


@pytest.mark.parametrize("path", corpus("tracks"), ids=lambda p: p.name)
def test_corpus_tracks(capsys, tmp_path, path):
    assert_clear(*run(capsys, "validate", str(path)))
    assert_clear(*run(capsys, "validate", "--json", str(path)), json_output=True)
    assert_clear(*run(capsys, "render", str(path), "-o", str(tmp_path / "board.png")))
    assert_clear(*run(capsys, "moves", str(path), "--car", "red", "--spaces", "8"))


@pytest.mark.parametrize("path", corpus("variants"), ids=lambda p: p.name)
def test_corpus_variants(capsys, path):
    argv = ["simulate", "--track", str(TRACK), "--variant", str(path), "--games", "1"]
    assert_clear(*run(capsys, *argv))
    assert_clear(*run(capsys, "play", "--track", str(TRACK), "--variant", str(path)))


@pytest.mark.parametrize("path", corpus("records"), ids=lambda p: p.name)
def test_corpus_records(capsys, path):
    assert_clear(*run(capsys, "replay", str(path)))
    assert_clear(*run(capsys, "replay", "--json", str(path)), json_output=True)
