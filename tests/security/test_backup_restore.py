"""The backup and restore drill (deploy/backup.md; issue 17, item 6), on PostgreSQL: a settled
and counted night with its registers signed, dumped with pg_dump, restored into a fresh
database with pg_restore; the restored database holds the same stored hashes (settlement
reports, registers, the books' totals, the hash chains' heads) and `manage.py registers_verify`
and `manage.py history_verify` pass on it as on the original, with the same chain heads."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from django.db import connection

from establishment.roles import Role
from reports.history import history_verify
from reports.models import Register
from reports.registers.store import journee_sign
from tables.models import TableSession
from tests.db_owner import owner_user
from tests.factories import UserFactory
from tests.ledger.test_settlement import SESSION_SCENARIOS, close_night, play_night
from tests.registers.test_registers import _count_all

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True, serialized_rollback=True),
]
ROOT = Path(__file__).resolve().parents[2]

# What a restore must give back exactly: every stored digest, and the books' sums.
FINGERPRINT = (
    "SELECT 'report', public_id::text, sha256 FROM reports_settlementreport",
    "SELECT 'register', kind || ':' || key || ':' || version, sha256 || '<' || previous_sha256 "
    "FROM reports_register",
    "SELECT 'signature', register_id::text || ':' || signed_by_id::text, signed_sha256 "
    "FROM reports_registersignature",
    "SELECT 'entries', side, SUM(amount)::text FROM ledger_entry GROUP BY side",
    "SELECT 'journal', table_session_id::text, COUNT(*)::text FROM tables_tableevent "
    "GROUP BY table_session_id",
    "SELECT 'audit', action, COUNT(*)::text FROM establishment_auditentry GROUP BY action",
    "SELECT 'chain', name, position::text || ':' || last_hash FROM establishment_chainhead",
)


def _dsn(name: str) -> str:
    settings = connection.settings_dict
    host, port = settings.get("HOST") or "127.0.0.1", settings.get("PORT") or "5432"
    user = owner_user() or "postgres"  # the owner: it may create and drop databases
    return f"postgresql://{user}@{host}:{port}/{name}"


def _fingerprint(dsn: str) -> list[tuple[str, str, str]]:
    with psycopg.connect(dsn) as db:
        rows = [tuple(row) for sql in FINGERPRINT for row in db.execute(sql).fetchall()]
    return sorted(rows)


@pytest.fixture
def restored(tmp_path: Path) -> Iterator[Callable[[], str]]:
    """Dump the test database and restore it into a new one; its URL. Dropped at the end."""
    name = connection.settings_dict["NAME"]
    copy = f"{name}_restored"
    admin = _dsn("postgres")

    def restore() -> str:
        dump = tmp_path / "casino.dump"
        subprocess.run(["pg_dump", "-Fc", "-f", str(dump), "-d", _dsn(name)], check=True)
        with psycopg.connect(admin, autocommit=True) as db:
            db.execute(f'DROP DATABASE IF EXISTS "{copy}"')
            db.execute(f'CREATE DATABASE "{copy}"')
        subprocess.run(
            ["pg_restore", "--no-owner", "--exit-on-error", "-d", _dsn(copy), str(dump)],
            check=True,
        )
        return _dsn(copy)

    yield restore
    with psycopg.connect(admin, autocommit=True) as db:
        db.execute(f'DROP DATABASE IF EXISTS "{copy}"')


def _manage(url: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DATABASE_URL": url, "DJANGO_SETTINGS_MODULE": "tests.settings"}
    return subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_a_restored_dump_holds_the_same_history_and_verifies(
    restored: Callable[[], str], django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    night = play_night(SESSION_SCENARIOS[:2])
    report = close_night(night, django_capture_on_commit_callbacks)
    _count_all(night, report)
    seance = TableSession.objects.filter(gaming_session=report.gaming_session).first()
    assert seance is not None
    journee = seance.journee
    second = UserFactory.create(roles=[Role.MANAGER])
    for manager in (night.manager, second):
        journee_sign(journee=journee, user=manager, password="password")
    assert Register.objects.filter(kind="model_12").count() == 1

    url = restored()

    original = _fingerprint(_dsn(connection.settings_dict["NAME"]))
    assert original and _fingerprint(url) == original
    kinds = {row[0] for row in original}
    assert {"report", "register", "signature", "entries", "journal", "audit"} <= kinds
    checked = _manage(url, "registers_verify")
    assert checked.returncode == 0, checked.stderr
    assert "each is what the books and the journal say" in checked.stdout
    # Every hash chain holds on the copy, and ends where the original's does.
    chains = _manage(url, "history_verify", "--json")
    assert chains.returncode == 0, chains.stderr
    restored_heads = {
        c["chain"]: (c["head_position"], c["head_hash"])
        for c in json.loads(chains.stdout)["chains"]
    }
    original_check = history_verify()
    assert original_check.ok, original_check.breaks
    assert restored_heads == original_check.heads
    assert {"establishment.audit", "ledger.transactions"} <= set(restored_heads)
    assert all(position for position, _hash in restored_heads.values())
