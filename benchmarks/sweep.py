#!/usr/bin/env python3
"""Benchmark: a sweep's time on local worker processes or a Dask cluster, and what a
task costs there.

Plays a sweep of ``--settings`` values of ``payouts.race.0`` (0, 1, 2, ...) on one
circuit, ``--games`` games a setting, as ``trackside sweep`` does, and prints the
wall time, the CPU time of this process and of the worker processes (children of
this one: the local processes, or the workers of ``--cluster local``, a Dask
``LocalCluster`` of ``--workers`` worker processes started here), games per CPU
second of a worker, and the time the same sweep would take on ``--workers`` idle
cores (CPU time over workers: on a shared machine the wall time says little).

On a Dask cluster it also hands out ``--empty-tasks`` tasks of no game, to measure
what a task costs beyond its games (the scheduler's and the workers' share), and
projects a sweep of ``--project`` games with ``--project-bots`` from games of
those bots timed on the cluster.

Run from the repository root: ``python benchmarks/sweep.py [--settings 24]
[--games 2000] [--workers 2] [--cluster local|ADDRESS] [--bots greedy]``.
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from trackside.engine.balance.executors import DaskCluster, Executor
from trackside.engine.balance.runner import played_parts
from trackside.engine.balance.sweep import (
    Circuit,
    Sweep,
    SweepResults,
    parse_set,
    play_report,
    run_sweep,
)
from trackside.engine.records import open_variant


def cpu(who: int) -> float:
    """CPU seconds (user and system) of this process or of its waited-for children."""
    used = resource.getrusage(who)
    return used.ru_utime + used.ru_stime


def measured(work: Callable[[], object]) -> tuple[float, float, float]:
    """Wall, own CPU and children's CPU seconds of ``work()``."""
    wall, own, children = (
        time.perf_counter(),
        cpu(resource.RUSAGE_SELF),
        cpu(resource.RUSAGE_CHILDREN),
    )
    work()
    return (
        time.perf_counter() - wall,
        cpu(resource.RUSAGE_SELF) - own,
        cpu(resource.RUSAGE_CHILDREN) - children,
    )


def sweep_of(args: argparse.Namespace, games: int, bots: str) -> SweepResults:
    standard = open_variant("standard")
    axis = parse_set(f"payouts.race.0=0..{args.settings - 1}", standard)
    circuit = Circuit.open(args.track)
    players = 4
    sweep = Sweep(
        "standard", standard, (axis,), (circuit,), players, games, 0, tuple(bots.split(","))
    )
    return SweepResults.fresh(sweep, sweep.settings())


def play(results: SweepResults, where: int | Executor) -> None:
    assert run_sweep(results.settings, results.results, where)


def empty_tasks(results: SweepResults, where: Executor, count: int) -> None:
    runs = [s.run for s in results.settings]
    tasks = [(k % len(runs), 0, 0) for k in range(count)]
    for _k, _part in played_parts(play_report, runs, tasks, where):
        pass


def report(what: str, games: int, workers: int, wall: float, own: float, children: float) -> None:
    per_game = children / games if games else 0.0
    print(
        f"{what}: {games:,} games, wall {wall:.1f} s; CPU {own:.1f} s here, {children:.1f} s "
        f"in the workers ({per_game * 1000:.2f} ms a game, {1 / per_game if per_game else 0:.0f} "
        f"games a CPU second); on {workers} idle cores about {(own + children) / workers:.0f} s"
    )


def worker_cpu(cluster: DaskCluster) -> float:
    """CPU seconds the cluster's workers and scheduler have used so far."""
    workers = cluster.client.run(time.process_time)
    scheduler = cluster.client.run_on_scheduler(time.process_time)
    return float(sum(workers.values()) + scheduler)


def on_cluster_cpu(cluster: DaskCluster, work: Callable[[], object]) -> tuple[float, float]:
    """Wall seconds of ``work()``, and the CPU seconds it took here and on the cluster
    (workers and scheduler; for a LocalCluster the scheduler runs here: counted once)."""
    wall, own, there = time.perf_counter(), cpu(resource.RUSAGE_SELF), worker_cpu(cluster)
    work()
    return time.perf_counter() - wall, cpu(resource.RUSAGE_SELF) - own + worker_cpu(cluster) - there


def on_cluster(
    args: argparse.Namespace, results: SweepResults, cluster: DaskCluster, address: str
) -> None:
    """The sweep, tasks of no game and a few games of the projected bots, on the cluster."""
    workers = sum(cluster.client.nthreads().values())
    games = args.settings * args.games
    print(f"the Dask cluster at {address}: {workers} worker threads")
    wall, used = on_cluster_cpu(cluster, lambda: play(results, cluster))
    print(
        f"sweep: {games:,} games in {len(results.settings)} settings, wall {wall:.1f} s; "
        f"{used:.1f} s of CPU ({1000 * used / games:.2f} ms a game, "
        f"{games / used:.0f} games a CPU second of a worker); on {workers} idle cores "
        f"about {used / workers:.0f} s"
    )
    count = args.empty_tasks
    wall_empty, used_empty = on_cluster_cpu(cluster, lambda: empty_tasks(results, cluster, count))
    per_task = used_empty / count
    size = cluster.task_games
    task_games = size * used / games
    print(
        f"{count:,} tasks of no game: {count / wall_empty:.0f} tasks/s, {1000 * per_task:.2f} ms "
        f"of CPU a task (here, scheduler and worker); a task of {size} games takes "
        f"{1000 * task_games:.0f} ms of CPU: {100 * per_task / task_games:.1f}% more"
    )
    slow = sweep_of(args, args.project_games, args.project_bots)
    slow_results = SweepResults.fresh(slow.sweep, slow.settings[:1])
    _wall, used_slow = on_cluster_cpu(cluster, lambda: play(slow_results, cluster))
    per_game = used_slow / args.project_games
    projected = args.project * (per_game + per_task / size) / workers
    print(
        f"{args.project_bots} bots: {args.project_games} games, {per_game:.2f} s of CPU a game; "
        f"{args.project:,} such games on {workers} worker cores: about "
        f"{projected / 3600:.1f} h ({projected / 60:.0f} min), the tasks' share "
        f"{args.project / size * per_task / workers:.0f} s"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--settings", type=int, default=24)
    parser.add_argument("--games", type=int, default=2000, help="games a setting")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--track", default="harbour-loop")
    parser.add_argument("--bots", default="greedy")
    parser.add_argument("--cluster", help="'local' (a LocalCluster started here) or an address")
    parser.add_argument("--empty-tasks", type=int, default=2000)
    parser.add_argument("--project", type=int, default=100_000, help="games to project")
    parser.add_argument("--project-bots", default="strong")
    parser.add_argument("--project-games", type=int, default=40, help="games timed for it")
    args = parser.parse_args()

    results = sweep_of(args, args.games, args.bots)
    games = args.settings * args.games
    if not args.cluster:
        wall, own, children = measured(lambda: play(results, args.workers))
        report(f"{args.workers} local processes", games, args.workers, wall, own, children)
        return 0
    local = None
    address = args.cluster
    if args.cluster == "local":
        from distributed import LocalCluster

        local = LocalCluster(
            n_workers=args.workers,
            threads_per_worker=1,
            processes=True,
            dashboard_address=":0",
            scheduler_port=0,
        )
        address = local.scheduler_address
    try:
        with DaskCluster.connect(address) as cluster:
            on_cluster(args, results, cluster, address)
    finally:
        if local is not None:
            local.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
