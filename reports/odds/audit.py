"""The audit itself: the recorded coups grouped, each measure against its expected value, its
z-score and its flag (docs/odds.md, "The audit"). Pure: no database, no clock.

For a group (a table, a banker, a croupier or a night, and a game) and a measure, the coups give
`n` observations `(x, y)` (`tables.engine.simulate.measures`) and each its expected value `r`
(`reports.odds.expected`). Then

- observed `= Σx / Σy`, expected `= Σ r·y / Σy` (the exact value itself when every coup was
  played at the same settings and stake);
- for the frequency of an event of a coup (`FREQUENCIES`, `y = 1`, `x` 0 or 1) the per-coup
  standard deviation is the exact one, `sd = sqrt(Σ r(1 − r) / n)` (`sqrt(p(1 − p))` at one
  `p`); for the other measures (cards, money per unit staked, pontoon's per-hand measures) it
  is the observed one, the ratio estimator's (`measures.Tally`), since the exact values give
  means only; for a count of hands (pontoon's per-hand frequencies, `x` of `y` hands) at least
  the binomial error at the expected value, so that a rare event not seen yet is not held to
  an observed error of 0 (as tests/engine/test_simulate.py holds the simulator);
- the standard error is `sd / sqrt(n)`, and for an expectation that is itself a stored
  simulation its own standard error is added in quadrature;
- `z = (observed − expected) / se`; `|z| > 3` is flagged. A cell with no spread at all (every
  coup alike, `se = 0`) that differs from its expectation is flagged with no z.

A group with fewer than `MIN_COUPS` coups is not shown but listed as skipped; a measure with
fewer than `MIN_COUPS` observations in a shown group (the doublet counts the first coups of a
pack only) is shown as too few and is no test. Chance alone flags a fair cell with probability
`ALPHA = erfc(3/√2) ≈ 0.0027`: over `k` tests, `k·ALPHA` false flags are expected and at least
one with probability `1 − (1 − ALPHA)^k`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

from reports.odds.expected import coup_expected
from reports.odds.replay import CoupSeen
from tables.engine.registry import GAME_LIST
from tables.engine.simulate.exact import Exact
from tables.engine.simulate.measures import Tally
from tables.engine.simulate.runner import GAME_RUNS

GROUPINGS = ("table", "banker", "croupier", "night", "levy")
MIN_COUPS = 30
FLAG_Z = 3.0
ALPHA = math.erfc(FLAG_Z / math.sqrt(2))  # P(|Z| > 3) for a standard normal Z
# The measures that are amounts rather than counts of events (docs/odds.md, "The measures"):
# cards, and the money per unit staked or per fond du jeu. Every other measure counts an event
# of a coup (`banker_wins`, `natural`, `doublet`, …) or of pontoon's hands (`pontoon`, …).
AMOUNTS = frozenset(
    {
        "cards_per_coup",
        "banker_result_per_unit_staked",
        "cagnotte_per_unit_staked",
        "banker_result_per_base_stake",
    }
)
FREQUENCIES = frozenset(
    name for run in GAME_RUNS.values() for name in run.measures if name not in AMOUNTS
)
_GAME_ORDER = {game.code: index for index, game in enumerate(GAME_LIST)}


@dataclass(frozen=True)
class Group:
    """Who or what a row is about: its kind (`GROUPINGS`), a stable key (a table's or a
    night's public id, a member number, a username) and its words."""

    kind: str  # one of GROUPINGS
    key: str  # "" for no one (a coup with no croupier on duty, a vacant bank)
    label: str


@dataclass(frozen=True)
class Duty:
    """A croupier's duty period at a table session (`released` None while on duty)."""

    start: datetime
    end: datetime | None
    group: Group


@dataclass(frozen=True)
class SessionInfo:
    """What the audit needs of a table session besides its coups."""

    game: str
    settings: Mapping[str, Any]
    table: Group
    night: Group
    duties: Sequence[Duty] = ()
    # How the house was paid at the table session (docs/rules/levy.md, LV-1): the money
    # measures have exact values for the levy on the banker's win only (docs/odds.md).
    levy: Group = Group("levy", "banker_win", "banker_win")


@dataclass(frozen=True)
class Cell:
    """One measure of one group: its statistics, and whether it is a test and is flagged."""

    measure: str
    n: int
    observed: float
    expected: float
    sd: float
    sd_source: str  # "exact" or "observed"
    expected_se: float | None  # the stored simulation's, when the expectation is one
    se: float
    z: float | None
    flagged: bool
    method: str
    too_few: bool

    @property
    def is_test(self) -> bool:
        return not self.too_few


@dataclass(frozen=True)
class Row:
    """A group at one game: its coups (those that measured something) and one cell per measure
    whose expected value is known for the game, in the order of the game's measures."""

    group: Group
    game: str  # the game's code
    coups: int
    cells: tuple[Cell, ...]


@dataclass(frozen=True)
class Audit:
    """The audit of a period: the rows shown, the groups skipped, and what chance would flag."""

    grouping: str
    date_from: date | None
    date_to: date | None
    game: str | None
    rows: tuple[Row, ...]
    skipped: tuple[Row, ...]
    unexpected_coups: int  # coups whose measures have no expected value (not audited)
    min_coups: int = MIN_COUPS
    flag_z: float = FLAG_Z
    tests: int = field(init=False)
    flags: int = field(init=False)

    def __post_init__(self) -> None:
        cells = [cell for row in self.rows for cell in row.cells if cell.is_test]
        object.__setattr__(self, "tests", len(cells))
        object.__setattr__(self, "flags", sum(1 for cell in cells if cell.flagged))

    @property
    def expected_false_flags(self) -> float:
        """How many of the tests chance alone would flag."""
        return self.tests * ALPHA

    @property
    def chance_of_a_false_flag(self) -> float:
        """The probability that chance alone flags at least one of the tests."""
        return 1 - (1 - ALPHA) ** self.tests


class _Sums:
    """A measure's sums over a group's coups: observed (`Tally`) and expected."""

    __slots__ = ("binary", "counts", "expected", "methods", "stored", "tally", "variance")

    def __init__(self, measure: str) -> None:
        self.tally = Tally()
        self.expected = 0.0  # Σ r·y
        self.variance = 0.0  # Σ r(1 − r)·y, for a frequency
        self.stored = 0.0  # Σ se·y of a stored simulation
        self.counts = measure in FREQUENCIES  # x events among y coups or hands
        self.binary = self.counts  # and every y = 1
        self.methods: set[str] = set()

    def add(self, x: int, y: int, exact: Exact) -> None:
        self.tally.add(x, y)
        r = float(exact.value)
        self.expected += r * y
        self.variance += r * (1 - r) * y
        self.binary = self.binary and y == 1
        if exact.se is not None:
            self.stored += exact.se * y
        self.methods.add(exact.method)

    def cell(self, measure: str) -> Cell:
        tally = self.tally
        n, total = tally.n, tally.sy
        observed, expected = tally.sx / total, self.expected / total
        if self.binary:
            sd, source = math.sqrt(self.variance / n), "exact"
        else:
            found = tally.estimate().se
            sd, source = (found * math.sqrt(n) if math.isfinite(found) else 0.0), "observed"
            if self.counts:  # the binomial error of Σy hands, per coup
                sd = max(sd, math.sqrt(self.variance * n) / total)
        stored = self.stored / total if self.stored else None
        se = math.hypot(sd / math.sqrt(n), stored or 0.0)
        z: float | None
        if math.isclose(observed, expected, rel_tol=1e-12, abs_tol=1e-12):
            z = 0.0
        else:
            z = (observed - expected) / se if se > 0 else None
        too_few = n < MIN_COUPS
        flagged = not too_few and (z is None or abs(z) > FLAG_Z)
        methods = ", ".join(sorted(self.methods))
        return Cell(
            measure, n, observed, expected, sd, source, stored, se, z, flagged, methods, too_few
        )


def _on_duty(info: SessionInfo, at: datetime) -> Group:
    for duty in info.duties:
        if duty.start <= at and (duty.end is None or at < duty.end):
            return duty.group
    return Group("croupier", "", "")


def group_of(grouping: str, coup: CoupSeen, info: SessionInfo, bankers: Mapping[str, str]) -> Group:
    """The group of `grouping` a coup belongs to."""
    if grouping == "table":
        return info.table
    if grouping == "night":
        return info.night
    if grouping == "levy":
        return info.levy
    if grouping == "banker":
        return Group("banker", coup.banker, bankers.get(coup.banker, coup.banker))
    return _on_duty(info, coup.settled_at)


def audit_build(
    *,
    grouping: str,
    coups: Iterable[CoupSeen],
    sessions: Mapping[int, SessionInfo],
    bankers: Mapping[str, str],
    date_from: date | None = None,
    date_to: date | None = None,
    game: str | None = None,
) -> Audit:
    """The audit of `coups` (the replayed coups of `sessions`) grouped by `grouping`."""
    sums: dict[tuple[Group, str], dict[str, _Sums]] = {}
    counts: dict[tuple[Group, str], int] = {}
    unexpected = 0
    for coup in coups:
        if not coup.observed:
            continue  # CF-4.3.1 nothing was played
        info = sessions[coup.table_session_id]
        key = (group_of(grouping, coup, info, bankers), info.game)
        counts[key] = counts.get(key, 0) + 1
        values = coup_expected(info.game, info.settings, coup.conditions)
        if not values:
            unexpected += 1
        by_measure = sums.setdefault(key, {})
        for name, x, y in coup.observed:
            exact = values.get(name)
            if exact is not None:
                by_measure.setdefault(name, _Sums(name)).add(x, y, exact)
    rows = []
    for (group, code), by_measure in sums.items():
        order = GAME_RUNS[code].measures
        cells = tuple(by_measure[name].cell(name) for name in order if name in by_measure)
        rows.append(Row(group, code, counts[(group, code)], cells))
    rows.sort(key=lambda row: (_GAME_ORDER.get(row.game, 99), row.group.label, row.group.key))
    return Audit(
        grouping=grouping,
        date_from=date_from,
        date_to=date_to,
        game=game,
        rows=tuple(row for row in rows if row.coups >= MIN_COUPS),
        skipped=tuple(row for row in rows if row.coups < MIN_COUPS),
        unexpected_coups=unexpected,
    )
