"""Writes of the settlement: the report a worker builds, the counted cagnotte, the sign-off.

`settlement_report_generate` is what `reports.tasks.settle_session` calls. It is idempotent: one
report per gaming session (a unique key), claimed by a conditional update, stored once under a
row lock; a second close, a duplicate message or a redelivery after a crash finds the stored
report and stops: a night has one settlement, however often it is asked for.
"""

from __future__ import annotations

import gc
import json
import logging
from collections import defaultdict
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from functools import partial
from itertools import groupby
from operator import itemgetter
from typing import TYPE_CHECKING, Any

from celery import current_app
from django.db import IntegrityError, OperationalError, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from establishment.confirmation import identity_confirm
from establishment.errors import DomainError, ErrorCode, InvalidStateError, PermissionDeniedError
from establishment.models import GamingSession
from establishment.roles import Role
from establishment.services import audit
from establishment.staff import has_role
from reports.builders import canonical_json, report_build, sha256_hex
from reports.counts import counts_digest
from reports.models import (
    CountedCagnotte,
    ReconciliationRun,
    ReportFile,
    ReportSignOff,
    ReportStatus,
    SettlementReport,
    TableReconciliation,
)
from reports.reconciliation import (
    CoupRow,
    LegRow,
    LevyRow,
    Reconciliation,
    TransactionRow,
    reconcile,
    table_reconcile,
)
from reports.renderers import PDF_FILE, report_csv_render, report_pdf_render
from reports.selectors import (
    journal_rows,
    last_seqs_get,
    ledger_marks_from_totals,
    reconciliation_coups_list,
    reconciliation_events_list,
    reconciliation_legs_list,
    reconciliation_levies_list,
    reconciliation_transactions_list,
    settlement_accounts_values,
    settlement_ledger_checks_get,
    settlement_rows_get,
    table_reconciliation_list,
    table_reconciliation_summaries_get,
    unreconciled_table_session_ids,
)
from tables.models import TableSession

if TYPE_CHECKING:
    from django.contrib.auth.models import User

logger = logging.getLogger(__name__)


class ReportNotReadyError(DomainError):
    code = ErrorCode.INVALID_STATE
    http_status = 409


# -- building --------------------------------------------------------------------------------


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Building a report makes millions of small objects (journal rows, engine states, report
    lines) that live until it is stored; Python's cycle collector would walk them again and
    again (measured: three times the cost of decoding the journals). Paused for the build; the
    objects are freed by reference counting, and the collector runs again afterwards."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def table_summaries_make(
    *, table_sessions: Sequence[TableSession], accounts: Mapping[int, Mapping[str, Any]]
) -> dict[int, str]:
    """Replay these table sessions and compare them with their books (`table_reconcile`), each
    as canonical JSON. Four queries whatever the number of tables or coups; the journals are
    streamed table after table, so only one table's events are held at a time."""
    if not table_sessions:
        return {}
    with _collector_paused():
        return _table_summaries_make(table_sessions, accounts)


def _table_summaries_make(
    table_sessions: Sequence[TableSession], accounts: Mapping[int, Mapping[str, Any]]
) -> dict[int, str]:
    by_pk = {ts.pk: ts for ts in table_sessions}
    ids = sorted(by_pk)
    coups: dict[int, list[CoupRow]] = defaultdict(list)
    for ts_id, *coup in reconciliation_coups_list(table_session_ids=ids).iterator(chunk_size=5000):
        coups[ts_id].append(tuple(coup))
    transactions: dict[int, list[TransactionRow]] = defaultdict(list)
    for ts_id, *txn in reconciliation_transactions_list(table_session_ids=ids):
        transactions[ts_id].append(tuple(txn))
    legs: dict[int, list[LegRow]] = defaultdict(list)
    for ts_id, *leg in reconciliation_legs_list(table_session_ids=ids):
        legs[ts_id].append(tuple(leg))
    levies: dict[int, list[LevyRow]] = defaultdict(list)
    for ts_id, *levy in reconciliation_levies_list(table_session_ids=ids):
        levies[ts_id].append(tuple(levy))
    out: dict[int, str] = {}
    events = journal_rows(
        reconciliation_events_list(table_session_ids=ids).iterator(chunk_size=5000)
    )
    done: set[int] = set()
    for ts_id, rows in groupby(events, key=itemgetter(0)):
        done.add(ts_id)
        out[ts_id] = table_reconcile(
            table_session=by_pk[ts_id],
            events=[row[1:] for row in rows],
            coups=coups.pop(ts_id, []),
            transactions=transactions.pop(ts_id, []),
            legs=legs.pop(ts_id, []),
            accounts=accounts,
            levies=levies.pop(ts_id, []),
        )
    for ts_id in ids:
        if ts_id not in done:  # a table session without a single event
            out[ts_id] = table_reconcile(
                table_session=by_pk[ts_id],
                events=[],
                coups=coups.pop(ts_id, []),
                transactions=transactions.pop(ts_id, []),
                legs=legs.pop(ts_id, []),
                accounts=accounts,
                levies=levies.pop(ts_id, []),
            )
    return out


def table_summaries_get(
    *,
    table_sessions: Sequence[TableSession],
    accounts: Mapping[int, Mapping[str, Any]],
    totals: Sequence[Mapping[str, Any]],
) -> tuple[dict[int, dict[str, Any]], int]:
    """Each table session's replay summary: the one stored at its close while its journal and
    its entries (their mark, read from the report's aggregation `totals`) are still what that
    reconciliation saw, else made now. The result is the same
    either way (the same function of the same rows). Returns the summaries and how many were
    made now."""
    ids = [ts.pk for ts in table_sessions]
    seqs = last_seqs_get(table_session_ids=ids)
    marks = ledger_marks_from_totals(totals, ids)
    usable: dict[int, int] = {}
    for stored in table_reconciliation_list(table_session_ids=ids):
        ts_id = stored.table_session_id
        if (stored.last_seq, stored.ledger_mark) == (seqs[ts_id], marks[ts_id]):
            usable[stored.table_session_id] = stored.pk
    texts: dict[int, str] = {}
    if usable:
        by_pk = table_reconciliation_summaries_get(pks=usable.values())
        texts = {ts_id: by_pk[pk] for ts_id, pk in usable.items()}
    missing = [ts for ts in table_sessions if ts.pk not in texts]
    texts.update(table_summaries_make(table_sessions=missing, accounts=accounts))
    return {ts_id: json.loads(text) for ts_id, text in texts.items()}, len(missing)


def settlement_content_build(
    *, gaming_session: GamingSession, replayed: bool = False
) -> tuple[dict[str, Any], Reconciliation]:
    """The report of a gaming session and its reconciliation, from the books as they are now.

    A fixed number of queries whatever the number of coups: the rows (selectors), each table's
    reconciliation (stored, or made now from the journals and the entries; `replayed`: always
    made now, as `registers_verify` wants it), and the database's sums over the session's
    transactions; then the pure builders.
    """
    with _collector_paused():
        return _settlement_content_build(gaming_session, replayed)


def _settlement_content_build(
    gaming_session: GamingSession, replayed: bool = False
) -> tuple[dict[str, Any], Reconciliation]:
    rows = settlement_rows_get(gaming_session=gaming_session)
    if replayed:
        made = table_summaries_make(table_sessions=rows.table_sessions, accounts=rows.accounts)
        summaries = {ts_id: json.loads(text) for ts_id, text in made.items()}
    else:
        summaries, _made = table_summaries_get(
            table_sessions=rows.table_sessions, accounts=rows.accounts, totals=rows.totals
        )
    checks = settlement_ledger_checks_get(
        gaming_session=gaming_session, table_session_ids=[ts.pk for ts in rows.table_sessions]
    )
    reconciliation = reconcile(
        table_sessions=rows.table_sessions,
        summaries=summaries,
        accounts=rows.accounts,
        totals=rows.totals,
        checks=checks,
    )
    content = report_build(rows=rows, summaries=summaries, reconciliation=reconciliation)
    return content, reconciliation


def table_reconciliation_store(
    *, table_session_id: int, accounts: Mapping[int, Mapping[str, Any]] | None = None
) -> TableReconciliation | None:
    """Reconcile a closed table session and store the result, once per journal length
    (`accounts`: its gaming session's, `settlement_accounts_values`, when the caller has them).

    What `reports.tasks.reconcile_table_session` calls when a table closes. Idempotent: a result
    already stored for the table's last journal number is returned as it is (the unique key
    settles a race between two workers). Returns None for a table session that does not exist
    or is still open; a reconciliation that cannot be made is logged, not raised (the night's
    report then reconciles the table itself).
    """
    table_session = TableSession.objects.filter(pk=table_session_id).select_related("table").first()
    if table_session is None or table_session.closed_at is None:
        return None
    last_seq = last_seqs_get(table_session_ids=[table_session.pk])[table_session.pk]
    stored = TableReconciliation.objects.filter(
        table_session=table_session, last_seq=last_seq
    ).first()
    if stored is not None:
        return stored
    try:
        if accounts is None:
            accounts = settlement_accounts_values(gaming_session_id=table_session.gaming_session_id)
        text = table_summaries_make(table_sessions=[table_session], accounts=accounts)[
            table_session.pk
        ]
    except OperationalError:
        raise
    except Exception:
        logger.exception("Reconciliation of table session %s failed", table_session_id)
        return None
    summary = json.loads(text)
    try:
        with transaction.atomic():
            stored, _created = TableReconciliation.objects.get_or_create(
                table_session=table_session,
                last_seq=summary["last_seq"],
                defaults={
                    "ledger_mark": summary["ledger"],
                    "summary": text,
                    "sha256": sha256_hex(text),
                    "agrees": not summary["differences"],
                    "created_at": timezone.now(),
                },
            )
    except IntegrityError:  # another worker stored it between our SELECT and INSERT
        stored = TableReconciliation.objects.get(
            table_session=table_session, last_seq=summary["last_seq"]
        )
    return stored


def _report_for(session: GamingSession) -> SettlementReport:
    try:
        with transaction.atomic():
            report, _created = SettlementReport.objects.get_or_create(
                gaming_session=session, defaults={"requested_at": timezone.now()}
            )
    except IntegrityError:  # another worker created it between our SELECT and INSERT
        report = SettlementReport.objects.get(gaming_session=session)
    return report


def job_claim(model: type[Any], pk: int) -> bool:
    """A worker claims a job of the books' (a settlement report, a register archive): a
    conditional update that a job already stored refuses, counting the attempt; False when
    another worker stored it first."""
    claimed = (
        model.objects.filter(pk=pk)
        .exclude(status=ReportStatus.READY)
        .update(
            status=ReportStatus.BUILDING,
            attempts=F("attempts") + 1,
            started_at=timezone.now(),
            error="",
        )
    )
    return bool(claimed)


def settlement_report_generate(
    *, gaming_session_id: int, share: Callable[[int], object] | None = None
) -> SettlementReport | None:
    """Build and store the settlement report of a closed gaming session, once.

    With `share` (the worker's `reports.tasks.settle_session`: it sends a table session's
    reconciliation to the other worker processes), the tables not yet reconciled are shared
    out first (`_reconciliations_shared`). Returns None for a session that does not exist or is
    still open. A report that cannot be built is marked failed with the error (the manager's
    screen shows it; the sweeper tries again); a transient database error is raised for the
    task to retry.
    """
    session = (
        GamingSession.objects.filter(pk=gaming_session_id)
        .select_related("opened_by", "closed_by")
        .first()
    )
    if session is None or session.closed_at is None:
        return None
    report = _report_for(session)
    if report.status == ReportStatus.READY:
        return report
    if not job_claim(SettlementReport, report.pk):
        report.refresh_from_db()
        return report
    if share is not None:
        _reconciliations_shared(session, share)
    try:
        with _collector_paused():
            content, reconciliation = settlement_content_build(gaming_session=session)
            text = canonical_json(content)
            files = report_csv_render(content)
    except OperationalError:
        raise
    except Exception as error:
        # Recorded rather than raised: the close that sent this task has committed, and in the
        # embedded (eager) mode an exception here would reach the manager as a server error.
        logger.exception("Settlement report of gaming session %s failed", gaming_session_id)
        SettlementReport.objects.filter(pk=report.pk, status=ReportStatus.BUILDING).update(
            status=ReportStatus.FAILED, error=f"{type(error).__name__}: {error}"[:2000]
        )
        report.refresh_from_db()
        return report
    return _report_store(report.pk, text, reconciliation.agrees, files)


def _reconciliations_shared(session: GamingSession, share: Callable[[int], object]) -> None:
    """The night's tables not yet reconciled (their replay is most of the report's work when
    they closed all at once, or a worker was down), reconciled by this worker and the others
    at once: all but the first are sent (`share`), the last first, while this worker goes
    through them from the first, skipping those another worker stored already
    (`table_reconciliation_store`, idempotent). Nobody waits for anybody: a table sent and not
    taken yet is reconciled here, and its message later finds it stored; where the two meet,
    one table may be replayed twice, its result stored once. The report then reads them
    stored, as the reconciliations of the tables that closed through the night."""
    pending = unreconciled_table_session_ids(gaming_session_id=session.pk)
    if len(pending) < 2:
        return  # nothing to share: the report replays a single table itself
    for pk in reversed(pending[1:]):
        share(pk)
    # The night is closed: its accounts are read once for all its tables.
    accounts = settlement_accounts_values(gaming_session_id=session.pk)
    for pk in pending:
        table_reconciliation_store(table_session_id=pk, accounts=accounts)


@transaction.atomic
def _report_store(
    report_pk: int, text: str, agrees: bool, files: list[tuple[str, str, bytes]]
) -> SettlementReport:
    locked = SettlementReport.objects.select_for_update().get(pk=report_pk)
    if locked.status == ReportStatus.READY:
        return locked  # a concurrent worker stored the same report first
    locked.status = ReportStatus.READY
    locked.content = text
    locked.sha256 = sha256_hex(text)
    locked.generated_at = timezone.now()
    locked.reconciled = agrees
    locked.error = ""
    locked.save()
    ReportFile.objects.bulk_create(
        (
            ReportFile(
                report=locked, name=name, media_type=media, data=data, sha256=sha256_hex(data)
            )
            for name, media, data in files
        ),
        ignore_conflicts=True,  # the same renderings, already stored by an earlier attempt
    )
    # The PDF follows (ledger.render_report_pdf), rendered from the stored content once this
    # commits: the report, its page and its CSV files are ready without waiting for it.
    # Looked up by name: a service does not import the tasks (pyproject's import contracts).
    current_app.loader.import_default_modules()
    transaction.on_commit(partial(current_app.tasks["reports.render_report_pdf"].delay, locked.pk))
    return locked


def report_pdf_store(*, report_id: int) -> ReportFile | None:
    """Render a stored report's PDF as closed and store it, once (`ledger.render_report_pdf`).

    The same content and digest give the same bytes, so a second run, a duplicate message or a
    race between two workers stores one file (the unique name per report). None for a report
    that does not exist or is not ready.
    """
    report = SettlementReport.objects.filter(pk=report_id, status=ReportStatus.READY).first()
    if report is None:
        return None
    stored = ReportFile.objects.filter(report=report, name=PDF_FILE).first()
    if stored is not None:
        return stored
    with _collector_paused():
        name, media, data = report_pdf_render(report_content(report), report.sha256)
    ReportFile.objects.bulk_create(
        [
            ReportFile(
                report=report, name=name, media_type=media, data=data, sha256=sha256_hex(data)
            )
        ],
        ignore_conflicts=True,
    )
    return ReportFile.objects.get(report=report, name=PDF_FILE)


# -- the manager: counted cagnotte and sign-off ----------------------------------------------


def _ready_check(report: SettlementReport) -> None:
    if report.status != ReportStatus.READY:
        raise ReportNotReadyError("The report is not ready yet.")


def manager_lock(
    report: SettlementReport,
    user: User,
    password: str,
    *,
    refused: str,
    signed: str,
    what: str,
) -> SettlementReport:
    """The report locked for a manager's entry: refused (`refused`) to anyone else, and to a
    report not ready or already signed off (`signed`); the manager proves who he is with his
    own password (`identity_confirm`, to do `what`)."""
    locked = SettlementReport.objects.select_for_update().get(pk=report.pk)
    if not has_role(user, Role.MANAGER):
        raise PermissionDeniedError(refused)
    _ready_check(locked)
    if ReportSignOff.objects.filter(report=locked).exists():
        raise InvalidStateError(signed)
    identity_confirm(user, password, what=what)
    return locked


def report_audit(
    report: SettlementReport, user: User, action: str, client: str, **data: Any
) -> None:
    """The audit row of what a manager or an auditor did to a report: its gaming session's."""
    audit(user=user, action=action, gaming_session=report.gaming_session, client=client, **data)


@transaction.atomic(durable=True)
def report_sign_off(
    *, report: SettlementReport, user: User, password: str, client: str = ""
) -> ReportSignOff:
    """The manager signs the report off once every table's cagnotte is counted, proving who he
    is by re-entering his own password (docs/security.md)."""
    locked = manager_lock(
        report,
        user,
        password,
        refused="Only a manager may sign the report off.",
        signed="The report is already signed off.",
        what=_("sign the report off"),
    )
    counts = list(CountedCagnotte.objects.filter(report=locked).select_related("table"))
    missing = sorted(
        {t["table"] for t in report_content(locked)["cagnotte"]} - {c.table.number for c in counts}
    )
    if missing:
        raise InvalidStateError(
            "Count the cagnotte of every table first: "
            + ", ".join(str(number) for number in missing)
            + ".",
            tables=missing,
        )
    sign_off = ReportSignOff.objects.create(
        report=locked,
        signed_by=user,
        signed_at=timezone.now(),
        report_sha256=locked.sha256,
        signed_sha256=counts_digest(locked.sha256, counts),
    )
    report_audit(
        locked,
        user,
        "report_signed_off",
        client,
        report_sha256=locked.sha256,
        signed_sha256=sign_off.signed_sha256,
    )
    return sign_off


# -- the auditor -----------------------------------------------------------------------------


def reconciliation_rerun(
    *, report: SettlementReport, user: User, client: str = ""
) -> ReconciliationRun:
    """Rebuild the report from the books as they are now: the reconciliation again, and whether
    the content still has the stored SHA-256."""
    if not (has_role(user, Role.AUDITOR) or has_role(user, Role.MANAGER)):
        raise PermissionDeniedError("Only an auditor or a manager may re-run a reconciliation.")
    _ready_check(report)
    content, reconciliation = settlement_content_build(gaming_session=report.gaming_session)
    digest = sha256_hex(canonical_json(content))
    return _run_store(report, user, reconciliation, digest, client)


@transaction.atomic(durable=True)
def _run_store(
    report: SettlementReport,
    user: User,
    reconciliation: Reconciliation,
    digest: str,
    client: str,
) -> ReconciliationRun:
    run = ReconciliationRun.objects.create(
        report=report,
        run_by=user,
        run_at=timezone.now(),
        agrees=reconciliation.agrees,
        same_content=digest == report.sha256,
        sha256=digest,
        differences=reconciliation.differences,
    )
    report_audit(
        report,
        user,
        "reconciliation_rerun",
        client,
        agrees=run.agrees,
        same_content=run.same_content,
    )
    return run


def report_content(report: SettlementReport) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(report.content)
    return data
