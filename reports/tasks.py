"""Celery tasks of the books: thin, by id, idempotent (each calls one service, which may run twice).

`reconcile_table_session` is sent by `tables.services.sessions` when a table closes: tables
close through the night, so by the session's close most are reconciled already, and the report
replays only the tables without a stored result (so a lost message costs time, not a result).
`settle_session` is sent by `tables.services.gaming_session_close` once the close is committed
(`delay_on_commit`); the tables it finds not reconciled yet it shares out, sending their
`reconcile_table_session` to the worker's other processes while it goes through them itself.
`settlement_sweep` runs from Celery beat and sends it again for any closed session still without
its report, so a message lost between the commit and the broker loses nothing; it also sends
`render_report_pdf` for a stored report still without its PDF (the PDF follows the report, so
that the report is ready sooner). Late acknowledgement: a worker killed mid-report leaves its
message to be delivered again, and the report's unique key and conditional claim make the second
run store one report.

The registers (docs/registers.md): `freeze_model11` is sent by `reports.counting` once a count
has committed and stores the séance's model 11 once (the count's row locked);
`build_register_archive` is sent when a manager or an auditor asks for a season's archive, and
stores it once (a conditional claim, as the report's). `registers_sweep` runs from Celery beat
and sends both again for what a lost message left undone: a count older than the grace period
still without its model 11, an archive asked for and still not built.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from celery import Task, shared_task
from django.conf import settings
from django.utils import timezone

from establishment.retry import RETRIED
from reports.registers.archive import (
    registers_archive_store,
    registers_archive_unbuilt_list,
)
from reports.registers.store import counts_without_model11, model11_freeze
from reports.selectors import report_without_pdf_list, unsettled_session_list
from reports.services import (
    report_pdf_store,
    settlement_report_generate,
    table_reconciliation_store,
)


@shared_task(name="reports.settle_session", **RETRIED)
def settle_session(gaming_session_id: int) -> None:
    """Build and store the settlement report of a closed gaming session (once), the tables not
    reconciled yet shared with the other worker processes (`reconcile_table_session`); in the
    embedded mode, where a task sent runs at once in this process, nothing is shared."""
    share = None if settings.CELERY_TASK_ALWAYS_EAGER else reconcile_table_session.delay
    settlement_report_generate(gaming_session_id=gaming_session_id, share=share)


@shared_task(name="reports.reconcile_table_session", **RETRIED)
def reconcile_table_session(table_session_id: int) -> None:
    """Replay a closed table session and store its reconciliation (once per journal length),
    so the night's report finds it ready (`tables.services.sessions` sends it at the close)."""
    table_reconciliation_store(table_session_id=table_session_id)


@shared_task(name="reports.render_report_pdf", **RETRIED)
def render_report_pdf(report_id: int) -> None:
    """Render and store a stored report's PDF as closed (sent when the report is stored)."""
    report_pdf_store(report_id=report_id)


@shared_task(name="reports.freeze_model11", **RETRIED)
def freeze_model11(count_id: int) -> None:
    """Build, store and sign the model 11 of a counted séance (once: a second run finds it)."""
    model11_freeze(count_id=count_id)


@shared_task(name="reports.build_register_archive", **RETRIED)
def build_register_archive(archive_id: int) -> None:
    """Build and store a season's archive of the registers that was asked for (once)."""
    registers_archive_store(archive_id=archive_id)


# -- the sweeps, from Celery beat: what a lost message left undone is sent again -----------------


def _cutoffs() -> tuple[datetime, datetime]:
    """Before when a job is overdue (the grace period) and before when a worker's claim on it
    is stale (it would have hit the task time limit)."""
    now = timezone.now()
    return (
        now - timedelta(seconds=settings.SETTLEMENT_SWEEP_GRACE_SECONDS),
        now - timedelta(seconds=settings.CELERY_TASK_TIME_LIMIT),
    )


def _send_again(task: Task[Any, Any], ids: Sequence[int]) -> int:
    """Send `task` again for each id; how many were sent."""
    for pk in ids:
        task.delay(pk)
    return len(ids)


@shared_task(name="reports.settlement_sweep", acks_late=True, ignore_result=True)
def settlement_sweep() -> int:
    """Send `settle_session` again for every closed session still without a report, and
    `render_report_pdf` for every stored report still without its PDF."""
    grace, stale = _cutoffs()
    sessions = unsettled_session_list(closed_before=grace, stale_before=stale)
    return _send_again(settle_session, sessions) + _send_again(
        render_report_pdf, report_without_pdf_list(generated_before=grace)
    )


@shared_task(name="reports.registers_sweep", acks_late=True, ignore_result=True)
def registers_sweep() -> int:
    """Send `freeze_model11` again for every count older than the grace period still without
    its model 11, and `build_register_archive` for every archive asked for before it and still
    not built."""
    grace, stale = _cutoffs()
    counts = counts_without_model11(counted_before=grace).values_list("pk", flat=True)
    return _send_again(freeze_model11, list(counts)) + _send_again(
        build_register_archive,
        registers_archive_unbuilt_list(requested_before=grace, stale_before=stale),
    )
