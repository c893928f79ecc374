"""Writes for the establishment: players, gaming sessions, and the audit log every service writes.

Who may do what is checked here, in the service, whatever calls it (console, API, a command):
the role sets are `establishment.roles.SUPERVISORS` and `TABLE_CONFIGURERS`. The door
(registration, the admission check, the exclusion list) is `establishment/door.py`; the list's
import from a file is `establishment/exclusions.py`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from establishment.chain import AUDIT_CHAIN, audit_content
from establishment.errors import InvalidStateError
from establishment.models import (
    AuditEntry,
    GamingSession,
    Player,
)
from establishment.roles import SUPERVISORS
from establishment.rows import chain_extend
from establishment.staff import role_required

if TYPE_CHECKING:
    from django.contrib.auth.models import User


# -- the audit log: one row per change, written with the change ----------------------------------


def audit_entry(
    *,
    user: User,
    action: str,
    table_session: Any = None,
    gaming_session: GamingSession | None = None,
    client: str = "",
    at: Any = None,
    **data: Any,
) -> AuditEntry:
    """One audit row, not yet saved. `table_session` is a `tables.models.TableSession` (its
    gaming session is the row's when none is given)."""
    if gaming_session is None and table_session is not None:
        gaming_session = table_session.gaming_session
    return AuditEntry(
        at=at or timezone.now(),
        actor=user,
        action=action,
        client=client[:200],
        gaming_session=gaming_session,
        table_session_id=table_session.pk if table_session else None,
        data=data,
    )


def audit(*, user: User, action: str, **fields: Any) -> AuditEntry:
    """One audit row (what `audit_entry` takes), in the caller's transaction (so the change and
    its row stand together)."""
    entry = audit_entry(user=user, action=action, **fields)
    entry.save()
    return entry


def audit_rows_insert(rows: list[AuditEntry]) -> None:
    """Several audit rows (of `audit_entry`) at once, appended in order to the audit log's
    chain, in the caller's transaction."""
    made = chain_extend(AUDIT_CHAIN, [audit_content(row) for row in rows])
    for row, (position, hashed) in zip(rows, made, strict=True):
        row.chain_position, row.chain_hash = position, hashed
    AuditEntry.objects.bulk_create(rows)


# -- players and gaming sessions ------------------------------------------------------------------


def player_audit(player: Player, *, user: User, action: str, client: str) -> None:
    """The audit row of a player written to the register (who, his number and name)."""
    audit(
        user=user,
        action=action,
        client=client,
        player=str(player.public_id),
        member_number=player.member_number,
        name=player.name,
    )


@transaction.atomic
def player_create(*, name: str, member_number: str, created_by: User, client: str = "") -> Player:
    """Register a player (an inspector or a manager), with the audit row of who did."""
    role_required(created_by, SUPERVISORS, "register a player")
    player = Player(name=name, member_number=member_number)
    player.full_clean()
    player.save()
    player_audit(player, user=created_by, action="player_create", client=client)
    return player


@transaction.atomic
def gaming_session_open(*, opened_by: User, client: str = "") -> GamingSession:
    """Open the night's gaming session (an inspector or a manager)."""
    role_required(opened_by, SUPERVISORS, "open a gaming session")
    # One gaming session at a time (issue 13): refused here in words; the partial unique index
    # `casino_gamingsession_one_open` refuses it in the database too, whoever writes, and two
    # openings at the same moment meet it: the second is told in the same words.
    already = InvalidStateError(_("A gaming session is already open."))
    if GamingSession.objects.filter(closed_at__isnull=True).exists():
        raise already
    session = GamingSession(opened_at=timezone.now(), opened_by=opened_by)
    session.full_clean(validate_constraints=False)
    try:
        with transaction.atomic():
            session.save()
    except IntegrityError:
        raise already from None
    audit(user=opened_by, action="gaming_session_open", gaming_session=session, client=client)
    return session
