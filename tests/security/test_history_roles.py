"""History that cannot be removed (docs/security.md): every append-only table refuses UPDATE,
DELETE and TRUNCATE by its triggers, even to the owner (a TRUNCATE ... CASCADE from a table it
refers to as well); `manage.py db_grant_app_role` gives the application's role SELECT and INSERT
there and nothing more; connected as that role, every statement that could remove or rewrite the
history, or switch its triggers off, is refused, and reading and adding still work."""

from __future__ import annotations

import io
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.utils import translation

from establishment.db_roles import history_tables
from tests.db_owner import (
    app_connect,
    app_role,
    app_role_create,
    as_owner,
    owner_cursor,
    owner_user,
)
from tests.factories import UserFactory

HISTORY = [
    "audit_acknowledgement",
    "audit_alert",
    "audit_reaudit",
    "establishment_auditentry",
    "establishment_housesettings",
    "ledger_entry",
    "ledger_transaction",
    "reports_countedcagnotte",
    "reports_register",
    "reports_registersignature",
    "reports_reportsignoff",
    "tables_banktenure",
    "tables_coup",
    "tables_levycharge",
    "tables_tableevent",
    "tables_voiddecision",
    "tables_voidrequest",
]
# Tables the history refers to: a TRUNCATE ... CASCADE of any of them would empty history too.
PARENTS = ["auth_user", "tables_table", "ledger_account", "reports_settlementreport"]
TEST_ROLE = "casino_app_test"
postgres_only = pytest.mark.postgres


def test_the_history_is_every_append_only_model() -> None:
    assert history_tables() == HISTORY


@pytest.mark.skipif(connection.vendor != "sqlite", reason="the embedded database's answer")
@pytest.mark.django_db
def test_the_command_is_refused_clearly_on_sqlite() -> None:
    with pytest.raises(CommandError, match="Database roles are PostgreSQL's; .* sqlite"):
        call_command("db_grant_app_role", "casino_app")
    with translation.override("fr"), pytest.raises(CommandError, match="Les rôles de base"):
        call_command("db_grant_app_role", "casino_app")


# -- the triggers, to the owner --------------------------------------------------------------


@postgres_only
@pytest.mark.django_db
def test_every_history_table_has_its_three_triggers_and_no_other_table_has_them() -> None:
    with owner_cursor(triggers=True) as cursor:
        cursor.execute(
            "SELECT c.relname, t.tgtype & 1 = 1, t.tgtype & 60 FROM pg_trigger t"
            " JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_proc p ON p.oid = t.tgfoid"
            " WHERE NOT t.tgisinternal AND t.tgenabled = 'O' AND t.tgtype & 2 = 2"
            " AND p.proname LIKE '%refuse_change'"
        )
        rows = cursor.fetchall()
    # tgtype: 1 a row trigger (else a statement's), 8 DELETE, 16 UPDATE, 32 TRUNCATE.
    found: dict[str, set[str]] = {}
    for table, per_row, events in rows:
        for bit, event in ((8, "DELETE"), (16, "UPDATE"), (32, "TRUNCATE")):
            if events & bit:
                found.setdefault(table, set()).add(f"{'row' if per_row else 'statement'} {event}")
    expected = {"row UPDATE", "row DELETE", "statement TRUNCATE"}
    assert found == dict.fromkeys(HISTORY, expected)


@postgres_only
@pytest.mark.django_db
@pytest.mark.parametrize("table", HISTORY + PARENTS)
def test_truncate_of_the_history_is_refused_even_to_the_owner(table: str) -> None:
    """CASCADE: a table others refer to cannot be emptied alone. The first trigger to fire is
    the named table's own; a parent's TRUNCATE is refused by a history table it would empty."""
    with owner_cursor(triggers=True) as cursor, pytest.raises(psycopg.IntegrityError) as refused:
        cursor.execute(f"TRUNCATE {table} CASCADE".encode())
    names = [table] if table in HISTORY else HISTORY
    assert any(f"TRUNCATE on {name} refused:" in str(refused.value) for name in names)
    assert "append-only" in str(refused.value) or "never changed" in str(refused.value)


# -- the grants -------------------------------------------------------------------------------


@pytest.fixture
def role(transactional_db: None, django_db_serialized_rollback: None) -> str:
    """The application's role, made if missing and granted on this test database (committed:
    another connection logs in as it). Transactional with the migrations' rows given back, as
    every transactional test of the suite (a flush without them makes content types again)."""
    name = app_role() or TEST_ROLE
    app_role_create(name)
    with as_owner():
        call_command("db_grant_app_role", name, stdout=io.StringIO())
    return name


def _privileges(role: str, table: str) -> set[str]:
    with owner_cursor() as cursor:
        cursor.execute(
            "SELECT p FROM unnest(ARRAY['SELECT', 'INSERT', 'UPDATE', 'DELETE', 'TRUNCATE',"
            " 'REFERENCES', 'TRIGGER']) AS p WHERE has_table_privilege(%s, %s, p)",
            [role, table],
        )
        return {p for (p,) in cursor.fetchall()}


@postgres_only
def test_the_role_may_read_and_add_to_the_history_and_write_elsewhere(role: str) -> None:
    for table in HISTORY:
        assert _privileges(role, table) == {"SELECT", "INSERT"}, table
    assert _privileges(role, "tables_table") == {"SELECT", "INSERT", "UPDATE", "DELETE"}
    assert _privileges(role, "django_migrations") == {"SELECT"}
    with owner_cursor() as cursor:
        cursor.execute(
            "SELECT bool_and(has_sequence_privilege(%s, c.oid, 'USAGE')),"
            " bool_or(has_sequence_privilege(%s, c.oid, 'UPDATE')),"
            " (SELECT count(*) FROM pg_class o WHERE o.relowner = r.oid),"
            " r.rolsuper, r.rolbypassrls"
            " FROM pg_class c, pg_roles r WHERE c.relkind = 'S' AND r.rolname = %s"
            " GROUP BY r.oid, r.rolsuper, r.rolbypassrls",
            [role, role, role],
        )
        assert cursor.fetchone() == (True, False, 0, False, False)


@postgres_only
def test_granting_again_takes_back_what_was_added_by_hand(role: str) -> None:
    with owner_cursor() as cursor:
        cursor.execute(f'GRANT ALL ON ledger_entry, tables_table TO "{role}"'.encode())
    assert "UPDATE" in _privileges(role, "ledger_entry")
    out = io.StringIO()
    with as_owner():
        call_command("db_grant_app_role", role, stdout=out)
    assert _privileges(role, "ledger_entry") == {"SELECT", "INSERT"}
    assert _privileges(role, "tables_table") == {"SELECT", "INSERT", "UPDATE", "DELETE"}
    assert f"{role} on " in out.getvalue()
    assert f"SELECT, INSERT on {len(HISTORY)} tables;" in out.getvalue()


@postgres_only
@pytest.mark.django_db(transaction=True, serialized_rollback=True)
@pytest.mark.parametrize(
    ("who", "refused"),
    [
        ("casino_no_such_role", "There is no database role casino_no_such_role"),
        ("", "is a superuser or bypasses row security"),
    ],
)
def test_a_role_that_could_switch_the_triggers_off_is_refused(who: str, refused: str) -> None:
    with as_owner(), pytest.raises(CommandError, match=refused):
        call_command("db_grant_app_role", who or owner_user())


# -- connected as the application's role ----------------------------------------------------


@pytest.fixture
def as_app(role: str) -> Iterator[psycopg.Connection[Any]]:
    with app_connect(role) as db:
        yield db


def _refused(db: psycopg.Connection[Any], statement: str) -> str:
    with pytest.raises(psycopg.errors.InsufficientPrivilege) as refused:
        db.execute(statement.encode())
    db.rollback()
    return str(refused.value)


@postgres_only
@pytest.mark.parametrize("table", HISTORY)
def test_the_app_role_is_refused_every_statement_that_removes_or_rewrites_history(
    as_app: psycopg.Connection[Any], table: str
) -> None:
    assert "permission denied" in _refused(as_app, f"UPDATE {table} SET id = id")
    assert "permission denied" in _refused(as_app, f"DELETE FROM {table}")
    assert "permission denied" in _refused(as_app, f"TRUNCATE {table}")
    assert "must be owner" in _refused(as_app, f"ALTER TABLE {table} DISABLE TRIGGER USER")
    assert "must be owner" in _refused(as_app, f"DROP TRIGGER {table}_no_truncate ON {table}")
    assert "must be owner" in _refused(as_app, f"ALTER TABLE {table} OWNER TO CURRENT_USER")
    # Reading and adding (the privilege, checked on a statement that adds no row).
    as_app.execute(f"SELECT count(*) FROM {table}".encode())
    as_app.execute(f"INSERT INTO {table} SELECT * FROM {table} WHERE false".encode())
    as_app.rollback()


@postgres_only
def test_the_app_role_may_not_switch_the_triggers_off_for_its_session(
    as_app: psycopg.Connection[Any],
) -> None:
    message = _refused(as_app, "SET session_replication_role = replica")
    assert "permission denied to set parameter" in message
    assert "permission denied" in _refused(as_app, "TRUNCATE auth_user CASCADE")


@postgres_only
def test_the_app_role_still_adds_to_the_history_and_writes_elsewhere(
    as_app: psycopg.Connection[Any],
) -> None:
    user = UserFactory.create()
    with as_app.transaction(force_rollback=True):
        row = as_app.execute(
            "INSERT INTO establishment_auditentry (public_id, at, actor_id, action, client, data,"
            " chain_position, chain_hash) VALUES (gen_random_uuid(), now(), %s, 'role_check', '',"
            " '{}', 999999999, repeat('0', 64)) RETURNING id",
            [user.pk],
        ).fetchone()
        assert row is not None and row[0] > 0
        changed = as_app.execute(
            "UPDATE auth_user SET first_name = 'Checked' WHERE id = %s", [user.pk]
        )
        assert changed.rowcount == 1
    assert get_user_model().objects.get(pk=user.pk).first_name == ""
    assert not _audit_rows("role_check")


def _audit_rows(action: str) -> list[tuple[Any, ...]]:
    with owner_cursor() as cursor:
        cursor.execute("SELECT id FROM establishment_auditentry WHERE action = %s", [action])
        return list(cursor.fetchall())
