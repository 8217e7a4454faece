"""Where the games run: here, local worker processes, a Dask cluster of worker processes
on this machine. The totals are the same wherever they ran; stopping cancels the work
everywhere and keeps what finished; a worker of another version plays nothing."""

from __future__ import annotations

import pickle

import pytest
from distributed import LocalCluster

from trackside.engine.balance import BalanceRun, executors, run_balance
from trackside.engine.balance.executors import (
    DaskCluster,
    LocalProcesses,
    OtherVersion,
    Parcel,
    check_part,
    versioned,
)
from trackside.engine.balance.sweep import Circuit, Sweep, SweepResults, parse_set, run_sweep
from trackside.engine.errors import TracksideError
from trackside.engine.records import open_track, open_variant

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def cluster():
    """A Dask scheduler with two worker processes on this machine, as a designer's
    machines would run them (``dask scheduler``, ``dask worker ADDRESS``)."""
    with LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        dashboard_address=":0",
        scheduler_port=0,
    ) as local:
        yield local.scheduler_address


@pytest.fixture(scope="module")
def quarry_run() -> BalanceRun:
    return BalanceRun(open_track("quarry-hairpin"), open_variant("standard"), 4, 40, seed=11)


def test_the_cluster_and_local_processes_give_identical_totals(cluster, quarry_run):
    here = run_balance(quarry_run)
    with DaskCluster.connect(cluster) as dask:
        on_cluster = run_balance(quarry_run, dask)
    with LocalProcesses(2) as local:
        in_processes = run_balance(quarry_run, local)
    assert on_cluster == in_processes == here
    assert on_cluster.to_dict()["totals"] == here.to_dict()["totals"]
    assert on_cluster.games == 40 and not on_cluster.cancelled


def test_a_sweep_on_the_cluster_is_the_sweep_played_here(cluster):
    standard = open_variant("standard")
    axes = (parse_set("payouts.race.0=10,12", standard),)
    sweep = Sweep("standard", standard, axes, (Circuit.open("harbour-loop"),), 4, 25, 2)
    here, there = (SweepResults.fresh(sweep, sweep.settings()) for _ in range(2))
    assert run_sweep(here.settings, here.results)
    with DaskCluster.connect(cluster) as dask:
        assert run_sweep(there.settings, there.results, dask)
    assert [r.report for r in there.results] == [r.report for r in here.results]


def test_stopping_cancels_the_tasks_on_the_cluster_and_keeps_what_finished(cluster, quarry_run):
    run = BalanceRun(quarry_run.track, quarry_run.variant, 4, 400, seed=1)
    parts: list[int] = []
    handed_out = []
    with DaskCluster.connect(cluster) as dask:
        submit = dask.submit

        def recorded(*args):
            handed_out.append(submit(*args))
            return handed_out[-1]

        dask.submit = recorded  # type: ignore[method-assign]
        report = run_balance(run, dask, progress=parts.append, cancelled=lambda: len(parts) >= 2)
        assert report.cancelled and 2 * dask.task_games <= report.games < 400
        assert report.games % dask.task_games == 0  # whole parts, as they finished
        statuses = [task.status for task in handed_out]
        assert "cancelled" in statuses and set(statuses) <= {"finished", "cancelled"}
        client = dask.client
    assert client.status == "closed"


def test_a_worker_of_another_version_is_refused_at_once(cluster, monkeypatch):
    monkeypatch.setattr(executors, "__version__", "0.0.0-elsewhere")
    with pytest.raises(TracksideError) as caught:
        DaskCluster.connect(cluster)
    message = str(caught.value)
    assert "2 of 2 Dask workers run another version of Trackside" in message
    assert "this is 0.0.0-elsewhere" in message and "install trackside 0.0.0-elsewhere" in message


def test_a_task_handed_out_by_another_version_plays_nothing():
    answer = versioned("0.0.0-other", pytest.fail, "a game would have been played")
    assert isinstance(answer, OtherVersion)
    with pytest.raises(TracksideError, match=r"a worker on .* runs Trackside .*install trackside"):
        check_part(answer, "the cluster")
    assert versioned(executors.__version__, len, "abc") == 3


def test_a_scheduler_that_is_not_there_is_said_clearly():
    with pytest.raises(
        TracksideError, match=r"cannot reach a Dask scheduler at tcp://127\.0\.0\.1:9"
    ):
        DaskCluster.connect("tcp://127.0.0.1:9", timeout=1)


def test_a_parcel_is_unpacked_once_per_process(quarry_run):
    parcel = Parcel((quarry_run,))
    first, second = pickle.loads(pickle.dumps(parcel)), pickle.loads(pickle.dumps(parcel))
    assert first is second and first[0] == quarry_run
    assert first[0].track is second[0].track  # one board, one warm move cache a worker
