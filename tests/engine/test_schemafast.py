"""The quick schema check against jsonschema: it passes only data in which jsonschema
finds no violation, and it passes the files the repository ships."""

from __future__ import annotations

import copy
import json
import math
from typing import Any

import pytest
import yaml
from depth import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from repo_paths import FIXTURES, ROOT

from trackside.engine import schema
from trackside.engine.resources import load_schema
from trackside.engine.schemafast import compile_schema

TRACKS = sorted([*FIXTURES.glob("valid-*.yaml"), *(ROOT / "tracks").glob("*.yaml")])


def careful(name: str, data: Any) -> list[str]:
    """jsonschema's messages, the quick check bypassed."""
    validator = schema._validator(name)
    return [err.message for err in validator.iter_errors(data)]


def quick(name: str) -> Any:
    check = schema._quick_check(name)
    assert check is not None
    return check


@pytest.mark.parametrize("path", TRACKS, ids=lambda p: p.name)
def test_shipped_tracks_pass_quickly(path):
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert quick("track")(data)


@pytest.mark.parametrize(
    "path", sorted((FIXTURES / "invalid").glob("*.yaml")), ids=lambda p: p.name
)
def test_invalid_fixtures_agree(path):
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    if quick("track")(data):
        assert careful("track", data) == []


def test_a_schema_with_an_unknown_keyword_is_left_to_jsonschema():
    assert compile_schema({"type": "array", "uniqueItems": True}) is None
    assert compile_schema({"$ref": "#/$defs/x"}) is None
    assert compile_schema({"const": 1}) is None
    assert compile_schema({"type": "object", "required": ["a"]}) is not None


def test_parts_it_does_not_know_are_left_to_jsonschema():
    track = schema.inline_refs(load_schema("track"))
    parts: list[dict[str, Any]] = []

    def fallback(part: dict[str, Any]) -> Any:
        parts.append(part)
        return lambda _x: True

    assert compile_schema(track, fallback) is not None
    assert parts  # the lane layouts' pieces and renamed ids
    assert all("$ref" not in json.dumps(part) for part in parts)
    assert "spaces" not in json.dumps(parts)  # the big lists stay quick


@pytest.mark.parametrize(
    "pieces, valid",
    [
        ([{"straight": 200.0}, {"arc": 300.0, "turn": 90.0}], True),
        ([{"straight": 200.0, "arc": 300.0}], False),
        ([{"arc": 300.0}], False),
        ([{"straight": 200.0, "lanes": 2, "keep": "left"}], True),
        ([{"arc": 300.0, "turn": 90.0, "keep": "centre"}], True),
        ([{"straight": 200.0, "keep": "inner"}], False),
        ([{"straight": 200.0, "closes": True}, {"straight": 80.0, "closes": False}], True),
        ([{"arc": 300.0, "turn": 90.0, "closes": True}], False),
        ([{"straight": 200.0, "closes": "yes"}], False),
    ],
)
def test_lane_layouts_are_checked_alike(pieces, valid):
    data = yaml.safe_load((FIXTURES / "valid-loop.yaml").read_text(encoding="utf-8"))
    data["lane_layouts"] = [{"start": [0.0, 0.0], "heading": 0.0, "pieces": pieces}]
    assert quick("track")(data) is valid
    assert (careful("track", data) == []) is valid


@pytest.mark.parametrize(
    "space_id, valid",
    [("a1", True), ("a\x1cb", False), ("a\x1fb", False), ("a\x85b", False), ("a b", False)],
)
def test_space_ids_are_read_with_python_s_whitespace(space_id, valid):
    """Python's \\s, which jsonschema's patterns use, takes \\x1c-\\x1f and \\x85 too
    (a regex engine of another dialect passes them): the quick check agrees."""
    data = yaml.safe_load((FIXTURES / "valid-loop.yaml").read_text(encoding="utf-8"))
    data["spaces"][0]["id"] = space_id
    data["start_grid"] = [space_id if g == "a1" else g for g in data["start_grid"]]
    assert quick("track")(data) is valid
    assert (careful("track", data) == []) is valid


ODD: list[Any] = [
    None,
    True,
    False,
    0,
    -1,
    8,
    1.5,
    -0.0,
    10**7,
    -(10**7),
    1e-9,
    20,
    20.5,
    "",
    " ",
    "a b",
    "x" * 70,
    "x" * 201,
    "danger",
    "normal",
    "trackside-track/1",
    [],
    [0],
    [0, 0],
    [0, 0, 0],
    [[0, 0]] * 3,
    [[True, 0]] * 3,
    {},
    {"a": 1},
    math.pi,
]


def places(data: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix]
    if isinstance(data, dict):
        for key, value in data.items():
            found += places(value, (*prefix, key))
    elif isinstance(data, list):
        for index, value in enumerate(data[:3]):
            found += places(value, (*prefix, index))
    return found


SMALL = [yaml.safe_load(p.read_text(encoding="utf-8")) for p in FIXTURES.glob("valid-*.yaml")]


@st.composite
def mutated_tracks(draw: st.DrawFn) -> Any:
    data = copy.deepcopy(draw(st.sampled_from(SMALL)))
    for _ in range(draw(st.integers(1, 3))):
        place = draw(st.sampled_from(places(data)))
        holder = data
        for key in place[:-1]:
            holder = holder[key]
        kind = draw(st.sampled_from(["replace", "drop", "add"]))
        if not place:
            continue
        key = place[-1]
        if kind == "replace":
            holder[key] = copy.deepcopy(draw(st.sampled_from(ODD)))
        elif kind == "drop":
            del holder[key]
        elif isinstance(holder, dict):
            new_key = draw(st.sampled_from(["kind", "label", "extra", 1, None, "size", "angle"]))
            holder[new_key] = copy.deepcopy(draw(st.sampled_from(ODD)))
        else:
            holder.append(copy.deepcopy(draw(st.sampled_from(ODD))))
    return data


@settings(
    max_examples=examples(60),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(data=mutated_tracks())
def test_quick_pass_means_jsonschema_finds_nothing(data):
    if quick("track")(data):
        assert careful("track", data) == []
    else:
        assert careful("track", data) != []  # otherwise the quick check is needlessly slow
