"""``trackside validate``: text and JSON output, exit codes 0 / 1 / 2."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from repo_paths import FIXTURES

from trackside.cli.main import main
from trackside.engine.resources import bundled_tracks

VALID = str(FIXTURES / "valid-loop.yaml")
DEAD_END = str(FIXTURES / "invalid" / "dead-end.yaml")
WARN_ONLY = str(FIXTURES / "invalid" / "single-file.yaml")
ISSUE = re.compile(
    r"^(?P<file>[^:]+):(?P<line>\d+):(?P<col>\d+): (?P<sev>error|warning) "
    r"(?P<code>[a-z0-9-]+): (?P<msg>.+)$"
)


def run(capsys, *args):
    code = main(["validate", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_valid_track_exits_0(capsys):
    code, out, err = run(capsys, VALID)
    assert code == 0 and err == ""
    assert out == f"{VALID}: ok\n"


def test_errors_exit_1_one_line_per_issue_then_a_summary(capsys):
    code, out, err = run(capsys, DEAD_END)
    lines = out.splitlines()
    assert code == 1 and err == ""
    issues = [ISSUE.match(line) for line in lines[:-1]]
    assert all(issues), lines
    assert issues[0]["file"] == DEAD_END
    assert (issues[0]["line"], issues[0]["col"], issues[0]["sev"], issues[0]["code"]) == (
        "37",
        "3",
        "error",
        "dead-end",
    )
    assert "space a6" in issues[0]["msg"]
    assert lines[-1] == f"{DEAD_END}: 8 errors, 1 warning"


def test_warnings_alone_exit_0(capsys):
    code, out, _ = run(capsys, WARN_ONLY)
    assert code == 0
    assert "warning single-file" in out and out.endswith("0 errors, 1 warning\n")


def test_a_betting_line_two_rows_before_the_finish_is_warned_of(capsys):
    """R-BET-1, R-BET-2: a bet made after the card that crossed a line two rows before
    the finish comes when the race is all but decided; the warning points at the line."""
    near = str(FIXTURES / "invalid" / "bet-near-finish.yaml")
    code, out, _err = run(capsys, near)
    (line,) = [m for m in map(ISSUE.match, out.splitlines()) if m]
    assert code == 0 and line["sev"] == "warning" and line["code"] == "bet-near-finish"
    assert line["msg"].startswith("betting line 3 is 2 rows before the finish: ")
    assert line["msg"].endswith("move the line back to at least 3 rows before the finish")
    code, out, _err = run(capsys, "--json", near)
    (issue,) = json.loads(out)[0]["issues"]
    assert issue["line"] == 2 and issue["path"] == ["betting_lines", 2]  # the editor jumps there


def test_the_bundled_circuits_leave_room_after_every_betting_line(capsys):
    names = [path.stem for path in bundled_tracks()]
    code, out, _err = run(capsys, *names)
    assert code == 0 and names and "bet-near-finish" not in out


def test_several_files_worst_wins_and_all_are_reported(capsys, tmp_path):
    missing = str(tmp_path / "missing.yaml")
    code, out, err = run(capsys, VALID, missing, DEAD_END)
    assert code == 2
    assert f"{VALID}: ok" in out and f"{DEAD_END}: 8 errors, 1 warning" in out
    assert f"{missing}: cannot be read" in out
    assert err == f"trackside: {missing}: no such file\n"
    code, _, _ = run(capsys, VALID, DEAD_END)
    assert code == 1


def test_json_is_one_list_in_the_order_given(capsys, tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("format: [\n")
    code, out, err = run(capsys, "--json", DEAD_END, VALID, str(bad))
    assert code == 2 and err == ""
    data = json.loads(out)
    assert [d["file"] for d in data] == [DEAD_END, VALID, str(bad)]
    first, second, third = data
    assert first["readable"] and not first["ok"] and first["errors"] == 8
    assert first["issues"][0]["code"] == "dead-end"
    assert first["issues"][0]["yaml_line"] == 37
    assert second["ok"] and second["issues"] == []
    assert third["readable"] is False and third["ok"] is False
    assert "YAML syntax error" in third["unreadable"]["message"]
    assert third["unreadable"]["line"] == 2


def test_schema_errors_name_the_key(capsys, tmp_path):
    path = tmp_path / "schema.yaml"
    path.write_text(Path(VALID).read_text().replace("closed: true", "closed: maybe"))
    code, out, _ = run(capsys, str(path))
    assert code == 1
    match = ISSUE.match(out.splitlines()[0])
    assert match and match["code"] == "schema" and match["line"] == "9"
    assert "centerline.closed" in match["msg"]


def test_an_unknown_key_is_reported_at_its_own_line(capsys, tmp_path):
    """A key the track format does not know is pointed at where it is written (not
    at line 1, where the document begins)."""
    path = tmp_path / "typo.yaml"
    text = Path(VALID).read_text()
    line = text[: text.index("centerline:")].count("\n") + 1
    path.write_text(text.replace("centerline:", "tolerence: 2\ncenterline:", 1))
    code, out, _ = run(capsys, str(path))
    match = ISSUE.match(out.splitlines()[0])
    assert code == 1 and match and match["code"] == "schema"
    assert "unknown key 'tolerence'" in match["msg"] and match["line"] == str(line)


def test_a_misspelt_required_key_is_one_error_at_its_line_with_the_fix(capsys, tmp_path):
    """A required key written wrong is an unknown key and a missing one: said once, at
    the misspelt key's line, with the key it most likely misspells."""
    path = tmp_path / "typo.yaml"
    text = Path(VALID).read_text()
    line = text[: text.index("\nbetting_lines:")].count("\n") + 2
    path.write_text(text.replace("\nbetting_lines:", "\nbeting_lines:", 1))
    code, out, _ = run(capsys, str(path))
    issues = [m for m in map(ISSUE.match, out.splitlines()) if m]
    assert code == 1 and len(issues) == 1, out
    assert issues[0]["line"] == str(line)
    assert "unknown key 'beting_lines'" in issues[0]["msg"]
    assert "did you mean 'betting_lines'?" in issues[0]["msg"]
    assert "missing required key" not in out


def test_a_misspelt_key_is_named_with_the_key_it_most_likely_means(capsys, tmp_path):
    """Also a key that is not required, and in a variant file; one with nothing close
    lists the keys allowed; a required key that is also missing is still said."""
    path = tmp_path / "typo.yaml"
    text = Path(VALID).read_text().replace("\nfinish_line:", "\nfinish_lines:", 1)
    path.write_text(text.replace("centerline:", "tolerence: 2\nzzz: 1\ncenterline:", 1))
    code, out, _ = run(capsys, str(path))
    assert code == 1
    assert "unknown key 'finish_lines' (did you mean 'finish_line'?)" in out
    assert "'tolerence' (did you mean 'tolerance'?), 'zzz' (allowed: " in out
    assert "missing required key" not in out
    variant = tmp_path / "variant.yaml"
    variant.write_text("format: trackside-variant/1\nnmae: Mine\nhnad: {size: 4}\n")
    code, out, err = run(capsys, str(variant))
    assert code == 1 and "missing required key" not in err
    assert err.startswith(f"trackside: {variant}:2:") and "allowed" not in err
    assert "'hnad' (did you mean 'hand'?), 'nmae' (did you mean 'name'?)" in err


def test_a_bracket_left_open_is_named_at_its_line_with_the_fix(tmp_path):
    """A list of corners missing its ']' is noticed on the next line: the error
    names the line where the '[' opens, and says to close it."""
    path = tmp_path / "typo3.yaml"
    lines = Path(VALID).read_text().split("\n")
    at = next(i for i, line in enumerate(lines) if line.lstrip().startswith("corners: [["))
    lines[at] = lines[at].rstrip().removesuffix("]")
    path.write_text("\n".join(lines))
    column = lines[at].index("[") + 1
    result = subprocess.run(
        [sys.executable, "-m", "trackside", "validate", str(path)], capture_output=True, text=True
    )
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert f"{path}:{at + 1}:{column}: " in result.stderr
    assert f"the '[' opened at line {at + 1} is not closed: line {at + 2}" in result.stderr
    assert "(end the list with ']' after its last item)" in result.stderr


def test_no_file_is_a_usage_error():
    result = subprocess.run(
        [sys.executable, "-m", "trackside", "validate"], capture_output=True, text=True
    )
    assert result.returncode == 2
    assert "Traceback" not in result.stderr and "TRACK" in result.stderr


def test_console_run_has_no_traceback(tmp_path):
    (tmp_path / "x.yaml").write_bytes(b"\xff\xfe")
    result = subprocess.run(
        [sys.executable, "-m", "trackside", "validate", str(tmp_path / "x.yaml"), VALID],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert "not UTF-8" in result.stderr and f"{VALID}: ok" in result.stdout


def test_a_variant_file_is_checked_as_the_game_reads_it(capsys, tmp_path):
    """A designer's variant file, given to validate, is read as a variant (its schema,
    what it extends), not refused as a track without a racing line."""
    good = tmp_path / "mine.yaml"
    good.write_text(
        "format: trackside-variant/1\nname: Small hand\nextends: standard\nhand: {size: 4}\n"
    )
    bad = tmp_path / "bad.yaml"
    bad.write_text(
        "format: trackside-variant/1\nname: Bad\nextends: standard\n"
        "payouts:\n  race: [10, 8, 6, 4, 2]\n"
    )
    code, out, err = run(capsys, str(good))
    assert code == 0 and "centerline" not in out + err
    ok = f"{good}: ok (a variant file, Small hand: its rules read and checked)"
    assert out.splitlines()[-1] == ok
    assert "hand.size 4 changes nothing while hand.mode is dealt" in out
    code, out, err = run(capsys, str(bad))
    assert code == 1
    assert f"{bad}:5:" in err and "payouts.race" in err
    code, out, _err = run(capsys, "--json", str(good), "harbour-loop")
    data = json.loads(out)
    assert code == 0 and data[0]["kind"] == "variant" and data[0]["ok"]
    assert "kind" not in data[1] and data[1]["ok"]


def test_every_problem_of_a_variant_file_gets_its_own_line(capsys, tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text(
        "format: trackside-variant/1\nname: Bad\nextends: standard\n"
        "payouts:\n  race: [10, 8, 6, 4, 2]\nhand:\n  size: 0\n"
    )
    code, out, err = run(capsys, str(bad))
    assert code == 1
    lines = err.splitlines()
    assert len(lines) == 2
    assert any(line.startswith(f"trackside: {bad}:5:") for line in lines)
    assert any(line.startswith(f"trackside: {bad}:7:") for line in lines)
    assert out.splitlines()[-1] == f"{bad}: a variant file with 2 problems"


def test_a_syntax_error_in_the_parser_s_words_comes_with_the_common_causes(tmp_path, capsys):
    """A list item where the 'points:' key was (its bracket left open too): the
    parser's words name neither; the hint after them does, at the line it names."""
    text = (FIXTURES / "valid-straight.yaml").read_text(encoding="utf-8")
    points = "  points: [[0.0, 0.0], [560.0, 0.0]]\n"
    assert points in text
    path = tmp_path / "broken.yaml"
    path.write_text(text.replace(points, "  - [0.0, 0.0\n  - [560.0, 0.0]\n"), encoding="utf-8")
    for command in (["validate", str(path)], ["render", str(path), "-o", str(tmp_path / "b.png")]):
        code = main(command)
        err = capsys.readouterr().err
        assert code == 2
        (line,) = [row for row in err.splitlines() if "broken.yaml" in row]
        assert "broken.yaml:5:" in line
        hint = line[line.index("(look at") :]
        assert "line 5" in hint
        assert "bracket" in hint and "quote" in hint and "indentation" in hint


def test_a_schema_problem_reads_alike_from_validate_render_and_simulate(tmp_path, capsys):
    """validate said 'error schema: ...', render and simulate the same problem without
    its code; each names the space by its id."""
    said = _said_by_each_command(_bad_lane(tmp_path), tmp_path, capsys)
    assert len(set(said.values())) == 1, said
    shape = r"t\.yaml:\d+:\d+: error schema: space \w+ \(spaces\[\d+\]\.lane\): "
    assert re.search(shape, said["render"])


def _bad_lane(tmp_path: Path) -> Path:
    """A straight track file with one space's lane not a number."""
    text = (FIXTURES / "valid-straight.yaml").read_text(encoding="utf-8")
    path = tmp_path / "t.yaml"
    path.write_text(text.replace("lane: 1", "lane: one", 1), encoding="utf-8")
    return path


def _said_by_each_command(path: Path, tmp_path: Path, capsys) -> dict[str, str]:
    """The line about the lane that validate, render and simulate each print (all
    refusing the file with exit code 1)."""
    said = {}
    for command in (
        ["validate", str(path)],
        ["render", str(path), "-o", str(tmp_path / "t.png")],
        ["simulate", "--track", str(path), "--games", "1"],
    ):
        assert main(command) == 1
        out, err = capsys.readouterr()
        (line,) = [row for row in (out + err).splitlines() if "lane" in row]
        said[command[0]] = line.removeprefix("trackside: ")
    return said


def test_a_refused_track_s_message_leaves_the_code_to_the_command_line(tmp_path, capsys):
    """load_track's refusal began 'error schema: ...' in the editor's dialogs (New Game's
    tour list, a World Tour, a record's track) too; the command line keeps it."""
    from trackside.engine.errors import InvalidInput
    from trackside.engine.track.model import load_track

    path = _bad_lane(tmp_path)
    with pytest.raises(InvalidInput) as refused:
        load_track(path)
    said = [refused.value.message, str(refused.value), *refused.value.lines()]
    assert all("error schema" not in line for line in said), said
    assert "spaces[" in str(refused.value)
    for line in _said_by_each_command(path, tmp_path, capsys).values():
        assert re.search(r"t\.yaml:\d+:\d+: error schema: space \w+ \(spaces\[", line)


def test_each_missing_key_is_a_line_of_its_own_at_its_place(tmp_path, capsys):
    """Five missing keys were one line of some 700 characters."""
    path = tmp_path / "few.yaml"
    path.write_text("format: trackside-track/1\nname: Few\n", encoding="utf-8")
    code, out, _ = run(capsys, str(path))
    rows = [ISSUE.match(row) for row in out.splitlines()[:-1]]
    assert code == 1 and len(rows) == 5 and all(rows)
    keys = ["betting_lines", "centerline", "finish_line", "spaces", "start_grid"]
    for key in keys:
        (row,) = [r for r in rows if r and repr(key) in r["msg"]]
        assert row["code"] == "schema" and row["sev"] == "error"
        assert not any(repr(other) in row["msg"] for other in keys if other != key)
