"""Safe YAML reading with positions, readable dumping, atomic writes."""

from __future__ import annotations

import os
import stat

import numpy as np
import pytest

from trackside.engine import yamlio
from trackside.engine.errors import UnreadableInput
from trackside.engine.yamlfast import KEY
from trackside.engine.yamlio import (
    NotPlainData,
    dump_yaml,
    load_yaml,
    parse_yaml,
    read_text,
    write_atomic,
)

TEXT = """\
name: Test
centerline:
  closed: true
  points:
  - [0, 0]
  - [10, 5.5]
spaces:
- id: a1
  lane: 0
"""


def test_values_keep_their_line_and_column():
    doc = parse_yaml(TEXT, "t.yaml")
    assert doc.data["centerline"]["points"][1] == [10, 5.5]
    assert doc.positions[("centerline", "points", 1)] == (6, 5)
    assert doc.positions[("centerline", "points", 1, 1)] == (6, 10)
    assert doc.positions[("spaces", 0, "lane")] == (9, 9)


def test_keys_keep_their_own_place_in_both_readers():
    """A mapping key has a place of its own (a problem with the key, such as an
    unknown one, points there), whichever reader read the text."""
    for doc in (parse_yaml(TEXT, "t.yaml"), yamlio.parse_yaml_carefully(TEXT, "t.yaml")):
        assert doc.positions[("centerline", KEY)] == (2, 1)
        assert doc.positions[("centerline", "points", KEY)] == (4, 3)  # its value is below
        assert doc.positions[("spaces", 0, "lane", KEY)] == (9, 3)


def test_place_falls_back_to_the_nearest_known_parent():
    doc = parse_yaml(TEXT, "t.yaml")
    place = doc.place(("spaces", 0, "corners"))
    assert (place.file, place.line, place.column) == ("t.yaml", 8, 3)
    assert str(doc.place(("spaces", 0, "id"))) == "t.yaml:8:7"


def test_empty_text_is_none():
    assert parse_yaml("", "e.yaml").data is None


@pytest.mark.parametrize(
    "text, words, line",
    [
        ("a: 1\nb: 2\na: 3\n", "duplicate key 'a'", 3),
        ("a: !!python/object/apply:os.system [echo hi]\n", "unsupported YAML tag", 1),
        ("a: !!binary aGk=\n", "unsupported YAML tag", 1),
        ("a: !custom 1\n", "unsupported YAML tag", 1),
        ("base: &b {x: 1}\nother:\n  <<: *b\n", "merge keys", 3),
        ("a: .inf\n", "not finite", 1),
        ("a: [1, 2\nb: 3\n", "YAML syntax error", 1),  # where the '[' opens
        ("a: &x [*x]\n", "refers to itself", 1),
        ("a: 1\n---\nb: 2\n", "more than one YAML document", 2),
        ("? [1, 2]\n: 3\n", "plain value", 1),
    ],
)
def test_refused_yaml_names_the_line(text, words, line):
    with pytest.raises(UnreadableInput) as err:
        parse_yaml(text, "bad.yaml")
    assert words in err.value.message
    assert err.value.place.file == "bad.yaml" and err.value.place.line == line
    assert err.value.exit_code == 2


@pytest.mark.parametrize(
    "text, place, words, fix",
    [
        (
            "a:\n- id: a1\n  corners: [[0, 0], [1, 0]\n- id: a2\n",
            (3, 12),
            "the '[' opened at line 3 is not closed: line 4 is read as inside it",
            "end the list with ']'",
        ),
        (
            "a: {b: 1, c: 2\nd: 3\n",
            (1, 4),
            "the '{' opened at line 1 is not closed: line 2 is read as inside it",
            "end the mapping with '}'",
        ),
        (
            "a: 1\nb: [\n  1,\n  2\n",
            (2, 4),
            "the '[' opened at line 2 is not closed by the end of the file",
            "end the list with ']'",
        ),
        (
            "a: [[0, 0] [1, 0]]\nb: ['x]', 2]\n",
            (1, 12),
            "a ',' or the ']' is missing here, in the list opened at line 1",
            "separate the items of the list with ','",
        ),
        ("a: 'it''s\nb: 2\n", (1, 4), "the quote ' opened at line 1 is not closed", "end the text"),
        ('a: "say \\"hi\nb: 2\n', (1, 4), 'the quote " opened at line 1', 'end the text with "'),
    ],
)
def test_an_unclosed_bracket_or_quote_is_named_where_it_opens(text, place, words, fix):
    """The parser notices a bracket left open a line or more later: the error points
    at the bracket, says it is not closed (or a ',' is missing) and how to mend it."""
    with pytest.raises(UnreadableInput) as err:
        parse_yaml(text, "bad.yaml")
    assert words in err.value.message
    assert (err.value.place.line, err.value.place.column) == place
    assert err.value.hint and fix in err.value.hint and err.value.exit_code == 2


def test_alias_bomb_is_refused_without_expanding_it():
    lines = ["a: &a [x, x, x, x, x, x, x, x, x, x]"]
    for k in range(1, 9):
        prev, name = chr(96 + k), chr(97 + k)
        lines.append(f"{name}: &{name} [" + ", ".join([f"*{prev}"] * 10) + "]")
    with pytest.raises(UnreadableInput, match="alias bomb"):
        parse_yaml("\n".join(lines), "bomb.yaml")


def test_a_few_shared_aliases_are_fine():
    doc = parse_yaml("p: &p [1, 2]\nq: [*p, *p]\n", "ok.yaml")
    assert doc.data["q"] == [[1, 2], [1, 2]]


def test_deep_nesting_is_refused_not_crashing():
    text = "a: " + "[" * 100_000 + "]" * 100_000
    with pytest.raises(UnreadableInput, match="nested more than"):
        parse_yaml(text, "deep.yaml")


def test_timestamps_stay_text():
    assert parse_yaml("when: 2024-01-02\n").data == {"when": "2024-01-02"}


def test_control_characters_give_one_line_message():
    with pytest.raises(UnreadableInput) as err:
        parse_yaml("a: 1\nb: \x00\n", "nul.yaml")
    assert "\n" not in str(err.value) and err.value.place.line == 2


def test_read_text_refuses_bad_files(tmp_path):
    with pytest.raises(UnreadableInput, match="no such file"):
        read_text(tmp_path / "missing.yaml")
    with pytest.raises(UnreadableInput, match="directory"):
        read_text(tmp_path)
    bad = tmp_path / "latin1.yaml"
    bad.write_bytes(b"a: 1\nname: caf\xe9\n")
    with pytest.raises(UnreadableInput) as err:
        read_text(bad)
    assert "UTF-8" in err.value.message and err.value.place.line == 2


def test_a_picture_given_for_a_text_file_is_named_for_what_it_is(tmp_path):
    """A PNG opened as a track is not told to be "saved as UTF-8"."""
    picture = tmp_path / "circuit.png"
    picture.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\xff\xfe")
    with pytest.raises(UnreadableInput) as err:
        read_text(picture, "track file")
    assert err.value.message == "this is a PNG picture, not a track file"
    assert "UTF-8" not in str(err.value)


def test_size_limit(tmp_path, monkeypatch):
    monkeypatch.setattr(yamlio, "MAX_BYTES", 100)
    big = tmp_path / "big.yaml"
    big.write_text("a: " + "x" * 200 + "\n")
    with pytest.raises(UnreadableInput, match="at most 100 bytes"):
        load_yaml(big)
    with pytest.raises(UnreadableInput, match="longer than"):
        parse_yaml("a: " + "x" * 200)


def test_byte_order_mark_is_accepted(tmp_path):
    path = tmp_path / "bom.yaml"
    path.write_bytes(b"\xef\xbb\xbfname: x\n")
    assert load_yaml(path).data == {"name": "x"}


def test_dump_is_readable_and_reloads_equal():
    data = {
        "name": "Ünïcode",
        "closed": False,
        "points": [[0, 0], [1.5, 2.0]],
        "ids": ["a1", "b1"],
        "nested": [{"id": "a1", "corners": [[0, 0], [1, 0], [1, 1]]}],
    }
    text = dump_yaml(data, header="made by a test\n\nsecond line")
    assert text.startswith("# made by a test\n#\n# second line\n")
    assert "points: [[0, 0], [1.5, 2.0]]" in text
    assert "Ünïcode" in text
    assert parse_yaml(text).data == data


def test_dump_keeps_floats_floats():
    text = dump_yaml({"x": 2.0, "y": 2, "z": 1e-7})
    assert parse_yaml(text).data == {"x": 2.0, "y": 2, "z": 1e-7}
    assert isinstance(parse_yaml(text).data["x"], float)


def test_write_atomic_replaces_and_keeps_mode(tmp_path):
    path = tmp_path / "t.yaml"
    write_atomic(path, "a: 1\n")
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o644
    os.chmod(path, 0o600)
    write_atomic(path, "a: 2\n")
    assert path.read_text() == "a: 2\n"
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.yaml"]


def test_write_atomic_leaves_the_old_file_when_writing_fails(tmp_path):
    path = tmp_path / "t.yaml"
    write_atomic(path, "a: 1\n")
    with pytest.raises(TypeError):
        write_atomic(path, None)  # type: ignore[arg-type]
    assert path.read_text() == "a: 1\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.yaml"]


@pytest.mark.parametrize(
    ("data", "where", "why"),
    [
        ({"points": [[0, 0], [np.float64(380.0), 1]]}, r"points\[1\]\[0\]", "numpy.float64"),
        ({"spaces": [{"lane": np.int64(2)}]}, r"spaces\[0\]\.lane", "numpy.int64"),
        ({"name": np.str_("Oval")}, "name", "numpy.str_"),
        ({"x": float("nan")}, "x", "finite"),
        ({"y": [float("-inf")]}, r"y\[0\]", "finite"),
        ({"tags": {1.5: "a"}}, r"tags", "key"),
        ([object()], r"\[0\]", "builtins.object"),
    ],
)
def test_the_writer_refuses_what_would_not_read_back_the_same(data, where, why):
    """np.float64 is a float to mypy and to isinstance, yet PyYAML cannot write it; a
    non-finite number would be written and then refused on reading: both are refused
    here, naming the place, before a byte is written."""
    with pytest.raises(NotPlainData, match=f"at {where}: .*{why}"):
        dump_yaml(data)


def test_plain_data_is_written_whatever_its_shape():
    data = {"a": [1, 2.5, "x", True, None, (3, 4)], "b": {"c": [[0.1, -2]], 7: "seven"}}
    assert parse_yaml(dump_yaml(data)).data == {
        "a": [1, 2.5, "x", True, None, [3, 4]],
        "b": {"c": [[0.1, -2]], 7: "seven"},
    }


@pytest.mark.parametrize(
    "value",
    [
        "trackside-record/1",
        "'trackside-record/12'",
        '"trackside-record/1"',
        "trackside-record/x",
        "trackside-record/",
        "trackside-Record/1",
        "trackside-record/1.5",
        "trackside-track/1",
    ],
)
def test_the_format_line_and_the_format_value_agree_on_the_kind(tmp_path, value):
    """A file's kind read from its first lines (to tell a stray word on the command
    line) is the kind its parsed ``format`` is refused for, whatever the format says."""
    from trackside.engine.yamlio import declared_kind, refuse_other_kind

    path = tmp_path / "file.yaml"
    path.write_text(f"format: {value}\nname: x\n")
    try:
        refuse_other_kind(load_yaml(path), "track")
        refused = None
    except UnreadableInput as exc:
        refused = exc
    assert (declared_kind(path) == "record") == (refused is not None), (value, refused)
