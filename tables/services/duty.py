"""Duty at a table: croupiers and changeurs put on duty, relieved and released.

Art. 58 of the arrêté (docs/registers.md, model 11 column 3 bis): a table has one croupier and
one changeur at a time, and every duty period (who, role, from, until, who assigned, who ended
it) is kept for the séance's record and the report. A relief happens while the table stays
open, between coups or, by an inspector, in the middle of one: the coup carries on under the
new croupier, whose name the next journal lines carry. A person is on duty at one table at a
time; the database holds both rules (`CroupierAssignment`'s partial unique indexes), and the
service says them in words before the database would.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from establishment.errors import DomainError, ErrorCode, InvalidStateError
from establishment.roles import SUPERVISORS, Role
from establishment.services import audit
from establishment.staff import role_required
from tables.models import AssignmentRole, CroupierAssignment, TableSession
from tables.services.tables import open_table_session_lock

if TYPE_CHECKING:
    from django.contrib.auth.models import User

# The staff group whose members may hold each duty.
DUTY_GROUP = {AssignmentRole.CROUPIER: Role.CROUPIER, AssignmentRole.CHANGEUR: Role.CHANGEUR}


class StaffRoleError(DomainError):
    code = ErrorCode.PERMISSION_DENIED
    http_status = 403


class StaffBusyError(DomainError):
    """The person is on duty at another table (or already here): relieve him there first."""

    code = ErrorCode.STAFF_ON_DUTY
    http_status = 409


def _duty_role(role: str) -> AssignmentRole:
    try:
        return AssignmentRole(role)
    except ValueError:
        raise InvalidStateError(
            _("No such duty: %(role)s. Expected croupier or changeur.") % {"role": role}
        ) from None


@transaction.atomic
def staff_assign(
    *,
    table_session: TableSession,
    staff: User,
    role: AssignmentRole | str,
    assigned_by: User,
    client: str = "",
) -> CroupierAssignment:
    """Put a croupier or a changeur on duty at an open table (an inspector or a manager does),
    relieving whoever holds that duty there now: his period ends at the same instant the new
    one begins. Refused when the person is not of that role, is inactive, or is on duty at a
    table already (this one included)."""
    role_required(assigned_by, SUPERVISORS, "put staff on duty")
    duty = _duty_role(str(role))
    locked = open_table_session_lock(table_session)
    group = DUTY_GROUP[duty]
    if not staff.is_active or not staff.groups.filter(name=group).exists():
        raise StaffRoleError(
            _("%(who)s is not a %(role)s on the staff.")
            % {"who": staff.get_username(), "role": AssignmentRole(duty).label},
            staff=staff.get_username(),
        )
    # Locked: two inspectors assigning the same person at two tables wait for each other here
    # (and the unique index refuses the second if they do not).
    elsewhere = (
        CroupierAssignment.objects.select_for_update()
        .filter(staff=staff, released_at__isnull=True)
        .select_related("table_session__table")
        .first()
    )
    if elsewhere is not None:
        raise StaffBusyError(
            _("%(who)s is on duty at table %(table)s: relieve him there first.")
            % {"who": staff.get_username(), "table": elsewhere.table_session.table.number},
            staff=staff.get_username(),
            table=elsewhere.table_session.table.number,
        )
    now = timezone.now()
    outgoing = (
        CroupierAssignment.objects.select_for_update()
        .filter(table_session=locked, role=duty, released_at__isnull=True)
        .select_related("staff")
        .first()
    )
    if outgoing is not None:
        outgoing.released_at = now
        outgoing.released_by = assigned_by
        outgoing.save(update_fields=["released_at", "released_by"])
    try:
        with transaction.atomic():
            assignment = CroupierAssignment.objects.create(
                table_session=locked,
                staff=staff,
                role=duty,
                assigned_at=now,
                assigned_by=assigned_by,
            )
    except IntegrityError:
        # Another screen put someone on duty in the same instant: nothing of this one is kept.
        raise StaffBusyError(
            _("Someone else changed this duty at the same moment; look again and retry."),
            staff=staff.get_username(),
        ) from None
    audit(
        user=assigned_by,
        action="staff_assign",
        table_session=locked,
        client=client,
        staff=staff.get_username(),
        role=str(duty),
        relieved=outgoing.staff.get_username() if outgoing else None,
    )
    return assignment


@transaction.atomic
def staff_release(
    *,
    table_session: TableSession,
    role: AssignmentRole | str,
    released_by: User,
    client: str = "",
) -> CroupierAssignment:
    """End the duty of the croupier or changeur at an open table with nobody after him (an
    inspector or a manager): until someone is put on duty, only an inspector records there."""
    role_required(released_by, SUPERVISORS, "release staff from duty")
    duty = _duty_role(str(role))
    locked = open_table_session_lock(table_session)
    current = (
        CroupierAssignment.objects.select_for_update()
        .filter(table_session=locked, role=duty, released_at__isnull=True)
        .select_related("staff")
        .first()
    )
    if current is None:
        raise InvalidStateError(
            _("Nobody is on duty as %(role)s at this table.") % {"role": AssignmentRole(duty).label}
        )
    current.released_at = timezone.now()
    current.released_by = released_by
    current.save(update_fields=["released_at", "released_by"])
    audit(
        user=released_by,
        action="staff_release",
        table_session=locked,
        client=client,
        staff=current.staff.get_username(),
        role=str(duty),
    )
    return current
