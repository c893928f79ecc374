"""The time fee and the participation fee, charged from the seating record (docs/rules/levy.md,
LV-3 and LV-5): the periods a stay touches, the charges booked with their own reason, once per
player and period, at the opening, with each action, from the periodic task and at the close
(LV-3.1), and visible in the player's result; a standing player is not charged (LV-3.2)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from functools import partial
from typing import Any

import pytest
from django.utils import timezone

from establishment.models import Player
from ledger.models import Entry, Transaction
from tables.levy_periods import FeeTerms, Stay, fees_due, period_finder, periods_touched
from tables.models import LevyCharge, TableSession
from tables.selectors import player_position_get
from tables.services import levies, table_session_close
from tables.services.levies import fees_charge, open_seating_fees_charge
from tables.tasks import seating_fees_charge
from tests.concurrency.kit import (
    UK_PONTOON,
    Croupier,
    Floor,
    ledger_totals,
    players_ensure,
    table_open,
)
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

CARD_ROOM_TIME = {
    "min_stake": 100,
    "cagnotte_rate_bp": 0,
    "levy_model": "time_fee",
    "fee_amount": 50,
    "fee_period_minutes": 30,
}
LONDON = "Europe/London"


def at(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


# -- the periods (pure) ----------------------------------------------------------------------


TIME = FeeTerms(model="time_fee", amount=50, period_minutes=30, day_start_hour=12)
DAY = FeeTerms(model="participation_fee", amount=300, period_minutes=30, day_start_hour=12)


@pytest.mark.parametrize(
    ("sat", "left", "periods"),
    [
        ("21:10", "22:05", ["21:00", "21:30", "22:00"]),  # seated as three periods began
        ("21:10", "22:00", ["21:00", "21:30"]),  # left as the third began: not owed
        ("21:29", "21:29", ["21:00"]),  # an instant at the table is a period
        ("21:30", None, ["21:30", "22:00", "22:30"]),  # still seated at 22:40
    ],
)
def test_lv3_a_time_fee_is_owed_for_each_period_a_stay_touches(
    sat: str, left: str | None, periods: list[str]
) -> None:
    find = period_finder(TIME, opened_at=at("2026-12-03T21:00"), time_zone=LONDON)

    touched = periods_touched(
        at(f"2026-12-03T{sat}"),
        at(f"2026-12-03T{left}") if left else None,
        until=at("2026-12-03T22:40"),
        find=find,
    )

    assert [start.strftime("%H:%M") for start, _ in touched] == periods
    assert all(end - start == timedelta(minutes=30) for start, end in touched)


def test_lv3_a_participation_fee_day_runs_from_midday_house_time() -> None:
    find = period_finder(DAY, opened_at=at("2026-07-01T09:00"), time_zone=LONDON)

    # London is UTC+1 in July: midday there is 11:00 UTC. Seated from 10:30 to 11:30 UTC.
    touched = periods_touched(
        at("2026-07-01T10:30"), at("2026-07-01T11:30"), until=at("2026-07-02T00:00"), find=find
    )

    assert touched == [
        (at("2026-06-30T11:00"), at("2026-07-01T11:00")),
        (at("2026-07-01T11:00"), at("2026-07-02T11:00")),
    ]


def test_lv3_what_is_due_is_once_per_player_and_period_whatever_his_stays() -> None:
    stays = [
        Stay("P1", at("2026-12-03T21:05"), at("2026-12-03T21:10")),
        Stay("P1", at("2026-12-03T21:20"), at("2026-12-03T21:40")),  # came back: same period
        Stay("P2", at("2026-12-03T21:50"), None),
    ]

    due = fees_due(
        TIME,
        stays,
        opened_at=at("2026-12-03T21:00"),
        until=at("2026-12-03T22:10"),
        time_zone=LONDON,
    )

    assert sorted((p, s.strftime("%H:%M")) for p, s in due) == [
        ("P1", "21:00"),
        ("P1", "21:30"),
        ("P2", "21:30"),
        ("P2", "22:00"),
    ]


# -- the charges (service) -------------------------------------------------------------------


def _charges(**filters: object) -> list[tuple[str, str, int]]:
    return [
        (c.player.member_number, c.levy_model, c.amount)
        for c in LevyCharge.objects.filter(**filters).select_related("player").order_by("pk")
    ]


def test_lv3_a_participation_fee_is_charged_once_a_day_across_the_house(floor: Floor) -> None:
    first = table_open(floor, "pontoon", UK_PONTOON, {1: "U1", 2: "U2"})
    other = UserFactory.create(roles=["croupier"])
    second = table_open(floor, "pontoon", UK_PONTOON, {1: "U1", 2: "U3"}, croupier=other)
    players_ensure(["U4"])
    at_second = Croupier(second, other)
    at_second.do("sit", seat=3, player="U4")
    at_second.do("leave", seat=3)
    at_second.do("sit", seat=3, player="U4")  # back: the same day

    # Each at the first table he sat at that day; U1 pays once, at the first table.
    assert _charges(table_session=first) == [
        ("U1", "participation_fee", 300),
        ("U2", "participation_fee", 300),
    ]
    assert _charges(table_session=second) == [
        ("U3", "participation_fee", 300),
        ("U4", "participation_fee", 300),
    ]
    # From the player's position to the table's cagnotte, with its own reason (LV-5), visible
    # in the player's result for the night.
    assert ledger_totals(first, seating_fees=True) == {"U1": -300, "U2": -300, "cagnotte": 600}
    assert player_position_get(player=_player("U1"), gaming_session=floor.gaming_session) == -300
    reasons = set(
        Entry.objects.filter(transaction__levy_charge__isnull=False).values_list(
            "reason", flat=True
        )
    )
    assert reasons == {"participation_fee"}


def test_lv3_a_time_fee_is_charged_for_each_period_once(floor: Floor) -> None:
    table = table_open(floor, "pontoon", CARD_ROOM_TIME, {1: "T1"})
    opened = table.opened_at
    assert _charges(table_session=table) == [("T1", "time_fee", 50)]

    made = fees_charge(_fresh(table), user=floor.croupier, until=opened + timedelta(minutes=65))
    again = fees_charge(_fresh(table), user=floor.croupier, until=opened + timedelta(minutes=65))

    assert [(c.period_start - opened) for c in made] == [
        timedelta(minutes=30),
        timedelta(minutes=60),
    ]
    assert again == []
    assert ledger_totals(table, seating_fees=True) == {"T1": -150, "cagnotte": 150}


def test_lv3_the_periodic_task_charges_a_period_begun_while_nobody_records(
    floor: Floor, settings: object
) -> None:
    table = table_open(floor, "pontoon", CARD_ROOM_TIME, {1: "T1", 2: "T2"})
    later = table.opened_at + timedelta(minutes=31)

    assert open_seating_fees_charge(until=later) == 2  # T1 and T2 for the second period
    assert open_seating_fees_charge(until=later) == 0
    assert seating_fees_charge.apply().get() == 0  # the task, now: nothing more is due yet
    charge = LevyCharge.objects.filter(period_start__gt=table.opened_at).first()
    assert charge is not None and charge.charged_by == floor.croupier  # the croupier on duty


def test_lv3_the_close_charges_the_periods_up_to_the_close(floor: Floor) -> None:
    table = table_open(floor, "pontoon", CARD_ROOM_TIME, {1: "T1"})
    earlier = table.opened_at - timedelta(minutes=40)  # as if opened and sat 40 minutes ago
    TableSession.objects.filter(pk=table.pk).update(opened_at=earlier)
    table.seat_occupancies.update(sat_at=earlier)
    before = set(LevyCharge.objects.values_list("pk", flat=True))

    table_session_close(table_session=_fresh(table), user=floor.inspector)

    at_close = LevyCharge.objects.exclude(pk__in=before).order_by("period_start")
    assert [c.period_start - earlier for c in at_close] == [
        timedelta(0),
        timedelta(minutes=30),
    ]


def test_lv3_a_coup_levy_table_charges_nothing_from_its_seating(floor: Floor) -> None:
    table = table_open(floor, "chemin_de_fer", {"min_bank": 100}, {1: "C1", 2: "C2"})

    assert fees_charge(_fresh(table), user=floor.croupier, until=timezone.now()) == []
    assert not LevyCharge.objects.exists()
    assert not Transaction.objects.filter(idempotency_key__contains=":levy:").exists()


def _player(code: str) -> Player:
    return Player.objects.get(member_number=code)


def _fresh(table: TableSession) -> TableSession:
    return TableSession.objects.select_related("table", "gaming_session", "house_settings").get(
        pk=table.pk
    )


def test_lv3_2_a_player_standing_behind_the_table_is_not_charged(floor: Floor) -> None:
    table = table_open(floor, "pontoon", UK_PONTOON, {1: "V1"}, standing=["W1"])
    players_ensure(["W2"])
    Croupier(table, floor.croupier).do("add_standing", player="W2")

    assert _charges(table_session=table) == [("V1", "participation_fee", 300)]


def test_lv3_record_skips_the_seating_record_only_while_nothing_can_fall_due(
    floor: Floor,
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Any,
) -> None:
    """After each action `record` asks what the seating owes; once a committed check saw the
    same seating and no period has begun since, nothing can be owed and the seating record is
    not read. A player sitting down, or a new period, is charged with the next action."""
    table = table_open(floor, "pontoon", CARD_ROOM_TIME, {1: "T1"})
    players_ensure(["T2"])
    opened = table.opened_at
    reads: list[datetime] = []
    real_owed = levies.fees_owed

    def counted(table_session: TableSession, terms: FeeTerms, until: datetime) -> Any:
        reads.append(until)
        return real_owed(table_session, terms, until)

    monkeypatch.setattr(levies, "fees_owed", counted)
    croupier = Croupier(
        table, floor.croupier, around=partial(django_capture_on_commit_callbacks, execute=True)
    )

    def do_at(minutes: int, type_: str, **params: Any) -> None:
        monkeypatch.setattr(timezone, "now", lambda: opened + timedelta(minutes=minutes))
        croupier.do(type_, **params)

    do_at(1, "set_first_banker", seat=1)  # the first check of the séance: read
    do_at(2, "sit", seat=2, player="T2")  # someone sat down: read, and charged at once
    do_at(3, "start_coup")  # the same seating, the same period: not read
    do_at(31, "deal_card", to=2, rank="10")  # a new period: read, both charged for it

    assert [until - opened for until in reads] == [
        timedelta(minutes=1),
        timedelta(minutes=2),
        timedelta(minutes=31),
    ]
    assert sorted((c[0], c[2]) for c in _charges(table_session=table)) == [
        ("T1", 50),
        ("T1", 50),
        ("T2", 50),
        ("T2", 50),
    ]
