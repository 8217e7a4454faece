"""``--cluster ADDRESS`` on ``simulate`` (with ``--against`` too), ``sweep`` and ``suggest``:
the games on a Dask cluster of two worker processes on this machine give the reports the
local processes give."""

from __future__ import annotations

import json

import pytest
from distributed import LocalCluster

from trackside.cli.main import main

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def address():
    with LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0", scheduler_port=0
    ) as cluster:
        yield cluster.scheduler_address


def report_of(capsys, path, *argv) -> dict:
    code = main([*argv, "--report", str(path)])
    _out, err = capsys.readouterr()
    assert code == 0, err
    return without_seconds(json.loads(path.read_text()))


def without_seconds(data):
    """``data`` without the times taken, which differ from run to run."""
    if isinstance(data, dict):
        return {k: without_seconds(v) for k, v in data.items() if k != "seconds"}
    if isinstance(data, list):
        return [without_seconds(v) for v in data]
    return data


def test_simulate_on_the_cluster_gives_the_report_of_local_processes(capsys, tmp_path, address):
    argv = ["simulate", "--track", "estuary-sweep", "--games", "30", "--seed", "9"]
    there = report_of(capsys, tmp_path / "there.json", *argv, "--cluster", address)
    here = report_of(capsys, tmp_path / "here.json", *argv, "--workers", "2")
    assert there == here and there["games"] == 30


def test_a_sweep_on_the_cluster_gives_the_report_of_local_processes(capsys, tmp_path, address):
    argv = ["sweep", "--set", "bonuses.determined=0,2", "--track", "harbour-loop", "--games", "20"]
    there = report_of(capsys, tmp_path / "there.json", *argv, "--cluster", address)
    here = report_of(capsys, tmp_path / "here.json", *argv, "--workers", "2")
    assert there == here and there["complete"]
    code = main([*argv, "--cluster", address])
    assert code == 0 and "on the Dask cluster at tcp://" in capsys.readouterr().err


def test_two_variants_compared_on_the_cluster_give_the_comparison_played_here(
    capsys, tmp_path, address
):
    argv = ["simulate", "--track", "harbour-loop", "--games", "60", "--against", "beginner"]
    there = report_of(capsys, tmp_path / "there.json", *argv, "--cluster", address)
    here = report_of(capsys, tmp_path / "here.json", *argv)
    assert there == here and there["format"] == "trackside-comparison/1"
    assert there["a"]["games"] == there["b"]["games"] == 60


def test_suggest_on_the_cluster_ranks_the_fixes_local_processes_rank(capsys, tmp_path, address):
    argv = ["suggest", "--track", "quarry-hairpin", "--games", "20"]
    there = report_of(capsys, tmp_path / "there.json", *argv, "--cluster", address)
    here = report_of(capsys, tmp_path / "here.json", *argv, "--workers", "2")
    assert there == here and there["format"] == "trackside-fixes/2" and there["fixes"]
