"""``trackside suggest`` says which kinds of fix it could not try and why, what each
fix makes worse, and how long its games took (as ``simulate`` does)."""

from __future__ import annotations

import json
import re

from trackside.cli.main import main
from trackside.engine.balance.edits import Proposal, make_edit
from trackside.engine.records import open_track
from trackside.engine.track.model import save_track


def test_suggest_names_the_fixes_it_could_not_try_and_times_its_games(capsys, tmp_path):
    """Quarry Hairpin with its finish one row behind the grid: the grid cannot move back,
    and the report says so instead of leaving the grid out in silence."""
    edit = make_edit(open_track("quarry-hairpin"), Proposal("line", -3))
    assert edit is not None
    path = tmp_path / "finish-behind-grid.yaml"
    save_track(edit.track, path)
    report = tmp_path / "fixes.json"
    code = main(["suggest", "--track", str(path), "--games", "20", "--report", str(report)])
    out, err = capsys.readouterr()
    assert code == 0
    assert "Not tried:" in out
    assert (
        "  The grid cannot move back: the finish line is only 1 row behind it (move the "
        "finish line earlier first)." in out.splitlines()
    )
    data = json.loads(report.read_text())
    assert any(why.startswith("The grid cannot move back") for why in data["untried"])
    assert data["played"] == 20 * (len(data["fixes"]) + 2)
    timing = re.search(r"simulated ([\d,]+) games in [\d.]+ s \([\d.]+ games/s\)", err)
    assert timing and int(timing[1].replace(",", "")) == data["played"]
    for fix in data["fixes"]:
        assert {"parts", "worse"} <= set(fix)
