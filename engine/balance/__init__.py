"""The balance lab: many bot games on one circuit, and what they say about its fairness
and about the variant's rules.

``run_balance`` plays the games (in worker processes if asked); a
``BalanceReport`` holds integer totals that add up the same whatever the
number of workers, gives each figure with its 95% interval (the circuit's, and
the rules': powers, auction, betting), plain-word hints that name spaces, a
per-space heat map, and the change from an earlier report.
``against.compare_variants`` plays two variants on the same games.
"""

from trackside.engine.balance.compare import Change, compare
from trackside.engine.balance.hints import hints
from trackside.engine.balance.report import BalanceReport
from trackside.engine.balance.runner import BalanceRun, run_balance
from trackside.engine.balance.wording import Hint

__all__ = ["BalanceReport", "BalanceRun", "Change", "Hint", "compare", "hints", "run_balance"]
