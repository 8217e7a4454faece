"""Tracks, variants and decks read by path are kept between games of one process while
every file they were read from is unchanged, and read again as soon as one changes:
a parent the variant ``extends``, its deck, or the file itself edited within the same
tick of the clock (the same modification time, another size)."""

from __future__ import annotations

import os
import time
from pathlib import Path

from trackside.engine.game.cards import load_deck
from trackside.engine.records import open_track, open_variant
from trackside.engine.resources import tracks_dir, variants_dir

STANDARD_DECK = variants_dir() / "decks" / "standard.yaml"


def _variant(path: Path, text: str) -> Path:
    path.write_text("format: trackside-variant/1\n" + text)
    return path


def _rewrite_keeping_the_time(path: Path, text: str) -> None:
    """Write ``text`` and give the file back its modification time, as an edit within
    one tick of a coarse clock leaves it."""
    before = path.stat()
    path.write_text(text)
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert path.stat().st_mtime_ns == before.st_mtime_ns


def test_a_parent_changed_since_is_read_again(tmp_path):
    parent = _variant(tmp_path / "house.yaml", "name: House\nextends: standard\n")
    child = _variant(tmp_path / "child.yaml", "name: Child\nextends: house.yaml\n")
    assert open_variant(str(child)).aggressive_bonus == 1
    _variant(parent, "name: House\nextends: standard\nbonuses: {aggressive: 2}\n")
    assert open_variant(str(child)).aggressive_bonus == 2
    for path in (parent, child):  # older than a coarse clock's tick: safe to keep
        os.utime(path, (1_600_000_000, 1_600_000_000))
    assert open_variant(str(child)) is open_variant(str(child))  # kept while unchanged


def test_a_deck_changed_since_is_read_again(tmp_path):
    deck = tmp_path / "deck.yaml"
    cards = STANDARD_DECK.read_text().splitlines()
    deck.write_text("\n".join(cards) + "\n")
    variant = _variant(tmp_path / "house.yaml", "name: House\nextends: standard\ndeck: deck.yaml\n")
    size = open_variant(str(variant)).deck.size
    deck.write_text("\n".join([*cards, cards[-1]]) + "\n")  # one card more
    assert open_variant(str(variant)).deck.size == size + 1
    assert load_deck(deck).size == size + 1


def test_a_variant_edited_within_the_same_tick_is_read_again(tmp_path):
    path = _variant(tmp_path / "house.yaml", "name: House\nextends: standard\n")
    assert open_variant(str(path)).name == "House"
    _rewrite_keeping_the_time(path, "format: trackside-variant/1\nname: Home\nextends: standard\n")
    assert open_variant(str(path)).name == "Home"


def test_a_track_edited_within_the_same_tick_is_read_again(tmp_path):
    path = tmp_path / "loop.yaml"
    text = (tracks_dir() / "harbour-loop.yaml").read_text()
    path.write_text(text)
    name = open_track(str(path)).name
    _rewrite_keeping_the_time(path, text.replace(f"name: {name}", "name: Another Harbour Loop", 1))
    assert open_track(str(path)).name == "Another Harbour Loop"


def test_a_file_changed_within_a_coarse_tick_of_now_is_not_kept(tmp_path, monkeypatch):
    """On a clock as coarse as FAT's (2 s), an edit of the same size in place leaves
    every part of the stamp as it was; a value read from a file that recent is read
    again next time, and kept once the file is older than a tick."""
    from trackside.engine import stamps

    path = tmp_path / "loop.yaml"
    path.write_text((tracks_dir() / "harbour-loop.yaml").read_text())
    fixed = (time.time_ns(), time.time_ns(), 1, 1)  # a stamp no edit changes
    monkeypatch.setattr(stamps, "stamp", lambda _path: fixed)
    first = open_track(str(path))
    assert open_track(str(path)) is not first  # read again: it may have changed unseen
    fixed = (fixed[0] + 10**12, fixed[1], 1, 1)  # from a clock far ahead of ours
    ahead = open_track(str(path))
    assert open_track(str(path)) is not ahead
    fixed = (time.time_ns() - 10**10, fixed[1], 1, 1)  # ten seconds old
    kept = open_track(str(path))
    assert open_track(str(path)) is kept
