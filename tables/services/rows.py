"""New rows of the journal and the audit log, inserted in one round trip.

Every recorded action adds a journal line and an audit row. Through the ORM that was two
`INSERT`s, two round trips to the database and about a millisecond of Python building them
(issue 5, the console under load). Here the statement of each model is written once from its
fields, the values are prepared by the fields themselves (`get_db_prep_save`, as the ORM does),
and on PostgreSQL both inserts go in one statement (a data-modifying `WITH`).

Only for new rows of append-only models whose primary keys the caller does not need: the
objects are not given their keys back.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from django.db import connection
from django.db.models import AutoField, Model


@cache
def _fields(model: type[Model]) -> tuple[Any, ...]:
    return tuple(f for f in model._meta.concrete_fields if not isinstance(f, AutoField))


@cache
def _insert_sql(model: type[Model]) -> str:
    quote = connection.ops.quote_name
    fields = _fields(model)
    columns = ", ".join(quote(f.column) for f in fields)
    values = ", ".join("%s" for _f in fields)
    return f"INSERT INTO {quote(model._meta.db_table)} ({columns}) VALUES ({values})"


@cache
def _together_sql(models: tuple[type[Model], ...]) -> str:
    """PostgreSQL: the inserts of `models` as one statement."""
    *first, last = (_insert_sql(model) for model in models)
    parts = ", ".join(f"r{index} AS ({sql})" for index, sql in enumerate(first))
    return f"WITH {parts} {last}"


def _values(row: Model) -> list[Any]:
    return [f.get_db_prep_save(f.pre_save(row, True), connection) for f in _fields(type(row))]


def rows_insert(*rows: Model) -> None:
    """Insert `rows` (new objects, each of its own model) in the caller's transaction."""
    if connection.vendor == "postgresql" and len(rows) > 1:
        params = [value for row in rows for value in _values(row)]
        with connection.cursor() as cursor:
            cursor.execute(_together_sql(tuple(type(row) for row in rows)), params)
        return
    with connection.cursor() as cursor:
        for row in rows:
            cursor.execute(_insert_sql(type(row)), _values(row))
