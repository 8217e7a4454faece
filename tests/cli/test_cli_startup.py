"""The CLI starts fast: help loads no subcommand's heavy libraries."""

from __future__ import annotations

import argparse
import re
import subprocess
import sys

import pytest
from repo_paths import FIXTURES

from trackside.cli.main import COMMANDS, build_parser, chosen_command, command_module

HEAVY = ("shapely", "jsonschema", "yaml", "numpy", "PySide6")
# The commands whose module this helper keeps light (play, replay and simulate
# load the rules engine when named).
LIGHT_HELP = ([], ["validate"], ["moves"], ["render"], ["edit"])


def imported(args: list[str]) -> set[str]:
    """Top-level names of the modules ``python -m trackside ARGS --help`` imports."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "trackside", *args, "--help"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "usage: trackside" in done.stdout
    names = re.findall(r"^import time:\s+\d+ \|\s+\d+ \|\s*(\S+)$", done.stderr, re.MULTILINE)
    assert names, "no -X importtime output"
    return {name.split(".")[0] for name in names}


@pytest.mark.parametrize("args", LIGHT_HELP, ids=lambda a: " ".join(a) or "top")
def test_help_loads_no_heavy_library(args):
    loaded = imported(args)
    assert not loaded & set(HEAVY), f"help of {args} imported {sorted(loaded & set(HEAVY))}"


def test_the_summaries_are_the_ones_the_modules_give():
    """The top-level help lists each command by the summary in ``COMMANDS``;
    the module's own parser must say the same."""
    for name, summary in COMMANDS.items():
        parser = argparse.ArgumentParser()
        sub = parser.add_subparsers()
        module = command_module(name)
        module.add_parser(sub)
        helps = {action.dest: action.help for action in sub._choices_actions}
        assert helps == {name: summary}


def test_the_command_is_the_first_word_that_is_no_option():
    assert chosen_command(["validate", "--json", "x.yaml"]) == "validate"
    assert chosen_command(["--help"]) is None
    assert chosen_command(["bogus", "validate"]) is None
    assert chosen_command([]) is None


def test_only_the_named_command_has_its_options():
    parser = build_parser(["moves"])
    args = parser.parse_args(["moves", "harbour-loop", "--car", "red", "--spaces", "2"])
    assert args.spaces == 2 and callable(args.run)


def test_validating_a_valid_track_leaves_jsonschema_unloaded():
    """jsonschema (a fifth of the start-up) only words violations; numpy.ma (a
    tenth) is not needed at all."""
    track = str(FIXTURES / "valid-loop.yaml")
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "trackside", "validate", track],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    names = set(re.findall(r"^import time:\s+\d+ \|\s+\d+ \|\s*(\S+)$", done.stderr, re.M))
    assert "shapely" in names  # the geometry is checked
    assert not names & {"jsonschema", "numpy.ma"}
