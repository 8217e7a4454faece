"""Plays the open circuit under two variants on the same games, off the GUI thread
(Tools > Compare with Variant…)."""

from __future__ import annotations

import threading

from PySide6.QtCore import QObject, Signal, Slot

from trackside.engine.balance import BalanceRun
from trackside.engine.balance.against import compare_variants
from trackside.engine.game import Variant


class VariantWorker(QObject):
    """Runs one comparison of two variants: the run's and ``other``, paired."""

    progressed = Signal(int, str)  # games played by both variants, "" (nothing awaited)
    finished = Signal(object)  # VariantComparison, or an Exception
    cancel_event: threading.Event

    def __init__(self, run: BalanceRun, other: Variant, workers: int):
        super().__init__()
        self.run_spec = run
        self.other = other
        self.workers = workers
        self.cancel_event = threading.Event()

    @Slot()
    def work(self) -> None:
        try:
            outcome: object = compare_variants(
                self.run_spec,
                self.other,
                self.workers,
                progress=lambda k: self.progressed.emit(k, ""),
                cancelled=self.cancel_event.is_set,
            )
        except Exception as exc:  # shown in the panel; the editor must go on
            outcome = exc
        self.finished.emit(outcome)
