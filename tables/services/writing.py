"""The steps every writer of a table's journal shares.

`record`, `undo`, the voids, interruptions and restarts, closing and opening a table each add
one line to a table session's journal. Each checks and books what is its own; the steps they
share are here:

- `journal_lock`: lock the table session's row, check who writes, the idempotency key and the
  sequence number the screen expects; answers a `JournalWrite` (the writers a screen posts to:
  `record`, `undo`, `open_coup_void`, interruptions and restarts). A writer that locks in its
  own way (a void's approval, a close, an opening) builds its `JournalWrite` itself;
- `JournalWrite.append`: the journal line and its audit row in one round trip, each appended
  to its hash chain (the table session's journal, the audit log: docs/security.md), and the
  journal cache once the transaction commits;
- `reasoned_writer`: the whole of a writer a screen posts to with a reason (`undo`,
  `open_coup_void`, interruptions and restarts) but for what it checks and books.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from contextlib import nullcontext
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.db import connection, transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone

from establishment.chain import AUDIT_CHAIN, GENESIS, audit_content
from establishment.errors import (
    DomainError,
    ErrorCode,
    InvalidStateError,
    PermissionDeniedError,
)
from establishment.roles import SUPERVISORS, Role
from establishment.rows import chained_insert, rows_insert
from establishment.services import audit_entry
from establishment.staff import roles_of
from tables import sql
from tables.chain import journal_link
from tables.models import AssignmentRole, CroupierAssignment, TableEvent, TableSession
from tables.services.journal import Journal, journal_remember, tail_from

if TYPE_CHECKING:
    from django.contrib.auth.models import User


class StaleSequenceError(DomainError):
    """Another screen recorded first: the client's view of the table is out of date."""

    code = ErrorCode.STALE_SEQUENCE


class IdempotencyConflictError(DomainError):
    code = ErrorCode.IDEMPOTENCY_CONFLICT


class TableClosedError(DomainError):
    code = ErrorCode.TABLE_CLOSED


# -- who may write ---------------------------------------------------------------------------


def on_duty_exists(
    user: Any, table_session: OuterRef, role: AssignmentRole = AssignmentRole.CROUPIER
) -> Exists:
    """Whether `user` is on duty at `table_session` now in `role` (the croupier, by default: an
    SQL expression; the locking statement, `tables.sql.lock_sql`, says the same in SQL of its
    own)."""
    return Exists(
        CroupierAssignment.objects.filter(
            table_session=table_session,
            staff_id=getattr(user, "pk", None),
            role=role,
            released_at__isnull=True,
        )
    )


def operate_check(user: User, table_session: TableSession, *, on_duty: bool | None = None) -> None:
    """A croupier on duty at this table now, or an inspector, may record here.

    `on_duty` is the answer already read with the table's row (`journal_lock`), if any; the
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


# -- one new line ----------------------------------------------------------------------------


@dataclass(frozen=True)
class JournalWrite:
    """One new line of a locked table session's journal: number `seq`, by `user`, with
    `idempotency_key`.

    From `journal_lock`, `earlier` is the line of this very request when it was already
    recorded (answer `replayed()`, write nothing), `tail` the events another process
    recorded that this process's journal cache lacks, for `journal_get`, and `previous_hash`
    the hash of line `last_seq` in the journal's chain (read again when not given).
    """

    table_session: TableSession
    last_seq: int
    user: User
    idempotency_key: str
    client: str = ""
    earlier: TableEvent | None = None
    tail: tuple[int, list[Any]] | None = None
    previous_hash: str | None = None

    @property
    def seq(self) -> int:
        return self.last_seq + 1

    def replayed(self) -> Recorded:
        """The answer the earlier line of this request gave."""
        assert self.earlier is not None
        return Recorded(self.table_session, self.earlier.seq, self.earlier.outcome, replayed=True)

    def recorded(self, outcome: Mapping[str, Any]) -> Recorded:
        """The answer for the new line."""
        return Recorded(self.table_session, self.seq, outcome)

    def append(
        self,
        kind: str,
        *,
        after: Journal,
        outcome: dict[str, Any],
        action: Mapping[str, Any] | None = None,
        sets_aside: Iterable[int] = (),
        reason: str = "",
        audit: str = "",
        details: Mapping[str, Any] | None = None,
        at: Any = None,
        keyed: bool = False,
    ) -> TableEvent:
        """Write the line, and its audit row when `audit` names one (with `details` as its
        data), in one round trip; cache `after`, the journal with the line, once the
        transaction commits.

        `keyed`: the caller needs the line's primary key (a void's decision points at it), so
        the line is saved through the ORM, which gives it back.
        """
        now = at or timezone.now()
        line = TableEvent(
            table_session=self.table_session,
            seq=self.seq,
            kind=kind,
            action=dict(action or {}),
            sets_aside=sorted(sets_aside),
            idempotency_key=self.idempotency_key,
            recorded_by=self.user,
            recorded_at=now,
            client=self.client[:200],
            reason=reason,
            outcome=outcome,
        )
        line.chain_hash = journal_link(line, self._previous_hash())
        before = [line]
        if keyed:
            line.save(force_insert=True)
            before = []
        if audit:
            entry = audit_entry(
                user=self.user,
                action=audit,
                table_session=self.table_session,
                client=self.client,
                at=now,
                **dict(details or {}),
            )
            # The audit log's head is taken here, by the last statement before the commit.
            chained_insert(entry, chain=AUDIT_CHAIN, content=audit_content(entry), before=before)
        elif before:
            rows_insert(*before)
        journal_remember(self.table_session, after)
        return line

    def _previous_hash(self) -> str:
        """The hash of line `last_seq` (the table session is locked: no line can come between)."""
        if self.previous_hash is not None:
            return self.previous_hash
        if self.last_seq == 0:
            return GENESIS
        found = TableEvent.objects.filter(
            table_session=self.table_session, seq=self.last_seq
        ).values_list("chain_hash", flat=True)
        return found.get()


# -- a writer with a reason -----------------------------------------------------------------


WriterBody = Callable[["JournalWrite", str], dict[str, Any]]


class ReasonedWriter:
    """The outermost service (docs/conventions.md, rules 2 and 3) that writes a `kind` line a
    screen posts with a reason, with the keywords the console's `table_event` and the API's
    reasoned journal views call: `before` checks the user and the reason ahead of the lock,
    `journal_lock` locks (checking `permission`, by default `operate_check`), a request already
    recorded is answered again, and otherwise `body` checks and books (given the `JournalWrite`
    and the reason as given) and answers the line's outcome. Made by `reasoned_writer`; it
    keeps the body's name and docstring."""

    def __init__(
        self,
        body: WriterBody,
        kind: str,
        permission: Callable[[User, TableSession], None] | None,
        before: Callable[[User, str], None] | None,
    ) -> None:
        self.body, self.kind, self.permission, self.before = body, kind, permission, before
        self.__name__ = self.__qualname__ = body.__name__
        self.__doc__, self.__module__ = body.__doc__, body.__module__

    def __call__(
        self,
        *,
        table_session: TableSession,
        expected_seq: int,
        user: User,
        idempotency_key: str,
        reason: str = "",
        client: str = "",
    ) -> Recorded:
        with transaction.atomic(durable=True):
            if self.before is not None:
                self.before(user, reason)
            write = journal_lock(
                table_session=table_session,
                user=user,
                expected_seq=expected_seq,
                idempotency_key=idempotency_key,
                payload=request_payload(self.kind, {}, reason),
                client=client,
                permission=self.permission,
            )
            if write.earlier is not None:
                return write.replayed()
            return write.recorded(self.body(write, reason))


def reasoned_writer(
    kind: str,
    *,
    permission: Callable[[User, TableSession], None] | None = None,
    before: Callable[[User, str], None] | None = None,
) -> Callable[[WriterBody], ReasonedWriter]:
    """Decorate the body of a writer with a reason: see `ReasonedWriter`."""

    def wrap(body: WriterBody) -> ReasonedWriter:
        return ReasonedWriter(body, kind, permission, before)

    return wrap


# -- the lock --------------------------------------------------------------------------------


def journal_lock(
    *,
    table_session: TableSession,
    user: User,
    expected_seq: int,
    idempotency_key: str,
    payload: dict[str, Any],
    client: str = "",
    permission: Callable[[User, TableSession], None] | None = None,
    read_tail: bool = False,
) -> JournalWrite:
    """Lock the table session and check who writes (`permission`, by default `operate_check`),
    the key and the sequence number.

    With `read_tail` (`record`), the events another process recorded since this process's
    newest journal of the table are read with the lock (`JournalWrite.tail`).
    """
    if not idempotency_key:
        raise DomainError("An idempotency key is required.", code=ErrorCode.CONFLICT)
    # One statement locks the row and reads who may write (docs/conventions.md, P2: a fixed,
    # small number of statements per action). The journal is read after the lock, in a
    # statement of its own: under READ COMMITTED a subquery of the locking statement would see
    # the journal as it was before waiting for the lock, and miss the event the previous
    # writer just committed.
    check = permission or operate_check
    tail = tail_from(table_session, expected_seq) if read_tail else None
    locked, (last, earlier_seq, last_hash), found = _lock_and_head(
        table_session.pk, user, idempotency_key, tail
    )
    if check is operate_check:
        operate_check(user, locked, on_duty=locked.on_duty)  # type: ignore[attr-defined]
    else:
        check(user, locked)
    write = JournalWrite(
        locked, last or 0, user, idempotency_key, client, tail=found, previous_hash=last_hash
    )
    if earlier_seq is not None:
        earlier = TableEvent.objects.get(table_session=locked, seq=earlier_seq)
        repeated = request_payload(earlier.kind, earlier.action, earlier.reason) == payload
        if not repeated or earlier.seq != expected_seq:
            raise IdempotencyConflictError(
                "This idempotency key was already used for a different request.",
                idempotency_key=idempotency_key,
            )
        return JournalWrite(locked, earlier.seq, user, idempotency_key, client, earlier=earlier)
    if locked.closed_at is not None:
        raise TableClosedError("This table is closed; nothing more can be recorded.")
    if expected_seq != write.seq:
        raise StaleSequenceError(
            "The table has moved on since this screen was drawn; here is where it stands now.",
            expected_seq=write.seq,
            given_seq=expected_seq,
        )
    return write


def _lock_and_head(
    pk: int, user: User, idempotency_key: str, tail: int | None = None
) -> tuple[TableSession, tuple[Any, ...], tuple[int, list[Any]] | None]:
    """Lock the table session's row (SQLite: the IMMEDIATE transaction already holds the
    database), read it with its table, its gaming session and `on_duty` for `user`
    (`tables.sql.lock_sql`), then the journal's head (`tables.sql.head_sql`): its last sequence
    number and the number of the event recorded with this idempotency key, if any; and, when
    `tail` is a sequence number, the events after it (`tables.sql.events_after_sql`).

    On PostgreSQL the statements go in one round trip (psycopg's pipeline mode, read once the
    pipeline is synced: reading inside it would cost a round trip to flush, then another to
    sync). The server runs them in order, so the head's and the tail's statements start, each
    with a snapshot of its own, once the lock is held, as when they were sent one after the
    other; no other writer can add an event while the lock is held.
    """
    lock_sql, columns = sql.lock_sql(connection.vendor)
    lock_params: list[Any] = [user.pk, AssignmentRole.CROUPIER.value, pk]
    events: list[tuple[Any, ...]] | None = None
    pipelined = connection.vendor == "postgresql"
    with connection.cursor() as lock, connection.cursor() as head, connection.cursor() as after:
        with connection.connection.pipeline() if pipelined else nullcontext():
            lock.execute(lock_sql, lock_params)
            head.execute(sql.head_sql(), sql.head_params(pk, idempotency_key))
            if tail is not None:
                after.execute(sql.events_after_sql(), [pk, tail])
        row, last = lock.fetchone(), head.fetchone()
        if tail is not None:
            events = after.fetchall()
    if row is None:
        raise TableSession.DoesNotExist(f"No table session {pk}.")
    found = None if events is None or tail is None else (tail, sql.events_converted(events))
    head_row = tuple(last) if last is not None else (None, None, None)
    return sql.table_session_built(row, columns), head_row, found


def open_table_session_lock(table_session: TableSession) -> TableSession:
    """The table session's row locked, for a write outside the journal (duty, stock, sabots):
    refused when the table is closed."""
    locked = TableSession.objects.select_for_update().get(pk=table_session.pk)
    if locked.closed_at is not None:
        raise InvalidStateError("This table is closed.")
    return locked
