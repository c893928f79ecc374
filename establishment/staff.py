"""Who is asking: the logged-in member of staff with his roles and language, read in one query.

Every console request and every API call asks the same two things of its user before anything
else: which roles he holds (what he may see) and which language he works in. Django's session
authentication reads the user row on each request; `StaffBackend.get_user` reads the roles and
the language preference in that same statement (`establishment.sql.user_sql`), so a request
pays for neither (docs/conventions.md, P1). Both are read fresh on every request: a role taken
away or a language changed on another device takes effect at the next request.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.core.exceptions import ValidationError

from establishment.errors import PermissionDeniedError
from establishment.models import StaffPreference
from establishment.roles import Role
from establishment.sql import language_parsed, roles_parsed, user_sql

if TYPE_CHECKING:
    from django.contrib.auth.models import User

ROLES_ATTRIBUTE = "_casino_roles"
LANGUAGE_ATTRIBUTE = "_casino_language"


def roles_of(user: Any) -> frozenset[str]:
    """The user's roles (group names of `Role`): read with the user by `StaffBackend`, else
    with one query, kept on the user object for the rest of the request."""
    if not getattr(user, "is_authenticated", False) or not getattr(user, "is_active", False):
        return frozenset()
    cached: frozenset[str] | None = getattr(user, ROLES_ATTRIBUTE, None)
    if cached is None:
        names = user.groups.filter(name__in=Role.values).values_list("name", flat=True)
        cached = frozenset(names)
        setattr(user, ROLES_ATTRIBUTE, cached)
    return cached


def has_role(user: Any, role: Role) -> bool:
    """Whether an active user holds `role` (read with the user: `roles_of`)."""
    return role in roles_of(user)


def role_required(user: Any, roles: frozenset[Role], what: str) -> None:
    """Refuse (403, `permission_denied`) unless the user holds one of `roles`; `what` ends the
    message: "Only a Manager may create a table."."""
    if not roles_of(user) & roles:
        names = " or ".join(sorted(str(role.label) for role in roles))
        raise PermissionDeniedError(f"Only a {names} may {what}.", roles=sorted(roles))


def roles_check(user: Any, roles: frozenset[str], refused: str) -> None:
    """Refuse (403, `permission_denied`) in the words of `refused` unless the user holds one
    of `roles`: what a screen asks before it reads the form, so that the refusal is in the
    user's language and nothing of the form is read (the services ask `role_required` too)."""
    if not roles_of(user) & roles:
        raise PermissionDeniedError(refused)


def language_of(user: Any) -> str:
    """The language this member of staff chose, or "" (read with the user by `StaffBackend`)."""
    cached: str | None = getattr(user, LANGUAGE_ATTRIBUTE, None)
    if cached is not None:
        return cached
    found = StaffPreference.objects.filter(user_id=user.pk).values_list("language", flat=True)
    return str(found.first() or "")


class StaffBackend(ModelBackend):
    """Django's model backend, whose `get_user` (once per request, for the session) also reads
    the user's roles and language preference in the same statement.

    The statement is written out (`establishment.sql.user_sql`): the ORM's form of it took
    ten times longer to build than the database took to run it.
    """

    def get_user(self, user_id: Any) -> User | None:
        model = get_user_model()
        try:
            pk = model._meta.pk.to_python(user_id)
        except ValidationError:
            return None
        found = list(model._default_manager.raw(user_sql(), [pk]))
        if not found or not self.user_can_authenticate(found[0]):
            return None
        user: Any = found[0]
        setattr(user, ROLES_ATTRIBUTE, roles_parsed(user.held_roles))
        setattr(user, LANGUAGE_ATTRIBUTE, language_parsed(user.chosen_language))
        return user  # type: ignore[no-any-return]
