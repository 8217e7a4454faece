"""A name typed slightly wrong: the message names what was typed, as typed, and says
what was likely meant (a close file, a bundled circuit or variant)."""

from __future__ import annotations

import shutil

import pytest
from repo_paths import TRACKS

from trackside.cli.main import main

BUNDLED_CIRCUITS = "bundled circuits: estuary-sweep, harbour-loop, quarry-hairpin"
BUNDLED_VARIANTS = "bundled variants: beginner, long-distance, standard, two-player, world-tour"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


@pytest.fixture
def my_circuit(tmp_path, monkeypatch):
    """A folder holding my-circuit.yaml, the folder the command runs in."""
    shutil.copy(TRACKS / "harbour-loop.yaml", tmp_path / "my-circuit.yaml")
    monkeypatch.chdir(tmp_path)
    return tmp_path


# -- --variant ------------------------------------------------------------------------


def test_a_misspelt_variant_is_named_as_typed_with_the_name_meant(capsys):
    code, out, err = run(capsys, "simulate", "--games", "2", "--variant", "standrad")
    assert code == 2 and out == "" and err.count("\n") == 1
    assert err.startswith("trackside: standrad: no bundled variant of that name (")
    assert "did you mean standard?" in err and BUNDLED_VARIANTS in err
    assert "variants/" not in err  # the folder it was looked for in was never typed


def test_a_variant_name_near_none_lists_the_bundled_ones(capsys):
    code, _out, err = run(capsys, "play", "--track", "harbour-loop", "--variant", "zzz")
    assert code == 2 and err.startswith("trackside: zzz: no bundled variant of that name (")
    assert "did you mean" not in err and BUNDLED_VARIANTS in err


# -- --track and track files ----------------------------------------------------------


@pytest.mark.parametrize(
    "typed, hint",
    [
        ("my-circuti.yaml", "did you mean my-circuit.yaml?"),
        ("my-circuit", "my-circuit.yaml exists: give the name with .yaml"),
        ("harbor-loop", f"did you mean harbour-loop? {BUNDLED_CIRCUITS}"),
        ("harbour-loop.yaml", f"did you mean harbour-loop? {BUNDLED_CIRCUITS}"),
        ("far-from-all", f"a name without .yaml is looked for among the {BUNDLED_CIRCUITS}"),
    ],
)
def test_a_missing_track_says_what_was_likely_meant(capsys, my_circuit, typed, hint):
    code, out, err = run(capsys, "simulate", "--games", "2", "--track", typed)
    assert code == 2 and out == ""
    assert err == f"trackside: {typed}: no such file ({hint})\n"


def test_a_close_file_is_named_in_the_folder_typed(capsys, my_circuit):
    typed = str(my_circuit / "my-circut.yaml")
    meant = my_circuit / "my-circuit.yaml"
    code, _out, err = run(capsys, "suggest", "--track", typed)
    assert code == 2 and err == f"trackside: {typed}: no such file (did you mean {meant}?)\n"


def test_a_missing_track_near_nothing_has_no_guess(capsys, my_circuit):
    code, _out, err = run(capsys, "play", "--track", "zzz.yaml")
    assert code == 2 and err == "trackside: zzz.yaml: no such file\n"


@pytest.mark.parametrize(
    "argv",
    [
        ["validate", "my-circuti.yaml"],
        ["render", "my-circuti.yaml", "-o", "out.png"],
        ["moves", "my-circuti.yaml", "--car", "red", "--spaces", "2"],
        ["diff", "harbour-loop", "my-circuti.yaml"],
    ],  # edit starts a new file there, saying the hint: tests/editor/test_edit_command.py
)
def test_every_command_that_reads_a_track_gives_the_hint(capsys, my_circuit, argv):
    code, _out, err = run(capsys, *argv)
    assert code == 2
    assert "trackside: my-circuti.yaml: no such file (did you mean my-circuit.yaml?)\n" in err
