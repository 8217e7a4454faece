"""User-facing error text: places and echoed values."""

from __future__ import annotations

from trackside.engine.errors import Place, place_text, shown
from trackside.engine.track.validate import Issue


def test_place_and_issue_write_file_line_column_alike():
    assert str(Place("t.yaml", 3, 7)) == place_text("t.yaml", 3, 7) == "t.yaml:3:7"
    issue = Issue("schema", "error", "x", file="t.yaml", yaml_line=3, yaml_column=7)
    assert issue.where() == "t.yaml:3:7"
    assert str(Place("t.yaml", 3)) == "t.yaml:3"
    assert str(Place()) == "<input>"
    assert Issue("schema", "error", "x").where() == "<track>"


def test_a_long_value_is_cut_short_with_an_ellipsis():
    assert shown("abc") == "'abc'"
    long = shown("x" * 10_000)
    assert len(long) == 61 and long.endswith("…") and long.startswith("'xxx")
    assert shown("y" * 500, 100, quote=False) == "y" * 100 + "…"


def test_the_problems_after_the_first_are_counted_in_words(tmp_path):
    """One message names the first problem and counts the rest: '1 more problem'."""
    import pytest

    from trackside.engine.errors import InvalidInput, more_problems
    from trackside.engine.game.variants import load_variant

    assert more_problems(0) == ""
    assert more_problems(2) == " (and 2 more problems)"
    path = tmp_path / "two.yaml"
    path.write_text("format: trackside-variant/1\nname: Two\ncolour: red\nhand: {mode: x}\n")
    with pytest.raises(InvalidInput) as err:
        load_variant(path)
    assert str(err.value).count("unknown key") == 1
    assert "(and 1 more problem)" in str(err.value)
    # Each problem keeps its own place: one line each (the CLI contract).
    lines = err.value.lines()
    assert len(lines) == 2 and all(line.startswith(f"{path}:") for line in lines)
    assert "hand.mode" in lines[1] and lines[1].startswith(f"{path}:4:")


def test_an_unknown_key_is_placed_at_its_own_line(tmp_path):
    """A misspelt key is pointed at where it is written, not at the first line of
    the mapping that holds it (a designer looked for 'mux' on the line of 'min')."""
    import pytest

    from trackside.engine.errors import InvalidInput
    from trackside.engine.game.variants import load_variant

    path = tmp_path / "typo.yaml"
    path.write_text(
        "format: trackside-variant/1\nname: Typo\nextends: standard\n"
        "players:\n  min: 2\n  mux:\n    - 4\ncolour: red\n"
    )
    with pytest.raises(InvalidInput) as err:
        load_variant(path)
    places = sorted(line.split(": ")[0] for line in err.value.lines())
    assert places == [f"{path}:6:3", f"{path}:8:1"]
