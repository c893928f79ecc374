"""New rows of the append-only models, written out, and appended to their hash chains
(`establishment.chain`).

Every recorded action adds a journal line and an audit row, and every settled coup a ledger
transaction: through the ORM, an INSERT each. Here each model's statement is written once from
its fields, the values are prepared by the fields themselves (`get_db_prep_save`, as the ORM
does), and on PostgreSQL the inserts of several models go in one statement (a data-modifying
`WITH`). Used by `tables.services.writing` (the journal line and its audit row), the audit log
(`establishment.services.audit`) and the books (`ledger.services.post`).

Chaining a row (`chained_insert`) takes its chain's head in the statement that inserts the
row, so that the head is locked as late as the writer can and no round trip is added:

- PostgreSQL: `WITH h AS (INSERT INTO head … ON CONFLICT (name) DO UPDATE SET position =
  position + 1, last_hash = <link>) INSERT INTO the_table … SELECT …, h.position, h.last_hash
  FROM h`: the upsert locks the head's row until the transaction ends, and a writer that waited
  computes from the head as the previous writer left it;
- SQLite (one writer at a time already: `BEGIN IMMEDIATE`): `INSERT … SELECT …, position + 1,
  chain_link(last_hash, content) FROM head`, `chain_link` being `establishment.chain.link`
  registered on each connection, and a trigger moving the head (the migrations' scripts).

Several rows at once (`chain_extend`) are hashed in Python after the head is locked.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

from django.db import connection
from django.db.backends.signals import connection_created
from django.db.models import AutoField, Model

from establishment.chain import GENESIS, ChainHead, link, link_sql

CHAIN_FIELDS = ("chain_position", "chain_hash")


class ChainError(RuntimeError):
    """A row could not be appended to its chain (its head is not where the rows end)."""


# -- new rows --------------------------------------------------------------------------------


@cache
def insert_fields(model: type[Model]) -> tuple[Any, ...]:
    """The fields a new row of `model` is inserted with: all but its automatic key."""
    return tuple(f for f in model._meta.concrete_fields if not isinstance(f, AutoField))


@cache
def insert_sql(model: type[Model]) -> str:
    """One new row of `model`; parameters: `insert_params`."""
    quote = connection.ops.quote_name
    fields = insert_fields(model)
    columns = ", ".join(quote(f.column) for f in fields)
    values = ", ".join("%s" for _f in fields)
    return f"INSERT INTO {quote(model._meta.db_table)} ({columns}) VALUES ({values})"


@cache
def together_sql(models: tuple[type[Model], ...]) -> str:
    """PostgreSQL: a new row of each of `models` in one statement; parameters: each row's
    `insert_params`, in order."""
    *first, last = (insert_sql(model) for model in models)
    parts = ", ".join(f"r{index} AS ({sql})" for index, sql in enumerate(first))
    return f"WITH {parts} {last}"


def insert_params(row: Model, fields: Sequence[Any] | None = None) -> list[Any]:
    """The values of a new row for `insert_sql`, as the ORM's INSERT would send them."""
    return [
        f.get_db_prep_save(f.pre_save(row, True), connection)
        for f in (insert_fields(type(row)) if fields is None else fields)
    ]


def rows_insert(*rows: Model) -> None:
    """Insert `rows` (new objects, each of its own model) in the caller's transaction: on
    PostgreSQL in one statement (`together_sql`)."""
    if connection.vendor == "postgresql" and len(rows) > 1:
        params = [value for row in rows for value in insert_params(row)]
        with connection.cursor() as cursor:
            cursor.execute(together_sql(tuple(type(row) for row in rows)), params)
        return
    with connection.cursor() as cursor:
        for row in rows:
            cursor.execute(insert_sql(type(row)), insert_params(row))


# -- a row appended to its chain -------------------------------------------------------------


def _content_fields(model: type[Model]) -> tuple[Any, ...]:
    return tuple(f for f in insert_fields(model) if f.name not in CHAIN_FIELDS)


@cache
def chained_sql(model: type[Model], vendor: str, before: tuple[type[Model], ...] = ()) -> str:
    """A new row of `model` appended to a chain, after new rows of `before` (PostgreSQL: in
    the same statement), answering the row's key, position and hash. Parameters: PostgreSQL,
    the `before` rows' values, the chain's name, the content twice, the row's values; SQLite,
    the row's values, the content, the chain's name."""
    quote = connection.ops.quote_name
    fields = _content_fields(model)
    table, head = quote(model._meta.db_table), quote(ChainHead._meta.db_table)
    columns = ", ".join([*(quote(f.column) for f in fields), *CHAIN_FIELDS])
    answer = f"RETURNING {quote(model._meta.pk.column)}, chain_position, chain_hash"
    if vendor == "postgresql":
        values = ", ".join(f"CAST(%s AS {f.db_type(connection)})" for f in fields)
        parts = [f"r{index} AS ({insert_sql(other)})" for index, other in enumerate(before)]
        first = link_sql(f"'{GENESIS}'", "%s::text")
        parts.append(
            f"h AS (INSERT INTO {head} AS head (name, position, last_hash) "
            f"VALUES (%s, 1, {first}) "
            "ON CONFLICT (name) DO UPDATE SET position = head.position + 1, "
            f"last_hash = {link_sql('head.last_hash', '%s::text')} "
            "RETURNING position, last_hash)"
        )
        return (
            f"WITH {', '.join(parts)} INSERT INTO {table} ({columns}) "
            f"SELECT {values}, h.position, h.last_hash FROM h {answer}"
        )
    values = ", ".join("%s" for _f in fields)
    return (
        f"INSERT INTO {table} ({columns}) SELECT {values}, h.position + 1, "
        "chain_link(h.last_hash, %s) FROM ("
        f"SELECT COALESCE(MAX(position), 0) AS position, COALESCE(MAX(last_hash), '{GENESIS}') "
        f"AS last_hash FROM {head} WHERE name = %s) h {answer}"
    )


def chained_insert(row: Model, *, chain: str, content: str, before: Sequence[Model] = ()) -> None:
    """Insert `row` as the next of `chain`, hashed over `content` (what its floor hashes),
    after the new rows `before` (in one statement on PostgreSQL); sets the row's key, position
    and hash. In the caller's transaction, which holds the chain's head until it ends."""
    model = type(row)
    values = insert_params(row, _content_fields(model))
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            params = [value for other in before for value in insert_params(other)]
            params += [chain, content, content, *values]
        else:
            for other in before:
                cursor.execute(insert_sql(type(other)), insert_params(other))
            params = [*values, content, chain]
        sql = chained_sql(model, connection.vendor, tuple(type(other) for other in before))
        cursor.execute(sql, params)
        answer = cursor.fetchone()
    if answer is None:
        raise ChainError(f"{model._meta.label} row not appended to the chain {chain}.")
    row.pk, row.chain_position, row.chain_hash = answer  # type: ignore[attr-defined]
    row._state.adding, row._state.db = False, connection.alias


def chain_extend(chain: str, contents: Sequence[str]) -> list[tuple[int, str]]:
    """The positions and hashes of new rows of `chain` hashed over `contents`, in order, for a
    writer of several rows at once (which inserts them with these values): the head is locked
    (PostgreSQL) and moved to the last of them, in the caller's transaction."""
    head = connection.ops.quote_name(ChainHead._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {head} AS head (name, position, last_hash) VALUES (%s, 0, %s) "
            "ON CONFLICT (name) DO UPDATE SET name = head.name RETURNING position, last_hash",
            [chain, GENESIS],
        )
        position, previous = cursor.fetchone()
        made = []
        for content in contents:
            position, previous = position + 1, link(previous, content)
            made.append((position, previous))
        cursor.execute(
            f"UPDATE {head} SET position = %s, last_hash = %s WHERE name = %s",
            [position, previous, chain],
        )
    return made


def _sqlite_link(sender: Any, connection: Any, **kwargs: Any) -> None:
    """Give each SQLite connection `chain_link`, the chain's `link` (PostgreSQL has sha256)."""
    if connection.vendor == "sqlite":
        connection.connection.create_function("chain_link", 2, link, deterministic=True)


connection_created.connect(_sqlite_link, dispatch_uid="establishment.rows.chain_link")
