"""The table floor's hand-written SQL (`tables.sql`) says what the ORM says.

Each statement is run with its ORM equivalent on the same data, and both answers are compared
once converted: the locked table session with its table, its gaming session and who is on
duty; the journal's head; the events after a number; the new journal line and its audit row;
the screen's last coups with their void status. The statements' PostgreSQL-only forms (the
lock, the inserts in one statement) are checked on PostgreSQL (`postgres`).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterable
from contextlib import AbstractContextManager
from functools import partial
from typing import Any

import pytest
from django.db import connection, transaction
from django.db.models import Case, F, Max, Model, OuterRef, When
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from establishment import rows as sql_rows
from establishment.chain import AUDIT_CHAIN, GENESIS, ChainHead, audit_content, link
from establishment.models import AuditEntry
from establishment.services import audit_entry
from tables import sql
from tables.chain import journal_link
from tables.models import Coup, CroupierAssignment, EventKind, TableEvent, TableSession
from tables.selectors import coup_list
from tables.services import void_decide, void_request
from tables.services.writing import on_duty_exists
from tests.concurrency.kit import (
    Croupier,
    Floor,
    cf_banker_wins,
    cf_ponte_wins,
    cf_table,
    floor_open,
)
from tests.factories import TableSessionFactory


def _fields(row: Model) -> dict[str, Any]:
    """Every column of a row, by attribute name, as the ORM gives it."""
    return {f.attname: getattr(row, f.attname) for f in type(row)._meta.concrete_fields}


def _rows(cursor_sql: str, params: list[Any]) -> list[tuple[Any, ...]]:
    with connection.cursor() as cursor:
        cursor.execute(cursor_sql, params)
        return list(cursor.fetchall())


@pytest.fixture
def floor(db: None) -> Floor:
    return floor_open()


@pytest.fixture
def croupier(
    floor: Floor,
    django_capture_on_commit_callbacks: Callable[..., AbstractContextManager[Any]],
) -> Croupier:
    """A chemin de fer table with its shoe cut: a journal of a few lines."""
    around = partial(django_capture_on_commit_callbacks, execute=True)
    at = Croupier(cf_table(floor), floor.croupier, around)
    at.do("new_shoe", cut_by=1)
    return at


# -- the table session locked ----------------------------------------------------------------


def _locked_by_sql(vendor: str, table_session: TableSession, user: Any) -> TableSession:
    statement, columns = sql.lock_sql(vendor)
    rows = _rows(statement, [user.pk, "croupier", table_session.pk])
    assert len(rows) == 1
    return sql.table_session_built(rows[0], columns)


def _locked_by_orm(table_session: TableSession, user: Any, *, lock: bool) -> TableSession:
    found = TableSession.objects.select_related("table", "gaming_session").annotate(
        on_duty=on_duty_exists(user, OuterRef("pk"))
    )
    if lock:
        found = found.select_for_update(of=("self",))
    return found.get(pk=table_session.pk)


def _same_locked(by_sql: TableSession, by_orm: TableSession) -> None:
    with CaptureQueriesContext(connection) as read:  # the table and the night come with it
        assert _fields(by_sql.table) == _fields(by_orm.table)
        assert _fields(by_sql.gaming_session) == _fields(by_orm.gaming_session)
    assert read.captured_queries == []
    assert _fields(by_sql) == _fields(by_orm)
    assert by_sql.on_duty is by_orm.on_duty  # type: ignore[attr-defined]


@pytest.mark.django_db
def test_the_locking_statement_reads_the_table_session_and_who_is_on_duty(
    croupier: Croupier, floor: Floor
) -> None:
    """The croupier on duty, an inspector (not on duty), and the croupier once released."""
    table_session = croupier.table_session
    for user, on_duty in ((floor.croupier, True), (floor.inspector, False)):
        by_sql = _locked_by_sql("sqlite", table_session, user)
        _same_locked(by_sql, _locked_by_orm(table_session, user, lock=False))
        assert by_sql.on_duty is on_duty  # type: ignore[attr-defined]
    CroupierAssignment.objects.filter(table_session=table_session).update(
        released_at=timezone.now()
    )
    by_sql = _locked_by_sql("sqlite", table_session, floor.croupier)
    _same_locked(by_sql, _locked_by_orm(table_session, floor.croupier, lock=False))
    assert by_sql.on_duty is False  # type: ignore[attr-defined]


@pytest.mark.django_db
def test_the_locking_statement_finds_no_row_where_the_orm_finds_none(floor: Floor) -> None:
    statement, _columns = sql.lock_sql("sqlite")
    missing = (TableSession.objects.order_by("-pk").values_list("pk", flat=True).first() or 0) + 1
    assert _rows(statement, [floor.croupier.pk, "croupier", missing]) == []
    assert not TableSession.objects.filter(pk=missing).exists()


def _row_locks() -> set[str]:
    """The tables this transaction holds row locks on (`FOR UPDATE` takes RowShareLock)."""
    rows = _rows(
        "SELECT c.relname FROM pg_locks l JOIN pg_class c ON c.oid = l.relation "
        "WHERE l.pid = pg_backend_pid() AND l.mode = 'RowShareLock' AND c.relkind = 'r'",
        [],
    )
    return {name for (name,) in rows}


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_on_postgresql_the_locking_statement_locks_as_the_orm_does() -> None:
    """`FOR UPDATE OF ts`: the table session's row only, as `select_for_update(of=("self",))`,
    with the same values read."""
    floor = floor_open()
    table_session = cf_table(floor)
    assert "FOR UPDATE OF ts" in sql.lock_sql("postgresql")[0]
    with transaction.atomic():
        by_sql = _locked_by_sql("postgresql", table_session, floor.croupier)
        by_sql_locks = _row_locks()
    with transaction.atomic():
        by_orm = _locked_by_orm(table_session, floor.croupier, lock=True)
        by_orm_locks = _row_locks()
    assert by_sql_locks == by_orm_locks == {TableSession._meta.db_table}
    _same_locked(by_sql, by_orm)


# -- the journal's head and the events after a number ----------------------------------------


def _head_by_orm(
    table_session: TableSession, key: str
) -> tuple[int | None, int | None, str | None]:
    lines = TableEvent.objects.filter(table_session=table_session)
    found = lines.aggregate(
        last=Max("seq"), earlier=Max(Case(When(idempotency_key=key, then=F("seq"))))
    )
    last_hash = lines.order_by("-seq").values_list("chain_hash", flat=True).first()
    return found["last"], found["earlier"], last_hash


@pytest.mark.django_db
def test_the_journals_head_is_its_last_number_the_number_of_a_key_and_its_last_hash(
    croupier: Croupier,
) -> None:
    table_session = croupier.table_session
    keys = list(
        TableEvent.objects.filter(table_session=table_session)
        .order_by("seq")
        .values_list("idempotency_key", flat=True)
    )
    assert len(keys) >= 2
    for key in [*keys, "never-used"]:
        (head,) = _rows(sql.head_sql(), sql.head_params(table_session.pk, key))
        assert head == _head_by_orm(table_session, key) and len(head[2]) == 64
    # Another table of the same night (one gaming session is open at a time).
    empty = TableSessionFactory.create(gaming_session=table_session.gaming_session)
    assert _rows(sql.head_sql(), sql.head_params(empty.pk, keys[0])) == [(None, None, None)]
    assert _head_by_orm(empty, keys[0]) == (None, None, None)


@pytest.mark.django_db
def test_the_events_after_a_number_are_the_orms_once_converted(croupier: Croupier) -> None:
    croupier.play(cf_banker_wins(1000))
    table_session = croupier.table_session
    events = TableEvent.objects.filter(table_session=table_session).order_by("seq")
    last = events.count()
    for after in range(last + 1):
        by_sql = sql.events_converted(_rows(sql.events_after_sql(), [table_session.pk, after]))
        by_orm = list(events.filter(seq__gt=after).values_list("seq", "kind", "action"))
        assert by_sql == by_orm
        assert len(by_sql) == last - after
    every = sql.events_converted(_rows(sql.events_after_sql(), [table_session.pk, 0]))
    assert {kind for _s, kind, _a in every} == {EventKind.OPEN, EventKind.ACTION}
    claims = [a["claims"] for _s, _k, a in every if a.get("type") == "banco_call"]
    assert claims == [[{"player": 3, "kind": "banco"}]]  # the JSON read back, nested


# -- new rows --------------------------------------------------------------------------------


class _Undone(Exception):
    """Rolls back the rows a comparison inserted, so the other way inserts the same ones."""


def _found(row: Model) -> Any:
    """The row inserted for `row` (a journal line or an audit row), found by its unique key."""
    if isinstance(row, TableEvent):
        return TableEvent.objects.filter(table_session_id=row.table_session_id, seq=row.seq)
    assert isinstance(row, AuditEntry)
    return AuditEntry.objects.filter(public_id=row.public_id)


def _inserted(insert: Callable[[], None], rows: tuple[Model, ...]) -> list[dict[str, Any]]:
    """The rows as read back after `insert`, then rolled back; without their keys."""
    found: list[dict[str, Any]] = []
    try:
        with transaction.atomic():
            insert()
            for row in rows:
                (read,) = list(_found(row).values())
                found.append({k: v for k, v in read.items() if k != "id"})
            raise _Undone
    except _Undone:
        pass
    return found


def _line_and_entry(croupier: Croupier) -> tuple[TableEvent, AuditEntry]:
    """A journal line and its audit row as `record` writes them, not yet saved."""
    table_session = TableSession.objects.select_related("gaming_session").get(
        pk=croupier.table_session.pk
    )
    seq = TableEvent.objects.filter(table_session=table_session).count() + 1
    now = timezone.now()
    action = {"type": "announce_bank", "actor": 1, "amount": 1000, "note": "é ü"}
    line = TableEvent(
        table_session=table_session,
        seq=seq,
        kind=EventKind.ACTION,
        action=action,
        sets_aside=[2, 1],
        idempotency_key=str(uuid.uuid4()),
        recorded_by=croupier.user,
        recorded_at=now,
        client="tests",
        reason="a reason",
        outcome={"state": "bank_announced", "banker": "S1", "coups": [], "postings": []},
    )
    entry = audit_entry(
        user=croupier.user,
        action="record",
        table_session=table_session,
        client="tests",
        at=now,
        seq=seq,
        recorded=action,
    )
    # Each in its chain, as `record` chains them (the audit row's as its head gives it).
    previous = (
        TableEvent.objects.filter(table_session=table_session, seq=seq - 1)
        .values_list("chain_hash", flat=True)
        .first()
    )
    line.chain_hash = journal_link(line, previous)
    head = ChainHead.objects.filter(name=AUDIT_CHAIN).first()
    entry.chain_position = (head.position if head else 0) + 1
    entry.chain_hash = link(head.last_hash if head else GENESIS, audit_content(entry))
    return line, entry


def _saved_by_orm(*rows: Model) -> None:
    for row in rows:
        row.save(force_insert=True)


def _each_inserted(*rows: Model) -> None:
    with connection.cursor() as cursor:
        for row in rows:
            cursor.execute(sql_rows.insert_sql(type(row)), sql_rows.insert_params(row))


@pytest.mark.django_db
def test_a_new_line_and_its_audit_row_are_the_rows_the_orm_inserts(croupier: Croupier) -> None:
    rows = _line_and_entry(croupier)
    by_sql = _inserted(partial(_each_inserted, *rows), rows)
    by_orm = _inserted(partial(_saved_by_orm, *rows), rows)
    assert by_sql == by_orm and len(by_sql) == 2
    assert by_sql[0]["sets_aside"] == [2, 1] and by_sql[1]["data"]["recorded"]["note"] == "é ü"


@pytest.mark.postgres
@pytest.mark.django_db
def test_on_postgresql_the_line_and_its_audit_row_in_one_statement_are_the_orms(
    croupier: Croupier,
) -> None:
    rows = _line_and_entry(croupier)

    def together() -> None:
        params = [value for row in rows for value in sql_rows.insert_params(row)]
        with connection.cursor() as cursor:
            cursor.execute(sql_rows.together_sql((TableEvent, AuditEntry)), params)

    with CaptureQueriesContext(connection) as sent:
        by_sql = _inserted(together, rows)
    assert sum(q["sql"].startswith("WITH") for q in sent.captured_queries) == 1
    assert by_sql == _inserted(partial(_saved_by_orm, *rows), rows)


# -- the screen's last coups -----------------------------------------------------------------


def _coups(found: Iterable[Any]) -> list[dict[str, Any]]:
    """Coups with their void status (`is_voided`, `void_pending`)."""
    return [
        {**_fields(coup), "is_voided": coup.is_voided, "void_pending": coup.void_pending}
        for coup in found
    ]


def _agree(table_session: TableSession) -> list[tuple[int, bool, bool]]:
    """The written-out statement and `coup_list` (the ORM) for every limit; the void states."""
    everything = list(coup_list(table_session=table_session))
    for limit in range(1, len(everything) + 2):
        raw = Coup.objects.raw(sql.recent_coups_sql(), [table_session.pk, limit])
        by_sql = _coups(sql.void_flags_converted(raw))
        assert by_sql == _coups(everything[:limit])
        assert all(type(c["is_voided"]) is bool for c in by_sql)
    return [(c["number"], c["is_voided"], c["void_pending"]) for c in _coups(everything)]


@pytest.mark.django_db
def test_the_screens_last_coups_are_the_orms_through_every_void_state(
    croupier: Croupier, floor: Floor
) -> None:
    table_session = croupier.table_session
    assert _agree(table_session) == []
    croupier.play(cf_banker_wins(1000))
    croupier.do("continue_bank", 1, reliquat=0)
    croupier.play(cf_ponte_wins(1950))
    second = Coup.objects.get(table_session=table_session, number=2)
    asked = void_request(coup=second, user=floor.croupier, reason="dispute")
    assert _agree(table_session) == [(2, False, True), (1, False, False)]
    void_decide(password="password", request=asked, user=floor.inspector, approve=False, note="no")
    assert _agree(table_session) == [(2, False, False), (1, False, False)]
    asked = void_request(coup=second, user=floor.croupier, reason="new evidence")
    void_decide(password="password", request=asked, user=floor.inspector, approve=True, note="seen")
    assert _agree(table_session) == [(2, True, False), (1, False, False)]
    croupier.play(cf_ponte_wins(1950))  # the coup recorded again
    assert _agree(table_session) == [(2, False, False), (2, True, False), (1, False, False)]
