"""Which table sessions a member of staff may read through the API.

Who reads what is said in establishment/http/permissions.py.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import QuerySet

from establishment.http.lookups import found_or_404
from establishment.http.permissions import reads_everything
from establishment.staff import roles_of
from tables.models import TableSession


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
