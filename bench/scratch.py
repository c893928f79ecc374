"""What the benchmarks on PostgreSQL share: Django set up on a database, and a scratch database
made for one run, migrated, and dropped at its end; or, for those that load their data into the
database Django is configured with, its parser and the check that it is PostgreSQL."""

from __future__ import annotations

import argparse
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


def configured_parser(doc: str | None) -> argparse.ArgumentParser:
    """The parser of a benchmark run in the database of `DATABASE_URL`, its docstring (with the
    commands to run it, kept as written) as its help."""
    return argparse.ArgumentParser(description=doc, formatter_class=argparse.RawTextHelpFormatter)


def configured_postgresql_migrate(script: str) -> None:
    """Refuse to run `script` but on PostgreSQL (its measures are PostgreSQL's), then migrate."""
    from django.core.management import call_command
    from django.db import connection

    if connection.vendor != "postgresql":
        raise SystemExit(f"{script} needs PostgreSQL: set DATABASE_URL.")
    call_command("migrate", verbosity=0)
