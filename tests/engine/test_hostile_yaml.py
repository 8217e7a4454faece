"""Malformed and hostile track files: a clean one-line message, exit code 2, no
traceback, and never code execution. A hypothesis test mutates a valid file at
random and checks that the loader and the validator only ever answer with a
report or a ``TracksideError``."""

from __future__ import annotations

import copy
import subprocess
import sys
from pathlib import Path

import pytest
from depth import examples
from hypothesis import given, settings
from hypothesis import strategies as st
from repo_paths import FIXTURES

from trackside.cli.main import main
from trackside.engine import yamlio
from trackside.engine.errors import TracksideError
from trackside.engine.track.model import load_track, read_track_document
from trackside.engine.track.validate import Report, validate_file, validate_track
from trackside.engine.yamlio import dump_yaml, parse_yaml

VALID = FIXTURES / "valid-straight.yaml"


def bomb() -> str:
    lines = ['a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for k in range(1, 10):
        prev, name = chr(96 + k), chr(97 + k)
        lines.append(f"{name}: &{name} [" + ", ".join([f"*{prev}"] * 10) + "]")
    return "\n".join(lines) + "\n"


# name -> (file content, words expected in the message, line expected or None)
HOSTILE = {
    "python-apply": (
        b'format: !!python/object/apply:os.system ["touch MARKER"]\n',
        "unsupported YAML tag",
        1,
    ),
    "python-new": (
        b'name: x\nformat: !!python/object/new:os.system ["touch MARKER"]\n',
        "unsupported YAML tag",
        2,
    ),
    "python-name": (b"format: !!python/name:os.system\n", "unsupported YAML tag", 1),
    "alias-bomb": (bomb().encode(), "alias bomb", None),
    "duplicate-key": (VALID.read_bytes() + b"name: Again\n", "duplicate key 'name'", None),
    "not-utf8": (b"format: trackside-track/1\nname: Caf\xe9\n", "not UTF-8", 2),
    "empty": (b"", "the document is empty", 1),
    "list": (b"- format\n- name\n", "the document is a list", 1),
    "scalar": (b"hello\n", "the document is a single line of text", 1),
    "syntax": (
        b"format: trackside-track/1\nname: [unclosed\nspaces: 3\n",
        "YAML syntax error",
        None,
    ),
    "tabs": (b"format: x\n\tname: y\n", "YAML syntax error", 2),
    "deep": (b"a: " + b"[" * 50_000 + b"]" * 50_000 + b"\n", "nested more than", 1),
    "nul": (b"format: x\nname: \x00\n", "not allowed in YAML", 2),
    "two-documents": (b"a: 1\n---\nb: 2\n", "more than one YAML document", 2),
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_file_gives_one_clean_line_and_exit_2(tmp_path, capsys, monkeypatch, name):
    content, words, line = HOSTILE[name]
    monkeypatch.chdir(tmp_path)
    path = tmp_path / f"{name}.yaml"
    path.write_bytes(content)
    code = main(["validate", str(path)])
    out, err = capsys.readouterr()
    assert code == 2
    assert err.count("\n") == 1 and words in err
    prefix = f"trackside: {path}:" + (f"{line}" if line else "")
    assert err.startswith(prefix), err
    if line is None:
        assert err.startswith(f"trackside: {path}:") and err.split(":")[2].strip().isdigit()
    assert out == f"{path}: cannot be read\n"
    assert not (tmp_path / "MARKER").exists()


@pytest.mark.slow
def test_python_tags_never_run_in_a_real_process(tmp_path):
    """Each command that reads a track, run as a real process, on one code-running
    tag each (the in-process cases above try the tags on the shared reader)."""
    marker = tmp_path / "MARKER"
    runs = {
        "!!python/object/apply:os.system": ["validate"],
        "!!python/object/new:os.system": ["render", "-o", str(tmp_path / "x.png")],
        "!!python/object/apply:subprocess.call": [
            "moves",
            "--at",
            "red=a1",
            "--car",
            "red",
            "--spaces",
            "1",
        ],
    }
    for tag, (command, *rest) in runs.items():
        path = tmp_path / "evil.yaml"
        path.write_text(f'format: trackside-track/1\nname: {tag} ["touch {marker}"]\n')
        result = subprocess.run(
            [sys.executable, "-m", "trackside", command, str(path), *rest],
            capture_output=True,
            text=True,
            cwd=tmp_path,
        )
        assert result.returncode == 2, result.stderr
        assert "Traceback" not in result.stderr
        if command != "moves":
            assert "unsupported YAML tag" in result.stderr
    assert not marker.exists()


def test_huge_file_is_refused_before_reading(tmp_path, capsys):
    path = tmp_path / "huge.yaml"
    with open(path, "wb") as handle:
        handle.write(b"name: ")
        handle.write(b"x" * (yamlio.MAX_BYTES + 10))
    code = main(["validate", str(path)])
    _, err = capsys.readouterr()
    assert code == 2 and "may be at most" in err and err.startswith(f"trackside: {path}: ")


def test_directory_and_missing_file(tmp_path, capsys):
    assert main(["validate", str(tmp_path)]) == 2
    assert "is a directory" in capsys.readouterr().err
    assert main(["validate", str(tmp_path / "nope.yaml")]) == 2
    assert "no such file" in capsys.readouterr().err


def test_hostile_files_never_show_a_traceback(tmp_path):
    paths = []
    for name, (content, _words, _line) in HOSTILE.items():
        path = tmp_path / f"{name}.yaml"
        path.write_bytes(content)
        paths.append(str(path))
    result = subprocess.run(
        [sys.executable, "-m", "trackside", "validate", *paths, str(VALID)],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 2
    assert "Traceback" not in result.stderr and "internal error" not in result.stderr
    assert len(result.stderr.splitlines()) == len(HOSTILE)
    assert f"{VALID}: ok" in result.stdout


# -- random mutations -----------------------------------------------------------

BASE = parse_yaml(VALID.read_text(encoding="utf-8")).data
BASE_TEXT = VALID.read_bytes()

VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**7), 10**7),
    st.floats(allow_nan=False, allow_infinity=False, width=32),
    st.text(max_size=8),
    st.just([]),
    st.just({}),
    st.just([0, 0]),
    st.just([[0, 0], [0, 0]]),
    st.just("a1"),
    st.just(-1),
    st.just(1e6),
    st.just(1e-9),
)


def paths_of(data, prefix=()):
    yield prefix
    if isinstance(data, dict):
        for key, value in data.items():
            yield from paths_of(value, (*prefix, key))
    elif isinstance(data, list):
        for k, value in enumerate(data):
            yield from paths_of(value, (*prefix, k))


def get(data, path):
    for part in path:
        data = data[part]
    return data


def mutate(data, draw):
    """One random change: delete, retype, swap numbers, drop or duplicate an item."""
    path = draw(st.sampled_from(list(paths_of(data))[1:]))
    parent, key = get(data, path[:-1]), path[-1]
    op = draw(st.sampled_from(["delete", "retype", "swap", "duplicate", "truncate"]))
    if op == "delete":
        del parent[key]
    elif op == "retype":
        parent[key] = draw(VALUES)
    elif op == "swap":
        numbers = [
            p
            for p in paths_of(data)
            if isinstance(get(data, p), (int, float)) and not isinstance(get(data, p), bool)
        ]
        if len(numbers) >= 2:
            a, b = draw(st.sampled_from(numbers)), draw(st.sampled_from(numbers))
            pa, pb = get(data, a[:-1]), get(data, b[:-1])
            pa[a[-1]], pb[b[-1]] = pb[b[-1]], pa[a[-1]]
    elif op == "duplicate" and isinstance(parent, list):
        parent.insert(key, copy.deepcopy(parent[key]))
    elif op == "truncate" and isinstance(parent[key], list) and parent[key]:
        parent[key] = parent[key][:-1]


def check_file(path: Path) -> None:
    try:
        report = validate_file(path)
    except TracksideError:
        return
    assert isinstance(report, Report)
    assert all(issue.code and issue.message for issue in report.issues)
    try:
        track = load_track(path)
    except TracksideError:
        return
    assert validate_track(track).errors == report.errors


@settings(max_examples=examples(40))
@given(st.data())
def test_random_data_mutations_never_crash(tmp_path, data):
    doc = copy.deepcopy(BASE)
    for _ in range(data.draw(st.integers(1, 4))):
        if not isinstance(doc, (dict, list)) or not list(paths_of(doc))[1:]:
            break
        mutate(doc, data.draw)
    path = tmp_path / "mutated.yaml"
    path.write_text(dump_yaml(doc), encoding="utf-8")
    check_file(path)


@settings(max_examples=examples(150))
@given(st.integers(0, len(BASE_TEXT)), st.integers(0, 40), st.binary(min_size=1, max_size=40))
def test_random_bytes_spliced_in_never_crash(tmp_path, at, cut, junk):
    path = tmp_path / "spliced.yaml"
    path.write_bytes(BASE_TEXT[:at] + junk + BASE_TEXT[at + cut :])
    check_file(path)


@settings(max_examples=examples(30))
@given(st.data())
def test_text_parse_of_mutations_never_crashes(data):
    doc = copy.deepcopy(BASE)
    mutate(doc, data.draw)
    try:
        track, _doc, problems = read_track_document("mutated.yaml", text=dump_yaml(doc))
    except TracksideError:
        return
    if track is not None:
        assert validate_track(track).errors >= 0
    else:
        assert problems


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_a_stream_without_an_end_is_refused_before_reading(capsys):
    """/dev/zero reports size 0 and never ends: it is no regular file."""
    assert main(["validate", "/dev/zero"]) == 2
    assert "/dev/zero: is a device, not a track file" in capsys.readouterr().err


def test_an_empty_key_is_named_as_such(tmp_path, capsys):
    path = tmp_path / "null-key.yaml"
    path.write_text("~: x\nformat: trackside-track/1\n")
    assert main(["validate", str(path)]) == 1
    assert "a key is empty" in capsys.readouterr().out
