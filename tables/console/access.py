"""Who may see which table screen (reads only; every write is checked again by its service).

Scoping reads by role and assignment keeps one croupier from reading another table's screen by
its address (IDOR, RELIABILITY-PERFORMANCE.md §1.8): a croupier sees the tables he is on duty at
now; an inspector, an auditor and a manager see every table; others see none.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.db.models import QuerySet
from django.http import Http404

from casino.errors import PermissionDeniedError
from casino.roles import Role
from tables.models import AssignmentRole, TableSession

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

    AnyUser = AbstractBaseUser | AnonymousUser

FLOOR_ROLES = frozenset({Role.INSPECTOR, Role.AUDITOR, Role.MANAGER})


def roles_of(user: Any) -> frozenset[str]:
    """The user's role names, read once per request (cached on the user object)."""
    cached: frozenset[str] | None = getattr(user, "_console_roles", None)
    if cached is None:
        cached = (
            frozenset(user.groups.values_list("name", flat=True))
            if user.is_active
            else (frozenset())
        )
        user._console_roles = cached
    return cached


def is_inspector(user: Any) -> bool:
    return Role.INSPECTOR in roles_of(user)


def sees_floor(user: Any) -> bool:
    return bool(roles_of(user) & FLOOR_ROLES)


def on_duty_sessions(user: Any) -> QuerySet[TableSession]:
    """The open tables where this croupier is on duty now."""
    return (
        TableSession.objects.filter(
            closed_at__isnull=True,
            assignments__staff=user,
            assignments__role=AssignmentRole.CROUPIER,
            assignments__released_at__isnull=True,
        )
        .select_related("table", "gaming_session")
        .order_by("table__number")
    )


def table_session_get(user: Any, public_id: Any) -> TableSession:
    """The table session the user may look at: 404 when it does not exist, 403 when not his."""
    found = (
        TableSession.objects.select_related("table", "gaming_session")
        .filter(public_id=public_id)
        .first()
    )
    if found is None:
        raise Http404("No such table session.")
    if sees_floor(user):
        return found
    if _on_duty(user, found):
        return found
    raise PermissionDeniedError("This table is not yours to see.")


def _on_duty(user: Any, table_session: TableSession) -> bool:
    """Whether this croupier is on duty at this table now (asked once per request: kept on
    the table session object the request holds)."""
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
