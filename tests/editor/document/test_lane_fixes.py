"""Lane fixes at a jam: the kept layout built again with one piece changed, as Re-apply
would make it."""

from __future__ import annotations

from tracks_for_tests import narrow_loop

from trackside.editor.document.lane_draft import kept_layouts
from trackside.editor.document.lane_fixes import lane_fixes
from trackside.engine.balance.edits import Proposal
from trackside.engine.track.validate import validate_track

JAM = ("a27", "a28", "b28", "c28", "a29", "a30", "a31")  # before the one-lane piece


def test_a_jam_before_a_narrowing_tries_a_lane_more_there_and_one_less_before():
    track = narrow_loop()
    fixes = {fix.edit.proposal: fix for fix in lane_fixes(track, kept_layouts(track), [JAM])}
    wider = fixes[Proposal("lanes", 1, layout=0, piece=3)]
    assert wider.edit.text.startswith("1 lane added to piece 4 of lane layout 1 (2 lanes")
    assert wider.edit.spaces == JAM
    assert validate_track(wider.edit.track).ok
    assert len(wider.edit.track.spaces) == len(track.spaces) + 4  # four rows, a lane more
    assert wider.new.pieces[3].lanes == 2 and wider.old.pieces[3].lanes == 1
    assert wider.edit.track.lane_layouts[0]["pieces"][3]["lanes"] == 2
    kept = {sp.id for sp in wider.edit.track.spaces} & {sp.id for sp in track.spaces}
    assert set(track.start_grid) <= kept  # the grid keeps its spaces
    assert Proposal("lanes", -1, layout=0, piece=2) in fixes
    assert len(track.spaces) == 136  # the track given is not changed


def test_no_kept_layout_no_lane_fix():
    track = narrow_loop()
    assert lane_fixes(track, [], [JAM]) == []
    assert lane_fixes(track, kept_layouts(track), [("nowhere",)]) == []
