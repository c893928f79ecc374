"""Sessions at a table: interruptions and restarts, closing a table, closing the night.

Closing a table records the engine's `end_session` (COM-3.8): every reliquat goes back to its
banker (COM-7.2) and the reserve fund is divided (COM-8.2, LR-2.6), booked like any other
action. A coup left half-recorded stops the close with a clear message; an inspector may then
void the open coup (`open_coup_void`).
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

from celery import current_app
from django.db import transaction
from django.utils import timezone

from establishment.errors import DomainError, ErrorCode, InvalidStateError, PermissionDeniedError
from establishment.models import GamingSession
from establishment.roles import Role
from establishment.services import audit
from establishment.staff import has_role
from tables.engine import legal_action_types
from tables.engine.session import SESSION_ENDED
from tables.models import CroupierAssignment, EventKind, Sabot, SeatOccupancy, TableSession
from tables.services.journal import journal_advance, journal_get, last_seq_get
from tables.services.recording import TableInterruptedError, consequences_book
from tables.services.writing import JournalWrite, reasoned_writer, supervise_check

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def _paused(write: JournalWrite, kind: EventKind, reason: str) -> dict[str, Any]:
    """An interruption's or a restart's line (`kind`), once the table's state allows it."""
    journal = journal_get(write.table_session, write.last_seq)
    if kind == EventKind.INTERRUPT and journal.interrupted:
        raise TableInterruptedError("Play is already interrupted at this table.")
    if kind == EventKind.RESUME and not journal.interrupted:
        raise InvalidStateError("Play is not interrupted at this table.")
    after = journal_advance(journal, write.seq, kind, {})
    outcome = {"state": after.state.phase, "banker": after.state.banker, "interrupted": kind}
    write.append(
        kind,
        after=after,
        outcome=outcome,
        reason=reason.strip(),
        audit=str(kind),
        details={"reason": reason},
    )
    return outcome


@reasoned_writer(EventKind.INTERRUPT, permission=supervise_check)
def table_interrupt(write: JournalWrite, reason: str) -> dict[str, Any]:
    """Play stops at the table (a break, an incident); nothing can be recorded until restart."""
    return _paused(write, EventKind.INTERRUPT, reason)


@reasoned_writer(EventKind.RESUME, permission=supervise_check)
def table_resume(write: JournalWrite, reason: str) -> dict[str, Any]:
    """Play restarts at the table after an interruption."""
    return _paused(write, EventKind.RESUME, reason)


def _close_locked(locked: TableSession, *, user: User, client: str) -> TableSession:
    """Close one locked, open table session: `end_session` through the engine, then close."""
    last_seq = last_seq_get(locked)
    journal = journal_get(locked, last_seq)
    # The croupier may have recorded `end_session` already (COM-3.8): nothing is left to settle.
    ended = journal.state.phase == SESSION_ENDED
    if not ended and "end_session" not in legal_action_types(journal.game, journal.state):
        raise DomainError(
            f"Table {locked.table.number} has a coup in progress ({journal.state.phase}): "
            "finish it, or an inspector voids the open coup, before closing.",
            code=ErrorCode.COUP_IN_PROGRESS,
            table=locked.table.number,
            state=journal.state.phase,
        )
    outcome: dict[str, Any] = {"postings": []}
    if not ended:
        seq = last_seq + 1
        action = {"type": "end_session", "actor": "croupier"}
        after = journal_advance(journal, seq, EventKind.ACTION, action)
        outcome = consequences_book(
            table_session=locked, before=journal, after=after, seq=seq, user=user, how="end_session"
        )
        # Locked by the caller, without a screen's key or number; the close's audit row is
        # written below, for the line and the rest of the close.
        write = JournalWrite(locked, last_seq, user, f"close:{locked.public_id}", client)
        write.append(EventKind.ACTION, after=after, outcome=outcome, action=action)
    now = timezone.now()
    SeatOccupancy.objects.filter(table_session=locked, left_at__isnull=True).update(left_at=now)
    CroupierAssignment.objects.filter(table_session=locked, released_at__isnull=True).update(
        released_at=now
    )
    Sabot.objects.filter(table_session=locked, closed_at__isnull=True).update(closed_at=now)
    locked.closed_at = now
    locked.closed_by = user
    locked.save(update_fields=["closed_at", "closed_by"])
    audit(
        user=user,
        action="table_close",
        table_session=locked,
        client=client,
        table=locked.table.number,
        postings=outcome["postings"],
    )
    # The table's reconciliation (ledger.reconcile_table_session), sent once the close commits:
    # the night's report then finds it ready. Looked up by name, as settle_session below.
    current_app.loader.import_default_modules()
    transaction.on_commit(
        partial(current_app.tasks["reports.reconcile_table_session"].delay, locked.pk)
    )
    return locked


@transaction.atomic(durable=True)
def table_session_close(
    *, table_session: TableSession, user: User, client: str = ""
) -> TableSession:
    """Close a table: reliquats returned, reserve fund divided, no coup left half-recorded."""
    locked = (
        TableSession.objects.select_for_update(of=("self",))
        .select_related("table", "gaming_session")
        .get(pk=table_session.pk)
    )
    supervise_check(user, locked)
    if locked.closed_at is not None:
        raise InvalidStateError("This table is already closed.")
    return _close_locked(locked, user=user, client=client)


@transaction.atomic(durable=True)
def gaming_session_close(
    *, gaming_session: GamingSession, user: User, client: str = ""
) -> GamingSession:
    """Close the night: every open table is closed first (all or nothing), then the séance."""
    session = GamingSession.objects.select_for_update().get(pk=gaming_session.pk)
    if session.closed_at is not None:
        raise InvalidStateError("This gaming session is already closed.")
    open_tables = list(
        TableSession.objects.select_for_update(of=("self",))
        .select_related("table", "gaming_session")
        .filter(gaming_session=session, closed_at__isnull=True)
        .order_by("pk")
    )
    for locked in open_tables:
        supervise_check(user, locked)
        _close_locked(locked, user=user, client=client)
    if not has_role(user, Role.INSPECTOR) and not has_role(user, Role.MANAGER):
        raise PermissionDeniedError("Only a table inspector or a manager may close the session.")
    session.closed_at = timezone.now()
    session.closed_by = user
    session.save(update_fields=["closed_at", "closed_by"])
    audit(
        user=user,
        action="gaming_session_close",
        client=client,
        gaming_session=session,
        tables=[t.table.number for t in open_tables],
    )
    # The night's settlement report (ledger.settle_session), sent once this close commits. Looked
    # up by name: a service does not import an adapter (pyproject's import contracts).
    current_app.loader.import_default_modules()
    transaction.on_commit(partial(current_app.tasks["reports.settle_session"].delay, session.pk))
    return session
