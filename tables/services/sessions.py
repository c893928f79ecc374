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
from django.utils.translation import gettext as _

from establishment.errors import DomainError, ErrorCode, InvalidStateError, PermissionDeniedError
from establishment.models import GamingSession
from establishment.roles import Role
from establishment.services import audit
from establishment.staff import has_role
from ledger.models import AccountKind
from ledger.selectors import player_balances_at_place
from tables.engine import RuleError, legal_action_types
from tables.engine.session import SESSION_ENDED
from tables.models import (
    CroupierAssignment,
    EventKind,
    Sabot,
    SeatOccupancy,
    TableSession,
    VoidRequest,
)
from tables.postings import table_session_place
from tables.services.corrections import open_coup_void
from tables.services.journal import Journal, journal_advance, journal_get, last_seq_get
from tables.services.levies import fees_charge
from tables.services.recording import (
    RuleRefusedError,
    TableInterruptedError,
    consequences_book,
)
from tables.services.stock import stock_return_all
from tables.services.tickets import ticket_books_return_all
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


class CloseBlockedError(DomainError):
    """A table or the night cannot close yet: `extra["left"]` lists what is left, each item a
    `{"what": ..., ...}` (an open coup, a void waiting for a decision, an open table)."""

    code = ErrorCode.CLOSE_BLOCKED
    http_status = 409


def _left_words(left: list[dict[str, Any]]) -> str:
    words = []
    for item in left:
        if item["what"] == "coup_open":
            words.append(_("a coup is in progress (%(phase)s)") % {"phase": item["phase"]})
        elif item["what"] == "void_pending":
            words.append(_("the void of coup %(coup)s waits for a decision") % item)
        elif item["what"] == "reliquat":
            words.append(_("the reliquat of %(player)s is not returned") % item)
        elif item["what"] == "table_open":
            words.append(_("table %(table)s is open") % item)
    return "; ".join(words)


def close_left_list(locked: TableSession, journal: Journal) -> list[dict[str, Any]]:
    """What stops a table closing: a coup in progress (the engine does not allow `end_session`)
    and the voids asked and not decided. Reliquats are returned by the close itself (COM-7.2),
    and checked once it is booked (`_reliquats_left`)."""
    left: list[dict[str, Any]] = []
    ended = journal.state.phase == SESSION_ENDED
    if not ended and "end_session" not in legal_action_types(journal.game, journal.state):
        left.append({"what": "coup_open", "phase": journal.state.phase})
    pending = VoidRequest.objects.filter(coup__table_session=locked, decision__isnull=True)
    left += [
        {"what": "void_pending", "coup": number}
        for number in pending.order_by("coup__number").values_list("coup__number", flat=True)
    ]
    return left


def _reliquats_left(locked: TableSession) -> list[dict[str, Any]]:
    """Reliquats still held for their bankers once `end_session` is booked (none, by COM-7.2:
    a remainder here means the books and the engine disagree, and the table stays open)."""
    place = table_session_place(locked.public_id)
    held = player_balances_at_place(kind=AccountKind.RELIQUAT, place=place)
    return [{"what": "reliquat", "player": code, "chips": chips} for code, chips in held if chips]


def _close_locked(
    locked: TableSession, *, user: User, client: str, force: bool = False, reason: str = ""
) -> TableSession:
    """Close one locked, open table session: `end_session` through the engine, then close.

    Refused while something is left (`close_left_list`), with the list; an inspector's forced
    close (`force`, with a reason) sets the open coup aside as a void first, leaves the voids
    undecided, and marks the séance with what was left."""
    last_seq = last_seq_get(locked)
    journal = journal_get(locked, last_seq)
    left = close_left_list(locked, journal)
    if left and not force:
        coup_open = any(item["what"] == "coup_open" for item in left)
        raise CloseBlockedError(
            _("Table %(table)s cannot close yet: %(left)s.")
            % {"table": locked.table.number, "left": _left_words(left)},
            # The code of a coup in progress stays the one clients know; the list is in both.
            code=ErrorCode.COUP_IN_PROGRESS if coup_open else None,
            table=locked.table.number,
            left=left,
            **({"state": journal.state.phase} if coup_open else {}),
        )
    if force:
        if not has_role(user, Role.INSPECTOR):
            raise PermissionDeniedError(_("Only a table inspector may force a table to close."))
        if len(reason.strip()) < 3:
            raise InvalidStateError(_("Say why the table is closed by force (a reason)."))
        if any(item["what"] == "coup_open" for item in left):
            write = JournalWrite(locked, last_seq, user, f"force-close:{locked.public_id}", client)
            open_coup_void.body(write, reason)
            last_seq = write.seq
            journal = journal_get(locked, last_seq)
    # The croupier may have recorded `end_session` already (COM-3.8): nothing is left to settle.
    ended = journal.state.phase == SESSION_ENDED
    outcome: dict[str, Any] = {"postings": []}
    if not ended:
        seq = last_seq + 1
        action = {"type": "end_session", "actor": "croupier"}
        try:
            after = journal_advance(journal, seq, EventKind.ACTION, action)
        except RuleError as error:
            # The rules do not let the table end now (a chemin de fer banker still to say
            # whether he goes on, `bank_decision` in docs/rules/chemin-de-fer.md): refused with
            # their code and what is legal (422),
            # nothing written, as `record` refuses an action.
            raise RuleRefusedError(error, game=locked.game, state=journal.state.phase) from error
        outcome = consequences_book(
            table_session=locked, before=journal, after=after, seq=seq, user=user, how="end_session"
        )
        # Locked by the caller, without a screen's key or number; the close's audit row is
        # written below, for the line and the rest of the close.
        write = JournalWrite(locked, last_seq, user, f"close:{locked.public_id}", client)
        write.append(EventKind.ACTION, after=after, outcome=outcome, action=action)
    held = _reliquats_left(locked)
    if held:
        raise CloseBlockedError(
            _("Table %(table)s cannot close yet: %(left)s.")
            % {"table": locked.table.number, "left": _left_words(held)},
            table=locked.table.number,
            left=held,
        )
    now = timezone.now()
    fees_charge(locked, user=user, until=now)  # LV-3: the periods up to the close
    SeatOccupancy.objects.filter(table_session=locked, left_at__isnull=True).update(left_at=now)
    CroupierAssignment.objects.filter(table_session=locked, released_at__isnull=True).update(
        released_at=now
    )
    Sabot.objects.filter(table_session=locked, closed_at__isnull=True).update(closed_at=now)
    returned = stock_return_all(locked, user, now)  # model 19: the numbers come back
    ticket_books_return_all(locked, user, now)  # and the ticket books (model 11, col. 4–5)
    locked.closed_at = now
    locked.closed_by = user
    fields = ["closed_at", "closed_by"]
    if force:
        locked.close_forced, locked.close_reason, locked.close_left = True, reason.strip(), left
        fields += ["close_forced", "close_reason", "close_left"]
    locked.save(update_fields=fields)
    forced: dict[str, Any] = (
        {"forced": True, "reason": reason.strip(), "left": left} if force else {}
    )
    audit(
        user=user,
        action="table_close",
        table_session=locked,
        client=client,
        table=locked.table.number,
        postings=outcome["postings"],
        stock_returned=returned,
        **forced,
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
    *,
    table_session: TableSession,
    user: User,
    client: str = "",
    force: bool = False,
    reason: str = "",
) -> TableSession:
    """Close a table: reliquats returned, reserve fund divided, no coup left half-recorded and
    no void waiting (else refused with the list of what is left); `force` (an inspector, with
    a reason) closes all the same: see `_close_locked`."""
    locked = (
        TableSession.objects.select_for_update(of=("self",))
        .select_related("table", "gaming_session")
        .get(pk=table_session.pk)
    )
    supervise_check(user, locked)
    if locked.closed_at is not None:
        raise InvalidStateError("This table is already closed.")
    return _close_locked(locked, user=user, client=client, force=force, reason=reason)


@transaction.atomic(durable=True)
def gaming_session_close(
    *, gaming_session: GamingSession, user: User, client: str = ""
) -> GamingSession:
    """Close the night: every open table is closed first (all or nothing), then the séance."""
    session = GamingSession.objects.select_for_update().get(pk=gaming_session.pk)
    if session.closed_at is not None:
        raise InvalidStateError("This gaming session is already closed.")
    if not has_role(user, Role.INSPECTOR) and not has_role(user, Role.MANAGER):
        raise PermissionDeniedError("Only a table inspector or a manager may close the session.")
    # Every table closes first, each on its own (what it has left is seen there): the night
    # does not close over an open table.
    open_tables = list(
        TableSession.objects.filter(gaming_session=session, closed_at__isnull=True)
        .order_by("table__number")
        .values_list("table__number", flat=True)
    )
    if open_tables:
        left = [{"what": "table_open", "table": number} for number in open_tables]
        raise CloseBlockedError(
            _("The gaming session cannot close yet: %(left)s.") % {"left": _left_words(left)},
            left=left,
        )
    session.closed_at = timezone.now()
    session.closed_by = user
    session.save(update_fields=["closed_at", "closed_by"])
    audit(user=user, action="gaming_session_close", client=client, gaming_session=session)
    # The night's settlement report (ledger.settle_session), sent once this close commits. Looked
    # up by name: a service does not import an adapter (pyproject's import contracts).
    current_app.loader.import_default_modules()
    transaction.on_commit(partial(current_app.tasks["reports.settle_session"].delay, session.pk))
    return session
