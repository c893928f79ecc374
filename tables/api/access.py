"""Which table sessions a member of staff may read through the API, and the base of the lists
of one table session's rows, which read it first.

Who reads what is said in establishment/http/permissions.py.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import QuerySet

from establishment.http.lookups import found_or_404
from establishment.http.pagination import ListApi
from establishment.http.permissions import reads_everything
from establishment.staff import roles_of
from tables.models import TableSession

if TYPE_CHECKING:
    from uuid import UUID

    from rest_framework.request import Request
    from rest_framework.response import Response


def visible_table_sessions(user: User | AnonymousUser) -> QuerySet[TableSession]:
    """Table sessions the user may read: all of them, or those a croupier has worked."""
    sessions = TableSession.objects.all()
    if reads_everything(user):
        return sessions
    if not roles_of(user) or not isinstance(user, User):
        return sessions.none()
    worked = TableSession.objects.filter(assignments__staff=user).values("pk")
    return sessions.filter(pk__in=worked)


def visible_table_session_get(user: User | AnonymousUser, public_id: Any) -> TableSession:
    """The table session `public_id` if the user may see it, else 404 (`not_found`)."""
    return found_or_404(
        visible_table_sessions(user).select_related(
            "table", "gaming_session", "opened_by", "closed_by"
        ),
        "No such table session, or not one of yours.",
        public_id=public_id,
    )


# Base of the lists of one table session's rows (its seats, duty periods, sabots, bankers, coups,
# journal): the table session first (404 when the caller may not see it), then a page of what
# `rows` reads of it. No docstring: drf-spectacular would take it for the description of a view
# that has none.
class TableSessionRowsApi(ListApi):
    def get(self, request: Request, table_session_id: UUID) -> Response:
        table_session = visible_table_session_get(request.user, table_session_id)
        return self.page(request, self.rows(table_session))

    def rows(self, table_session: TableSession) -> QuerySet[Any]:
        raise NotImplementedError
