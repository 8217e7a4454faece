"""The bundled circuits in tracks/: they load, round-trip, validate and race."""

from __future__ import annotations

import subprocess
import sys
from collections import deque

import pytest
from repo_paths import ROOT

from trackside.engine.resources import bundled_tracks
from trackside.engine.track.geometry import FINISH, TrackGeometry
from trackside.engine.track.model import load_track
from trackside.engine.track.movement import MoveGraph
from trackside.engine.track.validate import validate_file

TRACKS = bundled_tracks()
BOARD_LIMIT = (850.0, 600.0)  # about 80 x 55 cm, with a little slack


def test_the_bundled_circuits_are_there():
    names = {p.name for p in TRACKS}
    assert {"harbour-loop.yaml", "quarry-hairpin.yaml"} <= names
    assert len(TRACKS) >= 2


def forward_distance(g: TrackGeometry, start: int) -> int | None:
    """Fewest forward steps from ``start`` to a space beyond the finish line
    (R-MOVE-1, R-FIN-1), not wrapping the seam."""
    seen = {start: 0}
    todo = deque([start])
    while todo:
        a = todo.popleft()
        for b in g.forward[a]:
            if b in seen or g.wraps_seam(a, b):
                continue
            seen[b] = seen[a] + 1
            if g.beyond[FINISH][b]:
                return seen[b]
            todo.append(b)
    return None


@pytest.mark.parametrize("path", TRACKS, ids=lambda p: p.name)
def test_loads_and_round_trips_textually(path):
    track = load_track(path)
    assert track.to_yaml() == path.read_text(encoding="utf-8")
    assert track.author == "Trackside"
    assert track.name and track.description


@pytest.mark.parametrize("path", TRACKS, ids=lambda p: p.name)
def test_has_no_validation_errors(path):
    report = validate_file(path)
    assert report.errors == 0, [f"{i.code}: {i.message}" for i in report.issues]
    # only intended warnings: a single-file stretch
    assert set(report.codes()) <= {"single-file"}


@pytest.mark.parametrize("path", TRACKS, ids=lambda p: p.name)
def test_is_a_closed_loop_that_fits_a_board(path, bundled):
    track = bundled[path.stem]
    g = TrackGeometry(track)
    assert track.centerline.closed and g.wraps
    assert not any(g.straddles_seam)
    xs = [x for sp in track.spaces for x, _y in sp.corners]
    ys = [y for sp in track.spaces for _x, y in sp.corners]
    assert max(xs) - min(xs) <= BOARD_LIMIT[0] and max(ys) - min(ys) <= BOARD_LIMIT[1]
    # every space has somewhere to go, over the seam too (long distance)
    assert all(g.forward)


@pytest.mark.parametrize("path", TRACKS, ids=lambda p: p.name)
def test_race_order_grid_after_the_seam_then_lines_then_finish(path, bundled):
    track = bundled[path.stem]
    g = TrackGeometry(track)
    grid = [g.index[s] for s in track.start_grid]
    assert max(g.front[i] for i in grid) < g.length * 0.1
    progress = g.line_progress
    assert progress == sorted(progress)
    assert progress[0] > max(g.front[i] for i in grid)
    assert progress[FINISH] > g.length * 0.9


@pytest.mark.parametrize("path", TRACKS, ids=lambda p: p.name)
def test_a_full_race_of_38_to_50_spaces_from_every_grid_slot(path, bundled):
    """Each grid slot reaches the finish (R-FIN-1) after 38 to 50 forward
    steps: short enough that the standard deck carries the cars home (the
    balance figures in the README), long enough for three betting lines."""
    track = bundled[path.stem]
    g = TrackGeometry(track)
    distances = {sid: forward_distance(g, g.index[sid]) for sid in track.start_grid}
    assert all(d is not None and 38 <= d <= 50 for d in distances.values()), distances


@pytest.mark.parametrize("path", TRACKS, ids=lambda p: p.name)
def test_the_pole_car_can_make_a_legal_move(path, bundled):
    """R-MOVE-4: on the empty track the pole car moves its full number."""
    track = bundled[path.stem]
    g = TrackGeometry(track)
    others = {g.index[s] for s in track.start_grid[1:]}
    moves = MoveGraph(g).moves(g.index[track.start_grid[0]], 6, others)
    assert moves and all(len(m.path) == 6 and not m.blocked for m in moves)


def test_make_tracks_regenerates_the_bundled_files_exactly():
    result = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "make_tracks.py"), "--check"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize("path", TRACKS, ids=lambda p: p.name)
def test_keeps_the_lane_layout_that_gives_its_spaces(path):
    """A designer's copy of a bundled circuit can be laid out again: the layout it keeps,
    built as the editor's Lanes tool builds it, gives its spaces, in order, in place."""
    from trackside.engine.track.loop_fit import build_kept, kept_ids

    track = load_track(path)
    assert len(track.lane_layouts) == 1
    kept = track.lane_layouts[0]
    built = build_kept(kept).spaces
    assert [kept_ids(kept)[sp.id] for sp in built] == [sp.id for sp in track.spaces]
    for new, old in zip(built, track.spaces, strict=True):
        flat = [v for corner in new.corners for v in corner]
        assert flat == pytest.approx([v for corner in old.corners for v in corner], abs=0.001)


def test_a_lane_can_be_added_at_the_single_file_cut_of_quarry_hairpin():
    """Suggest fixes can offer a lane more where cars jam on a bundled circuit: at the
    single-file cut, its one-lane straight with two lanes."""
    from trackside.engine.balance.lane_fixes import lane_fixes

    track = load_track(ROOT / "tracks" / "quarry-hairpin.yaml")
    fixes = lane_fixes(track, [["a28"]])  # the space validate names as single file
    widened = [f.edit.text for f in fixes if f.edit.proposal.steps == 1]
    said = "(1 lane there now, 2 after, where cars jam at a28)"
    assert any(said in text for text in widened), widened
