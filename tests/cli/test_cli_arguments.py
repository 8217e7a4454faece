"""Words a command does not take: a circuit given without --track gets the command line
that gives it with --track, an option the command lacks names the command and its help;
one line, exit code 2, never argparse's top-level usage."""

from __future__ import annotations

import json
import shlex

import pytest
from repo_paths import FIXTURES, ROOT

from trackside.cli.main import build_parser, main

RECORD = str(FIXTURES / "records" / "auction-example.yaml")  # a game stopped in its auction
VARIANT = str(ROOT / "variants" / "beginner.yaml")


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def hinted_command(err: str) -> list[str]:
    """The words of the command line the message gives as the fix."""
    fix = err[err.rindex("(run: trackside ") + len("(run: trackside ") : err.rindex(")")]
    return shlex.split(fix)


@pytest.mark.parametrize(
    "argv",
    [
        ["suggest", "my-circuit.yaml"],
        ["simulate", "my-circuit.yaml", "--games", "10"],
        ["sweep", "--games", "10", "my-circuit.yaml", "--set", "hand.size=10,12"],
        ["play", "my-circuit.yaml", "--seed", "3"],
    ],
)
def test_a_circuit_without_track_gets_the_command_line_with_track(capsys, argv):
    command = argv[0]
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert err.startswith(f"trackside: my-circuit.yaml: {command} takes the circuit with --track")
    assert "usage:" not in err
    fixed = hinted_command(err)
    args, leftover = build_parser(fixed).parse_known_args(fixed)
    assert leftover == [] and args.command == command and args.track == ["my-circuit.yaml"]
    assert sorted(fixed) == sorted([*argv, "--track"])  # every other word kept as given


def test_several_circuits_each_get_track_and_a_bundled_name_counts(capsys):
    code, _out, err = run(capsys, "simulate", "a.yaml", "harbour-loop", "--games", "5")
    assert code == 2 and "simulate takes each circuit with --track" in err
    assert hinted_command(err) == [
        "simulate",
        "--track",
        "a.yaml",
        "--track",
        "harbour-loop",
        "--games",
        "5",
    ]


def test_a_file_name_with_a_space_is_quoted_in_the_command_given(capsys):
    code, _out, err = run(capsys, "suggest", "my circuit.yaml")
    assert code == 2 and "(run: trackside suggest --track 'my circuit.yaml')" in err


def test_with_json_the_refusal_is_json_on_stdout(capsys):
    code, out, err = run(capsys, "suggest", "--json", "my-circuit.yaml")
    assert code == 2 and "takes the circuit with --track" in err
    error = json.loads(out)["error"]
    assert error["file"] == "my-circuit.yaml"
    assert error["hint"] == "run: trackside suggest --json --track my-circuit.yaml"


@pytest.mark.parametrize(
    "argv, option",
    [
        (["suggest", "--plot", "x.png"], "--plot"),
        (["suggest", "--track", "harbour-loop", "--until-clear"], "--until-clear"),
        (["suggest", "--plot=x.png"], "--plot"),
        (["play", "my-circuit.yaml", "--games", "3"], "--games"),  # the option comes first
    ],
)
def test_an_option_the_command_lacks_names_it_and_the_command_s_help(capsys, argv, option):
    command = argv[0]
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and "usage:" not in err
    assert err == (
        f"trackside: {option}: {command} has no such option (see trackside {command} --help)\n"
    )


def test_a_game_record_given_to_play_is_resumed_not_given_track(capsys):
    code, out, err = run(capsys, "play", RECORD, "--seats", "greedy,greedy,greedy")
    assert code == 2 and out == "" and err.count("\n") == 1
    assert err.startswith(f"trackside: {RECORD}: is a game record, not a track file: ")
    assert "--track" not in err
    fixed = hinted_command(err)
    assert fixed == ["play", "--resume", RECORD, "--seats", "greedy,greedy,greedy"]
    code, out, _err = run(capsys, *fixed)
    assert code == 0 and "Winner" in out  # the command given continues the game to its end


@pytest.mark.parametrize(
    "argv", [["simulate"], ["suggest"], ["sweep", "--games", "5", "--set", "hand.size=10,12"]]
)
def test_a_game_record_given_elsewhere_names_resume_and_replay(capsys, argv):
    code, _out, err = run(capsys, *argv, RECORD)
    assert code == 2 and "--track" not in err
    assert err == (
        f"trackside: {RECORD}: is a game record, not a track file (continue its game with: "
        f"trackside play --resume {RECORD}; check its result with: trackside replay {RECORD})\n"
    )


def test_a_variant_file_is_given_variant_and_a_circuit_beside_it_track(capsys):
    code, _out, err = run(capsys, "simulate", "harbour-loop", VARIANT, "--games", "5")
    assert code == 2
    assert "simulate takes the circuit with --track and the variant with --variant" in err
    assert hinted_command(err) == [
        "simulate",
        "--track",
        "harbour-loop",
        "--variant",
        VARIANT,
        "--games",
        "5",
    ]
    code, _out, err = run(capsys, "play", VARIANT, VARIANT)
    assert code == 2 and "play takes one variant (with --variant)" in err


def test_a_word_that_is_no_circuit_is_not_given_track(capsys):
    code, _out, err = run(capsys, "simulate", "100")
    assert code == 2
    assert err == (
        "trackside: 100: simulate does not take this argument (see trackside simulate --help)\n"
    )


def test_an_unknown_option_before_any_command_names_trackside_s_help(capsys):
    code, _out, err = run(capsys, "--bogus")
    assert code == 2
    assert err == "trackside: --bogus: trackside has no such option (see trackside --help)\n"


def test_a_double_dash_is_no_word_of_its_own(capsys):
    code, _out, err = run(capsys, "suggest", "--", "my-circuit.yaml")
    assert code == 2 and "(run: trackside suggest --track my-circuit.yaml)" in err
    code, _out, err = run(capsys, "--")
    assert code == 2 and err.startswith("usage: trackside")  # no command: the help


TRACK = str(ROOT / "tracks" / "harbour-loop.yaml")


@pytest.mark.parametrize(
    ("argv", "found", "wanted"),
    [
        (["play", "--track", RECORD, "--seats", "greedy,greedy,greedy"], "game record", "track"),
        (["simulate", "--track", VARIANT, "--games", "5"], "variant file", "track"),
        (["play", "--variant", TRACK, "--seats", "greedy,greedy,greedy"], "track file", "variant"),
        (["play", "--resume", TRACK], "track file", "record"),
    ],
)
def test_a_file_of_another_kind_given_to_an_option_is_named_for_what_it_is(
    capsys, argv, found, wanted
):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert f"this is a {found}" in err and f"'format: trackside-{wanted}/1'" in err
    assert ":1:9:" in err or ":6:9:" in err  # at its format line, not at a list of keys


def test_a_game_record_is_named_in_the_same_words_given_bare_or_to_track(capsys):
    """Given as a stray word or to --track, a game record is told in the same words."""
    _code, _out, bare = run(capsys, "simulate", RECORD)
    _code, _out, given = run(capsys, "simulate", "--games", "5", "--track", RECORD)
    said = "is a game record, not a track file"
    assert f"{RECORD}: {said} (" in bare
    assert f"this {said.replace(',', ' (trackside-record/1),')} (" in given
