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

from establishment.errors import DomainError, ErrorCode, InvalidStateError, PermissionDeniedError
from establishment.roles import SUPERVISORS, Role
from establishment.services import audit
from establishment.staff import role_required
from tables.models import AssignmentRole, CroupierAssignment, TableSession
from tables.services.writing import open_table_session_lock

if TYPE_CHECKING:
    from datetime import datetime

    from django.contrib.auth.models import User

# The staff group whose members may hold each duty.
DUTY_GROUP = {AssignmentRole.CROUPIER: Role.CROUPIER, AssignmentRole.CHANGEUR: Role.CHANGEUR}


class StaffRoleError(PermissionDeniedError):
    """The person is not of the duty's role on the staff, or is inactive."""


class StaffBusyError(DomainError):
    """The person is on duty at another table (or already here): relieve him there first (a
    conflict, DomainError's 409)."""

    code = ErrorCode.STAFF_ON_DUTY


def _duty_role(role: str) -> AssignmentRole:
    try:
        return AssignmentRole(role)
    except ValueError:
        raise InvalidStateError(
            _("No such duty: %(role)s. Expected croupier or changeur.") % {"role": role}
        ) from None


def _on_duty_locked(table_session: TableSession, duty: AssignmentRole) -> CroupierAssignment | None:
    """The open duty period of `duty` at the table session, locked, with its staff member."""
    return (
        CroupierAssignment.objects.select_for_update()
        .filter(table_session=table_session, role=duty, released_at__isnull=True)
        .select_related("staff")
        .first()
    )


def _duty_begin(
    table_session: TableSession, staff: User, duty: AssignmentRole, by: User, at: datetime
) -> CroupierAssignment:
    """Begin a duty period: `staff` on duty as `duty`, from `at`, put there by `by`."""
    try:
        with transaction.atomic():
            return CroupierAssignment.objects.create(
                table_session=table_session, staff=staff, role=duty, assigned_at=at, assigned_by=by
            )
    except IntegrityError:
        # Another screen put someone on duty in the same instant: nothing of this one is kept.
        raise StaffBusyError(
            _("Someone else changed this duty at the same moment; look again and retry."),
            staff=staff.get_username(),
        ) from None


def _duty_end(assignment: CroupierAssignment, by: User, at: datetime) -> None:
    """End a duty period, once: until when, and who ended it."""
    assignment.released_at = at
    assignment.released_by = by
    assignment.save(update_fields=["released_at", "released_by"])


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
    outgoing = _on_duty_locked(locked, duty)
    if outgoing is not None:
        _duty_end(outgoing, assigned_by, now)
    assignment = _duty_begin(locked, staff, duty, assigned_by, now)
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
    current = _on_duty_locked(locked, duty)
    if current is None:
        raise InvalidStateError(
            _("Nobody is on duty as %(role)s at this table.") % {"role": AssignmentRole(duty).label}
        )
    _duty_end(current, released_by, timezone.now())
    audit(
        user=released_by,
        action="staff_release",
        table_session=locked,
        client=client,
        staff=current.staff.get_username(),
        role=str(duty),
    )
    return current
