"""Copy and paste of parts of a track as YAML fragments (engine/track/fragment.py)."""

from __future__ import annotations

import pytest
from tracks_for_tests import stadium_track

from trackside.engine.errors import InvalidInput, UnreadableInput
from trackside.engine.track.fragment import (
    FRAGMENT_FORMAT,
    carried_lines,
    copy_fragment,
    parse_fragment,
    placed,
)
from trackside.engine.track.geometry import FINISH
from trackside.engine.track.transform import translation


def test_a_whole_track_copies_with_its_lines_grid_and_racing_line():
    track = stadium_track()
    fragment = copy_fragment(track, range(len(track.spaces)))
    assert set(fragment.lines) == {0, 1, 2, FINISH}
    assert fragment.start_grid == track.start_grid
    assert fragment.centerline == track.centerline
    again = parse_fragment(fragment.to_yaml())
    assert again == fragment
    assert f"format: {FRAGMENT_FORMAT}" in fragment.to_yaml()


def test_a_line_is_carried_only_when_all_its_spaces_are_copied():
    track = stadium_track()
    lines = carried_lines(track, range(len(track.spaces)))
    assert FINISH in lines
    finish_spaces = {
        i
        for i in range(len(track.spaces))
        if FINISH not in carried_lines(track, set(range(len(track.spaces))) - {i})
    }
    assert finish_spaces  # the spaces the finish line touches
    assert FINISH in carried_lines(track, finish_spaces)
    one_short = sorted(finish_spaces)[1:]
    assert FINISH not in carried_lines(track, one_short)


def test_a_section_copies_without_grid_or_racing_line():
    track = stadium_track()
    fragment = copy_fragment(track, [0, 1, 2])
    assert [sp.id for sp in fragment.spaces] == [sp.id for sp in track.spaces[:3]]
    assert fragment.start_grid == [] and fragment.centerline is None
    text = fragment.to_yaml()
    assert "start_grid" not in text and "centerline" not in text
    assert parse_fragment(text).spaces == fragment.spaces


def test_placing_renumbers_clashing_ids_and_follows_the_grid():
    track = stadium_track()
    fragment = copy_fragment(track, range(len(track.spaces)))
    taken = [sp.id for sp in track.spaces]
    pasted = placed(fragment, taken, translation(10, 0))
    new_ids = [sp.id for sp in pasted.spaces]
    assert not set(new_ids) & set(taken)
    assert len(set(new_ids)) == len(new_ids)
    pole = track.start_grid[0]
    k = [sp.id for sp in track.spaces].index(pole)
    assert pasted.start_grid[0] == new_ids[k]
    x, y = track.spaces[0].corners[0]
    assert pasted.spaces[0].corners[0] == (x + 10, y)


def test_a_whole_track_file_reads_as_a_fragment():
    track = stadium_track()
    fragment = parse_fragment(track.to_yaml())
    assert len(fragment.spaces) == len(track.spaces)
    assert set(fragment.lines) == {0, 1, 2, FINISH}


def test_other_text_is_refused_with_a_hint():
    with pytest.raises(UnreadableInput, match="no Trackside spaces"):
        parse_fragment("hello")
    with pytest.raises(InvalidInput, match="corners"):
        parse_fragment(
            f"format: {FRAGMENT_FORMAT}\nspaces:\n- id: a\n  lane: 0\n  corners: [[0, 0]]\n"
        )
