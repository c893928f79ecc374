"""The staff, managed by a manager (establishment/staffing.py), its screens and API endpoints.

Each write is a manager's, audited without a password; deactivating someone ends his sessions at
once and deletes his API tokens; the house cannot lock itself out; bad input is refused in place,
never a 500.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import Group, User
from django.contrib.sessions.models import Session
from django.core.exceptions import ValidationError
from django.test import Client
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from establishment.errors import ErrorCode, InvalidStateError, PermissionDeniedError
from establishment.models import AuditEntry
from establishment.roles import Role
from establishment.staffing import (
    password_change,
    staff_create,
    staff_deactivate,
    staff_password_reset,
    staff_reactivate,
    staff_roles_set,
)

pytestmark = pytest.mark.django_db

GOOD = "Felt-green-2026"  # passes every validator of AUTH_PASSWORD_VALIDATORS
OTHER_GOOD = "Sabot-of-eight-decks"


def _user(username: str, *roles: Role, password: str = GOOD) -> User:
    user = User.objects.create_user(username=username, password=password)
    for role in roles:
        user.groups.add(Group.objects.get(name=role))
    return user


@pytest.fixture
def manager() -> User:
    return _user("boss", Role.MANAGER)


@pytest.fixture
def croupier() -> User:
    return _user("dealer", Role.CROUPIER)


def _login(username: str, password: str = GOOD) -> Client | None:
    """A browser that logged in through the login page (a real session row), or None when the
    page refused it."""
    client = Client()
    answer = client.post("/login/", {"username": username, "password": password})
    return client if answer.status_code == 302 and "_auth_user_id" in client.session else None


def _logged_in(user: User, password: str = GOOD) -> Client:
    client = _login(user.username, password)
    assert client is not None
    return client


def _is_logged_in(client: Client) -> bool:
    answer = client.get("/staff/password/")
    return answer.status_code == 200


def _no_password_in_the_audit_log(*passwords: str) -> None:
    logged = json.dumps([entry.data for entry in AuditEntry.objects.all()])
    for password in passwords:
        assert password not in logged


def _roles(user: User) -> set[str]:
    return set(user.groups.values_list("name", flat=True))


# -- the services ------------------------------------------------------------------------------


def test_a_manager_creates_a_member_of_staff(manager: User) -> None:
    created = staff_create(
        username="newcomer",
        first_name="Jeanne",
        last_name="Roux",
        roles=[Role.INSPECTOR, Role.CROUPIER],
        password=GOOD,
        created_by=manager,
        client="test",
    )

    created.refresh_from_db()
    assert created.check_password(GOOD) and created.is_active
    assert _roles(created) == {Role.CROUPIER, Role.INSPECTOR}
    entry = AuditEntry.objects.get(action="staff_create")
    assert entry.actor == manager and entry.client == "test"
    assert entry.data == {
        "staff": "newcomer",
        "first_name": "Jeanne",
        "last_name": "Roux",
        "roles": ["croupier", "inspector"],
    }
    _no_password_in_the_audit_log(GOOD)


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"password": "short"}, "password"),
        ({"password": "password123"}, "password"),  # a common one
        ({"password": "12345678901"}, "password"),  # all digits
        ({"password": "newcomer-1"}, "password"),  # too like the username
        ({"username": "boss"}, "username"),  # taken
        ({"username": "with space"}, "username"),
        ({"username": ""}, "username"),
        ({"roles": ["croupier", "dealer-in-chief"]}, "roles"),
    ],
)
def test_a_member_of_staff_is_not_created_from_bad_input(
    changes: dict[str, Any], field: str, manager: User
) -> None:
    given: dict[str, Any] = {"username": "newcomer", "roles": [], "password": GOOD} | changes
    before = User.objects.count()

    with pytest.raises(ValidationError) as refused:
        staff_create(**given, created_by=manager)

    assert field in refused.value.message_dict
    assert User.objects.count() == before
    assert not AuditEntry.objects.exists()


@pytest.mark.parametrize("role", [Role.INSPECTOR, Role.AUDITOR, Role.CROUPIER, Role.RECEPTION])
def test_only_a_manager_manages_the_staff(role: Role, croupier: User) -> None:
    someone = _user("someone", role)
    writes: list[Callable[[], object]] = [
        lambda: staff_create(username="x", roles=[], password=GOOD, created_by=someone),
        lambda: staff_roles_set(staff=croupier, roles=[Role.MANAGER], set_by=someone),
        lambda: staff_deactivate(staff=croupier, deactivated_by=someone),
        lambda: staff_reactivate(staff=croupier, reactivated_by=someone),
        lambda: staff_password_reset(staff=croupier, password=OTHER_GOOD, reset_by=someone),
    ]
    for write in writes:
        with pytest.raises(PermissionDeniedError) as refused:
            write()
        assert refused.value.code == ErrorCode.PERMISSION_DENIED
    croupier.refresh_from_db()
    assert croupier.is_active and croupier.check_password(GOOD)
    assert _roles(croupier) == {Role.CROUPIER}
    assert not AuditEntry.objects.exists()


def test_roles_are_set_exactly_and_audited_old_and_new(manager: User, croupier: User) -> None:
    other = Group.objects.create(name="not a role")
    croupier.groups.add(other)

    held = staff_roles_set(staff=croupier, roles=[Role.AUDITOR, Role.CHANGEUR], set_by=manager)

    assert held == [Role.CHANGEUR, Role.AUDITOR]
    assert _roles(croupier) == {Role.CHANGEUR, Role.AUDITOR, "not a role"}
    entry = AuditEntry.objects.get(action="staff_roles_set")
    assert entry.data == {"staff": "dealer", "old": ["croupier"], "new": ["changeur", "auditor"]}
    # The same roles again: nothing changes, nothing is written.
    staff_roles_set(staff=croupier, roles=[Role.AUDITOR, Role.CHANGEUR], set_by=manager)
    assert AuditEntry.objects.filter(action="staff_roles_set").count() == 1


def test_a_role_taken_away_counts_at_the_next_request(manager: User) -> None:
    inspector = _user("chef", Role.INSPECTOR)
    browser = _logged_in(inspector)
    assert browser.get("/console/floor/").status_code == 200

    staff_roles_set(staff=inspector, roles=[Role.CROUPIER], set_by=manager)

    assert browser.get("/console/floor/").status_code == 403


def test_a_manager_cannot_lock_himself_out(manager: User) -> None:
    with pytest.raises(InvalidStateError):
        staff_deactivate(staff=manager, deactivated_by=manager)
    with pytest.raises(InvalidStateError):
        staff_roles_set(staff=manager, roles=[Role.INSPECTOR], set_by=manager)
    # Nor add a role to his own: nobody grants himself access (the auditor's, say).
    with pytest.raises(InvalidStateError, match="your own roles"):
        staff_roles_set(staff=manager, roles=[Role.MANAGER, Role.AUDITOR], set_by=manager)
    manager.refresh_from_db()
    assert manager.is_active and _roles(manager) == {Role.MANAGER}
    # Another manager may.
    other = _user("deputy", Role.MANAGER)
    staff_roles_set(staff=manager, roles=[Role.MANAGER, Role.AUDITOR], set_by=other)
    assert _roles(manager) == {Role.MANAGER, Role.AUDITOR}


def test_deactivation_ends_his_sessions_at_once_and_deletes_his_tokens(
    manager: User, croupier: User
) -> None:
    his_browser = _logged_in(croupier)
    his_phone = _logged_in(croupier)
    Token.objects.create(user=croupier)
    managers_browser = _logged_in(manager)
    assert _is_logged_in(his_browser) and _is_logged_in(his_phone)

    staff_deactivate(staff=croupier, deactivated_by=manager, client="test")

    # His session rows are gone: the next request is anonymous (sent to the login page).
    answer = his_browser.get("/")
    assert answer.status_code == 302 and answer["Location"].startswith("/login/")
    assert not _is_logged_in(his_phone)
    assert not Token.objects.filter(user=croupier).exists()
    for row in Session.objects.all():
        assert str(row.get_decoded().get("_auth_user_id")) != str(croupier.pk)
    assert _is_logged_in(managers_browser)  # nobody else's
    entry = AuditEntry.objects.get(action="staff_deactivate")
    assert entry.data == {"staff": "dealer", "sessions_ended": 2, "tokens_deleted": 1}
    # And he cannot log in again, nor use the API.
    assert _login("dealer") is None
    token = APIClient().post("/api/auth/token/", {"username": "dealer", "password": GOOD})
    assert token.status_code == 401


def test_a_deactivated_member_of_staff_is_reactivated_with_his_roles(
    manager: User, croupier: User
) -> None:
    staff_deactivate(staff=croupier, deactivated_by=manager)
    with pytest.raises(InvalidStateError):
        staff_deactivate(staff=croupier, deactivated_by=manager)

    staff_reactivate(staff=croupier, reactivated_by=manager)

    croupier.refresh_from_db()
    assert croupier.is_active and _roles(croupier) == {Role.CROUPIER}
    assert _login("dealer") is not None
    with pytest.raises(InvalidStateError):
        staff_reactivate(staff=croupier, reactivated_by=manager)
    assert [e.action for e in AuditEntry.objects.order_by("pk")] == [
        "staff_deactivate",
        "staff_reactivate",
    ]


def test_a_password_reset_sets_a_temporary_one_and_logs_him_out(
    manager: User, croupier: User
) -> None:
    browser = _logged_in(croupier)
    Token.objects.create(user=croupier)

    staff_password_reset(staff=croupier, password=OTHER_GOOD, reset_by=manager)

    croupier.refresh_from_db()
    assert croupier.check_password(OTHER_GOOD)
    assert not _is_logged_in(browser)
    assert not Token.objects.filter(user=croupier).exists()
    _no_password_in_the_audit_log(GOOD, OTHER_GOOD)


def test_a_password_reset_is_checked_and_not_for_oneself(manager: User, croupier: User) -> None:
    with pytest.raises(ValidationError) as refused:
        staff_password_reset(staff=croupier, password="dealer", reset_by=manager)
    assert "password" in refused.value.message_dict
    with pytest.raises(PermissionDeniedError):
        staff_password_reset(staff=manager, password=OTHER_GOOD, reset_by=manager)
    croupier.refresh_from_db()
    assert croupier.check_password(GOOD)
    assert not AuditEntry.objects.exists()


def test_everyone_changes_his_own_password(croupier: User) -> None:
    with pytest.raises(ValidationError) as refused:
        password_change(user=croupier, old_password="wrong", new_password=OTHER_GOOD)
    assert "old_password" in refused.value.message_dict
    with pytest.raises(ValidationError) as refused:
        password_change(user=croupier, old_password=GOOD, new_password="1234")
    assert "new_password" in refused.value.message_dict

    password_change(user=croupier, old_password=GOOD, new_password=OTHER_GOOD, client="test")

    croupier.refresh_from_db()
    assert croupier.check_password(OTHER_GOOD)
    entry = AuditEntry.objects.get(action="password_change")
    assert entry.actor == croupier and entry.data == {"staff": "dealer"}
    _no_password_in_the_audit_log(GOOD, OTHER_GOOD)


# -- the screens -------------------------------------------------------------------------------


def _problem(html: str) -> str:
    found = re.search(r'data-testid="problem">([^<]+)<', html)
    assert found, "no problem shown"
    return found.group(1)


def test_the_staff_screen_lists_everyone_with_roles_and_whether_active(
    manager: User, croupier: User
) -> None:
    staff_deactivate(staff=croupier, deactivated_by=manager)

    html = _logged_in(manager).get("/staff/").content.decode()

    assert 'data-staff="boss"' in html and 'data-staff="dealer"' in html
    row = re.search(r'<tr data-staff="dealer" class="inactive">.*?</tr>', html, re.S)
    assert row and 'data-role="croupier"' in row.group(0)


@pytest.mark.parametrize("role", [Role.INSPECTOR, Role.AUDITOR, Role.CROUPIER, Role.RECEPTION])
def test_the_staff_screens_are_the_managers(role: Role, croupier: User) -> None:
    browser = _logged_in(_user("someone", role))

    assert browser.get("/staff/").status_code == 403
    assert browser.get("/staff/members/dealer/").status_code == 403
    assert browser.post("/staff/members/dealer/deactivate/").status_code == 403
    assert browser.post("/staff/members/dealer/roles/", {"roles": ["manager"]}).status_code == 403
    answer = browser.post(
        "/staff/create/",
        {"username": "x", "password": OTHER_GOOD, "password_again": OTHER_GOOD},
    )
    assert answer.status_code == 403
    croupier.refresh_from_db()
    assert croupier.is_active and _roles(croupier) == {Role.CROUPIER}
    assert not User.objects.filter(username="x").exists()


def test_the_screen_creates_a_member_of_staff(manager: User) -> None:
    browser = _logged_in(manager)
    body = {
        "username": "newcomer",
        "first_name": "Jeanne",
        "roles": ["reception"],
        "password": OTHER_GOOD,
        "password_again": OTHER_GOOD,
    }

    answer = browser.post("/staff/create/", body)

    assert answer.status_code == 302 and answer["Location"] == "/staff/members/newcomer/"
    created = User.objects.get(username="newcomer")
    assert _roles(created) == {Role.RECEPTION} and created.check_password(OTHER_GOOD)
    assert _logged_in(created, OTHER_GOOD)


@pytest.mark.parametrize(
    ("changes", "said"),
    [
        ({"password_again": "something-else-2026"}, "differ"),
        ({"password": "short", "password_again": "short"}, "too short"),
        ({"password": "12345678901", "password_again": "12345678901"}, "numeric"),
        ({"username": ""}, "Username"),
        ({"username": "boss"}, "already exists"),
        ({"username": "no spaces please"}, "Username"),
        ({"roles": ["emperor"]}, "Roles"),
        ({"first_name": "x" * 151}, "First name"),
    ],
)
def test_the_screen_refuses_bad_input_in_place(
    changes: dict[str, Any], said: str, manager: User
) -> None:
    browser = _logged_in(manager)
    body: dict[str, Any] = {
        "username": "newcomer",
        "password": OTHER_GOOD,
        "password_again": OTHER_GOOD,
    } | changes

    no_htmx: dict[str, Any] = {}
    for headers in (no_htmx, {"HTTP_HX_REQUEST": "true"}):
        answer = browser.post("/staff/create/", body, **headers)
        assert answer.status_code == 422
        html = answer.content.decode()
        assert said in _problem(html)
        assert OTHER_GOOD not in html  # a password is never drawn back
    assert not User.objects.filter(username="newcomer").exists()


def test_the_member_screen_sets_roles_deactivates_reactivates_and_resets(
    manager: User, croupier: User
) -> None:
    browser = _logged_in(manager)
    his = _logged_in(croupier)
    member = "/staff/members/dealer/"

    assert browser.get(member).status_code == 200
    answer = browser.post(
        f"{member}roles/", {"roles": ["croupier", "changeur"]}, HTTP_HX_REQUEST="true"
    )
    assert answer.status_code == 200 and "are saved" in answer.content.decode()
    assert _roles(croupier) == {Role.CROUPIER, Role.CHANGEUR}

    assert browser.post(f"{member}deactivate/").status_code == 302
    assert not _is_logged_in(his)
    assert browser.post(f"{member}deactivate/", HTTP_HX_REQUEST="true").status_code == 409
    assert browser.post(f"{member}reactivate/").status_code == 302

    answer = browser.post(f"{member}password/", {"password": "dealer"}, HTTP_HX_REQUEST="true")
    assert answer.status_code == 422 and "similar" in _problem(answer.content.decode())
    assert browser.post(f"{member}password/", {}).status_code == 422
    assert browser.post(f"{member}password/", {"password": OTHER_GOOD}).status_code == 302
    croupier.refresh_from_db()
    assert croupier.is_active and croupier.check_password(OTHER_GOOD)
    assert browser.get("/staff/members/nobody/").status_code == 404
    assert browser.post("/staff/members/nobody/deactivate/").status_code == 404


def test_the_member_screen_refuses_to_lock_the_manager_out(manager: User) -> None:
    browser = _logged_in(manager)

    answer = browser.post("/staff/members/boss/deactivate/", HTTP_HX_REQUEST="true")
    assert answer.status_code == 409 and "yourself" in _problem(answer.content.decode())
    answer = browser.post("/staff/members/boss/roles/", {"roles": ["auditor"]})
    assert answer.status_code == 409
    # His own page shows his roles, not a form to change them.
    own = browser.get("/staff/members/boss/").content.decode()
    assert 'data-testid="own-roles"' in own and 'action="/staff/members/boss/roles/"' not in own
    answer = browser.post("/staff/members/boss/roles/", {"roles": ["king"]})
    assert answer.status_code == 422
    manager.refresh_from_db()
    assert manager.is_active and _roles(manager) == {Role.MANAGER}
    assert _is_logged_in(browser)


def test_changing_my_password_keeps_me_logged_in_and_is_audited(croupier: User) -> None:
    browser = _logged_in(croupier)
    other_device = _logged_in(croupier)
    assert 'name="old_password"' in browser.get("/staff/password/").content.decode()

    answer = browser.post(
        "/staff/password/",
        {"old_password": GOOD, "new_password1": OTHER_GOOD, "new_password2": OTHER_GOOD},
    )

    assert answer.status_code == 302
    assert _is_logged_in(browser)
    assert not _is_logged_in(other_device)  # Django ends the others (the session hash)
    croupier.refresh_from_db()
    assert croupier.check_password(OTHER_GOOD)
    assert AuditEntry.objects.filter(action="password_change", actor=croupier).count() == 1


@pytest.mark.parametrize(
    "body",
    [
        {"old_password": "wrong", "new_password1": OTHER_GOOD, "new_password2": OTHER_GOOD},
        {"old_password": GOOD, "new_password1": OTHER_GOOD, "new_password2": "different-2026"},
        {"old_password": GOOD, "new_password1": "abc", "new_password2": "abc"},
        {"old_password": GOOD},
        {},
    ],
)
def test_changing_my_password_refuses_bad_input(body: dict[str, str], croupier: User) -> None:
    browser = _logged_in(croupier)

    answer = browser.post("/staff/password/", body)

    assert answer.status_code == 422
    assert _problem(answer.content.decode())
    croupier.refresh_from_db()
    assert croupier.check_password(GOOD)


def test_changing_my_password_needs_a_login() -> None:
    answer = Client().get("/staff/password/")
    assert answer.status_code == 302 and answer["Location"].startswith("/login/")


# -- the API -----------------------------------------------------------------------------------


def _api(user: User) -> APIClient:
    token, _created = Token.objects.get_or_create(user=user)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


def test_the_api_manages_the_staff(manager: User, croupier: User) -> None:
    api = _api(manager)

    created = api.post(
        "/api/staff/create/",
        {"username": "newcomer", "roles": ["auditor"], "password": OTHER_GOOD},
        format="json",
    )
    assert created.status_code == 201, created.json()
    assert created.json()["roles"] == ["auditor"] and "password" not in created.json()

    answer = api.post("/api/staff/dealer/roles/", {"roles": ["changeur"]}, format="json")
    assert answer.status_code == 200 and answer.json()["roles"] == ["changeur"]
    Token.objects.create(user=croupier)
    answer = api.post("/api/staff/dealer/deactivate/")
    assert answer.status_code == 200 and answer.json()["is_active"] is False
    assert not Token.objects.filter(user=croupier).exists()
    assert api.post("/api/staff/dealer/reactivate/").json()["is_active"] is True
    answer = api.post("/api/staff/dealer/password-reset/", {"password": GOOD + "!"}, format="json")
    assert answer.status_code == 200
    croupier.refresh_from_db()
    assert croupier.check_password(GOOD + "!")
    _no_password_in_the_audit_log(OTHER_GOOD, GOOD + "!")


@pytest.mark.parametrize(
    ("url", "body", "status", "code"),
    [
        ("/api/staff/create/", {"username": "n", "password": "short"}, 422, "password_too_short"),
        ("/api/staff/create/", {"username": "boss", "password": OTHER_GOOD}, 422, "unique"),
        ("/api/staff/create/", {"username": "n", "password": OTHER_GOOD, "roles": ["x"]}, 400, ""),
        ("/api/staff/create/", {"password": OTHER_GOOD}, 400, "invalid"),
        ("/api/staff/boss/deactivate/", {}, 409, "invalid_state"),
        ("/api/staff/boss/roles/", {"roles": ["auditor"]}, 409, "invalid_state"),
        ("/api/staff/boss/password-reset/", {"password": OTHER_GOOD}, 403, "permission_denied"),
        ("/api/staff/nobody/deactivate/", {}, 404, "not_found"),
        ("/api/staff/dealer/roles/", {"roles": "manager"}, 400, "invalid"),
    ],
)
def test_the_api_refuses_with_its_codes(
    url: str, body: dict[str, Any], status: int, code: str, manager: User, croupier: User
) -> None:
    answer = _api(manager).post(url, body, format="json")

    assert answer.status_code == status, answer.json()
    if code:
        assert answer.json()["code"] == code
    manager.refresh_from_db()
    assert manager.is_active


def test_the_api_staff_writes_are_the_managers(croupier: User) -> None:
    api = _api(_user("chef", Role.INSPECTOR))
    answer = api.post(
        "/api/staff/create/", {"username": "n", "password": OTHER_GOOD}, format="json"
    )
    assert answer.status_code == 403
    assert api.post("/api/staff/dealer/deactivate/").status_code == 403
    croupier.refresh_from_db()
    assert croupier.is_active


@pytest.mark.django_db
def test_a_username_is_typed_at_any_terminal_of_the_house() -> None:
    from django.core.exceptions import ValidationError

    from establishment.staffing import staff_create
    from tests.factories import UserFactory

    manager = UserFactory.create(roles=[Role.MANAGER])
    with pytest.raises(ValidationError) as refused:
        staff_create(username="กา", password="a-long-pass-phrase", roles=[], created_by=manager)
    assert "username" in refused.value.message_dict
