"""The fast YAML reader against the careful one: on every text it takes, the same
data (same types, same key order) and the same positions; what it does not take,
it leaves to the careful reader (which words the problem)."""

from __future__ import annotations

import math
from typing import Any

import pytest
import yaml
from depth import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from repo_paths import FIXTURES, ROOT

from trackside.engine import yamlio
from trackside.engine.errors import UnreadableInput
from trackside.engine.yamlfast import GIVE_UP, read_plain


def same(a: Any, b: Any) -> bool:
    """Equal, and of the same types all the way down (1 is not 1.0 nor True)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, float):
        return math.copysign(1, a) == math.copysign(1, b) and a == b
    return bool(a == b)


def fast(text: str) -> tuple[Any, dict[Any, tuple[int, int]]]:
    positions: dict[Any, tuple[int, int]] = {}
    data = read_plain(text, yamlio.MAX_DEPTH, yamlio.MAX_NODES, positions)
    return data, positions


def assert_agrees(text: str) -> bool:
    """The fast reader agrees with the careful one; True when it took the text."""
    data, positions = fast(text)
    if data is GIVE_UP:
        return False
    careful = yamlio.parse_yaml_carefully(text, "t.yaml")  # must not raise
    assert same(data, careful.data), text[:300]
    assert positions == careful.positions, text[:300]
    assert same(read_plain(text, yamlio.MAX_DEPTH, yamlio.MAX_NODES), data)
    return True


FILES = sorted(
    [
        *FIXTURES.rglob("*.yaml"),
        *(ROOT / "tracks").glob("*.yaml"),
        *(ROOT / "variants").rglob("*.yaml"),
    ]
)


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_repository_files_read_alike(path):
    assert_agrees(path.read_text(encoding="utf-8-sig"))


TAKEN = [
    "a: 1\nb: -2\nc: 0\nd: -0\n",
    "x: 1.5\ny: -0.0\nz: 12.000000000000001\nw: 1.0e+16\n",
    "a: 'quoted 1'\nb: \"2\"\nc: '1.5'\n",
    "t: true\nf: False\nn: ~\nm: null\ne:\ny: yes\no: off\n",
    "when: 2024-01-02\nat: 2024-01-02 10:00:00\n",
    "hex: 0x1F\noct: 017\nbin: 0b101\nsexa: 1:20\nunder: 1_000\nexp: 1e5\ndot: .5\n",
    "big: 123456789012345678901234567890\nlong: 3.14159265358979323846264338327950288\n",
    "plus: +5\nplusf: +1.5\n",
    "flow: {a: [1, 2, {b: c}], d: []}\nempty: {}\n",
    "- [1, 2]\n- - 3\n  - 4\n- {k: v}\n",
    "multi: |\n  line one\n  line two\nfolded: >\n  a\n  b\n",
    "# comment\n---\nk: v  # trailing\n...\n",
    "plain scalar at the root\n",
    "''\n",
    "ünï: cödé\n",
]


@pytest.mark.parametrize("text", TAKEN)
def test_plain_texts_are_taken_and_read_alike(text):
    assert assert_agrees(text)


LEFT = [
    "a: &x 1\nb: *x\n",
    "a: !!str 1\n",
    "a: !custom 1\n",
    "? [1, 2]\n: 3\n",
    "1: one\n",
    "a: 1\na: 2\n",
    "<<: {a: 1}\n",
    "a: .inf\nb: .nan\n",
    "a: [1, 2\n",
    "a: 1\n---\nb: 2\n",
    "",
    "# only a comment\n",
    "a: " + "[" * 150 + "]" * 150 + "\n",
    "a: \x00\n",
    "big: 1" + "0" * 5000 + "\n",
    "a: =\n",
]


@pytest.mark.parametrize("text", LEFT)
def test_what_is_not_plain_is_left_to_the_careful_reader(text):
    assert read_plain(text, yamlio.MAX_DEPTH, yamlio.MAX_NODES) is GIVE_UP


def test_the_value_limit_is_the_careful_readers(monkeypatch):
    text = "a: [" + ", ".join(["1"] * 50) + "]\n"  # 53 values: the mapping, its key, 51
    assert read_plain(text, yamlio.MAX_DEPTH, 53) is not GIVE_UP
    assert read_plain(text, yamlio.MAX_DEPTH, 52) is GIVE_UP
    monkeypatch.setattr(yamlio, "MAX_NODES", 53)
    assert yamlio.parse_yaml_carefully(text).data == {"a": [1] * 50}
    monkeypatch.setattr(yamlio, "MAX_NODES", 52)
    with pytest.raises(UnreadableInput, match="more than 52 values"):
        yamlio.parse_yaml(text)


def test_a_refused_text_gets_the_careful_readers_message():
    with pytest.raises(UnreadableInput, match="duplicate key 'a'") as err:
        yamlio.parse_yaml("a: 1\nb: 2\na: 3\n", "d.yaml")
    assert err.value.place.line == 3


def test_positions_are_found_when_asked():
    text = (FIXTURES / "valid-loop.yaml").read_text(encoding="utf-8")
    doc = yamlio.parse_yaml(text, "loop.yaml")
    assert doc.positions == yamlio.parse_yaml_carefully(text, "loop.yaml").positions


SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**20), 10**20),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=12),
    st.sampled_from(["yes", "No", "~", "0o7", "1_0", "1:30", "2024-01-02", ".5", "1e3", "-.inf"]),
)
TREES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=20,
)


@settings(
    max_examples=examples(150),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(data=TREES, flow=st.sampled_from([None, True, False]), width=st.sampled_from([20, 80]))
def test_dumped_data_reads_alike(data, flow, width):
    text = yaml.safe_dump(data, default_flow_style=flow, width=width, allow_unicode=True)
    assert_agrees(text)
    assert_agrees(yamlio.dump_yaml(data))
