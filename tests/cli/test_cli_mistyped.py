"""A name typed slightly wrong: the message names what was typed, as typed, and says
what was likely meant (a bundled variant)."""

from __future__ import annotations

from trackside.cli.main import main

BUNDLED_VARIANTS = "bundled variants: beginner, long-distance, standard, two-player, world-tour"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


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
