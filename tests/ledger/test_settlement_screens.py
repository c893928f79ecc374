"""The settlement screens and the manager's and auditor's services."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from establishment.confirmation import ConfirmationError
from establishment.errors import DomainError, ErrorCode, PermissionDeniedError
from establishment.roles import Role
from reports.counting import cagnotte_count_record
from reports.counts import cagnotte_compare
from reports.models import CountedCagnotte, ReportSignOff, ReportStatus, SettlementReport
from reports.selectors import unsettled_session_list
from reports.services import (
    reconciliation_rerun,
    report_sign_off,
    settlement_report_generate,
)
from reports.tasks import settle_session, settlement_sweep
from tables.models import Table, TableSession
from tables.services import table_session_close
from tests.factories import UserFactory
from tests.ledger.test_settlement import (
    SESSION_SCENARIOS,
    Night,
    night_close,
    play_night,
)

pytestmark = pytest.mark.django_db


def test_closing_sends_the_task_after_commit(
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    night = play_night(SESSION_SCENARIOS[:1])
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        night_close(night)
    assert not SettlementReport.objects.exists()  # nothing before the commit
    assert len(callbacks) >= 1
    for callback in callbacks:
        callback()
    assert SettlementReport.objects.get().status == ReportStatus.READY


def test_an_open_session_is_not_settled() -> None:
    night = play_night(SESSION_SCENARIOS[:1])
    assert settlement_report_generate(gaming_session_id=night.gaming_session.pk) is None
    settle_session.apply(args=(night.gaming_session.pk,))
    assert not SettlementReport.objects.exists()


def test_the_sweeper_finds_closed_sessions_without_a_report(
    settled: tuple[Night, SettlementReport], settings: Any
) -> None:
    settings.SETTLEMENT_SWEEP_GRACE_SECONDS = 0
    night, report = settled
    later = timezone.now() + timedelta(hours=1)
    assert unsettled_session_list(closed_before=later, stale_before=later) == []
    SettlementReport.objects.filter(pk=report.pk).update(status=ReportStatus.FAILED)
    assert unsettled_session_list(closed_before=later, stale_before=later) == [
        night.gaming_session.pk
    ]
    assert settlement_sweep.apply().get() == 1  # sent again (run eagerly here)
    report.refresh_from_db()
    assert report.status == ReportStatus.READY
    assert report.attempts == 2
    assert settlement_sweep.apply().get() == 0


def _count(
    report: SettlementReport, table: Table, chips: int, by: Any, witness: Any, **also: Any
) -> Any:
    """A count as the screen enters it: both people give their own password ("password")."""
    return cagnotte_count_record(
        report=report,
        table=table,
        counted_chips=chips,
        counted_by=by,
        password=also.pop("password", "password"),
        witness=witness,
        witness_password=also.pop("witness_password", "password"),
        **also,
    )


def test_counted_cagnotte_needs_a_manager_and_a_second_person(
    settled: tuple[Night, SettlementReport],
) -> None:
    night, report = settled
    content = json.loads(report.content)
    table = Table.objects.get(number=content["cagnotte"][0]["table"])
    witness = UserFactory.create(roles=[Role.INSPECTOR])
    croupier = UserFactory.create(roles=[Role.CROUPIER])

    with pytest.raises(PermissionDeniedError):
        _count(report, table, 1, croupier, witness)
    with pytest.raises(DomainError) as same:
        _count(report, table, 1, night.manager, night.manager)
    assert same.value.code == ErrorCode.SECOND_PERSON_REQUIRED
    with pytest.raises(PermissionDeniedError):
        _count(report, table, 1, night.manager, croupier)
    # each proves who he is: the director certifies with his password, the witness with hers
    with pytest.raises(DomainError) as unproven:
        _count(report, table, 1, night.manager, witness, password="wrong")
    assert unproven.value.code == ErrorCode.CONFIRMATION_FAILED
    with pytest.raises(DomainError) as unproven:
        _count(report, table, 1, night.manager, witness, witness_password="")
    assert unproven.value.code == ErrorCode.CONFIRMATION_FAILED
    assert not CountedCagnotte.objects.exists()

    _count(report, table, 0, night.manager, witness)
    with pytest.raises(DomainError):  # counted once: no draft
        _count(report, table, 5, night.manager, witness)
    assert CountedCagnotte.objects.filter(report=report).count() == 1


def test_surplus_and_shortfall_are_never_offset_between_tables() -> None:
    compared = cagnotte_compare(
        [{"table": 1, "expected": 100, "booked": 100}, {"table": 2, "expected": 50, "booked": 50}],
        [{"table": 1, "counted": 110}, {"table": 2, "counted": 40}],
    )
    assert [r["kind"] for r in compared["rows"]] == ["surplus", "shortfall"]
    assert compared["surplus"] == 10
    assert compared["shortfall"] == 10
    # art. 70: the higher of expected and counted goes to the control register, table by table.
    assert compared["register"] == 110 + 50


def test_sign_off_needs_every_count_and_signs_the_digest(
    settled: tuple[Night, SettlementReport],
) -> None:
    night, report = settled
    witness = UserFactory.create(roles=[Role.INSPECTOR])
    content = json.loads(report.content)
    with pytest.raises(DomainError):
        report_sign_off(password="password", report=report, user=night.manager)
    for row in content["cagnotte"]:
        _count(
            report, Table.objects.get(number=row["table"]), row["expected"], night.manager, witness
        )
    with pytest.raises(ConfirmationError):  # his own password, or nothing is signed
        report_sign_off(password="not-his", report=report, user=night.manager)
    assert not ReportSignOff.objects.exists()
    signed = report_sign_off(password="password", report=report, user=night.manager)
    assert signed.report_sha256 == report.sha256
    assert len(signed.signed_sha256) == 64
    with pytest.raises(DomainError):
        report_sign_off(password="password", report=report, user=night.manager)


def test_the_auditor_reruns_the_reconciliation(settled: tuple[Night, SettlementReport]) -> None:
    _night, report = settled
    auditor = UserFactory.create(roles=[Role.AUDITOR])
    run = reconciliation_rerun(report=report, user=auditor)
    assert run.agrees is True
    assert run.same_content is True
    assert run.sha256 == report.sha256


def test_the_report_page_shows_the_registers(settled: tuple[Night, SettlementReport]) -> None:
    night, report = settled
    client = Client()
    client.force_login(night.manager)
    response = client.get(reverse("reports:detail", args=[report.public_id]))
    assert response.status_code == 200
    body = response.content.decode()
    for words in ("Cagnotte book", "Register of bankers", "Reconciliation", "<svg"):
        assert words in body
    assert report.sha256 in body


def test_the_progress_region_polls_until_the_report_is_ready(
    settled: tuple[Night, SettlementReport],
) -> None:
    night, report = settled
    client = Client()
    client.force_login(night.manager)
    url = reverse("reports:progress", args=[report.public_id])
    SettlementReport.objects.filter(pk=report.pk).update(status=ReportStatus.BUILDING)
    waiting = client.get(url, headers={"HX-Request": "true"})
    assert waiting.status_code == 200
    assert "<html" not in waiting.content.decode()
    assert 'hx-trigger="every 1s"' in waiting.content.decode()
    SettlementReport.objects.filter(pk=report.pk).update(status=ReportStatus.READY)
    done = client.get(url, headers={"HX-Request": "true"})
    assert done.headers.get("HX-Refresh") == "true"


def test_a_croupier_cannot_see_reports(settled: tuple[Night, SettlementReport]) -> None:
    _night, report = settled
    client = Client()
    client.force_login(UserFactory.create(roles=[Role.CROUPIER]))
    assert client.get(reverse("reports:detail", args=[report.public_id])).status_code == 403
    assert client.get(reverse("reports:list")).status_code == 403


def test_files_and_the_pdf_download(settled: tuple[Night, SettlementReport]) -> None:
    night, report = settled
    client = Client()
    client.force_login(night.manager)
    csv = client.get(reverse("reports:file", args=[report.public_id, "cagnotte.csv"]))
    assert csv.status_code == 200
    assert csv.content.startswith(b"table,coup,time_utc,banker,pot,levy,gain\n")
    pdf = client.get(reverse("reports:pdf", args=[report.public_id]))
    assert pdf.status_code == 200
    assert pdf.content.startswith(b"%PDF")
    again = client.get(reverse("reports:pdf", args=[report.public_id]))
    assert again.content == pdf.content  # the same report, the same bytes


def test_the_manager_closes_the_session_from_the_screen(
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    night = play_night(SESSION_SCENARIOS[:1])
    client = Client()
    client.force_login(night.manager)
    listing = client.get(reverse("reports:list"))
    assert str(night.gaming_session.public_id) in listing.content.decode()
    close = reverse("reports:session-close", args=[night.gaming_session.public_id])
    refused = client.post(close)  # a table is still open: the night does not close over it
    assert refused.status_code == 409
    assert "is open" in refused.content.decode()
    assert not SettlementReport.objects.exists()
    open_table = TableSession.objects.get(gaming_session=night.gaming_session)
    table_session_close(table_session=open_table, user=night.manager)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("reports:session-close", args=[night.gaming_session.public_id])
        )
    report = SettlementReport.objects.get(gaming_session=night.gaming_session)
    assert response.status_code == 302
    # In a test the commit callbacks run after the view: it sends the manager to the waiting
    # page, which follows the report once a worker has created it.
    assert response["Location"] == reverse("reports:waiting", args=[night.gaming_session.public_id])
    waiting = client.get(response["Location"], headers={"HX-Request": "true"})
    assert waiting.headers["HX-Redirect"] == reverse("reports:detail", args=[report.public_id])
