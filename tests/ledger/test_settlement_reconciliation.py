"""Each table reconciled when it closes (docs/conventions.md, P3): the night's report uses the
stored result while it still describes the table, replays the table otherwise, and is the same
either way; its query count does not grow with the number of coups or tables."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from ledger.models import Account, AccountKind
from ledger.services import Leg, post
from reports import services
from reports.builders import canonical_json, sha256_hex
from reports.models import ReportFile, ReportStatus, SettlementReport, TableReconciliation
from reports.renderers import PDF_FILE, report_files_render, report_pdf_render
from reports.selectors import ledger_marks_from_totals, report_without_pdf_list, settlement_rows_get
from reports.services import (
    settlement_content_build,
    settlement_report_generate,
    table_reconciliation_store,
    table_summaries_get,
)
from reports.tasks import reconcile_table_session, render_report_pdf, settlement_sweep
from tables.models import TableSession
from tables.postings import table_place, table_session_place
from tables.services import table_session_close
from tables.services.journal import last_seq_get
from tests.ledger.test_settlement import SESSION_SCENARIOS, Night, night_close, play_night

pytestmark = pytest.mark.django_db

Capture = Callable[..., Any]


def _task_name(callback: Callable[..., Any]) -> str:
    """The task an on-commit callback sends (`partial(task.delay, id)`), else ""."""
    task = getattr(getattr(callback, "func", None), "__self__", None)
    return str(getattr(task, "name", ""))


def _close_without_table_tasks(night: Night, capture: Capture) -> None:
    """Close the night and run its commit callbacks but the tables' reconciliations: as if
    every message sent at a table's close had been lost."""
    with capture(execute=False) as callbacks:
        night_close(night)
    names = [_task_name(c) for c in callbacks]
    assert names.count("reports.reconcile_table_session") == len(night.runs)
    assert names[-1] == "reports.settle_session"  # the tables' go first
    for callback, name in zip(callbacks, names, strict=True):
        if name != "reports.reconcile_table_session":
            callback()


def _table_sessions(night: Night) -> list[TableSession]:
    return list(
        TableSession.objects.filter(gaming_session=night.gaming_session)
        .select_related("table")
        .order_by("pk")
    )


def test_closing_a_table_sends_its_reconciliation_after_commit(
    django_capture_on_commit_callbacks: Capture,
) -> None:
    night = play_night(SESSION_SCENARIOS[:1])
    (table_session,) = _table_sessions(night)

    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        table_session_close(table_session=table_session, user=night.manager)
    assert not TableReconciliation.objects.exists()  # nothing before the commit
    sent = [c for c in callbacks if _task_name(c) == "reports.reconcile_table_session"]
    assert len(sent) == 1
    sent[0]()

    stored = TableReconciliation.objects.get()
    assert stored.table_session_id == table_session.pk
    assert stored.last_seq == last_seq_get(table_session)
    assert stored.agrees is True
    assert stored.sha256 == sha256_hex(stored.summary)
    summary = json.loads(stored.summary)
    assert summary["differences"] == []
    assert summary["coups_replayed"] == len(table_session.coups.all())
    rows = settlement_rows_get(gaming_session=night.gaming_session)
    assert (
        stored.ledger_mark
        == ledger_marks_from_totals(rows.totals, [table_session.pk])[table_session.pk]
    )

    # A duplicate message stores nothing more.
    reconcile_table_session.apply(args=(table_session.pk,))
    assert table_reconciliation_store(table_session_id=table_session.pk) == stored
    assert TableReconciliation.objects.count() == 1


def test_an_open_table_is_not_reconciled() -> None:
    night = play_night(SESSION_SCENARIOS[:1])
    (table_session,) = _table_sessions(night)
    assert table_reconciliation_store(table_session_id=table_session.pk) is None
    assert not TableReconciliation.objects.exists()


def test_the_report_is_the_same_with_or_without_the_tables_reconciled_at_their_close(
    django_capture_on_commit_callbacks: Capture,
) -> None:
    night = play_night()
    _close_without_table_tasks(night, django_capture_on_commit_callbacks)
    report = SettlementReport.objects.get(gaming_session=night.gaming_session)
    assert report.reconciled is True, report.content
    assert not TableReconciliation.objects.exists()
    render_report_pdf.apply(args=(report.pk,))  # sent when the report was stored
    night.gaming_session.refresh_from_db()
    files = {f.name: f.sha256 for f in ReportFile.objects.filter(report=report)}

    table_sessions = _table_sessions(night)
    for ts in table_sessions[::2]:  # some tables reconciled at their close, not all
        reconcile_table_session.apply(args=(ts.pk,))
    rows = settlement_rows_get(gaming_session=night.gaming_session)
    _summaries, made = table_summaries_get(
        table_sessions=rows.table_sessions, accounts=rows.accounts, totals=rows.totals
    )
    assert made == len(table_sessions) - len(table_sessions[::2])
    partly, _rec = settlement_content_build(gaming_session=night.gaming_session)
    assert canonical_json(partly) == report.content

    for ts in table_sessions:
        reconcile_table_session.apply(args=(ts.pk,))
    _summaries, made = table_summaries_get(
        table_sessions=rows.table_sessions, accounts=rows.accounts, totals=rows.totals
    )
    assert made == 0
    stored, _rec = settlement_content_build(gaming_session=night.gaming_session)
    assert canonical_json(stored) == report.content
    # The same content renders the same files, byte for byte.
    rendered = report_files_render(stored, report.sha256)
    assert {name: sha256_hex(data) for name, _media, data in rendered} == files


def test_a_night_never_reconciled_is_shared_out_between_the_workers(
    django_capture_on_commit_callbacks: Capture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`settle_session` on a worker: the tables not reconciled yet are sent to the other
    processes (all but the first, the last first) while this one goes through them from the
    first, skipping what another stored; the report is the one built alone."""
    night = play_night()
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        night_close(night)
    for callback in callbacks:  # every message lost but the PDF's and the like
        if _task_name(callback) not in (
            "reports.reconcile_table_session",
            "reports.settle_session",
        ):
            callback()
    table_sessions = _table_sessions(night)
    assert len(table_sessions) >= 3
    night.gaming_session.refresh_from_db()
    alone, _rec = settlement_content_build(gaming_session=night.gaming_session, replayed=True)
    # One table reconciled at its close; a table's books (its last event) decide the order.
    reconcile_table_session.apply(args=(table_sessions[0].pk,))
    seqs = {ts.pk: last_seq_get(ts) for ts in table_sessions}
    pending = sorted((ts.pk for ts in table_sessions[1:]), key=lambda pk: -seqs[pk])
    sent: list[int] = []

    def share(pk: int) -> None:
        sent.append(pk)
        if len(sent) == 1:  # another worker takes the first message at once
            reconcile_table_session.apply(args=(pk,))

    replayed: list[int] = []
    make = services.table_summaries_make

    def spied(**kwargs: Any) -> dict[int, str]:
        replayed.extend(ts.pk for ts in kwargs["table_sessions"])
        return make(**kwargs)

    monkeypatch.setattr(services, "table_summaries_make", spied)
    report = settlement_report_generate(gaming_session_id=night.gaming_session.pk, share=share)
    assert sent == list(reversed(pending[1:]))
    stored = {r.table_session_id: r for r in TableReconciliation.objects.all()}
    assert set(stored) == {ts.pk for ts in table_sessions}
    assert all(r.last_seq == seqs[ts_id] and r.agrees for ts_id, r in stored.items())
    assert report is not None and report.status == ReportStatus.READY
    assert report.content == canonical_json(alone)
    assert sorted(replayed) == sorted(pending)  # each once, the report itself none

    # A message taken late finds its table stored: nothing more is stored.
    for pk in sent:
        reconcile_table_session.apply(args=(pk,))
    assert TableReconciliation.objects.count() == len(table_sessions)


def test_a_report_with_one_table_left_to_replay_shares_nothing(
    django_capture_on_commit_callbacks: Capture,
) -> None:
    night = play_night()
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        night_close(night)
    table_sessions = _table_sessions(night)
    for callback in callbacks:  # every table reconciled at its close but the last
        if _task_name(callback) != "reports.settle_session":
            callback()
    TableReconciliation.objects.filter(table_session=table_sessions[-1]).delete()
    sent: list[int] = []
    report = settlement_report_generate(
        gaming_session_id=night.gaming_session.pk, share=sent.append
    )
    assert sent == []
    assert report is not None and report.status == ReportStatus.READY and report.reconciled


def test_a_table_whose_books_changed_after_its_reconciliation_is_replayed_again(
    django_capture_on_commit_callbacks: Capture,
) -> None:
    night = play_night(SESSION_SCENARIOS[:2])
    with django_capture_on_commit_callbacks(execute=False):
        night_close(night)
    table_sessions = _table_sessions(night)
    for ts in table_sessions:
        reconcile_table_session.apply(args=(ts.pk,))
    assert TableReconciliation.objects.filter(agrees=True).count() == len(table_sessions)

    # A balanced transaction booked on the first table without any event of its journal: its
    # stored reconciliation no longer describes its entries.
    first = table_sessions[0]
    cagnotte = Account.objects.get(
        kind=AccountKind.CAGNOTTE,
        place=table_place(first.table.public_id),
        gaming_session=night.gaming_session,
    )
    other = Account.objects.filter(
        kind=AccountKind.PLAYER_POSITION, gaming_session=night.gaming_session
    ).first()
    assert other is not None
    post(
        legs=[Leg.debit(cagnotte, 5, "cagnotte"), Leg.credit(other, 5, "cagnotte")],
        idempotency_key="outside-the-journal",
        posted_by=night.manager,
        gaming_session=night.gaming_session,
        place=table_session_place(first.public_id),
    )
    rows = settlement_rows_get(gaming_session=night.gaming_session)
    _summaries, made = table_summaries_get(
        table_sessions=rows.table_sessions, accounts=rows.accounts, totals=rows.totals
    )
    assert made == 1

    report = settlement_report_generate(gaming_session_id=night.gaming_session.pk)
    assert report is not None and report.reconciled is False
    kinds = {d["kind"] for d in json.loads(report.content)["reconciliation"]["differences"]}
    assert "unexplained_transaction" in kinds
    assert "balance_differs" in kinds


def _queries(night: Night) -> int:
    with CaptureQueriesContext(connection) as queries:
        settlement_content_build(gaming_session=night.gaming_session)
    return len(queries)


def test_the_report_query_count_does_not_grow_with_coups_or_tables(
    django_capture_on_commit_callbacks: Capture,
) -> None:
    nights = []
    for scenarios in (SESSION_SCENARIOS[:1], SESSION_SCENARIOS):
        # One night after the other: one gaming session is open at a time.
        night = play_night(scenarios)
        with django_capture_on_commit_callbacks(execute=False):
            night_close(night)
        night.gaming_session.refresh_from_db()
        nights.append(night)
    small, large = nights
    coups = [sum(ts.coups.count() for ts in _table_sessions(night)) for night in (small, large)]
    assert coups[1] > 3 * coups[0]

    # Nothing reconciled at the tables' close: every table is replayed by the report.
    replaying = [_queries(small), _queries(large)]
    assert replaying[0] == replaying[1]

    # Every table reconciled at its close: the stored results are read.
    for night in (small, large):
        for ts in _table_sessions(night):
            reconcile_table_session.apply(args=(ts.pk,))
    stored = [_queries(small), _queries(large)]
    assert stored[0] == stored[1]
    assert stored[0] <= replaying[0]


def test_the_pdf_follows_the_stored_report(settings: Any) -> None:
    settings.SETTLEMENT_SWEEP_GRACE_SECONDS = 0
    night = play_night(SESSION_SCENARIOS[:2])
    night_close(night)
    # Run here without its commit callbacks: the report is stored, its PDF not yet sent.
    report = settlement_report_generate(gaming_session_id=night.gaming_session.pk)
    assert report is not None and report.status == ReportStatus.READY
    names = set(ReportFile.objects.filter(report=report).values_list("name", flat=True))
    assert names == {"players.csv", "coups.csv", "cagnotte.csv"}
    later = timezone.now() + timedelta(hours=1)
    assert report_without_pdf_list(generated_before=later) == [report.pk]

    assert settlement_sweep.apply().get() == 1  # the lost PDF message is sent again
    pdf = ReportFile.objects.get(report=report, name=PDF_FILE)
    assert bytes(pdf.data) == report_pdf_render(json.loads(report.content), report.sha256)[2]
    assert pdf.sha256 == sha256_hex(bytes(pdf.data))
    render_report_pdf.apply(args=(report.pk,))  # a duplicate message stores nothing more
    assert ReportFile.objects.filter(report=report).count() == 4
    assert report_without_pdf_list(generated_before=later) == []
