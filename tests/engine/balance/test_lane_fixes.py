"""Lane fixes at a jam: the kept layout built again with one piece changed, as Re-apply
would make it."""

from __future__ import annotations

from tracks_for_tests import narrow_loop

from trackside.engine.balance.edits import Proposal
from trackside.engine.balance.lane_fixes import lane_fix, lane_fixes
from trackside.engine.track.model import read_track_document
from trackside.engine.track.validate import validate_track

JAM = ("a27", "a28", "b28", "c28", "a29", "a30", "a31")  # before the one-lane piece


def test_a_jam_before_a_narrowing_tries_a_lane_more_there_and_one_less_before():
    track = narrow_loop()
    fixes = {fix.edit.proposal: fix for fix in lane_fixes(track, [JAM])}
    wider = fixes[Proposal("lanes", 1, layout=0, piece=3)]
    assert wider.edit.text.startswith("1 lane added to piece 4 of lane layout 1 (2 lanes")
    assert wider.edit.spaces == JAM
    assert validate_track(wider.edit.track).ok
    assert len(wider.edit.track.spaces) == len(track.spaces) + 4  # four rows, a lane more
    assert wider.new.pieces[3].lanes == 2 and wider.old.pieces[3].lanes == 1
    assert wider.old is track.lane_layouts[0]  # what Re-apply replaces
    assert wider.edit.track.lane_layouts[0] == wider.new
    kept = {sp.id for sp in wider.edit.track.spaces} & {sp.id for sp in track.spaces}
    assert set(track.start_grid) <= kept  # the grid keeps its spaces
    assert Proposal("lanes", -1, layout=0, piece=2) in fixes
    assert len(track.spaces) == 136  # the track given is not changed


def test_a_lane_fix_is_made_again_from_its_proposal_as_it_was_tried():
    track = narrow_loop()
    tried = next(f for f in lane_fixes(track, [JAM]) if f.edit.proposal.piece == 3)
    again = lane_fix(track, tried.edit.proposal)
    assert again is not None
    assert again.edit.track.spaces == tried.edit.track.spaces
    assert again.new == tried.new and again.plan == tried.plan


def test_the_fixed_circuit_saves_and_reads_back_with_its_layout():
    track = narrow_loop()
    fix = lane_fix(track, Proposal("lanes", 1, layout=0, piece=3))
    assert fix is not None
    read, _doc, problems = read_track_document("fixed.yaml", text=fix.edit.track.to_yaml())
    assert problems == [] and read is not None
    assert read.lane_layouts == [fix.new]
    assert {sp.id for sp in read.spaces} == {sp.id for sp in fix.edit.track.spaces}


def test_no_kept_layout_no_lane_fix():
    track = narrow_loop()
    assert lane_fixes(track, [("nowhere",)]) == []
    track.lane_layouts = []
    assert lane_fixes(track, [JAM]) == []
    assert lane_fix(track, Proposal("lanes", 1, layout=0, piece=3)) is None
