"""What the benchmarks on PostgreSQL share: Django set up on a database, and a scratch database
made for one run, migrated, and dropped at its end."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager


def django_setup(url: str) -> None:
    """Django, with the tests' settings, on the database at `url` (a worker process calls it
    too)."""
    os.environ["DATABASE_URL"] = url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.settings")
    import django

    django.setup()


@contextmanager
def scratch_database(server: str, name: str, *, keep: bool) -> Iterator[str]:
    """A new database `name` on `server`, Django set up on it and migrated: its URL. Dropped at
    the end unless `keep` (`--keep`)."""
    import psycopg

    with psycopg.connect(f"{server}/postgres", autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name}")
    url = f"{server}/{name}"
    try:
        django_setup(url)
        from django.core.management import call_command

        call_command("migrate", verbosity=0)
        yield url
    finally:
        from django.db import connections

        connections.close_all()
        if not keep:
            with psycopg.connect(f"{server}/postgres", autocommit=True) as admin:
                admin.execute(f"DROP DATABASE IF EXISTS {name}")
