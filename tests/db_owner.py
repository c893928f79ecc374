"""The test database as its owner, with triggers off: what someone who holds the database's
keys can do to the history behind the application's back (tests/security/).

`owner_cursor()` is a psycopg cursor on the current test database, in autocommit, with
`session_replication_role = replica` (user triggers, the append-only ones included, do not
fire). PostgreSQL only; the rows it should see must be committed (a transactional test).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import psycopg
from django.db import connection


@contextmanager
def owner_cursor() -> Iterator[psycopg.Cursor[tuple[object, ...]]]:
    settings = connection.settings_dict
    with psycopg.connect(
        host=settings.get("HOST") or "127.0.0.1",
        port=settings.get("PORT") or 5432,
        user=settings.get("USER") or "postgres",
        password=settings.get("PASSWORD") or None,
        dbname=settings["NAME"],
        autocommit=True,
    ) as db:
        db.execute("SET session_replication_role = replica")
        with db.cursor() as cursor:
            yield cursor
