"""The table floor's hand-written SQL: the statements of the hot path, written out.

Built by the ORM, these statements cost more Python than the database spent running them (the
console under load, docs/conventions.md, P1 and P2). Each is built once from the models'
`_meta` and cached; beside it is what turns its rows into what the ORM would give. The callers
run them: `tables.services.writing` (the lock, the journal's head; its new rows are written by
`establishment.rows`), `tables.services.journal` (the events after a number) and
`tables.selectors` (the screen's last coups). tests/tables/test_sql.py runs each one and its
ORM equivalent on the same data.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache, lru_cache
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connection, connections

from establishment.models import GamingSession
from tables.models import (
    Coup,
    CroupierAssignment,
    Table,
    TableEvent,
    TableSession,
    VoidDecision,
    VoidRequest,
)

# -- the table session locked ----------------------------------------------------------------

# The rows the locking statement reads, in the order of its columns.
LOCKED_MODELS = (TableSession, Table, GamingSession)


@cache
def lock_sql(vendor: str) -> tuple[str, tuple[list[str], ...]]:
    """The table session's row with its table and gaming session, locked on PostgreSQL (on
    SQLite the IMMEDIATE transaction already holds the database), and whether a given user is
    the croupier on duty there now (`tables.services.writing.on_duty_exists`, written out).

    Parameters: the user's key, the croupier's role, the table session's key. Returns the
    statement and the columns of each of `LOCKED_MODELS`, for `table_session_built`.
    """
    columns = tuple([f.column for f in model._meta.concrete_fields] for model in LOCKED_MODELS)
    aliases = ("ts", "t", "gs")
    select = ", ".join(
        f"{alias}.{connection.ops.quote_name(column)}"
        for alias, names in zip(aliases, columns, strict=True)
        for column in names
    )
    duty = (
        f"EXISTS (SELECT 1 FROM {CroupierAssignment._meta.db_table} a "
        "WHERE a.table_session_id = ts.id AND a.staff_id = %s AND a.role = %s "
        "AND a.released_at IS NULL)"
    )
    sql = (
        f"SELECT {select}, {duty} FROM {TableSession._meta.db_table} ts "
        f"JOIN {Table._meta.db_table} t ON t.id = ts.table_id "
        f"JOIN {GamingSession._meta.db_table} gs ON gs.id = ts.gaming_session_id "
        "WHERE ts.id = %s"
    )
    if vendor == "postgresql":
        sql += " FOR UPDATE OF ts"
    return sql, columns


def table_session_built(row: Any, columns: tuple[list[str], ...]) -> TableSession:
    """A row of `lock_sql` as a table session with its table and gaming session in place, and
    `on_duty` set on it."""
    wrapper = connections[DEFAULT_DB_ALIAS]
    values = list(row)
    built = []
    for model, names in zip(LOCKED_MODELS, columns, strict=True):
        attnames, converters = _row_converters(wrapper, model)
        converted = []
        for (column, convert), value in zip(converters, values[: len(names)], strict=True):
            for step in convert:
                value = step(value, column, wrapper)
            converted.append(value)
        del values[: len(names)]
        built.append(model.from_db(wrapper.alias, attnames, converted))
    locked, table, gaming_session = built
    locked._state.fields_cache["table"] = table
    locked._state.fields_cache["gaming_session"] = gaming_session
    locked.on_duty = bool(values[0])  # type: ignore[attr-defined]
    return locked  # type: ignore[return-value]


@lru_cache(maxsize=64)
def _row_converters(wrapper: Any, model: Any) -> tuple[list[str], list[tuple[Any, list[Any]]]]:
    """A model's attribute names and, for each of its columns in order, the column and the
    converters the ORM applies to its values (the backend's, then the field's), on one
    connection (each thread has its own): looked up once, not at each row."""
    attnames, converters = [], []
    for field in model._meta.concrete_fields:
        column = field.get_col(model._meta.db_table)
        attnames.append(field.attname)
        converters.append(
            (column, wrapper.ops.get_db_converters(column) + column.get_db_converters(wrapper))
        )
    return attnames, converters


# -- the journal -----------------------------------------------------------------------------


@cache
def head_sql() -> str:
    """The journal's head: its last sequence number, the number of the event recorded with a
    given idempotency key, and the last line's hash in the journal's chain (None, None, None
    for an empty journal). Parameters: `head_params`.

    Each is a lookup in one of the journal's unique indexes (table session and number, table
    session and key), so that the head costs the same at the night's last action as at its
    first (an aggregate over the séance's lines would read them all at every action)."""
    table = TableEvent._meta.db_table
    last = f"FROM {table} WHERE table_session_id = %s ORDER BY seq DESC LIMIT 1"
    return (
        f"SELECT (SELECT seq {last}), "
        f"(SELECT seq FROM {table} WHERE table_session_id = %s AND idempotency_key = %s), "
        f"(SELECT chain_hash {last})"
    )


def head_params(table_session_pk: int, idempotency_key: str) -> list[Any]:
    """The parameters of `head_sql`."""
    return [table_session_pk, table_session_pk, idempotency_key, table_session_pk]


@cache
def events_after_sql() -> str:
    """The events of a table session after a sequence number, in order, as `(seq, kind,
    action)`; parameters: the table session's key, the number."""
    return (
        f"SELECT seq, kind, action FROM {TableEvent._meta.db_table} "
        "WHERE table_session_id = %s AND seq > %s ORDER BY seq"
    )


def events_converted(rows: Iterable[tuple[Any, ...]]) -> list[tuple[int, str, Any]]:
    """Rows of `events_after_sql`, the action as the ORM would give it."""
    field = TableEvent._meta.get_field("action")
    column = field.get_col(TableEvent._meta.db_table)
    return [(s, k, field.from_db_value(a, column, connection)) for s, k, a in rows]


# -- the screen's last coups -----------------------------------------------------------------


@cache
def recent_coups_sql() -> str:
    """The last settled coups of a table session, newest first, with their void status as
    `tables.selectors.coup_list` states it (`is_voided`, `void_pending`); for `Coup.objects.raw`,
    parameters: the table session's key, how many."""
    coup, request, decision = (
        Coup._meta.db_table,
        VoidRequest._meta.db_table,
        VoidDecision._meta.db_table,
    )
    return (
        f"SELECT c.*, "
        f"EXISTS (SELECT 1 FROM {decision} d JOIN {request} r ON r.id = d.request_id "
        f"WHERE r.coup_id = c.id AND d.approved) AS is_voided, "
        f"EXISTS (SELECT 1 FROM {request} r LEFT JOIN {decision} d ON d.request_id = r.id "
        f"WHERE r.coup_id = c.id AND d.id IS NULL) AS void_pending "
        f"FROM {coup} c WHERE c.table_session_id = %s ORDER BY c.settled_seq DESC LIMIT %s"
    )


def void_flags_converted(coups: Iterable[Coup]) -> list[Coup]:
    """Coups of `recent_coups_sql` with their flags as booleans (SQLite answers EXISTS with 0
    or 1)."""
    found = list(coups)
    for coup in found:
        coup.is_voided = bool(coup.is_voided)  # type: ignore[attr-defined]
        coup.void_pending = bool(coup.void_pending)  # type: ignore[attr-defined]
    return found
