"""Shared test setup: Hypothesis profiles, the `postgres` marker, the flush and the app role.

Hypothesis: the "ci" profile (chosen when CI=true) runs more examples; "dev" stays quick.
Override with HYPOTHESIS_PROFILE.

Note for transactional tests on SQLite (`django_db(transaction=True)`): the ledger's append-only
triggers refuse the DELETE that Django's flush uses between such tests, so transactional tests
that write ledger rows are PostgreSQL-only (mark them `postgres`).

On PostgreSQL the history refuses TRUNCATE too (the statement triggers of the migrations
`*_refuse_truncate`), so Django's flush between transactional tests goes through the owner with
the triggers off (tests/db_owner.py). With `TEST_DATABASE_APP_ROLE` set, the test database is
made and migrated as the configured user (its owner), the role is made if missing and given the
application's privileges (`manage.py db_grant_app_role`), and every test connects as that role:
the suite runs with the privileges of production's application (docs/security.md).
"""

from __future__ import annotations

import io
import os
from collections.abc import Iterable, Iterator

import pytest
from django.core.management import call_command
from django.db import connection
from django.db.backends.base.operations import BaseDatabaseOperations
from django.db.backends.postgresql.operations import DatabaseOperations
from hypothesis import HealthCheck, settings
from pytest_django.plugin import DjangoDbBlocker

from tests import db_owner

settings.register_profile(
    "ci", max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("dev", max_examples=50, deadline=None)
settings.load_profile(
    os.environ.get(
        "HYPOTHESIS_PROFILE",
        "ci" if os.environ.get("CI", "").lower() in {"1", "true", "yes"} else "dev",
    )
)


# Before pytest-django's own hook, which runs the transactional tests last.
@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if connection.vendor == "postgresql":
        # The owner's connection sees only what was committed: these tests are transactional
        # there (on SQLite they stay in their transaction, whose rollback the history allows).
        committed = pytest.mark.django_db(transaction=True, serialized_rollback=True)
        for item in items:
            if "history_owner" in item.keywords:
                item.add_marker(committed, append=False)
        return
    skip = pytest.mark.skip(reason="needs PostgreSQL (set DATABASE_URL)")
    for item in items:
        if "postgres" in item.keywords:
            item.add_marker(skip)


def _flush_as_owner(self: BaseDatabaseOperations, sql_list: Iterable[str]) -> None:
    """Django's flush (TRUNCATE ... of every table) as the owner, triggers off, in one
    transaction: the history's triggers refuse TRUNCATE, and the app role may not TRUNCATE."""
    with db_owner.owner_cursor() as cursor, cursor.connection.transaction():
        for statement in sql_list:
            cursor.execute(statement)


DatabaseOperations.execute_sql_flush = _flush_as_owner  # type: ignore[method-assign]


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup: None, django_db_blocker: DjangoDbBlocker) -> Iterator[None]:
    """The test database made by pytest-django (as the owner); then, with
    `TEST_DATABASE_APP_ROLE` on PostgreSQL, every connection as that role until the end."""
    role = db_owner.app_role()
    if not role:
        yield
        return
    with django_db_blocker.unblock():
        db_owner.app_role_create(role)
        call_command("db_grant_app_role", role, stdout=io.StringIO())
        db_owner.app_role_use(role)
    yield
    with django_db_blocker.unblock():
        db_owner.owner_use()
