"""The test database's owner, beside the application's role (docs/security.md, "History that
cannot be removed").

On PostgreSQL the suite may connect as a restricted role (`TEST_DATABASE_APP_ROLE`, set up by
tests/conftest.py): SELECT and INSERT only on the history, so it can neither empty nor alter
it. What only the owner may do goes through `owner_cursor()`: Django's flush between
transactional tests, and the tests that tamper with the history behind the application's back.

`owner_cursor()` is a separate connection, in autocommit: it sees what the test committed, not
the rows of a test's own transaction (such tests are transactional,
`django_db(transaction=True, serialized_rollback=True)`, or the marker `history_owner`), and
what it writes stays until the next flush.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from typing import Any

import psycopg
from django.db import IntegrityError, ProgrammingError, connection, connections, transaction
from psycopg import sql
from psycopg.types.json import Jsonb

from establishment.db_roles import history_tables

# The configured user and password, kept here while the suite connects as the app role.
_owner: dict[str, str] = {}

APP_ROLE_VARIABLE = "TEST_DATABASE_APP_ROLE"
# The app role's password, for a server that asks for one (trust on 127.0.0.1 does not).
APP_ROLE_PASSWORD = os.environ.get("TEST_DATABASE_APP_PASSWORD", "password")
# A test that keeps a lock the owner needs fails after this long instead of hanging.
LOCK_TIMEOUT = "60s"


def app_role() -> str:
    """The restricted role the suite connects as on PostgreSQL, or "" (the owner)."""
    return os.environ.get(APP_ROLE_VARIABLE, "") if connection.vendor == "postgresql" else ""


def owner_user() -> str:
    """The owner's user name: the configured user, whoever the suite connects as."""
    return _owner.get("USER", connection.settings_dict.get("USER") or "")


def _connect(user: str, password: str, *, autocommit: bool) -> psycopg.Connection[Any]:
    settings = connection.settings_dict
    return psycopg.connect(
        host=settings.get("HOST") or "127.0.0.1",
        port=settings.get("PORT") or 5432,
        user=user,
        password=password or None,
        dbname=settings["NAME"],
        autocommit=autocommit,
    )


def owner_connect() -> psycopg.Connection[Any]:
    """A new connection in autocommit as the owner to the current test database."""
    password = _owner.get("PASSWORD", connection.settings_dict.get("PASSWORD") or "")
    return _connect(owner_user(), password, autocommit=True)


def app_connect(role: str) -> psycopg.Connection[Any]:
    """A new connection as `role` to the current test database (autocommit off)."""
    return _connect(role, APP_ROLE_PASSWORD, autocommit=False)


@contextmanager
def owner_cursor(*, triggers: bool = False) -> Iterator[psycopg.Cursor[Any]]:
    """A psycopg cursor on the current test database as its owner, in autocommit, with the
    triggers off (`session_replication_role = replica`: needs a superuser, as in CI) unless
    `triggers` is true, to see what the triggers themselves refuse to the owner."""
    with owner_connect() as db, db.cursor() as cursor:
        cursor.execute(sql.SQL("SET lock_timeout = {}").format(sql.Literal(LOCK_TIMEOUT)))
        if not triggers:
            cursor.execute("SET session_replication_role = replica")
        yield cursor


def history_refusal() -> type[Exception]:
    """What the test's own connection is answered at an UPDATE or DELETE of the history that
    goes around the models: the triggers' IntegrityError as the owner (SQLite, or PostgreSQL
    without the app role), a ProgrammingError (permission denied) as the application's role."""
    return ProgrammingError if app_role() else IntegrityError


def refused_by_triggers(statement: str) -> str:
    """The message the history's triggers refuse `statement` with, to its owner: on
    PostgreSQL through `owner_cursor(triggers=True)` (it sees what the test committed: mark
    the test `history_owner`), on SQLite on the test's connection. Fails when not refused."""
    try:
        if connection.vendor == "postgresql":
            with owner_cursor(triggers=True) as cursor:
                cursor.execute(statement.encode())
        else:
            with transaction.atomic(), connection.cursor() as cursor:
                cursor.execute(statement)
    except (psycopg.IntegrityError, IntegrityError) as refused:
        return str(refused)
    raise AssertionError(f"not refused: {statement}")


def tamper(statement: str, params: Sequence[Any] = ()) -> None:
    """`statement` run behind the application's back, the history's triggers off, as only
    the owner could: on PostgreSQL through `owner_cursor()` (it sees what the test committed:
    mark the test `history_owner`); on SQLite on the test's connection, the history's triggers
    dropped inside the test's transaction (back at its rollback). A dict or a list in `params`
    is a JSON value."""
    if connection.vendor == "postgresql":
        values = [Jsonb(v) if isinstance(v, dict | list) else v for v in params]
        with owner_cursor() as cursor:
            cursor.execute(statement.encode(), values)
        return
    with connection.cursor() as cursor:
        names = ", ".join(["%s"] * len(history_tables()))
        cursor.execute(
            f"SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name IN ({names})",
            history_tables(),
        )
        for (name,) in cursor.fetchall():
            cursor.execute(f"DROP TRIGGER {name}")
        cursor.execute(
            statement, [json.dumps(v) if isinstance(v, dict | list) else v for v in params]
        )


def app_role_create(role: str) -> None:
    """The role made, if missing: LOGIN, NOSUPERUSER, NOBYPASSRLS, owning nothing. Roles are
    the whole cluster's: pytest-xdist's workers may create it at once, and one of them wins."""
    with owner_connect() as db:
        found = db.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", [role]).fetchone()
        if found:
            return
        create = sql.SQL(
            "CREATE ROLE {} LOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE PASSWORD {}"
        ).format(sql.Identifier(role), sql.Literal(APP_ROLE_PASSWORD))
        with suppress(psycopg.errors.DuplicateObject, psycopg.errors.UniqueViolation):
            db.execute(create)


def app_role_use(role: str) -> None:
    """Every connection from now on as `role` (the owner kept for `owner_cursor`)."""
    settings = connection.settings_dict
    _owner.update(USER=settings.get("USER") or "", PASSWORD=settings.get("PASSWORD") or "")
    connections.close_all()
    settings.update(USER=role, PASSWORD=APP_ROLE_PASSWORD)


def owner_use() -> None:
    """Back to the owner's connections (the test database is destroyed by its owner)."""
    if not _owner:
        return
    connections.close_all()
    connection.settings_dict.update(USER=_owner.pop("USER"), PASSWORD=_owner.pop("PASSWORD"))


@contextmanager
def as_owner() -> Iterator[None]:
    """Django's connections as the owner for a while (a transactional test's: a test's own
    transaction would be closed), then as the app role again if the suite runs as it."""
    role = app_role()
    if not role:
        yield
        return
    owner_use()
    try:
        yield
    finally:
        app_role_use(role)
