"""Failed logins counted and locked out (establishment/lockout.py, django-axes): 5 failures
within 15 minutes for one username or from one address lock it for 15 minutes — on the login
form, the admin's login and the API's token endpoint —, even the right password is refused
then; each lockout has its audit row; a manager unlocks; the API throttles each user.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from axes.models import AccessAttempt  # type: ignore[import-untyped]
from django.contrib.auth.models import Group, User
from django.test import Client, override_settings
from django.utils import timezone
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from establishment.errors import InvalidStateError, PermissionDeniedError
from establishment.lockout import locked_until, staff_unlock
from establishment.models import AuditEntry
from establishment.roles import Role

pytestmark = pytest.mark.django_db

GOOD = "Felt-green-2026"
BAD = "not-the-password"
LIMIT = 5


def _user(username: str, *roles: Role) -> User:
    user = User.objects.create_user(username=username, password=GOOD)
    for role in roles:
        user.groups.add(Group.objects.get(name=role))
    return user


@pytest.fixture
def croupier() -> User:
    return _user("dealer", Role.CROUPIER)


@pytest.fixture
def manager() -> User:
    return _user("boss", Role.MANAGER)


def _login(
    username: str, password: str, address: str = "10.0.0.1", path: str = "/login/"
) -> tuple[Client, Any]:
    client = Client(REMOTE_ADDR=address)
    answer = client.post(path, {"username": username, "password": password})
    return client, answer


def _logged_in(client: Client) -> bool:
    return "_auth_user_id" in client.session


def _fail(
    username: str, times: int = LIMIT, address: str = "10.0.0.1", path: str = "/login/"
) -> None:
    for _ in range(times):
        client, _answer = _login(username, BAD, address, path)
        assert not _logged_in(client)


def test_five_failures_lock_the_account_and_the_right_password_does_not_log_in(
    croupier: User,
) -> None:
    _fail("dealer", LIMIT - 1)
    assert locked_until("dealer") is None
    _fail("dealer", 1)

    client, answer = _login("dealer", GOOD)

    assert answer.status_code == 429
    assert not _logged_in(client)
    page = answer.content.decode()
    assert 'data-testid="locked-out"' in page and "15 minutes" in page
    assert "ask a manager to unlock it" in page
    assert int(answer["Retry-After"]) > 14 * 60
    until = locked_until("dealer")
    assert until is not None and until > timezone.now() + timedelta(minutes=14)
    entry = AuditEntry.objects.get(action="login_locked_out")
    assert entry.actor == croupier and entry.data["failures"] == LIMIT
    assert entry.data["username"] == "dealer" and entry.data["address"] == "10.0.0.1"
    refused = AuditEntry.objects.get(action="login_refused_locked_out")
    assert refused.actor == croupier and refused.at >= entry.at


def test_the_lockout_message_is_in_the_readers_language(croupier: User) -> None:
    _fail("dealer")
    client = Client(REMOTE_ADDR="10.0.0.1", HTTP_ACCEPT_LANGUAGE="fr")
    answer = client.post("/login/", {"username": "dealer", "password": GOOD})
    assert answer.status_code == 429
    assert "Trop de connexions" in answer.content.decode()


def test_the_lockout_ends_after_its_period(croupier: User) -> None:
    _fail("dealer")
    assert _login("dealer", GOOD)[1].status_code == 429
    AccessAttempt.objects.update(attempt_time=timezone.now() - timedelta(minutes=16))

    client, answer = _login("dealer", GOOD)

    assert answer.status_code == 302 and _logged_in(client)


def test_failures_older_than_the_window_are_not_counted(croupier: User) -> None:
    _fail("dealer", LIMIT - 1)
    AccessAttempt.objects.update(attempt_time=timezone.now() - timedelta(minutes=16))
    _fail("dealer", LIMIT - 1)
    client, answer = _login("dealer", GOOD)
    assert answer.status_code == 302 and _logged_in(client)


def test_a_success_forgets_the_failures_before_it(croupier: User) -> None:
    _fail("dealer", LIMIT - 1)
    assert _logged_in(_login("dealer", GOOD)[0])
    _fail("dealer", LIMIT - 1)
    assert _logged_in(_login("dealer", GOOD)[0])


def test_an_address_is_locked_whatever_the_username(croupier: User) -> None:
    for n in range(LIMIT):
        _fail(f"nobody{n}", 1, address="10.0.0.9")

    refused_client, refused = _login("dealer", GOOD, address="10.0.0.9")
    elsewhere, answer = _login("dealer", GOOD, address="10.0.0.2")

    assert refused.status_code == 429 and not _logged_in(refused_client)
    assert answer.status_code == 302 and _logged_in(elsewhere)
    # No account was locked (the unknown usernames have none); dealer's refused try is written.
    assert not AuditEntry.objects.filter(action="login_locked_out").exists()
    assert AuditEntry.objects.get(action="login_refused_locked_out").data["address"] == "10.0.0.9"


def test_the_username_is_locked_from_every_address(croupier: User) -> None:
    for n in range(LIMIT):
        _fail("dealer", 1, address=f"10.0.1.{n}")
    client, answer = _login("dealer", GOOD, address="10.0.2.1")
    assert answer.status_code == 429 and not _logged_in(client)


def test_the_admin_login_is_counted_and_locked(croupier: User) -> None:
    _fail("dealer", path="/admin/login/")
    client, answer = _login("dealer", GOOD, path="/login/")
    assert answer.status_code == 429 and not _logged_in(client)


def test_the_token_endpoint_is_counted_and_locked_in_the_apis_shape(croupier: User) -> None:
    api = APIClient(REMOTE_ADDR="10.0.0.1")
    for _ in range(LIMIT):
        answer = api.post("/api/auth/token/", {"username": "dealer", "password": BAD})
        assert answer.status_code in (401, 429)

    answer = api.post("/api/auth/token/", {"username": "dealer", "password": GOOD})

    assert answer.status_code == 429
    body = answer.json()
    assert body["code"] == "locked_out" and "15 minutes" in body["message"]
    assert body["extra"]["retry_after"] > 14 * 60 and answer["Retry-After"]
    assert not Token.objects.filter(user=croupier).exists()


def test_a_manager_unlocks_an_account_from_the_staff_screen(croupier: User, manager: User) -> None:
    _fail("dealer")
    boss = Client()
    boss.force_login(manager)
    page = boss.get("/staff/members/dealer/").content.decode()
    assert 'data-testid="locked"' in page and "Unlock" in page

    answer = boss.post("/staff/members/dealer/unlock/")

    assert answer.status_code in (200, 302)
    assert locked_until("dealer") is None
    assert _logged_in(_login("dealer", GOOD)[0])
    entry = AuditEntry.objects.get(action="login_unlocked")
    assert entry.actor == manager and entry.data["username"] == "dealer"
    assert 'data-testid="locked"' not in boss.get("/staff/members/dealer/").content.decode()


def test_unlocking_is_a_managers_and_only_of_a_locked_account(
    croupier: User, manager: User
) -> None:
    with pytest.raises(InvalidStateError, match="not locked out"):
        staff_unlock(staff=croupier, unlocked_by=manager)
    _fail("dealer")
    inspector = _user("chef", Role.INSPECTOR)
    with pytest.raises(PermissionDeniedError):
        staff_unlock(staff=croupier, unlocked_by=inspector)
    assert locked_until("dealer") is not None
    assert not AuditEntry.objects.filter(action="login_unlocked").exists()


def test_the_api_shows_and_lifts_a_lockout(croupier: User, manager: User) -> None:
    _fail("dealer")
    api = APIClient()
    api.force_authenticate(manager)

    answer = api.post("/api/staff/dealer/unlock/")

    assert answer.status_code == 200 and answer.json()["locked_until"] is None
    again = api.post("/api/staff/dealer/unlock/")
    assert again.status_code == 409 and again.json()["code"] == "invalid_state"


@override_settings(
    REST_FRAMEWORK={
        "DEFAULT_THROTTLE_CLASSES": ["establishment.http.throttles.UserThrottle"],
        "DEFAULT_THROTTLE_RATES": {"user": "3/min", "anon": "3/min"},
        "EXCEPTION_HANDLER": "establishment.http.api_errors.exception_handler",
        "DEFAULT_AUTHENTICATION_CLASSES": [
            "rest_framework.authentication.TokenAuthentication",
            "rest_framework.authentication.SessionAuthentication",
        ],
        "DEFAULT_PERMISSION_CLASSES": ["establishment.http.permissions.IsStaff"],
    }
)
def test_the_api_throttles_each_user(croupier: User, manager: User) -> None:
    from django.core.cache import cache

    cache.clear()
    first, second = APIClient(), APIClient()
    first.force_authenticate(croupier)
    second.force_authenticate(manager)
    for _ in range(3):
        assert first.get("/api/me/").status_code == 200

    answer = first.get("/api/me/")

    assert answer.status_code == 429
    assert answer.json()["code"] == "throttled" and answer["Retry-After"]
    assert second.get("/api/me/").status_code == 200
    cache.clear()
