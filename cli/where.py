"""Where the games of ``simulate``, ``suggest`` and ``sweep`` run: ``--workers N``
local processes (here when 1), or ``--cluster ADDRESS``, the workers of a Dask
scheduler the user started (``engine/balance/executors.py``; docs/balance.md says
how to start one). The totals are the same wherever the games ran."""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from contextlib import contextmanager

from trackside.engine.balance.executors import DaskCluster, Executor
from trackside.engine.errors import Place, TracksideError

MAX_WORKERS = 64


def add_where_options(parser: argparse.ArgumentParser) -> None:
    """--workers and --cluster."""
    parser.add_argument(
        "--workers",
        type=int,
        default=1,
        metavar="N",
        help="play in N local processes (the same seed gives the same totals; default 1)",
    )
    parser.add_argument(
        "--cluster",
        metavar="ADDRESS",
        help="play on the workers of the Dask scheduler at ADDRESS (tcp://HOST:8786; "
        "needs trackside[cluster], docs/balance.md); the same totals as here",
    )


def check_workers(workers: int) -> None:
    """Refuse a --workers count out of range."""
    if not 1 <= workers <= MAX_WORKERS:
        raise TracksideError(
            f"cannot use {workers} workers; give 1 to {MAX_WORKERS}", Place("--workers")
        )


def check_where(args: argparse.Namespace) -> None:
    """Refuse --workers out of range, or given with --cluster (whose workers play)."""
    check_workers(args.workers)
    if args.cluster is not None:
        if args.workers != 1:
            raise TracksideError(
                "--workers counts local processes; with --cluster the cluster's workers play",
                Place("--workers"),
                "give one of --workers and --cluster",
            )
        if not args.cluster.strip():
            raise TracksideError("the address is empty", Place("--cluster"), "tcp://HOST:8786")


@contextmanager
def games_executor(args: argparse.Namespace) -> Iterator[int | Executor]:
    """The cluster of --cluster, connected for the block (and let go after, its tasks
    stopped), or the number of local processes of --workers."""
    if args.cluster is None:
        yield args.workers
        return
    with DaskCluster.connect(args.cluster.strip()) as cluster:
        yield cluster
