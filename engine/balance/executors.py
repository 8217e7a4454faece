"""Where the games of a run are played: here, in local worker processes, or on a
Dask cluster. One interface, ``Executor``, so that ``runner.played_parts`` hands
out tasks of games the same way to each, and the totals never depend on where
they ran.

- ``InProcess``: each task played here when handed out, in task order.
- ``LocalProcesses(n)``: ``n`` spawned worker processes on this machine.
- ``DaskCluster.connect(address)``: the workers of a Dask distributed scheduler
  that the user started (``dask scheduler``, ``dask worker ADDRESS``); Trackside
  only connects to it, and never starts, stops or manages machines. Needs the
  ``cluster`` extra (``pip install 'trackside[cluster]'``).

What every task of a run needs (the circuits and variants, ``share``) is sent to
each worker once, not with every task: a worker then plays every task of a
circuit on one board, whose move cache warms up once. A task carries the
Trackside version it was handed out by, and a worker of another version answers
``OtherVersion`` instead of playing (``check_part``).
"""

from __future__ import annotations

import contextlib
import hashlib
import pickle
import re
import signal
import socket
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Collection, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from multiprocessing import get_context
from types import TracebackType
from typing import Any, TypeVar

from trackside import __version__
from trackside.engine.errors import Place, TracksideError

T = TypeVar("T")
TASK_GAMES = 10  # games a task: a tenth of a second of greedy games, a few seconds of strong
Task = Any  # what ``submit`` gives back: a future of this executor's kind
CONNECT_SECONDS = 10.0  # to reach a scheduler
WORKERS_SECONDS = 30.0  # for a scheduler without workers to get one
# A scheduler's address, as ``dask scheduler`` prints it: tcp://HOST:PORT (or tls, ws...).
ADDRESS = re.compile(r"((tcp|tls|ws|wss|ucx)://)?(\[[0-9a-fA-F:.]+\]|[^:/\s\[\]]+):\d{1,5}")
PARCELS_KEPT = 8  # shared values a worker process keeps (a sweep shares one)


class Executor(ABC):
    """Runs tasks (a function and its arguments) and gives their results back."""

    where = ""  # in words, for messages: "2 local processes"
    task_games = TASK_GAMES  # games in each task handed out

    @abstractmethod
    def slots(self) -> int:
        """How many tasks to keep handed out at once."""

    def share(self, value: T) -> T | Any:
        """What to pass to tasks in place of ``value``, which every task reads and
        none changes: sent to each worker once."""
        return value

    @abstractmethod
    def submit(self, function: Callable[..., T], *args: Any) -> Task:
        """Hand out one task."""

    @abstractmethod
    def finished(self, tasks: Collection[Task], timeout: float) -> list[Task]:
        """Those of ``tasks`` that have finished, waiting at most ``timeout`` seconds
        for the first."""

    @abstractmethod
    def result(self, task: Task) -> Any:
        """The value of a finished task (its exception raised)."""

    @abstractmethod
    def cancel(self, tasks: Collection[Task]) -> None:
        """Stop ``tasks``: those not started never start; closing stops the rest."""

    @abstractmethod
    def close(self) -> None:
        """Stop every worker of ours and let go of the resources."""

    def __enter__(self) -> Executor:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()


class InProcess(Executor):
    """Every task played here, at once, when it is handed out."""

    where = "this process"

    def slots(self) -> int:
        return 1

    def submit(self, function: Callable[..., T], *args: Any) -> Task:
        done: Future[T] = Future()
        try:
            done.set_result(function(*args))
        except Exception as exc:  # given back by result(), as a worker's would be
            done.set_exception(exc)
        return done

    def finished(self, tasks: Collection[Task], timeout: float) -> list[Task]:
        return list(tasks)

    def result(self, task: Task) -> Any:
        return task.result()

    def cancel(self, tasks: Collection[Task]) -> None:
        pass  # each task has finished when it was handed out

    def close(self) -> None:
        pass  # no worker to stop


class LocalProcesses(Executor):
    """``count`` worker processes on this machine, started on the first task."""

    def __init__(self, count: int):
        self.count = count
        self.where = f"{count} local processes"
        self._pool: ProcessPoolExecutor | None = None
        self._stopped = False

    def slots(self) -> int:
        return 2 * self.count

    def share(self, value: T) -> T | Any:
        return Parcel(value)

    def submit(self, function: Callable[..., T], *args: Any) -> Task:
        if self._pool is None:
            # Spawned, not forked: safe beside the editor's threads, and the same on every
            # OS. Ctrl-C is the parent's to handle: it stops the workers itself.
            self._pool = ProcessPoolExecutor(
                self.count, mp_context=get_context("spawn"), initializer=_ignore_interrupts
            )
        return self._pool.submit(function, *args)

    def finished(self, tasks: Collection[Task], timeout: float) -> list[Task]:
        done, _ = wait(tasks, timeout=timeout, return_when=FIRST_COMPLETED)
        return list(done)

    def result(self, task: Task) -> Any:
        return task.result()

    def cancel(self, tasks: Collection[Task]) -> None:
        for task in tasks:
            task.cancel()
        self._stopped = True

    def close(self) -> None:
        pool, self._pool = self._pool, None
        if pool is None:
            return
        if not self._stopped:
            pool.shutdown(wait=True)
            return
        # Stopped: the tasks still running are not waited for.
        pool.shutdown(wait=False, cancel_futures=True)
        _stop_processes(pool)


def _ignore_interrupts() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _stop_processes(pool: ProcessPoolExecutor) -> None:
    """End the pool's worker processes now (Python 3.14 has a method for it; before,
    the pool's table of processes is the only way to them)."""
    terminate = getattr(pool, "terminate_workers", None)
    if terminate is not None:
        terminate()
        return
    processes = getattr(pool, "_processes", None) or {}
    for process in list(processes.values()):
        with contextlib.suppress(Exception):
            process.terminate()


class Parcel:
    """A value pickled once here and unpickled once per worker process (by its
    digest): every task of that process then gets the very same object."""

    def __init__(self, value: object):
        self.data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
        self.key = hashlib.sha256(self.data).hexdigest()

    def __reduce__(self) -> tuple[Callable[[str, bytes], object], tuple[str, bytes]]:
        return _unpacked, (self.key, self.data)


_UNPACKED: dict[str, object] = {}


def _unpacked(key: str, data: bytes) -> object:
    value = _UNPACKED.get(key)
    if value is None:
        if len(_UNPACKED) >= PARCELS_KEPT:
            del _UNPACKED[next(iter(_UNPACKED))]
        value = _UNPACKED[key] = pickle.loads(data)
    return value


# -- Dask --------------------------------------------------------------------------


class DaskCluster(Executor):
    """The workers of a running Dask scheduler (``dask scheduler``), through a client
    of ours: tasks are futures on the cluster, cancelled there when stopped."""

    # A task costs the client, the scheduler and the worker about 10 ms of CPU (measured
    # with benchmarks/sweep.py on a local cluster): 10% of ten greedy games, 2% of fifty.
    task_games = 50

    def __init__(self, client: Any, address: str):
        self.client = client
        self.where = f"the Dask cluster at {address}"
        self._threads = 0
        self._counted = 0.0
        self._news = threading.Event()  # set as a task finishes

    @classmethod
    def connect(cls, address: str, timeout: float = CONNECT_SECONDS) -> DaskCluster:
        """A client of the scheduler at ``address`` with at least one worker, every
        worker running this version of Trackside; a clear error otherwise."""
        try:
            from distributed import Client
        except ImportError:
            raise TracksideError(
                "--cluster needs Dask's distributed package, which is not installed",
                Place("--cluster"),
                "pip install 'trackside[cluster]'",
            ) from None
        if not ADDRESS.fullmatch(address):
            raise TracksideError(
                f"{address!r} is no scheduler address",
                Place("--cluster"),
                "give the address 'dask scheduler' prints, as tcp://HOST:8786",
            )
        try:
            client = Client(address, timeout=timeout, set_as_default=False)
        except (OSError, TimeoutError, ValueError) as exc:
            raise TracksideError(
                f"cannot reach a Dask scheduler at {address}: {exc}",
                Place("--cluster"),
                "start one with 'dask scheduler' and give the address it prints (tcp://HOST:8786)",
            ) from None
        cluster = cls(client, address)
        try:
            cluster.check_workers(address)
        except BaseException:
            cluster.close()
            raise
        return cluster

    def check_workers(self, address: str) -> None:
        """Wait for a first worker; refuse workers of another Trackside version."""
        try:
            self.client.wait_for_workers(1, timeout=WORKERS_SECONDS)
        except (OSError, TimeoutError) as exc:
            raise TracksideError(
                f"the Dask scheduler at {address} has no workers ({exc})",
                Place("--cluster"),
                f"start one on each machine with 'dask worker {address} --nthreads 1 "
                "--nworkers auto'",
            ) from None
        versions: dict[str, str] = self.client.run(worker_version)
        others = {worker: v for worker, v in versions.items() if v != __version__}
        if others:
            worker, version = next(iter(sorted(others.items())))
            raise TracksideError(
                f"{len(others)} of {len(versions)} Dask workers run another version of "
                f"Trackside ({worker} has {version}, this is {__version__}); "
                "the same games would not be played",
                Place("--cluster"),
                f"install trackside {__version__} where the workers run and start them again",
            )

    def slots(self) -> int:
        # Workers may join or leave while a run goes on: counted again now and then.
        if time.monotonic() - self._counted > 2.0:
            self._threads = sum(self.client.nthreads().values())
            self._counted = time.monotonic()
        return max(2, 2 * self._threads)

    def share(self, value: T) -> T | Any:
        return self.client.scatter([value], hash=False)[0]

    def submit(self, function: Callable[..., T], *args: Any) -> Task:
        task = self.client.submit(function, *args, pure=False)
        task.add_done_callback(lambda _task: self._news.set())
        return task

    def finished(self, tasks: Collection[Task], timeout: float) -> list[Task]:
        self._news.clear()
        done = [task for task in tasks if task.done()]
        if not done and self._news.wait(timeout):
            done = [task for task in tasks if task.done()]
        return done

    def result(self, task: Task) -> Any:
        return task.result()

    def cancel(self, tasks: Collection[Task]) -> None:
        if tasks:
            self.client.cancel(list(tasks), force=True)

    def close(self) -> None:
        with contextlib.suppress(Exception):  # a scheduler already gone has nothing to free
            self.client.close()


def worker_version() -> str:
    """The Trackside version of the process this runs in (run on each Dask worker)."""
    return __version__


# -- on the worker -----------------------------------------------------------------


@dataclass(frozen=True)
class OtherVersion:
    """What a worker answers when it runs another Trackside version than the one that
    handed the task out (it then plays nothing)."""

    version: str
    host: str


def versioned(version: str, function: Callable[..., T], *args: Any) -> T | OtherVersion:
    """``function(*args)`` on a worker of Trackside ``version``; ``OtherVersion`` on
    any other."""
    if version != __version__:
        return OtherVersion(__version__, socket.gethostname())
    return function(*args)


def check_part(part: T | OtherVersion, where: str) -> T:
    """A task's result, or the clear error of a worker of another version."""
    if isinstance(part, OtherVersion):
        raise TracksideError(
            f"a worker on {part.host} runs Trackside {part.version}, not {__version__}: "
            "the same games would not be played",
            Place("--cluster"),
            f"install trackside {__version__} on every machine of {where}",
        )
    return part


# -- choosing ----------------------------------------------------------------------


@contextlib.contextmanager
def executor_for(workers: int | Executor) -> Iterator[Executor]:
    """The executor given, or one for ``workers`` local processes (here when 1),
    closed at the end of the block."""
    if isinstance(workers, Executor):
        yield workers
        return
    executor: Executor = InProcess() if workers <= 1 else LocalProcesses(workers)
    with executor:
        yield executor


def plays_here(workers: int | Executor) -> bool:
    """Whether ``workers`` plays every game in this process."""
    return isinstance(workers, InProcess) or (isinstance(workers, int) and workers <= 1)
