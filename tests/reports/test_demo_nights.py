"""The demo's past nights (reports/demo_nights.py), played on a small size: a night of a few
coups a table, through the recording service, replays through the engine and passes
`registers_verify` and `history_verify`; its timestamps run through the evening, and it holds
what a newcomer should find (the croupiers' rotation, a relief, arrivals and departures, an
interruption, a barred person refused, an undo, a void, counts with a surplus and a shortfall,
the registers certified and signed, a UK club's fees)."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import date, time
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command
from django.utils import timezone

from establishment.house import house_settings_current, zone
from establishment.models import AuditEntry
from reports.audit.models import Alert, AlertKind, Reaudit
from reports.demo_nights import NIGHT_TABLES, nights_play
from reports.models import CountedCagnotte, Register, SettlementReport
from tables.models import (
    CroupierAssignment,
    EventKind,
    LevyCharge,
    SeatOccupancy,
    TableEvent,
    TableSession,
    VoidDecision,
)

pytestmark = pytest.mark.django_db


def test_a_demo_night_replays_verifies_and_holds_a_real_evening(
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        (night,) = nights_play(nights=1, coups=4, today=date(2026, 11, 20))

    night.refresh_from_db()
    where = zone(house_settings_current().time_zone)
    seances = list(TableSession.objects.filter(gaming_session=night).order_by("table__number"))
    assert [s.table.number for s in seances] == [spec.number for spec in NIGHT_TABLES]
    # The evening of the 19th, from 21:00 to the small hours, house time.
    opened = timezone.localtime(night.opened_at, where)
    closed = timezone.localtime(night.closed_at, where)
    assert (opened.date(), opened.time()) == (date(2026, 11, 19), time(21, 0))
    assert closed.date() == date(2026, 11, 20) and time(1, 0) < closed.time() < time(5, 0)
    assert all(s.journee == date(2026, 11, 19) for s in seances)
    # The books agree with the recorded cards, the registers with the books, every chain holds.
    report = SettlementReport.objects.get(gaming_session=night)
    content = json.loads(report.content)
    assert content["reconciliation"]["differences"] == []
    out = StringIO()
    call_command("registers_verify", stdout=out)
    assert "each is what the books and the journal say" in out.getvalue()
    out = StringIO()
    call_command("history_verify", stdout=out)
    assert "every link holds" in out.getvalue()
    # What the night holds.
    first = seances[0]
    assert CroupierAssignment.objects.filter(table_session=first, role="changeur").count() == 2
    # The tournante, twice: three croupiers at each table, each table's second croupier the
    # one the table before had first (the first table's: back from his break).
    duty = {
        s.table.number: list(
            CroupierAssignment.objects.filter(table_session=s, role="croupier")
            .order_by("assigned_at", "pk")
            .values_list("staff__username", flat=True)
        )
        for s in seances
    }
    numbers = [s.table.number for s in seances]
    assert all(len(names) == 3 for names in duty.values())
    assert duty[numbers[0]][1] == "croupier-relief"
    for before, after in zip(numbers, numbers[1:], strict=False):
        assert duty[after][1] == duty[before][0]
        assert duty[after][2] == duty[before][1]
    assert not CroupierAssignment.objects.filter(released_at__isnull=True).exists()
    for seance in seances:  # at each table one went home early and one came late
        stays = SeatOccupancy.objects.filter(table_session=seance)
        assert stays.filter(left_at__lt=seance.closed_at).count() == 1, seance.table.number
        assert stays.filter(sat_at__gt=seance.opened_at).count() == 1, seance.table.number
    kinds = set(TableEvent.objects.filter(table_session__in=seances).values_list("kind", flat=True))
    assert {EventKind.UNDO, EventKind.VOID, EventKind.INTERRUPT, EventKind.RESUME} <= kinds
    assert VoidDecision.objects.filter(approved=True).count() == 1
    refused = AuditEntry.objects.filter(action="admission_check", data__result="refused")
    assert refused.filter(data__member_number="DEMO-0099").exists()
    counts = {c.table_session.table.number: c for c in CountedCagnotte.objects.all()}
    assert len(counts) == len(NIGHT_TABLES)
    assert {r.kind for r in Register.objects.all()} == {"model_11", "model_12"}  # not a month
    assert Register.objects.filter(kind="model_11").count() == len(NIGHT_TABLES) - 1  # UK: none
    model12 = Register.objects.get(kind="model_12")
    assert model12.signatures.count() == 2
    assert hasattr(report, "sign_off")
    uk = seances[-1]
    assert LevyCharge.objects.filter(table_session=uk).count() >= 1
    assert content["levy"]["by_model"]["participation_fee"] > 0


def test_a_month_end_is_closed_and_the_last_shortfall_left_open(
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    """Two nights across a month's end: each re-audited the next morning (the books and the
    report's hash agree), the first night's alerts acknowledged by the auditor the morning
    after, the last night's shortfall left open; the month over closed (model 13)."""
    with django_capture_on_commit_callbacks(execute=True):
        first, last = nights_play(nights=2, coups=3, today=date(2026, 11, 2))

    runs = Reaudit.objects.order_by("run_at")
    assert [r.gaming_session_id for r in runs] == [first.pk, last.pk]
    assert all(r.books_agree and r.same_report and r.problems == [] for r in runs)
    open_alerts = Alert.objects.filter(acknowledgement__isnull=True)
    assert [(a.kind, a.gaming_session_id) for a in open_alerts] == [
        (AlertKind.CAGNOTTE_SHORTFALL, last.pk)
    ]
    for alert in Alert.objects.filter(acknowledgement__isnull=False):
        assert alert.acknowledgement.by.username == "auditor"
        assert alert.acknowledgement.at > alert.raised_at
    (month,) = Register.objects.filter(kind="model_13")
    assert month.key == "2026-10"
    assert json.loads(month.content)["journees"][0]["journee"] == "2026-10-31"
