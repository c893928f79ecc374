"""Who may see which table screen (reads only; every write is checked again by its service).

Scoping reads by role and assignment keeps one croupier from reading another table's screen by
its address (IDOR; docs/conventions.md, invariant 8): a croupier sees the tables he is on duty at
now; an inspector, an auditor and a manager see every table; others see none.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.db.models import OuterRef, QuerySet
from django.http import Http404

from establishment.errors import PermissionDeniedError
from establishment.roles import Role
from establishment.staff import roles_of
from tables.memo import Memo
from tables.models import AssignmentRole, TableSession
from tables.services.writing import on_duty_exists

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

    AnyUser = AbstractBaseUser | AnonymousUser

FLOOR_ROLES = frozenset({Role.INSPECTOR, Role.AUDITOR, Role.MANAGER})


def is_inspector(user: Any) -> bool:
    return Role.INSPECTOR in roles_of(user)


def sees_floor(user: Any) -> bool:
    return bool(roles_of(user) & FLOOR_ROLES)


def on_duty_sessions(
    user: Any, role: AssignmentRole = AssignmentRole.CROUPIER
) -> QuerySet[TableSession]:
    """The open tables where this member of staff is on duty now in `role` (a croupier's, by
    default)."""
    return (
        TableSession.objects.filter(
            on_duty_exists(user, OuterRef("pk"), role), closed_at__isnull=True
        )
        .select_related("table", "gaming_session")
        .order_by("table__number")
    )


# Table sessions by public id: primary key and game, neither of which ever changes.
_references: Memo[tuple[int, str]] = Memo(size=4096)


def _reference_read(public_id: Any) -> tuple[int, str]:
    found = TableSession.objects.filter(public_id=public_id).values_list("pk", "game").first()
    if found is None:
        raise Http404("No such table session.")
    return found[0], found[1]


def table_session_reference(public_id: Any) -> TableSession:
    """A reference to the table session (its key and game only) for a service to lock and
    check, so that a write goes to its service without reading the table first: no permission
    is checked here; 404 when there is no such table session."""
    pk, game = _references.get_or_compute(str(public_id), lambda: _reference_read(public_id))
    return TableSession(pk=pk, public_id=public_id, game=game)


def table_session_get(user: Any, public_id: Any) -> TableSession:
    """The table session the user may look at: 404 when it does not exist, 403 when not his.

    One statement: the row and whether this user is the croupier on duty there now.
    """
    found = (
        TableSession.objects.select_related("table", "gaming_session")
        .annotate(on_duty=on_duty_exists(user, OuterRef("pk")))
        .filter(public_id=public_id)
        .first()
    )
    if found is None:
        raise Http404("No such table session.")
    on_duty_remember(found, user, found.on_duty)
    if sees_floor(user):
        return found
    if _on_duty(user, found):
        return found
    # A croupier relieved at this table still sees it, read-only, and is told so
    # (`tables.selectors.relief_get`); its changeur sees it read-only, on duty or relieved.
    working = roles_of(user) & {Role.CROUPIER, Role.CHANGEUR}
    if working and found.assignments.filter(staff=user).exists():
        return found
    raise PermissionDeniedError("This table is not yours to see.")


def on_duty_remember(table_session: TableSession, user: Any, on_duty: bool) -> None:
    """Keep on the table session object the request holds whether `user` is the croupier on
    duty there now (`on_duty`: his assignment, read with the row), for `_on_duty`: a closed
    table has nobody on duty."""
    table_session._console_on_duty = (  # type: ignore[attr-defined]
        getattr(user, "pk", None),
        bool(on_duty) and table_session.closed_at is None,
    )


def _on_duty(user: Any, table_session: TableSession) -> bool:
    """Whether this croupier is on duty at this table now (asked once per request: kept on
    the table session object the request holds, read with it by `table_session_get`)."""
    if Role.CROUPIER not in roles_of(user):
        return False
    cached: tuple[int, bool] | None = getattr(table_session, "_console_on_duty", None)
    if cached is None or cached[0] != user.pk:
        found = on_duty_sessions(user).filter(pk=table_session.pk).exists()
        cached = (user.pk, found)
        table_session._console_on_duty = cached  # type: ignore[attr-defined]
    return cached[1]


def may_record(user: Any, table_session: TableSession) -> bool:
    """Whether to draw the recording controls (the service decides again on every post)."""
    if table_session.closed_at is not None:
        return False
    if is_inspector(user):
        return True
    return _on_duty(user, table_session)
