"""Who may read what through the API (roles are Django groups, establishment.roles.Role).

Writes are checked by the services themselves (`record`, `undo`, voids, closing: the croupier on
duty or an inspector, a second inspector for a void; configuration: the role sets of
`establishment.roles`): the API calls them and maps their refusals, so the console and the API
cannot disagree. An endpoint that writes configuration also asks the same role set before it reads
the request body (`establishment.staff.role_required`), so a user who may not use it is told so
(403) rather than what is wrong with his input. This module decides what a user may *see*:

- auditors, managers and inspectors read everything, the books included;
- croupiers and changeurs read the table sessions they have worked (an assignment, past or
  present) and what belongs to them — state, journal, coups, seats, sabots, void requests —
  plus players, tables and gaming sessions; not the books;
- a user with no role reads nothing (403).

What a user may not see answers 404, as if it did not exist; an endpoint a role may not use at
all answers 403.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.contrib.auth.models import AnonymousUser, User
from rest_framework.permissions import BasePermission

from establishment.roles import Role
from establishment.staff import roles_of

if TYPE_CHECKING:
    from rest_framework.request import Request
    from rest_framework.views import APIView

# Roles that read everything (the books too).
READ_ALL = frozenset({Role.AUDITOR, Role.MANAGER, Role.INSPECTOR})
# Settlement reports: managers and auditors, as on the settlement screens.
READ_REPORTS = frozenset({Role.MANAGER, Role.AUDITOR})


def reads_everything(user: User | AnonymousUser) -> bool:
    return bool(roles_of(user) & READ_ALL)


class IsStaff(BasePermission):
    """Authenticated, active and holding at least one staff role."""

    message = "Your account has no staff role: ask a manager."

    def has_permission(self, request: Request, view: APIView) -> bool:
        return bool(roles_of(request.user))


class ReadsEverything(BasePermission):
    """Auditors, managers and inspectors: the books and the settlement reports."""

    message = "Only an auditor, a manager or an inspector may read the books."

    def has_permission(self, request: Request, view: APIView) -> bool:
        return reads_everything(request.user)


def as_user(user: Any) -> User:
    """The request's user as a `User` (permission classes have refused anyone else)."""
    assert isinstance(user, User)
    return user
