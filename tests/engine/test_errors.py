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
