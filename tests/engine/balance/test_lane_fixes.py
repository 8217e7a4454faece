"""Lane fixes at a jam: the kept layout built again with one piece changed, as Re-apply
would make it."""

from __future__ import annotations

from tracks_for_tests import narrow_loop

from trackside.engine.balance import BalanceReport
from trackside.engine.balance.edits import Edit, Proposal
from trackside.engine.balance.fixes import Measured, Trial
from trackside.engine.balance.lane_fixes import lane_fix, lane_fixes
from trackside.engine.track.loop_fit import build_kept
from trackside.engine.track.model import read_track_document
from trackside.engine.track.validate import validate_track

JAM = ("a27", "a28", "b28", "c28", "a29", "a30", "a31")  # before the one-lane piece


def test_a_jam_before_a_narrowing_tries_a_lane_more_there_and_one_less_before():
    track = narrow_loop()
    fixes = {fix.edit.proposal: fix for fix in lane_fixes(track, [JAM])}
    wider = fixes[Proposal("lanes", 1, layout=0, piece=3)]
    assert wider.edit.text == (
        "1 lane added to piece 4 of lane layout 1 (1 lane there now, 2 after, where cars "
        "jam at a27)"
    )
    assert wider.edit.spaces == JAM
    assert validate_track(wider.edit.track).ok
    assert len(wider.edit.track.spaces) == len(track.spaces) + 4  # four rows, a lane more
    assert wider.new.pieces[3].lanes == 2 and wider.old.pieces[3].lanes == 1
    assert wider.old is track.lane_layouts[0]  # what Re-apply replaces
    assert wider.edit.track.lane_layouts[0] == wider.new
    kept = {sp.id for sp in wider.edit.track.spaces} & {sp.id for sp in track.spaces}
    assert set(track.start_grid) <= kept  # the grid keeps its spaces
    narrower = fixes[Proposal("lanes", -1, layout=0, piece=2)]
    assert narrower.edit.text.startswith("1 lane removed from piece 3 of lane layout 1 (3 lanes")
    # The board is as the layout made it: no fix of the layout's own width.
    assert all(p.steps for p in fixes)
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


def narrowed_by_hand():
    """The narrow loop with its fifth piece (three lanes in its layout, after the
    one-lane piece) narrowed on the board to one lane: its outer lanes' spaces deleted
    by hand, the layout kept as it was. Cars jam on it."""
    track = narrow_loop()
    piece = [sp for sp in build_kept(track.lane_layouts[0]).spaces if sp.piece == 4]
    gone = {sp.id for sp in piece if sp.lane > 0}
    track.spaces = [sp for sp in track.spaces if sp.id not in gone]
    assert validate_track(track).ok
    return track, tuple(sp.id for sp in piece if sp.lane == 0)


def test_a_lane_fix_says_what_it_does_to_the_board_as_it_is():
    """The layout has three lanes where the board has one: a fix to two lanes there adds
    one to the board, where it was told as a lane removed (against the layout), beside a
    preview of spaces added."""
    track, jam = narrowed_by_hand()
    fixes = {fix.edit.proposal: fix for fix in lane_fixes(track, [jam])}
    two = fixes[Proposal("lanes", -1, layout=0, piece=4)]
    assert two.edit.text == (
        "1 lane added to piece 5 of lane layout 1 (1 lane there now, 2 after, where cars jam "
        f"at {jam[0]})"
    )
    assert len(two.edit.track.spaces) == len(track.spaces) + 4  # four rows, a lane more


def test_the_layout_s_own_width_is_offered_back_where_the_board_was_narrowed():
    track, jam = narrowed_by_hand()
    fixes = {fix.edit.proposal: fix for fix in lane_fixes(track, [jam])}
    back = fixes[Proposal("lanes", 0, layout=0, piece=4)]
    assert back.edit.text == (
        "2 lanes added to piece 5 of lane layout 1, back to the layout's width (1 lane there "
        f"now, 3 after, where cars jam at {jam[0]})"
    )
    by_id = {sp.id: sp for sp in back.edit.track.spaces}
    assert by_id == {sp.id: sp for sp in narrow_loop().spaces}  # as the layout made it
    assert back.new == track.lane_layouts[0]
    again = lane_fix(track, back.edit.proposal)  # Apply makes it again from its proposal
    assert again is not None and again.edit.track.spaces == back.edit.track.spaces


def test_a_fix_elsewhere_in_the_layout_says_it_puts_the_narrowing_back_too():
    """Re-apply builds the whole layout again: a lane taken from the sixth piece puts
    the fifth's hand-deleted lanes back, and says so."""
    track, jam = narrowed_by_hand()
    fixes = {fix.edit.proposal: fix for fix in lane_fixes(track, [jam])}
    text = fixes[Proposal("lanes", -1, layout=0, piece=5)].edit.text
    assert text.startswith("1 lane removed from piece 6 of lane layout 1 (3 lanes there now, 2")
    assert text.endswith("; piece 5 goes back to the layout's lanes too")


def test_a_lane_fix_in_the_report_names_its_layout_and_piece():
    """``suggest --report``: two lane fixes on two pieces are told apart by their data,
    not only by their words; a line fix has no layout or piece."""
    track = narrow_loop()
    same = Measured(1.0, 1.0, -0.5, 0.5)
    base = BalanceReport("loop", "standard", 4, [])

    def proposal(edit: Edit) -> dict:
        return Trial(edit, 1, same, same, same, same, base).to_dict()["proposal"]

    lanes = [proposal(fix.edit) for fix in lane_fixes(track, [JAM])]
    assert {(p["layout"], p["piece"], p["steps"]) for p in lanes} >= {(0, 3, 1), (0, 2, -1)}
    line = proposal(Edit(Proposal("line", 2), "Finish line 2 spaces earlier", (), track))
    assert line["kind"] == "line" and "layout" not in line and "piece" not in line
