"""The periods of the house's fees outside the coups (docs/rules/levy.md, LV-3), from the
record of who sat when: which periods a stay at a table touches, and so what is due.

Pure: no database and no clock; the charging service (tables/services/levies.py) asks here.

- time fee: periods of `fee_period_minutes` counted from the séance's opening; a player seated
  at any moment of a period owes it once;
- participation fee: days of 24 hours from `fee_day_start_hour`, house time (the same
  arithmetic as the journée's, `establishment.house`, daylight saving included); a player owes
  each day he sits in once, across the house.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, time, timedelta
from typing import Any

from establishment.house import journee_bounds, journee_of
from tables.engine.money import PARTICIPATION_FEE, TIME_FEE

# The levy models charged from the seating record (LV-3), and the reason of their transfers
# (LV-5): the model's own name.
SEATING_FEE_MODELS = frozenset({TIME_FEE, PARTICIPATION_FEE})

Period = tuple[datetime, datetime]  # [start, end)


@dataclass(frozen=True)
class FeeTerms:
    """What a séance's frozen settings say of its fee outside the coups (LV-1, LV-3)."""

    model: str
    amount: int
    period_minutes: int
    day_start_hour: int

    @classmethod
    def of(cls, settings: Mapping[str, Any]) -> FeeTerms | None:
        """The terms of a séance's settings, or None when its levy is a coup's (LV-1)."""
        model = str(settings.get("levy_model", ""))
        amount = settings.get("fee_amount")
        if model not in SEATING_FEE_MODELS or not isinstance(amount, int) or amount <= 0:
            return None
        return cls(
            model=model,
            amount=amount,
            period_minutes=int(settings.get("fee_period_minutes", 30)),
            day_start_hour=int(settings.get("fee_day_start_hour", 12)),
        )


def period_finder(
    terms: FeeTerms, *, opened_at: datetime, time_zone: str
) -> Callable[[datetime], Period]:
    """The function that gives the period a moment falls in, for these terms."""
    if terms.model == TIME_FEE:
        length = timedelta(minutes=terms.period_minutes)

        def of_time(moment: datetime) -> Period:
            start = opened_at + length * ((moment - opened_at) // length)
            return start, start + length

        return of_time
    turns_at = time(terms.day_start_hour)

    def of_day(moment: datetime) -> Period:
        day = journee_of(moment, turns_at=turns_at, time_zone=time_zone)
        return journee_bounds(day, turns_at=turns_at, time_zone=time_zone)

    return of_day


def periods_touched(
    sat_at: datetime,
    left_at: datetime | None,
    *,
    until: datetime,
    find: Callable[[datetime], Period],
) -> list[Period]:
    """The periods a stay from `sat_at` to `left_at` (still seated: None) touches, up to the
    moment `until`: the period he sat down in, and each one that began while he was seated.
    A player who leaves as a period begins does not owe it."""
    end = until if left_at is None else min(left_at, until)
    if sat_at > until:
        return []
    period = find(sat_at)
    touched = [period]
    while period[1] < end:
        period = find(period[1])
        touched.append(period)
    return touched


@dataclass(frozen=True)
class Stay:
    """A player's stay at a seat: the seating record's row (tables.models.SeatOccupancy)."""

    player: str
    sat_at: datetime
    left_at: datetime | None


def fees_due(
    terms: FeeTerms,
    stays: Iterable[Stay],
    *,
    opened_at: datetime,
    until: datetime,
    time_zone: str,
) -> dict[tuple[str, datetime], Period]:
    """Every (player, period start) the stays at one séance owe up to `until`, with its
    period, in the order they fell due."""
    find = period_finder(terms, opened_at=opened_at, time_zone=time_zone)
    due: dict[tuple[str, datetime], Period] = {}
    for stay in sorted(stays, key=lambda s: (s.sat_at, s.player)):
        for period in periods_touched(stay.sat_at, stay.left_at, until=until, find=find):
            due.setdefault((stay.player, period[0]), period)
    return due
