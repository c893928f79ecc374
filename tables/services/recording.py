"""`record`: the one entry point for everything recorded at a table (ARCHITECTURE.md).

In one durable transaction: lock the table session's row, check who may record, check the
sequence number the screen expects and the idempotency key, apply the action to the table's
state through the engine, append it to the journal and — when the engine moves money — book
the transfers, write the settled coup, the register of bankers and the seats. A `RuleError`
changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from contextlib import nullcontext
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Any

from django.db import DEFAULT_DB_ALIAS, connection, connections, transaction
from django.db.models import Exists, Max, OuterRef
from django.utils import timezone

from establishment.errors import DomainError, ErrorCode, PermissionDeniedError
from establishment.models import GamingSession
from establishment.roles import SUPERVISORS, Role
from establishment.services import audit_entry
from establishment.staff import roles_of
from tables.engine import CoupRecord, GameState, RuleError, Transfer
from tables.engine.registry import NEW_PACK_ACTIONS
from tables.models import (
    AssignmentRole,
    BankTenure,
    Coup,
    CroupierAssignment,
    EventKind,
    Sabot,
    SeatOccupancy,
    Table,
    TableEvent,
    TableSession,
)
from tables.postings import (
    SESSION_POSTING,
    coup_after_posting,
    coup_posting,
    posting_base,
    posting_key,
)
from tables.services.books import accounts_for, players_by_code, transfers_post
from tables.services.journal import (
    Journal,
    events_after_sql,
    events_converted,
    journal_advance,
    journal_get,
    journal_remember,
    tail_from,
)
from tables.services.rows import rows_insert
from tables.words import say

if TYPE_CHECKING:
    from django.contrib.auth.models import User


# -- errors ----------------------------------------------------------------------------------


class RuleRefusedError(DomainError):
    """The engine refused the action (a `RuleError`): `rule_code` is the code of docs/rules/,
    `extra["params"]` the values its words name; the message is those words in the language
    of the request (`tables.words.say`)."""

    code = ErrorCode.RULE_REFUSED
    http_status = 422

    def __init__(self, error: RuleError, **extra: Any) -> None:
        message = say(error.code, error.params)
        super().__init__(message, rule_code=error.code, params=dict(error.params), **extra)
        self.rule_code = error.code
        self.rule_params = dict(error.params)


class StaleSequenceError(DomainError):
    """Another screen recorded first: the client's view of the table is out of date."""

    code = ErrorCode.STALE_SEQUENCE
    http_status = 409


class IdempotencyConflictError(DomainError):
    code = ErrorCode.IDEMPOTENCY_CONFLICT
    http_status = 409


class TableClosedError(DomainError):
    code = ErrorCode.TABLE_CLOSED
    http_status = 409


class TableInterruptedError(DomainError):
    code = ErrorCode.TABLE_INTERRUPTED
    http_status = 409


# -- who may do what -------------------------------------------------------------------------


def on_duty_exists(user: Any, table_session: OuterRef) -> Exists:
    """Whether `user` is the croupier on duty at `table_session` now (an SQL expression; the
    locking statement, `_lock_sql`, says the same in SQL of its own)."""
    return Exists(
        CroupierAssignment.objects.filter(
            table_session=table_session,
            staff_id=getattr(user, "pk", None),
            role=AssignmentRole.CROUPIER,
            released_at__isnull=True,
        )
    )


def operate_check(user: User, table_session: TableSession, *, on_duty: bool | None = None) -> None:
    """A croupier on duty at this table now, or an inspector, may record here.

    `on_duty` is the answer already read with the table's row (`event_lock`), if any; the
    roles come with the user (`establishment.staff.roles_of`: read once per request).
    """
    allowed = user.is_active and Role.INSPECTOR in roles_of(user)
    if user.is_active and not allowed:
        if on_duty is None:
            on_duty = TableSession.objects.filter(
                on_duty_exists(user, OuterRef("pk")), pk=table_session.pk
            ).exists()
        allowed = on_duty
    if not allowed:
        raise PermissionDeniedError(
            "Only the croupier on duty at this table or an inspector may record here.",
            table=table_session.table.number,
        )


def supervise_check(user: User, table_session: TableSession) -> None:
    """Interrupting and closing tables: an inspector or a manager (`SUPERVISORS`)."""
    if not roles_of(user) & SUPERVISORS:
        raise PermissionDeniedError(
            "Only a table inspector or a manager may open, interrupt or close a table."
        )


# -- the answer ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Recorded:
    """What `record` (or a correction) answers: the event and what the engine concluded.

    `replayed` is True when the same action with the same key had already been recorded: the
    earlier answer is returned and nothing is booked again.
    """

    table_session: TableSession
    seq: int
    outcome: Mapping[str, Any]
    replayed: bool = False


def request_payload(kind: str, action: Mapping[str, Any], reason: str = "") -> dict[str, Any]:
    """What makes two requests "the same" for the idempotency key, with the sequence number
    the request expected: the kind, the action and the reason given."""
    return {"kind": str(kind), "action": dict(action), "reason": reason.strip()}


def event_lock(
    *,
    table_session: TableSession,
    user: User,
    expected_seq: int,
    idempotency_key: str,
    payload: dict[str, Any],
    permission: Callable[[User, TableSession], None] | None = None,
    read_tail: bool = False,
) -> tuple[TableSession, TableEvent | None, int]:
    """Lock the table session and check key and sequence; shared by every journal writer.

    Returns the locked row, the earlier event when this very request was already recorded, and
    the last sequence number. With `read_tail` (`record`), the events another process recorded
    since this process's newest journal of the table are read with the lock and left on the
    row as `journal_tail`, for `journal_get`.
    """
    if not idempotency_key:
        raise DomainError("An idempotency key is required.", code=ErrorCode.CONFLICT)
    # One statement locks the row and reads who may write (P2: a fixed, small number of
    # statements per action). The journal is read after the lock, in a statement of its own:
    # under READ COMMITTED a subquery of the locking statement would see the journal as it
    # was before waiting for the lock, and miss the event the previous writer just committed.
    check = permission or operate_check
    tail = tail_from(table_session, expected_seq) if read_tail else None
    locked, journal = _lock_and_head(table_session.pk, user, idempotency_key, tail)
    locked.journal_tail = journal["tail"]  # type: ignore[attr-defined]
    if check is operate_check:
        operate_check(user, locked, on_duty=locked.on_duty)  # type: ignore[attr-defined]
    else:
        check(user, locked)
    if journal["earlier"] is not None:
        earlier = TableEvent.objects.get(table_session=locked, seq=journal["earlier"])
        repeated = request_payload(earlier.kind, earlier.action, earlier.reason) == payload
        if not repeated or earlier.seq != expected_seq:
            raise IdempotencyConflictError(
                "This idempotency key was already used for a different request.",
                idempotency_key=idempotency_key,
            )
        return locked, earlier, earlier.seq
    if locked.closed_at is not None:
        raise TableClosedError("This table is closed; nothing more can be recorded.")
    last_seq = journal["last"] or 0
    if expected_seq != last_seq + 1:
        raise StaleSequenceError(
            "The table has moved on since this screen was drawn; here is where it stands now.",
            expected_seq=last_seq + 1,
            given_seq=expected_seq,
        )
    return locked, None, last_seq


# The two statements every journal writer runs, written out: built by the ORM they cost more
# Python than the database spent on them (issue 5, the console under load).


@cache
def _lock_sql(vendor: str) -> tuple[str, tuple[list[str], ...]]:
    """The table session's row with its table and gaming session, locked, and whether a given
    user is the croupier on duty there now."""
    models = (TableSession, Table, GamingSession)
    columns = tuple([f.column for f in model._meta.concrete_fields] for model in models)
    aliases = ("ts", "t", "gs")
    select = ", ".join(
        f"{alias}.{connection.ops.quote_name(column)}"
        for alias, names in zip(aliases, columns, strict=True)
        for column in names
    )
    duty = (  # `on_duty_exists`, written out
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


def _lock_and_head(
    pk: int, user: User, idempotency_key: str, tail: int | None = None
) -> tuple[TableSession, dict[str, Any]]:
    """Lock the table session's row (SQLite: the IMMEDIATE transaction already holds the
    database), read it with its table, its gaming session and `on_duty` for `user`, then the
    journal's head: its last sequence number and the number of the event recorded with this
    idempotency key, if any; and, when `tail` is a sequence number, the events after it
    (`journal.tail_from`).

    On PostgreSQL the statements go in one round trip (psycopg's pipeline mode, read once the
    pipeline is synced: reading inside it would cost a round trip to flush, then another to
    sync). The server runs them in order, so the head's and the tail's statements start, each
    with a snapshot of its own, once the lock is held, as when they were sent one after the
    other; no other writer can add an event while the lock is held.
    """
    sql, columns = _lock_sql(connection.vendor)
    lock_params: list[Any] = [user.pk, AssignmentRole.CROUPIER.value, pk]
    head_params: list[Any] = [idempotency_key, pk]
    events: list[tuple[Any, ...]] | None = None
    pipelined = connection.vendor == "postgresql"
    with connection.cursor() as lock, connection.cursor() as head, connection.cursor() as after:
        with connection.connection.pipeline() if pipelined else nullcontext():
            lock.execute(sql, lock_params)
            head.execute(_head_sql(), head_params)
            if tail is not None:
                after.execute(events_after_sql(), [pk, tail])
        row, last = lock.fetchone(), head.fetchone()
        if tail is not None:
            events = after.fetchall()
    if row is None:
        raise TableSession.DoesNotExist(f"No table session {pk}.")
    last_seq, earlier = last if last is not None else (None, None)
    found = None if events is None else (tail, events_converted(events))
    return _table_session_built(row, columns), {"last": last_seq, "earlier": earlier, "tail": found}


def _table_session_built(row: Any, columns: tuple[list[str], ...]) -> TableSession:
    """The locked row as a table session with its table and gaming session in place."""
    values = list(row)
    built = []
    for model, names in zip((TableSession, Table, GamingSession), columns, strict=True):
        fields = model._meta.concrete_fields
        converted = [
            _converted(field, value)
            for field, value in zip(fields, values[: len(names)], strict=True)
        ]
        del values[: len(names)]
        built.append(model.from_db(connection.alias, [f.attname for f in fields], converted))
    locked, table, gaming_session = built
    locked._state.fields_cache["table"] = table
    locked._state.fields_cache["gaming_session"] = gaming_session
    locked.on_duty = bool(values[0])  # type: ignore[attr-defined]
    return locked  # type: ignore[return-value]


def _converted(field: Any, value: Any) -> Any:
    """A column's value as the ORM would give it (the backend's and the field's converters)."""
    column, converters = _converters_of(connections[DEFAULT_DB_ALIAS], field)
    for convert in converters:
        value = convert(value, column, connection)
    return value


@lru_cache(maxsize=512)
def _converters_of(wrapper: Any, field: Any) -> tuple[Any, list[Any]]:
    """A field's column and converters on one connection (each thread has its own)."""
    column = field.get_col(field.model._meta.db_table)
    return column, wrapper.ops.get_db_converters(column) + column.get_db_converters(wrapper)


@cache
def _head_sql() -> str:
    return (
        "SELECT MAX(seq), MAX(CASE WHEN idempotency_key = %s THEN seq END) "
        f"FROM {TableEvent._meta.db_table} WHERE table_session_id = %s"
    )


# -- record ----------------------------------------------------------------------------------


@transaction.atomic(durable=True)
def record(
    *,
    table_session: TableSession,
    action: Mapping[str, Any],
    expected_seq: int,
    user: User,
    idempotency_key: str,
    client: str = "",
) -> Recorded:
    """Record one action at a table (a card, a stake, a decision, a session action).

    `action` is the engine's form: `{"type": ..., "actor": ..., <parameters>}`.
    `expected_seq` is the number this action will get (the last one the screen saw plus one).
    """
    payload = request_payload(EventKind.ACTION, action)
    locked, earlier, last_seq = event_lock(
        table_session=table_session,
        user=user,
        expected_seq=expected_seq,
        idempotency_key=idempotency_key,
        payload=payload,
        read_tail=True,
    )
    if earlier is not None:
        return Recorded(locked, earlier.seq, earlier.outcome, replayed=True)
    journal = journal_get(locked, last_seq, locked.journal_tail)  # type: ignore[attr-defined]
    if journal.interrupted:
        raise TableInterruptedError("Play is interrupted at this table; restart it first.")
    seq = last_seq + 1
    try:
        after = journal_advance(journal, seq, EventKind.ACTION, action)
    except RuleError as error:
        raise RuleRefusedError(error, state=journal.state.phase) from error
    if action.get("type") in ("sit", "add_standing"):
        players_by_code([action["player"]])  # the engine knows ids; the house knows players
    outcome = consequences_book(
        table_session=locked,
        before=journal,
        after=after,
        seq=seq,
        user=user,
        how=str(action.get("type", "")),
        action=action,
    )
    now = timezone.now()
    line = TableEvent(
        table_session=locked,
        seq=seq,
        kind=EventKind.ACTION,
        action=dict(action),
        idempotency_key=idempotency_key,
        recorded_by=user,
        recorded_at=now,
        client=client[:200],
        outcome=outcome,
    )
    entry = audit_entry(
        user=user,
        action="record",
        table_session=locked,
        client=client,
        at=now,
        seq=seq,
        recorded=dict(action),
        state=outcome["state"],
    )
    rows_insert(line, entry)  # the journal line and its audit row: one round trip
    journal_remember(locked, after)
    return Recorded(locked, seq, outcome)


# -- what an event changes besides the journal -----------------------------------------------


def _new_money(
    before: GameState, after: GameState
) -> tuple[list[CoupRecord], list[tuple[CoupRecord, tuple[Transfer, ...]]], list[Transfer]]:
    """Coups settled, transfers added to an already settled coup, and session transfers."""
    settled = list(after.coups[len(before.coups) :])
    amended: list[tuple[CoupRecord, tuple[Transfer, ...]]] = []
    for old, new in zip(before.coups, after.coups, strict=False):
        if new is not old and new.transfers != old.transfers:
            amended.append((new, new.transfers[len(old.transfers) :]))
    moved = list(after.session_transfers[len(before.session_transfers) :])
    return settled, amended, moved


def consequences_book(
    *,
    table_session: TableSession,
    before: Journal,
    after: Journal,
    seq: int,
    user: User,
    how: str,
    action: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Book what one accepted event changed: ledger, coups, bank register, seats, sabots."""
    state = after.state
    settled, amended, moved = _new_money(before.state, state)
    owners: set[str] = set()
    for coup in settled:
        owners.update(t for tr in coup.transfers for t in (tr.source, tr.target))
    for _coup, extra in amended:
        owners.update(t for tr in extra for t in (tr.source, tr.target))
    owners.update(t for tr in moved for t in (tr.source, tr.target))
    accounts = accounts_for(sorted(owners), table_session) if owners else {}
    postings: list[str] = []
    base = posting_base(table_session.public_id, seq)

    def book(transfers: tuple[Transfer, ...] | list[Transfer], suffix: str, memo: str) -> None:
        if not transfers:
            return
        key = posting_key(base, suffix)
        transfers_post(
            transfers=transfers,
            accounts=accounts,
            idempotency_key=key,
            memo=f"Table {table_session.table.number}, {memo}",
            table_session=table_session,
            posted_by=user,
        )
        postings.append(key)

    now = timezone.now()
    for coup in settled:
        book(coup.transfers, coup_posting(coup.number), f"coup {coup.number} ({coup.outcome})")
    if settled:
        Coup.objects.bulk_create(
            Coup(
                table_session=table_session,
                number=coup.number,
                outcome=coup.outcome,
                banker=before.state.banker or "",
                transfers=[t.as_dict() for t in coup.transfers],
                results=coup.results,
                faults=list(coup.faults),
                cagnotte_chips=sum(t.amount for t in coup.transfers if t.reason == "cagnotte"),
                first_seq=before.first_coup_action(seq),
                settled_seq=seq,
                settled_at=now,
            )
            for coup in settled
        )
    for coup, extra in amended:
        book(extra, coup_after_posting(coup.number), f"coup {coup.number}, after the settlement")
    book(moved, SESSION_POSTING, "session movement")

    if before.state.banker != state.banker:
        tenure_open(table_session, state, seq, how, now)
    if before.state.seating != state.seating:
        seats_sync(table_session, state, now)
    if how in NEW_PACK_ACTIONS:
        _sabot_next(table_session, user, now, seq, before.state, action)
    return {
        "state": state.phase,
        "banker": state.banker,
        "coups": [coup.number for coup in settled],
        "postings": postings,
    }


def tenure_open(
    table_session: TableSession, state: GameState, seq: int, how: str, now: Any
) -> None:
    """A new line in the register of bankers (art. 71): the bank changed hands."""
    player = players_by_code([state.banker])[state.banker] if state.banker else None
    BankTenure.objects.create(
        table_session=table_session,
        seq=seq,
        player=player,
        how=how if how != "leave" else "rotation",
        first_coup_number=len(state.coups) + 1,
        started_at=now,
    )


def seats_sync(table_session: TableSession, state: GameState, now: Any) -> None:
    """Keep the seat occupancies (what the floor sees) equal to the engine's seating."""
    wanted = dict(state.seating.seats)
    current = {
        occ.seat_number: occ
        for occ in SeatOccupancy.objects.filter(
            table_session=table_session, left_at__isnull=True
        ).select_related("player")
    }
    leaving = [
        occ.pk for seat, occ in current.items() if wanted.get(seat) != occ.player.member_number
    ]
    if leaving:
        SeatOccupancy.objects.filter(pk__in=leaving).update(left_at=now)
    arriving = {
        seat: code
        for seat, code in wanted.items()
        if seat not in current or current[seat].pk in leaving
    }
    if arriving:
        players = players_by_code(list(arriving.values()))
        SeatOccupancy.objects.bulk_create(
            SeatOccupancy(
                table_session=table_session,
                seat_number=seat,
                player=players[code],
                sat_at=now,
            )
            for seat, code in arriving.items()
        )


def _sabot_next(
    table_session: TableSession,
    user: User,
    now: Any,
    seq: int,
    before: GameState,
    action: Mapping[str, Any] | None,
) -> None:
    """A new shoe (CF-3) or a new pack (LM-3) was formed: the previous sabot is finished.

    The player who cut (`cut_by`, a seat, in chemin de fer) is kept with the sabot.
    """
    cut_seat = (action or {}).get("cut_by")
    cutter = before.seating.player_at(cut_seat) if isinstance(cut_seat, int) else None
    sabot_replace(
        table_session,
        user,
        now,
        opened_seq=seq,
        cut_by=players_by_code([cutter])[cutter] if cutter else None,
    )


def sabot_replace(
    table_session: TableSession,
    opened_by: User,
    now: Any,
    *,
    opened_seq: int | None = None,
    cut_by: Any = None,
) -> Sabot:
    """Close the sabot in play, if any, and bring the next one (numbers run 1, 2, …), with the
    decks the table's settings say."""
    Sabot.objects.filter(table_session=table_session, closed_at__isnull=True).update(closed_at=now)
    last = Sabot.objects.filter(table_session=table_session).aggregate(last=Max("number"))
    decks = table_session.settings.get("decks", 1)
    return Sabot.objects.create(
        table_session=table_session,
        number=(last["last"] or 0) + 1,
        decks=decks if isinstance(decks, int) else 1,
        opened_at=now,
        opened_by=opened_by,
        opened_seq=opened_seq,
        cut_by=cut_by,
    )
