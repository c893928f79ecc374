"""Settlement report benchmark: a big night's report in a fixed number of queries and a few
seconds, PostgreSQL only.

    createdb -h 127.0.0.1 -U postgres casino_bench
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/casino_bench \\
    CELERY_BROKER_URL=redis://127.0.0.1:6379/14 \\
        .venv/bin/python bench/settlement.py [--coups 50000] [--tables 50] [--other 3000000]
            [--reuse] [--runs 3] [--open-at-close 1] [--concurrency 2] [--no-worker]

It makes a gaming session of `--coups` chemin de fer coups over `--tables` tables: each coup
played through the rules engine by a small driver and written as the recording service writes it
(the table's journal with its postings, the coups, the register of bankers, one balanced ledger
transaction per settlement), beside `--other` ledger entries of other sessions (bulk SQL; both
in bench/settlement_night.py). Then:

1. the report's aggregation (`reports.selectors.settlement_totals_list`, the ORM) against the same
   GROUP BY in raw SQL, median of 5 runs each (goal: ratio ≤ 1.5);
2. one table's reconciliation (`ledger.reconcile_table_session`, the work done at its close);
3. the report built in this process, step by step, with its SQL statement count, with no table
   reconciled beforehand and with every table reconciled at its close, for this session and for
   a session ten times smaller (goal: the same count; the same content either way);
4. the whole report through a real worker (`celery -A casino worker`, Redis), median of 3 runs
   of each kind (goal: ≤ 5 s):
   - nothing precomputed: from sending `ledger.settle_session` to the stored report;
   - as in production: the tables close during the night (`table_session_close`, which sends
     each table's reconciliation to the worker) but the last `--open-at-close`; once the worker
     has reconciled those, the last tables close and then the session (`gaming_session_close`;
     a session closes once every table has), timed from the last tables' close to the stored
     report. Between runs the bench reopens the night (an UPDATE, bench
     only) and deletes the report and the stored reconciliations.
"""

from __future__ import annotations

import gc
import json
import os
import signal
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")
os.environ.setdefault("DJANGO_SECRET_KEY", "bench-only-secret-key")

import django  # noqa: E402

django.setup()

from django.contrib.auth.models import Group, User  # noqa: E402
from django.db import connection  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from bench.scratch import configured_parser, configured_postgresql_migrate  # noqa: E402
from bench.settlement_night import make_session, other_entries  # noqa: E402
from establishment.models import GamingSession  # noqa: E402
from establishment.roles import Role  # noqa: E402
from ledger.models import Entry  # noqa: E402
from reports.builders import canonical_json, report_build, sha256_hex  # noqa: E402
from reports.models import (  # noqa: E402
    ReportFile,
    ReportStatus,
    SettlementReport,
    TableReconciliation,
)
from reports.reconciliation import reconcile  # noqa: E402
from reports.renderers import PDF_FILE, report_csv_render, report_pdf_render  # noqa: E402
from reports.selectors import (  # noqa: E402
    places_get,
    settlement_accounts_get,
    settlement_ledger_checks_get,
    settlement_rows_get,
    settlement_totals_list,
)
from reports.services import (  # noqa: E402
    table_reconciliation_store,
    table_summaries_get,
)
from tables.models import (  # noqa: E402
    TableSession,
)
from tables.services import gaming_session_close, table_session_close  # noqa: E402

# -- measurements ----------------------------------------------------------------------------

RAW_GROUP_BY = """
SELECT e.account_id, t.place, e.reason, e.side, SUM(e.amount), COUNT(e.id), MAX(e.id)
  FROM ledger_entry e JOIN ledger_transaction t ON t.id = e.transaction_id
 WHERE e.account_id = ANY(%s)
 GROUP BY e.account_id, t.place, e.reason, e.side
 ORDER BY e.account_id, t.place, e.reason, e.side
"""


def median_ms(run: Callable[[], Any], times: int = 5) -> float:
    run()  # warm the cache
    samples = []
    for _ in range(times):
        started = time.perf_counter()
        run()
        samples.append((time.perf_counter() - started) * 1000)
    return statistics.median(samples)


def aggregation(session: GamingSession) -> dict[str, Any]:
    ids = list(settlement_accounts_get(gaming_session=session).values_list("pk", flat=True))

    def raw() -> list[Any]:
        with connection.cursor() as cursor:
            cursor.execute(RAW_GROUP_BY, [ids])
            fetched: list[Any] = cursor.fetchall()
            return fetched

    rows = len(raw())
    entries = Entry.objects.filter(account_id__in=ids).count()
    raw_ms = median_ms(raw)
    places = places_get(gaming_session_id=session.pk).table_sessions
    orm_ms = median_ms(lambda: settlement_totals_list(account_ids=ids, table_sessions=places))
    return {
        "entries": entries,
        "groups": rows,
        "raw_sql_ms": round(raw_ms, 1),
        "orm_ms": round(orm_ms, 1),
        "ratio": round(orm_ms / raw_ms, 2),
    }


def build_in_process(session: GamingSession, *, stored: bool) -> dict[str, Any]:
    """The report built here, step by step, with its statement count: with every table's
    reconciliation stored at its close (`stored`), or with none (every table replayed here)."""
    table_ids = list(session.table_sessions.values_list("pk", flat=True))
    TableReconciliation.objects.filter(table_session_id__in=table_ids).delete()
    if stored:
        for ts_id in table_ids:
            table_reconciliation_store(table_session_id=ts_id)
    steps: dict[str, float] = {}

    def timed(name: str, run: Callable[[], Any]) -> Any:
        started = time.perf_counter()
        value = run()
        steps[name] = round((time.perf_counter() - started) * 1000, 1)
        return value

    gc.disable()  # as the services do while they build (reports.services)
    with CaptureQueriesContext(connection) as queries:
        rows = timed(
            "rows (incl. aggregation)", lambda: settlement_rows_get(gaming_session=session)
        )
        summaries, made = timed(
            "tables: stored results read, or journals fetched and replayed",
            lambda: table_summaries_get(
                table_sessions=rows.table_sessions, accounts=rows.accounts, totals=rows.totals
            ),
        )
        checks = timed(
            "transactions outside the tables (SQL)",
            lambda: settlement_ledger_checks_get(
                gaming_session=session, table_session_ids=[ts.pk for ts in rows.table_sessions]
            ),
        )
        rec = timed(
            "reconciliation",
            lambda: reconcile(
                table_sessions=rows.table_sessions,
                summaries=summaries,
                accounts=rows.accounts,
                totals=rows.totals,
                checks=checks,
            ),
        )
        content = timed(
            "report built", lambda: report_build(rows=rows, summaries=summaries, reconciliation=rec)
        )
        text = timed("canonical JSON", lambda: canonical_json(content))
    timed("CSV rendered (stored with the report)", lambda: report_csv_render(content))
    pdf = timed(
        "PDF rendered (follow-up task)", lambda: report_pdf_render(content, sha256_hex(text))
    )
    gc.enable()
    return {
        "tables_replayed_here": made,
        "queries": len(queries),
        "coups_replayed": rec.coups_replayed,
        "agrees": rec.agrees,
        "differences": rec.differences[:3],
        "steps_ms": steps,
        "total_ms": round(sum(steps.values()), 1),
        "content_bytes": len(text),
        "pdf_bytes": len(pdf[2]),
        "sha256": sha256_hex(text),
    }


def table_task_in_process(session: GamingSession, count: int = 5) -> dict[str, Any]:
    """What `ledger.reconcile_table_session` costs for one table (the work done at its close)."""
    table_ids = list(session.table_sessions.order_by("pk").values_list("pk", flat=True))[:count]
    samples = []
    for ts_id in table_ids:
        TableReconciliation.objects.filter(table_session_id=ts_id).delete()
        started = time.perf_counter()
        table_reconciliation_store(table_session_id=ts_id)
        samples.append(time.perf_counter() - started)
    return {"median_ms": round(statistics.median(samples) * 1000, 1), "tables": len(samples)}


class Worker:
    """`celery -A casino worker` against the broker of CELERY_BROKER_URL, its log in var/."""

    def __init__(self, concurrency: int) -> None:
        self.log = open(ROOT / "var" / "bench-worker.log", "w")  # noqa: SIM115
        self.process = subprocess.Popen(
            [
                str(Path(sys.executable).parent / "celery"),
                "-A",
                "casino",
                "worker",
                f"--concurrency={concurrency}",
                "--without-gossip",
                "--without-mingle",
                "--loglevel=INFO",
            ],
            cwd=ROOT,
            env=dict(os.environ),
            stdout=self.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        time.sleep(4)  # the worker connects

    def stop(self) -> None:
        os.killpg(self.process.pid, signal.SIGTERM)
        self.process.wait(timeout=60)
        self.log.close()


def _wait_until(condition: Callable[[], bool], what: str, timeout: float = 600) -> None:
    started = time.perf_counter()
    while not condition():
        if time.perf_counter() - started > timeout:
            raise RuntimeError(f"no {what} after {timeout} s")
        time.sleep(0.02)


def _report_done(session: GamingSession) -> bool:
    report = SettlementReport.objects.filter(gaming_session=session).first()
    return report is not None and report.status in (ReportStatus.READY, ReportStatus.FAILED)


def _pdf_done(session: GamingSession) -> bool:
    return ReportFile.objects.filter(report__gaming_session=session, name=PDF_FILE).exists()


def _report_reset(session: GamingSession) -> None:
    ReportFile.objects.filter(report__gaming_session=session).delete()
    SettlementReport.objects.filter(gaming_session=session).delete()
    TableReconciliation.objects.filter(table_session__gaming_session=session).delete()


def _reopen(session: GamingSession) -> None:
    """Bench only: the night and its tables open again, so that they can be closed again."""
    TableSession.objects.filter(gaming_session=session).update(closed_at=None, closed_by=None)
    GamingSession.objects.filter(pk=session.pk).update(closed_at=None, closed_by=None)


def _stored_report(session: GamingSession) -> SettlementReport:
    report = SettlementReport.objects.get(gaming_session=session)
    assert report.status == ReportStatus.READY, report.error
    return report


def through_worker(
    session: GamingSession, user: User, *, runs: int, open_at_close: int, concurrency: int
) -> dict[str, Any]:
    """The whole report through a real worker, two ways.

    `cold`: nothing reconciled before; `settle_session` sent, timed to the stored report.
    `night`: as in production, the tables close through the night (`table_session_close`, each
    sending its reconciliation to the worker) but the last `open_at_close`; once the worker has
    reconciled those, the last tables close and the manager closes the session (a gaming session
    closes once every table has: `gaming_session_close` sends the report), timed from the last
    tables' close to the stored report.
    """
    if not os.environ.get("CELERY_BROKER_URL", ""):
        return {"skipped": "set CELERY_BROKER_URL to a Redis database to measure a real worker"}
    from reports.tasks import settle_session

    worker = Worker(concurrency)
    cold: list[float] = []
    cold_pdf: list[float] = []
    night: list[float] = []
    night_pdf: list[float] = []
    digests: set[str] = set()
    try:
        for _ in range(runs):
            _report_reset(session)
            started = time.perf_counter()
            settle_session.delay(session.pk)
            _wait_until(lambda: _report_done(session), "report")
            cold.append(time.perf_counter() - started)
            _wait_until(lambda: _pdf_done(session), "PDF")
            cold_pdf.append(time.perf_counter() - started)
            digests.add(_stored_report(session).sha256)
        table_sessions = list(
            TableSession.objects.filter(gaming_session=session).select_related("table")
        )
        table_sessions.sort(key=lambda ts: ts.table.number)
        early = table_sessions[: max(len(table_sessions) - open_at_close, 0)]
        late = table_sessions[len(early) :]
        for _ in range(runs):
            _report_reset(session)
            _reopen(session)
            for ts in early:
                table_session_close(table_session=ts, user=user)
            _wait_until(
                lambda: (
                    TableReconciliation.objects.filter(
                        table_session__gaming_session=session
                    ).count()
                    == len(early)
                ),
                "reconciliation of the tables closed during the night",
            )
            session.refresh_from_db()
            started = time.perf_counter()
            for ts in late:
                table_session_close(table_session=ts, user=user)
            gaming_session_close(gaming_session=session, user=user)
            _wait_until(lambda: _report_done(session), "report")
            night.append(time.perf_counter() - started)
            _wait_until(lambda: _pdf_done(session), "PDF")
            night_pdf.append(time.perf_counter() - started)
            assert _stored_report(session).reconciled
    finally:
        worker.stop()
    report = _stored_report(session)
    return {
        "concurrency": concurrency,
        "nothing_precomputed_runs_s": [round(s, 2) for s in cold],
        "nothing_precomputed_median_s": round(statistics.median(cold), 2),
        "nothing_precomputed_pdf_median_s": round(statistics.median(cold_pdf), 2),
        "tables_open_at_session_close": open_at_close,
        "from_session_close_runs_s": [round(s, 2) for s in night],
        "from_session_close_median_s": round(statistics.median(night), 2),
        "from_session_close_pdf_runs_s": [round(s, 2) for s in night_pdf],
        "from_session_close_pdf_median_s": round(statistics.median(night_pdf), 2),
        "reconciled": report.reconciled,
        # The runs from a close differ by their closing times; the others must be identical.
        "nothing_precomputed_same_sha256": len(digests) == 1,
        "files": {f.name: len(f.data) for f in report.files.all()},
    }


def main() -> None:
    parser = configured_parser(__doc__)
    parser.add_argument("--coups", type=int, default=50_000)
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--other", type=int, default=3_000_000)
    parser.add_argument("--reuse", action="store_true", help="measure the sessions made before")
    parser.add_argument("--runs", type=int, default=3, help="worker runs of each kind")
    parser.add_argument(
        "--open-at-close", type=int, default=1, help="tables still open at the session's close"
    )
    parser.add_argument("--concurrency", type=int, default=2, help="worker processes")
    parser.add_argument("--no-worker", action="store_true", help="in-process measures only")
    args = parser.parse_args()
    configured_postgresql_migrate("bench/settlement.py")
    (ROOT / "var").mkdir(exist_ok=True)
    user, _ = User.objects.get_or_create(username="bench")
    for role in (Role.MANAGER, Role.INSPECTOR):
        user.groups.add(Group.objects.get_or_create(name=role)[0])
    if args.reuse:
        big = GamingSession.objects.filter(table_sessions__table__number=100_001).get()
        small = GamingSession.objects.filter(table_sessions__table__number=200_001).get()
    else:
        print("Loading data…", flush=True)
        other_entries(args.other, user)
        big = make_session("big", args.coups, args.tables, user, 100_001)
        small = make_session("small", args.coups // 10, max(args.tables // 10, 1), user, 200_001)
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
    result: dict[str, Any] = {
        "ledger_entries_in_table": Entry.objects.count(),
        "aggregation": aggregation(big),
        "table_task": table_task_in_process(big),
        "in_process_nothing_stored": build_in_process(big, stored=False),
        "in_process_all_stored": build_in_process(big, stored=True),
        "in_process_small_nothing_stored": build_in_process(small, stored=False),
        "in_process_small_all_stored": build_in_process(small, stored=True),
    }
    result["queries_constant"] = (
        result["in_process_nothing_stored"]["queries"]
        == result["in_process_small_nothing_stored"]["queries"]
        and result["in_process_all_stored"]["queries"]
        == result["in_process_small_all_stored"]["queries"]
    )
    result["same_content_stored_or_not"] = (
        result["in_process_nothing_stored"]["sha256"] == result["in_process_all_stored"]["sha256"]
    )
    if not args.no_worker:
        result["worker"] = through_worker(
            big,
            user,
            runs=args.runs,
            open_at_close=args.open_at_close,
            concurrency=args.concurrency,
        )
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
