"""Integer totals behind a figure with its interval: a mean (``Tally``) and a ratio of
totals (``Ratio``). Parts of a run merge into exactly the totals of the whole run.

Both ``trackside simulate``'s statistics (``engine/simulate.py``) and the balance lab
keep them, so they live outside ``engine/balance`` (which imports ``simulate``)."""

from __future__ import annotations

from dataclasses import dataclass

from trackside.engine.intervals import RatioSums, mean_interval, ratio_interval

SHARE_UNIT = 60  # a win shared by k seats counts 60 / k (k <= 6)


@dataclass
class Tally:
    """A sum and a sum of squares, for a mean with its interval."""

    total: int = 0
    squares: int = 0
    count: int = 0

    def add(self, value: int) -> None:
        self.total += value
        self.squares += value * value
        self.count += 1

    def merge(self, other: Tally) -> None:
        self.total += other.total
        self.squares += other.squares
        self.count += other.count

    @property
    def mean(self) -> float:
        return self.total / self.count if self.count else 0.0

    def interval(self) -> tuple[float, float]:
        return mean_interval(self.total, self.squares, self.count)

    def count_interval(self) -> tuple[float, float]:
        """The interval of a mean of things counted (stalled cars, cards): never below
        none, where a normal interval of few races reaches under 0."""
        low, high = self.interval()
        return max(0.0, low), high

    def to_list(self) -> list[int]:
        return [self.total, self.squares, self.count]

    @classmethod
    def from_list(cls, values: list[int]) -> Tally:
        return cls(*(int(v) for v in values))


@dataclass
class Ratio:
    """A ratio of totals over games, sum(x) / sum(y) (the share of the winners' money
    that came from bets: x their bet payouts, y all their money), with what its
    interval needs: the sums of x², y² and xy, and the number of games."""

    num: int = 0
    den: int = 0
    num_sq: int = 0
    den_sq: int = 0
    product: int = 0
    count: int = 0

    def add(self, num: int, den: int) -> None:
        """Count one game's x and y."""
        self.num += num
        self.den += den
        self.num_sq += num * num
        self.den_sq += den * den
        self.product += num * den
        self.count += 1

    def merge(self, other: Ratio) -> None:
        self.num += other.num
        self.den += other.den
        self.num_sq += other.num_sq
        self.den_sq += other.den_sq
        self.product += other.product
        self.count += other.count

    @property
    def value(self) -> float:
        return self.num / self.den if self.den else 0.0

    @property
    def sums(self) -> RatioSums:
        return (self.num, self.den, self.num_sq, self.den_sq, self.product, self.count)

    def interval(self) -> tuple[float, float]:
        return ratio_interval(self.sums)

    def to_list(self) -> list[int]:
        return [self.num, self.den, self.num_sq, self.den_sq, self.product, self.count]

    @classmethod
    def from_list(cls, values: list[int]) -> Ratio:
        return cls(*(int(v) for v in values))
