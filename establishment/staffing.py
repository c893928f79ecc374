"""The house's staff, managed by a manager: accounts, roles, deactivation, passwords (issue 13,
"Every change through a service"; the admin writes nothing).

Every write here is keyword-only, atomic, checked (a manager, `establishment.roles.Role.MANAGER`;
one's own password: oneself) and audited in the same transaction (docs/conventions.md, rules 2,
3 and 7). No password, old or new, is ever written to the audit log or a log line.

The house must not lock itself out, and nobody grants himself access: a manager cannot deactivate
himself nor change his own roles (another manager must), so at least one active manager — the
one acting — always remains, and every role a person holds was given by someone else.

Deactivating a member of staff ends what he is logged in with at once: his browser sessions (the
rows of `django.contrib.sessions`, through the session engine so a cached copy goes too) and his
API tokens (`rest_framework.authtoken`). A password reset by a manager does the same (an account
whose password is reset may be in someone else's hands). Changing one's own password keeps the
session it is changed from (the screen calls `update_session_auth_hash`); Django ends the others
at their next request, as their session hash no longer matches.
"""

from __future__ import annotations

from collections.abc import Iterable
from importlib import import_module
from typing import TYPE_CHECKING, Any

from django.conf import settings as django_settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.contrib.auth.password_validation import validate_password
from django.contrib.auth.validators import ASCIIUsernameValidator
from django.contrib.sessions.models import Session
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from rest_framework.authtoken.models import Token

from establishment.errors import InvalidStateError, PermissionDeniedError
from establishment.roles import Role
from establishment.services import audit
from establishment.staff import ROLES_ATTRIBUTE, role_required

if TYPE_CHECKING:
    from django.contrib.auth.models import User

MANAGERS = frozenset({Role.MANAGER})


def _roles_parsed(roles: Iterable[str]) -> list[str]:
    """The roles asked for, each a `Role`, in `Role`'s order, each once."""
    wanted = set(roles)
    unknown = sorted(wanted - set(Role.values))
    if unknown:
        message = _("Unknown role: %(roles)s.") % {"roles": ", ".join(unknown)}
        raise ValidationError({"roles": ValidationError(message, code="invalid_role")})
    return [role for role in Role.values if role in wanted]


def _roles_of(staff: User) -> list[str]:
    held = set(staff.groups.filter(name__in=Role.values).values_list("name", flat=True))
    return [role for role in Role.values if role in held]


def _groups_set(staff: User, roles: list[str]) -> None:
    """Give `staff` exactly these role groups (groups that are not roles are kept)."""
    others = list(staff.groups.exclude(name__in=Role.values))
    staff.groups.set([*others, *Group.objects.filter(name__in=roles)])
    if hasattr(staff, ROLES_ATTRIBUTE):
        delattr(staff, ROLES_ATTRIBUTE)  # read again at the next question (establishment.staff)


def _locked(staff: User) -> User:
    model = get_user_model()
    locked: User = model._default_manager.select_for_update().get(pk=staff.pk)
    return locked


def _password_validated(password: str, staff: User, field: str) -> None:
    """Refuse a password the project's validators (`AUTH_PASSWORD_VALIDATORS`) refuse, keyed by
    the input's `field`."""
    try:
        validate_password(password, user=staff)
    except ValidationError as error:
        raise ValidationError({field: error.error_list}) from None


def _staff_audit(by: User, action: str, client: str, staff: User, **data: Any) -> None:
    """The audit row of a change to the account of `staff`, named by his username."""
    audit(user=by, action=action, client=client, staff=staff.get_username(), **data)


def _logins_end(staff: User) -> dict[str, Any]:
    """End every browser session and delete every API token of `staff`; how many of each.

    Sessions hold the user's id in their encoded data, so each live one is read; deleting through
    the session engine's store removes a cached copy too (`cached_db`, casino/settings.py)."""
    store = import_module(django_settings.SESSION_ENGINE).SessionStore
    ended = 0
    for row in Session.objects.filter(expire_date__gt=timezone.now()).iterator():
        data = row.get_decoded()
        if str(data.get("_auth_user_id", "")) == str(staff.pk):
            store(session_key=row.session_key).delete()
            ended += 1
    tokens, _deleted = Token.objects.filter(user=staff).delete()
    return {"sessions_ended": ended, "tokens_deleted": tokens}


@transaction.atomic
def staff_create(
    *,
    username: str,
    password: str,
    roles: Iterable[str],
    first_name: str = "",
    last_name: str = "",
    created_by: User,
    client: str = "",
) -> User:
    """A new member of staff with his roles and an initial password (a manager). The username is
    checked as Django checks it (characters, length, not taken) and the password by the
    project's password validators (`AUTH_PASSWORD_VALIDATORS`); a refusal is Django's
    `ValidationError` keyed by the field (422 on the API)."""
    role_required(created_by, MANAGERS, "create a member of staff")
    wanted = _roles_parsed(roles)
    model = get_user_model()
    staff: User = model(username=username, first_name=first_name, last_name=last_name)
    staff.set_unusable_password()
    # Letters of the English alphabet, digits and @ . + - _: typed at any terminal of the house,
    # as the API's schema says (ASCII `\w`).
    try:
        ASCIIUsernameValidator()(username)
    except ValidationError as refused:
        raise ValidationError({"username": refused.messages}) from None
    staff.full_clean(exclude=["password"])
    _password_validated(password, staff, "password")
    staff.set_password(password)
    staff.save()
    _groups_set(staff, wanted)
    _staff_audit(
        created_by,
        "staff_create",
        client,
        staff,
        first_name=staff.first_name,
        last_name=staff.last_name,
        roles=wanted,
    )
    return staff


@transaction.atomic
def staff_roles_set(
    *, staff: User, roles: Iterable[str], set_by: User, client: str = ""
) -> list[str]:
    """Give a member of staff exactly these roles (a manager, never his own: another manager
    changes them). Counts at his next request (`establishment.staff`). Returns the roles he
    holds now."""
    role_required(set_by, MANAGERS, "set the roles of a member of staff")
    wanted = _roles_parsed(roles)
    locked = _locked(staff)
    if locked.pk == set_by.pk:
        raise InvalidStateError(_("You cannot change your own roles: ask another manager."))
    old = _roles_of(locked)
    if old == wanted:
        return wanted
    _groups_set(locked, wanted)
    _staff_audit(set_by, "staff_roles_set", client, locked, old=old, new=wanted)
    return wanted


@transaction.atomic
def staff_deactivate(*, staff: User, deactivated_by: User, client: str = "") -> User:
    """Deactivate a member of staff (a manager, not himself): he can no longer log in, his
    sessions end at once and his API tokens are deleted. His history keeps his name."""
    role_required(deactivated_by, MANAGERS, "deactivate a member of staff")
    locked = _locked(staff)
    if locked.pk == deactivated_by.pk:
        raise InvalidStateError(_("You cannot deactivate yourself: ask another manager."))
    if not locked.is_active:
        raise InvalidStateError(
            _("%(username)s is already inactive.") % {"username": locked.get_username()}
        )
    locked.is_active = False
    locked.save(update_fields=["is_active"])
    _staff_audit(deactivated_by, "staff_deactivate", client, locked, **_logins_end(locked))
    return locked


@transaction.atomic
def staff_reactivate(*, staff: User, reactivated_by: User, client: str = "") -> User:
    """Let a deactivated member of staff log in again (a manager), with the roles he had."""
    role_required(reactivated_by, MANAGERS, "reactivate a member of staff")
    locked = _locked(staff)
    if locked.is_active:
        raise InvalidStateError(
            _("%(username)s is already active.") % {"username": locked.get_username()}
        )
    locked.is_active = True
    locked.save(update_fields=["is_active"])
    _staff_audit(reactivated_by, "staff_reactivate", client, locked)
    return locked


@transaction.atomic
def staff_password_reset(*, staff: User, password: str, reset_by: User, client: str = "") -> User:
    """Set a temporary password for a member of staff (a manager), checked by the password
    validators; his sessions end and his API tokens are deleted. He changes it himself next
    (`password_change`). A manager changes his own through `password_change`."""
    role_required(reset_by, MANAGERS, "reset a password")
    locked = _locked(staff)
    if locked.pk == reset_by.pk:
        raise PermissionDeniedError(_("Change your own password from “Change my password”."))
    _password_validated(password, locked, "password")
    locked.set_password(password)
    locked.save(update_fields=["password"])
    _staff_audit(reset_by, "staff_password_reset", client, locked, **_logins_end(locked))
    return locked


@transaction.atomic
def password_change(*, user: User, old_password: str, new_password: str, client: str = "") -> User:
    """Change one's own password: the old one must be right, the new one pass the validators.
    The caller keeps its session (`update_session_auth_hash` on the screen)."""
    if not getattr(user, "is_authenticated", False) or not user.is_active:
        raise PermissionDeniedError(_("Log in to change your password."))
    locked = _locked(user)
    if not locked.check_password(old_password):
        raise ValidationError(
            {"old_password": _("Your old password was entered incorrectly.")},
            code="password_incorrect",
        )
    _password_validated(new_password, locked, "new_password")
    locked.set_password(new_password)
    locked.save(update_fields=["password"])
    user.password = locked.password  # the caller's object, for its session hash
    _staff_audit(locked, "password_change", client, locked)
    return locked
