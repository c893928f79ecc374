"""The establishment floor's hand-written SQL (`establishment.sql`) says what the ORM says.

The user read once per request, with his roles and his language, is compared with the user's
row, his groups and his preference read through the ORM, on the same data: no group and no
preference, every role, a group that is no role, a role taken away, and an unknown user.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import Group, User

from establishment.models import StaffPreference
from establishment.roles import Role
from establishment.sql import language_parsed, roles_parsed, user_sql

pytestmark = pytest.mark.django_db


def _fields(user: User) -> dict[str, Any]:
    return {f.attname: getattr(user, f.attname) for f in User._meta.concrete_fields}


def _by_sql(pk: int) -> tuple[dict[str, Any], frozenset[str], str] | None:
    found: list[Any] = list(User._default_manager.raw(user_sql(), [pk]))
    if not found:
        return None
    (user,) = found
    return _fields(user), roles_parsed(user.held_roles), language_parsed(user.chosen_language)


def _by_orm(pk: int) -> tuple[dict[str, Any], frozenset[str], str] | None:
    user = User.objects.filter(pk=pk).first()
    if user is None:
        return None
    roles = frozenset(user.groups.filter(name__in=Role.values).values_list("name", flat=True))
    language = StaffPreference.objects.filter(user=user).values_list("language", flat=True)
    return _fields(user), roles, str(language.first() or "")


def _agree(user: User) -> tuple[frozenset[str], str]:
    by_sql = _by_sql(user.pk)
    assert by_sql is not None and by_sql == _by_orm(user.pk)
    return by_sql[1], by_sql[2]


def test_a_user_with_no_group_and_no_preference() -> None:
    user = User.objects.create_user("nobody", password="x")
    assert _agree(user) == (frozenset(), "")


def test_every_role_a_group_that_is_no_role_and_a_language() -> None:
    user = User.objects.create_user("everyone", password="x", email="e@example.org")
    for role in Role:
        user.groups.add(Group.objects.get(name=role))
    user.groups.add(Group.objects.create(name="book club"))
    StaffPreference.objects.create(user=user, language="fr")
    assert _agree(user) == (frozenset(Role.values), "fr")


def test_a_role_taken_away_and_the_language_changed_are_read_fresh() -> None:
    user = User.objects.create_user("changing", password="x")
    user.groups.add(Group.objects.get(name=Role.CROUPIER), Group.objects.get(name=Role.MANAGER))
    preference = StaffPreference.objects.create(user=user, language="en")
    assert _agree(user) == (frozenset({Role.CROUPIER, Role.MANAGER}), "en")
    user.groups.remove(Group.objects.get(name=Role.MANAGER))
    preference.language = "fr"
    preference.save()
    assert _agree(user) == (frozenset({Role.CROUPIER}), "fr")


def test_an_unknown_user_is_no_row_either_way() -> None:
    unknown = (User.objects.order_by("-pk").values_list("pk", flat=True).first() or 0) + 1
    assert _by_sql(unknown) is None and _by_orm(unknown) is None
