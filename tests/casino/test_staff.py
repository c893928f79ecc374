"""establishment.staff: the user read once per request with his roles and language."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group, User
from django.db import connection
from django.test.utils import CaptureQueriesContext

from establishment.models import StaffPreference
from establishment.roles import Role
from establishment.staff import StaffBackend, language_of, roles_of

pytestmark = pytest.mark.django_db


def _staff(*roles: Role) -> User:
    user = User.objects.create_user("someone", password="x")
    for role in roles:
        user.groups.add(Group.objects.get(name=role))
    return user


def test_roles_and_language_come_with_the_user_in_one_statement() -> None:
    user = _staff(Role.CROUPIER, Role.INSPECTOR)
    StaffPreference.objects.create(user=user, language="fr")
    with CaptureQueriesContext(connection) as captured:
        found = StaffBackend().get_user(user.pk)
        assert found is not None
        assert roles_of(found) == {Role.CROUPIER, Role.INSPECTOR}
        assert language_of(found) == "fr"
    assert len(captured.captured_queries) == 1


def test_no_role_no_language_and_unknown_or_inactive_users() -> None:
    user = _staff()
    found = StaffBackend().get_user(user.pk)
    assert found is not None
    assert roles_of(found) == frozenset() and language_of(found) == ""
    assert StaffBackend().get_user(user.pk + 1000) is None
    assert StaffBackend().get_user("not a number") is None
    user.is_active = False
    user.save()
    assert StaffBackend().get_user(user.pk) is None


def test_a_role_taken_away_counts_at_the_next_request() -> None:
    from django.test import Client

    user = _staff(Role.INSPECTOR)
    browser = Client()
    browser.force_login(user)
    assert browser.get("/console/floor/").status_code == 200
    user.groups.clear()
    assert browser.get("/console/floor/").status_code == 403


def test_roles_of_reads_the_groups_of_a_user_not_read_by_the_backend() -> None:
    user = _staff(Role.AUDITOR)
    plain = User.objects.get(pk=user.pk)
    assert roles_of(plain) == {Role.AUDITOR}
