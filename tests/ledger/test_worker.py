"""A real Celery worker (`celery -A casino worker`) against Redis and PostgreSQL.

The night is recorded here; the close and the extra messages are sent from subprocesses whose
environment names the broker (the tests' own settings stay eager); a worker subprocess builds
the report. Killing the worker (SIGKILL, the whole process group) while it stores a report, then
starting it again, gives exactly one report; duplicate messages and a second close give none.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
import redis
from django.contrib.auth.models import Group
from django.db import connection

from establishment.roles import Role
from reports.models import ReportFile, ReportStatus, SettlementReport, TableReconciliation
from tests.ledger.test_settlement import SESSION_SCENARIOS, Night, play_night
from tests.subprocess_env import BIN, ROOT, clean_env

# A Redis database of its own per pytest-xdist worker (8–15), flushed by these tests.
_XDIST = os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw")
REDIS_URL = f"redis://127.0.0.1:6379/{8 + int(_XDIST or 0) % 8}"


def _redis_up() -> bool:
    try:
        return bool(redis.Redis.from_url(REDIS_URL, socket_connect_timeout=1).ping())
    except redis.RedisError:
        return False


pytestmark = [
    pytest.mark.postgres,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True, serialized_rollback=True),
    pytest.mark.skipif(not _redis_up(), reason="needs Redis on 127.0.0.1:6379"),
]


def _database_url() -> str:
    db = connection.settings_dict
    auth = db["USER"] + (f":{db['PASSWORD']}" if db["PASSWORD"] else "")
    return f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


def _env() -> dict[str, str]:
    return clean_env(
        {
            "DJANGO_SETTINGS_MODULE": "casino.settings",
            "DJANGO_SECRET_KEY": "worker-test-secret",
            "DATABASE_URL": _database_url(),
            "DATABASE_CONN_MAX_AGE": "0",
            "CELERY_BROKER_URL": REDIS_URL,
            # A killed worker's message comes back after 3 s (Redis visibility timeout).
            "CELERY_VISIBILITY_TIMEOUT": "3",
            "CELERY_UNACKED_RESTORE_INTERVAL": "1",
            "CELERY_UNACKED_RESTORE_THROTTLE": "1",
        }
    )


class Worker:
    """`celery -A casino worker` in its own process group, its log in a temporary file."""

    def __init__(self, concurrency: int = 1) -> None:
        self.log = tempfile.NamedTemporaryFile(  # noqa: SIM115 - closed in stop()
            prefix="celery-worker-", suffix=".log", delete=False
        )
        self.process = subprocess.Popen(
            [
                str(BIN / "celery"),
                "-A",
                "casino",
                "worker",
                f"--concurrency={concurrency}",
                "--without-gossip",
                "--without-mingle",
                "--loglevel=INFO",
            ],
            cwd=ROOT,
            env=_env(),
            stdout=self.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def kill(self) -> None:
        """SIGKILL to the worker and its pool: no warm shutdown, nothing acknowledged."""
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.kill()
        self.log.close()

    def output(self) -> str:
        return Path(self.log.name).read_text(encoding="utf-8", errors="replace")[-4000:]


@pytest.fixture(autouse=True)
def roles() -> None:
    """The role groups (a migration makes them; a transactional test's flush removes them)."""
    for role in Role:
        Group.objects.get_or_create(name=role)


@pytest.fixture
def broker() -> Iterator[redis.Redis]:
    client = redis.Redis.from_url(REDIS_URL)
    client.flushdb()
    yield client
    client.flushdb()


@pytest.fixture
def workers() -> Iterator[list[Worker]]:
    started: list[Worker] = []
    yield started
    for worker in started:
        worker.stop()


def _python(code: str) -> subprocess.CompletedProcess[str]:
    """Django code in a subprocess whose settings send tasks to Redis (not eager)."""
    prelude = "import django\ndjango.setup()\n"
    return subprocess.run(
        [sys.executable, "-c", prelude + code],
        cwd=ROOT,
        env=_env(),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def _close(night: Night) -> subprocess.CompletedProcess[str]:
    return _python(
        "from django.contrib.auth.models import User\n"
        "from establishment.models import GamingSession\n"
        "from tables.models import TableSession\n"
        "from tables.services import gaming_session_close, table_session_close\n"
        f"session = GamingSession.objects.get(pk={night.gaming_session.pk})\n"
        f"manager = User.objects.get(pk={night.manager.pk})\n"
        # The night closes once its tables are closed.
        "for ts in TableSession.objects.filter(gaming_session=session, closed_at__isnull=True):\n"
        "    table_session_close(table_session=ts, user=manager)\n"
        "gaming_session_close(gaming_session=session, user=manager)\n"
    )


def _send_again(night: Night, times: int) -> None:
    result = _python(
        "from reports.tasks import settle_session\n"
        f"for _ in range({times}):\n"
        f"    settle_session.delay({night.gaming_session.pk})\n"
    )
    assert result.returncode == 0, result.stderr


def _wait(condition: Callable[[], bool], what: str, worker: Worker, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.2)
    pytest.fail(f"timed out waiting for {what}; worker log:\n{worker.output()}")


def _report(night: Night) -> SettlementReport | None:
    return SettlementReport.objects.filter(gaming_session=night.gaming_session).first()


def _ready(night: Night) -> bool:
    report = _report(night)
    return report is not None and report.status == ReportStatus.READY


def _files(night: Night) -> int:
    """The report's files: the CSV files come with it, the PDF follows (render_report_pdf)."""
    return ReportFile.objects.filter(report__gaming_session=night.gaming_session).count()


def _queue_empty(broker: redis.Redis) -> bool:
    return not broker.llen("celery") and not broker.hlen("unacked")


def test_a_closed_session_gets_its_report_from_a_real_worker(
    broker: redis.Redis, workers: list[Worker]
) -> None:
    night = play_night(SESSION_SCENARIOS[:4])
    worker = Worker()
    workers.append(worker)

    closed = _close(night)
    assert closed.returncode == 0, closed.stderr
    _wait(lambda: _ready(night), "the report", worker)
    _wait(lambda: _files(night) == 4, "the PDF", worker)

    report = _report(night)
    assert report is not None
    assert report.reconciled is True, report.content
    assert report.attempts == 1
    assert ReportFile.objects.filter(report=report).count() == 4

    # A second close is refused; duplicate messages store nothing more.
    again = _close(night)
    assert again.returncode != 0
    assert "already closed" in again.stderr
    _send_again(night, 2)
    _wait(lambda: _queue_empty(broker), "the duplicates to be consumed", worker)
    time.sleep(0.5)
    assert SettlementReport.objects.filter(gaming_session=night.gaming_session).count() == 1
    report.refresh_from_db()
    assert report.attempts == 1
    assert ReportFile.objects.filter(report=report).count() == 4


@pytest.mark.parametrize("concurrency", [1, 2])
def test_a_night_never_reconciled_is_shared_out_and_settled_once(
    broker: redis.Redis, workers: list[Worker], concurrency: int
) -> None:
    """Every message of the tables' closes lost: `settle_session` shares the tables out (with
    one process, nobody else takes them: it reconciles them all, and their messages, taken
    afterwards, find them stored)."""
    night = play_night(SESSION_SCENARIOS[:4])
    closed = _close(night)  # no worker yet: the messages wait in the queue
    assert closed.returncode == 0, closed.stderr
    broker.flushdb()  # lost
    assert not TableReconciliation.objects.exists()
    worker = Worker(concurrency)
    workers.append(worker)
    _send_again(night, 1)
    _wait(lambda: _ready(night), "the report", worker)
    _wait(lambda: _queue_empty(broker), "the shared reconciliations to be consumed", worker)

    report = _report(night)
    assert report is not None
    assert report.reconciled is True, report.content
    tables = {ts.pk for ts in night.gaming_session.table_sessions.all()}
    stored = list(TableReconciliation.objects.values_list("table_session_id", flat=True))
    assert sorted(stored) == sorted(tables)  # each table's once
    assert "reports.reconcile_table_session" in worker.output()


def _blocking_lock() -> psycopg.Connection[Any]:
    """Hold the report files' table, so a worker stops in the middle of storing a report."""
    db = connection.settings_dict
    holder = psycopg.connect(
        host=db["HOST"] or "127.0.0.1",
        port=db["PORT"] or 5432,
        user=db["USER"],
        password=db["PASSWORD"] or None,
        dbname=db["NAME"],
    )
    holder.execute("LOCK TABLE reports_reportfile IN ACCESS EXCLUSIVE MODE")
    return holder


def _waiting_on_lock() -> bool:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
            "AND wait_event_type = 'Lock'"
        )
        row = cursor.fetchone()
    return bool(row and row[0])


def test_killing_the_worker_mid_report_then_restarting_gives_one_report(
    broker: redis.Redis, workers: list[Worker]
) -> None:
    night = play_night(SESSION_SCENARIOS[:4])
    holder = _blocking_lock()
    try:
        first = Worker()
        workers.append(first)
        closed = _close(night)
        assert closed.returncode == 0, closed.stderr
        _wait(_waiting_on_lock, "the worker to reach the report's files", first)

        report = _report(night)
        assert report is not None and report.status == ReportStatus.BUILDING
        first.kill()
    finally:
        holder.rollback()
        holder.close()

    report = _report(night)
    assert report is not None and report.status == ReportStatus.BUILDING
    assert not ReportFile.objects.filter(report=report).exists()

    second = Worker()
    workers.append(second)
    _wait(lambda: _ready(night), "the report after the restart", second, timeout=90)
    _wait(lambda: _files(night) == 4, "the PDF", second)
    _send_again(night, 1)
    _wait(lambda: _queue_empty(broker), "the queue to drain", second)

    assert SettlementReport.objects.filter(gaming_session=night.gaming_session).count() == 1
    report.refresh_from_db()
    assert report.reconciled is True
    assert report.attempts == 2
    assert ReportFile.objects.filter(report=report).count() == 4
