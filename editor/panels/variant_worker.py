"""Paired runs of the open circuit off the GUI thread: two variants on the same games
(Tools > Compare with Variant…), or the run's bots and stronger ones (Check with
Stronger Bots)."""

from __future__ import annotations

import threading
from collections.abc import Callable

from PySide6.QtCore import QObject, Signal, Slot

from trackside.engine.balance import BalanceRun
from trackside.engine.balance.against import compare_variants
from trackside.engine.balance.deeper import check_deeper
from trackside.engine.game import Variant

# A paired run: given progress(k) and cancelled(), its outcome.
Play = Callable[[Callable[[int], None], Callable[[], bool]], object]


class PairedWorker(QObject):
    """Runs one paired run; ``progressed`` with the games both sides played so far."""

    progressed = Signal(int, str)  # games played by both sides, "" (nothing awaited)
    finished = Signal(object)  # the outcome, or an Exception
    cancel_event: threading.Event

    def __init__(self, play: Play):
        super().__init__()
        self.play = play
        self.cancel_event = threading.Event()

    @Slot()
    def work(self) -> None:
        try:
            outcome = self.play(lambda k: self.progressed.emit(k, ""), self.cancel_event.is_set)
        except Exception as exc:  # shown in the panel; the editor must go on
            outcome = exc
        self.finished.emit(outcome)


class VariantWorker(PairedWorker):
    """Two variants, the run's and ``other``, on the same games: a VariantComparison."""

    def __init__(self, run: BalanceRun, other: Variant, workers: int):
        super().__init__(
            lambda progress, cancelled: compare_variants(run, other, workers, progress, cancelled)
        )


class DeeperWorker(PairedWorker):
    """The run's bots and stronger ones on the same games: a DeeperCheck."""

    def __init__(self, run: BalanceRun, workers: int):
        super().__init__(
            lambda progress, cancelled: check_deeper(run, workers, progress, cancelled)
        )
