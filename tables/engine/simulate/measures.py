"""The simulator's statistics: what a measure sums, its mean and its standard error.

Every measure of a coup is a pair of integers ``(x, y)``: a count and 1 (a banker who wins, a
natural), cards and 1 (cards per coup), or chips and chips (the banker's result and what was
staked, docs/odds.md). A ``Tally`` keeps only integer sums, so a simulation adds up exactly and
the same seed gives the same sums; the floats come last, as the statistics printed:

- the mean is the ratio of the sums, ``r = Σx / Σy`` (with ``y = 1`` the plain mean of the
  coups' values);
- its standard error is the usual one of a ratio estimator, ``se = sqrt(Σ(x − r·y)² /
  (n·(n − 1))) / ȳ``, which with ``y = 1`` is ``sd / sqrt(n)``, ``sd`` the sample standard
  deviation of the coups' values.

Both are computed in exact rational arithmetic (``fractions``) before the one conversion to a
float, so that the cancellation in ``Σx² − 2rΣxy + r²Σy²`` loses nothing however many coups.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction


@dataclass(frozen=True)
class Estimate:
    """A measure's statistics: the mean over ``n`` observations and its standard error."""

    mean: float
    se: float
    n: int

    def as_dict(self) -> dict[str, float | int]:
        return {"mean": self.mean, "se": self.se, "n": self.n}


class Tally:
    """The integer sums of one measure: ``n``, ``Σx``, ``Σy``, ``Σx²``, ``Σxy``, ``Σy²``."""

    __slots__ = ("n", "sx", "sxx", "sxy", "sy", "syy")

    def __init__(self) -> None:
        self.n = self.sx = self.sy = self.sxx = self.sxy = self.syy = 0

    def add(self, x: int, y: int = 1) -> None:
        """One observation: ``x`` (an integer) over ``y`` (a positive integer)."""
        self.n += 1
        self.sx += x
        self.sy += y
        self.sxx += x * x
        self.sxy += x * y
        self.syy += y * y

    def merge(self, other: Tally) -> None:
        """Add the sums of ``other`` (another run of the same measure) to these."""
        self.n += other.n
        self.sx += other.sx
        self.sy += other.sy
        self.sxx += other.sxx
        self.sxy += other.sxy
        self.syy += other.syy

    def sums(self) -> list[int]:
        """The sums, in the order of ``from_sums``."""
        return [self.n, self.sx, self.sy, self.sxx, self.sxy, self.syy]

    @classmethod
    def from_sums(cls, sums: Iterable[int]) -> Tally:
        tally = cls()
        tally.n, tally.sx, tally.sy, tally.sxx, tally.sxy, tally.syy = sums
        return tally

    def mean(self) -> Fraction | None:
        """``Σx / Σy`` exactly, or None before the first observation."""
        return Fraction(self.sx, self.sy) if self.sy else None

    def estimate(self) -> Estimate:
        """The mean and its standard error (the module's docstring); NaN where undefined."""
        ratio = self.mean()
        if ratio is None:
            return Estimate(math.nan, math.nan, self.n)
        if self.n < 2:
            return Estimate(float(ratio), math.nan, self.n)
        # Σ(x − r·y)², exactly.
        spread = self.sxx - 2 * ratio * self.sxy + ratio * ratio * self.syy
        mean_y = Fraction(self.sy, self.n)
        variance = spread / (self.n * (self.n - 1)) / (mean_y * mean_y)
        return Estimate(float(ratio), math.sqrt(variance), self.n)


class Tallies:
    """The tallies of a simulation's measures, by name, in the order they were declared."""

    def __init__(self, names: Iterable[str]) -> None:
        self.by_name: dict[str, Tally] = {name: Tally() for name in names}

    def add(self, observed: Iterable[tuple[str, int, int]]) -> None:
        """A coup's observations: ``(name, x, y)`` for each measure it has a value of."""
        by_name = self.by_name
        for name, x, y in observed:
            by_name[name].add(x, y)

    def estimates(self) -> dict[str, Estimate]:
        return {name: tally.estimate() for name, tally in self.by_name.items()}

    def as_dict(self) -> dict[str, dict[str, float | int]]:
        return {name: found.as_dict() for name, found in self.estimates().items()}

    def sums(self) -> dict[str, list[int]]:
        return {name: tally.sums() for name, tally in self.by_name.items()}

    @classmethod
    def from_sums(cls, sums: Mapping[str, Iterable[int]]) -> Tallies:
        tallies = cls(())
        tallies.by_name = {name: Tally.from_sums(values) for name, values in sums.items()}
        return tallies
