"""Corrections: nothing is ever edited in place (docs/architecture.md, "How a recorded action
flows").

- `undo`: the croupier's slip of the finger — the last action of a coup not yet settled is set
  aside by an event of its own, with who and why.
- `void_request` / `void_decide`: a settled coup is voided only when a second person, an
  inspector who did not ask for it, approves; the approval sets the coup's actions aside and
  posts a reversal of every transaction they booked. The coup can then be recorded again.
- `open_coup_void`: an inspector sets aside the actions of a coup left half-recorded.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.db.models import OuterRef
from django.utils import timezone
from django.utils.translation import gettext as _

from establishment.confirmation import identity_confirm
from establishment.errors import DomainError, ErrorCode, NotFoundError, PermissionDeniedError
from establishment.roles import Role
from establishment.services import audit
from establishment.staff import has_role
from ledger.models import Transaction
from ledger.services import reverse
from tables.models import Coup, EventKind, TableEvent, TableSession, VoidDecision, VoidRequest
from tables.services.journal import journal_build
from tables.services.recording import seats_sync, tenure_open
from tables.services.writing import JournalWrite, on_duty_exists, reasoned_writer

if TYPE_CHECKING:
    from django.contrib.auth.models import User


class CorrectionError(DomainError):
    code = ErrorCode.CANNOT_UNDO


def _reason_required(reason: str) -> str:
    cleaned = reason.strip()
    if not cleaned:
        raise DomainError(
            "Say why: a correction needs a reason.", code=ErrorCode.CONFLICT, field="reason"
        )
    return cleaned


def _events(table_session: TableSession) -> list[TableEvent]:
    return list(TableEvent.objects.filter(table_session=table_session).order_by("seq"))


def _set_aside(events: list[TableEvent]) -> set[int]:
    aside: set[int] = set()
    for event in events:
        if event.kind in (EventKind.UNDO, EventKind.VOID):
            aside.update(event.sets_aside)
    return aside


def _effective(events: list[TableEvent]) -> list[TableEvent]:
    aside = _set_aside(events)
    return [e for e in events if e.kind == EventKind.ACTION and e.seq not in aside]


def _correction_event(
    write: JournalWrite,
    *,
    events: list[TableEvent],
    kind: EventKind,
    sets_aside: list[int],
    reason: str,
    extra: dict[str, Any],
    audit: str = "",
    details: dict[str, Any] | None = None,
    keyed: bool = False,
) -> tuple[TableEvent, dict[str, Any]]:
    """Append an undo or void event (`JournalWrite.append`, with its audit row when `audit`
    names one) and bring the seats and the bank register in line."""
    locked, seq = write.table_session, write.seq
    before = journal_build(locked, ((e.seq, e.kind, e.action, e.sets_aside) for e in events))
    rows = [(e.seq, e.kind, e.action, e.sets_aside) for e in events]
    rows.append((seq, kind, {}, sets_aside))
    after = journal_build(locked, rows)
    outcome = {"state": after.state.phase, "banker": after.state.banker, **extra}
    event = write.append(
        kind,
        after=after,
        outcome=outcome,
        sets_aside=sets_aside,
        reason=reason,
        audit=audit,
        details=details,
        keyed=keyed,
    )
    now = timezone.now()
    if before.state.seating != after.state.seating:
        seats_sync(locked, after.state, now)
    if before.state.banker != after.state.banker:
        tenure_open(locked, after.state, seq, kind, now)
    return event, outcome


@reasoned_writer(EventKind.UNDO)
def undo(write: JournalWrite, reason: str) -> dict[str, Any]:
    """Set aside the last action recorded, if it settled nothing and moved no money."""
    events = _events(write.table_session)
    effective = _effective(events)
    if not effective:
        raise CorrectionError("Nothing has been recorded yet.", code=ErrorCode.NOTHING_TO_UNDO)
    target = effective[-1]
    # A settled coup has a row of its own even when it moved no money (a tie): void it instead.
    if target.outcome.get("postings") or target.outcome.get("coups"):
        raise CorrectionError(
            "The last action settled a coup or moved money; ask for a void of the coup instead.",
            seq=target.seq,
        )
    _event, outcome = _correction_event(
        write,
        events=events,
        kind=EventKind.UNDO,
        sets_aside=[target.seq],
        reason=reason.strip(),
        extra={"undone": target.seq, "undone_action": target.action},
        audit="undo",
        details={
            "seq": write.seq,
            "undone": target.seq,
            "undone_action": target.action,
            "reason": reason.strip(),
        },
    )
    return outcome


def _may_request_void(user: User, table_session: TableSession) -> None:
    if has_role(user, Role.INSPECTOR):
        return
    on_duty = (
        user.is_active
        and TableSession.objects.filter(
            on_duty_exists(user, OuterRef("pk")), pk=table_session.pk
        ).exists()
    )
    if not on_duty:
        raise PermissionDeniedError(
            "Only the croupier on duty at this table or an inspector may ask for a void."
        )


def _void_audit(
    coup: Coup, table_session: TableSession, user: User, action: str, client: str, **data: Any
) -> None:
    """The audit row of a void's request or decision, which names the coup by its number."""
    audit(
        user=user,
        action=action,
        table_session=table_session,
        client=client,
        coup=coup.number,
        **data,
    )


@transaction.atomic(durable=True)
def void_request(*, coup: Coup, user: User, reason: str, client: str = "") -> VoidRequest:
    """Ask for a settled coup to be voided; an inspector other than the requester decides."""
    cleaned = _reason_required(reason)
    locked = TableSession.objects.select_for_update(of=("self",)).get(pk=coup.table_session_id)
    _may_request_void(user, locked)
    if locked.closed_at is not None:
        raise DomainError("This table is closed.", code=ErrorCode.TABLE_CLOSED)
    if VoidDecision.objects.filter(request__coup=coup, approved=True).exists():
        raise CorrectionError("This coup is already voided.", code=ErrorCode.VOID_DECIDED)
    if VoidRequest.objects.filter(coup=coup, decision__isnull=True).exists():
        raise CorrectionError(
            "A void of this coup is already waiting for an inspector.",
            code=ErrorCode.VOID_DECIDED,
        )
    request = VoidRequest.objects.create(
        coup=coup, requested_by=user, requested_at=timezone.now(), reason=cleaned
    )
    _void_audit(
        coup, locked, user, "void_request", client, coup_id=str(coup.public_id), reason=cleaned
    )
    return request


def _last_live_coup(table_session: TableSession) -> Coup | None:
    return (
        Coup.objects.filter(table_session=table_session)
        .exclude(void_requests__decision__approved=True)
        .order_by("-settled_seq")
        .first()
    )


@transaction.atomic(durable=True)
def void_decide(
    *,
    request: VoidRequest,
    user: User,
    approve: bool,
    password: str,
    note: str = "",
    client: str = "",
) -> VoidDecision:
    """Approve or refuse a void request: a second person, an inspector, who proves who he is
    by re-entering his own password (docs/security.md). Approval reverses the coup's
    transactions."""
    if not has_role(user, Role.INSPECTOR):
        raise PermissionDeniedError("Only a table inspector may approve or refuse a void.")
    coup = Coup.objects.get(pk=request.coup_id)
    locked = TableSession.objects.select_for_update(of=("self",)).get(pk=coup.table_session_id)
    if VoidDecision.objects.filter(request=request).exists():
        raise CorrectionError("This request has already been decided.", code=ErrorCode.VOID_DECIDED)
    if request.requested_by_id == user.pk:
        raise CorrectionError(
            "A second person must decide: the inspector who approves cannot be the one who asked.",
            code=ErrorCode.SECOND_PERSON_REQUIRED,
        )
    identity_confirm(user, password, what=_("decide a void"))
    now = timezone.now()
    if not approve:
        decision = VoidDecision.objects.create(
            request=request, decided_by=user, decided_at=now, approved=False, note=note.strip()
        )
        _void_audit(coup, locked, user, "void_refused", client, note=note.strip())
        return decision
    if locked.closed_at is not None:
        raise DomainError("This table is closed.", code=ErrorCode.TABLE_CLOSED)
    last = _last_live_coup(locked)
    if last is None or last.pk != coup.pk:
        raise CorrectionError(
            "Only the last coup of the table can be voided; void the later coups first.",
            code=ErrorCode.VOID_NOT_LAST,
            coup=coup.number,
        )
    events = _events(locked)
    effective = _effective(events)
    # The coup's actions, from its first one (seating actions recorded before it stay), and
    # everything recorded after it.
    aside = [e.seq for e in effective if e.seq >= coup.first_seq]
    keys = [key for e in effective if e.seq in set(aside) for key in e.outcome.get("postings", [])]
    last_seq = events[-1].seq if events else 0
    # Locked above without the journal's head: the decision, not a screen, says which request
    # this is, so the void's line is keyed by the request; its audit row comes with the decision.
    write = JournalWrite(locked, last_seq, user, f"void:{request.public_id}", client)
    event, _outcome = _correction_event(
        write,
        events=events,
        kind=EventKind.VOID,
        sets_aside=aside,
        reason=request.reason,
        extra={"voided_coup": coup.number, "reversed": keys},
        keyed=True,
    )
    for original in Transaction.objects.filter(idempotency_key__in=keys).order_by("pk"):
        reverse(
            original=original,
            posted_by=user,
            memo=f"Void of coup {coup.number}: {request.reason}"[:255],
        )
    decision = VoidDecision.objects.create(
        request=request,
        decided_by=user,
        decided_at=now,
        approved=True,
        note=note.strip(),
        event=event,
    )
    _void_audit(
        coup,
        locked,
        user,
        "void_approved",
        client,
        requested_by=request.requested_by.get_username(),
        reason=request.reason,
        set_aside=aside,
        reversed=keys,
    )
    return decision


def _may_void_open_coup(user: User, reason: str) -> None:
    if not has_role(user, Role.INSPECTOR):
        raise PermissionDeniedError("Only a table inspector may void the coup in progress.")
    _reason_required(reason)


@reasoned_writer(EventKind.VOID, before=_may_void_open_coup)
def open_coup_void(write: JournalWrite, reason: str) -> dict[str, Any]:
    """An inspector sets aside the actions of the coup in progress (nothing was booked yet)."""
    cleaned = reason.strip()
    events = _events(write.table_session)
    rows = ((e.seq, e.kind, e.action, e.sets_aside) for e in events)
    journal = journal_build(write.table_session, rows)
    aside = journal.open_coup_actions()
    if not aside:
        raise CorrectionError("No coup is in progress.", code=ErrorCode.NOTHING_TO_UNDO)
    _event, outcome = _correction_event(
        write,
        events=events,
        kind=EventKind.VOID,
        sets_aside=aside,
        reason=cleaned,
        extra={"voided_open_coup": aside},
        audit="open_coup_void",
        details={"set_aside": aside, "reason": cleaned},
    )
    return outcome


def void_request_get(*, public_id: Any, table_session: TableSession | None = None) -> VoidRequest:
    found = VoidRequest.objects.filter(public_id=public_id).select_related("coup").first()
    if found is None or (table_session and found.coup.table_session_id != table_session.pk):
        raise NotFoundError("No such void request at this table.")
    return found
