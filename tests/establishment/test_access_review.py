"""The access review (establishment/access_review.py; issue 17, item 7): who holds which role,
may log in, last did, is locked out; active accounts unused for 90 days flagged and listed
first; the manager's and the auditor's screen, its CSV and the API."""

from __future__ import annotations

import csv
import io
from datetime import timedelta

import pytest
from django.contrib.auth.models import Group, User
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from establishment.access_review import access_review
from establishment.roles import Role

pytestmark = pytest.mark.django_db


def _user(
    username: str,
    *roles: Role,
    last_login_days: int | None,
    joined_days: int = 400,
    active: bool = True,
) -> User:
    now = timezone.now()
    user = User.objects.create_user(username=username, password="Felt-green-2026")
    user.is_active = active
    user.date_joined = now - timedelta(days=joined_days)
    user.last_login = now - timedelta(days=last_login_days) if last_login_days is not None else None
    user.save()
    for role in roles:
        user.groups.add(Group.objects.get(name=role))
    return user


@pytest.fixture
def house() -> dict[str, User]:
    return {
        "boss": _user("boss", Role.MANAGER, last_login_days=0),
        "dealer": _user("dealer", Role.CROUPIER, Role.CHANGEUR, last_login_days=3),
        "sleeper": _user("sleeper", Role.INSPECTOR, last_login_days=120),
        "never": _user("never", Role.RECEPTION, last_login_days=None, joined_days=91),
        "newcomer": _user("newcomer", Role.CROUPIER, last_login_days=None, joined_days=5),
        "gone": _user("gone", Role.CROUPIER, last_login_days=200, active=False),
        "auditor": _user("auditor", Role.AUDITOR, last_login_days=1),
    }


def test_the_review_flags_active_accounts_unused_for_ninety_days_first(
    house: dict[str, User],
) -> None:
    rows = access_review()

    assert [r.username for r in rows[:2]] == ["never", "sleeper"]
    assert all(r.unused for r in rows[:2]) and not any(r.unused for r in rows[2:])
    by_name = {r.username: r for r in rows}
    assert by_name["dealer"].roles == (Role.CROUPIER, Role.CHANGEUR)
    assert by_name["newcomer"].unused is False  # joined 5 days ago, never logged in yet
    assert by_name["gone"].unused is False and rows[-1].username == "gone"  # inactive, last


def test_the_screen_and_its_csv(house: dict[str, User]) -> None:
    client = Client()
    client.force_login(house["boss"])

    page = client.get("/staff/access-review/")

    assert page.status_code == 200
    text = page.content.decode()
    assert "2 active accounts unused for 90 days" in text
    assert text.count('data-testid="unused"') == 2
    download = client.get("/staff/access-review.csv")
    assert download["Content-Type"].startswith("text/csv")
    table = list(csv.reader(io.StringIO(download.content.decode())))
    assert table[0][0] == "Username" and table[0][-1] == "Unused for 90 days"
    assert [row[0] for row in table[1:3]] == ["never", "sleeper"]
    assert table[1][-1] == "yes" and table[1][4] == ""  # never logged in


def test_the_auditor_reads_it_and_others_do_not(house: dict[str, User]) -> None:
    auditor = Client()
    auditor.force_login(house["auditor"])
    assert auditor.get("/staff/access-review/").status_code == 200
    assert 'href="/staff/access-review/"' in auditor.get("/staff/access-review/").content.decode()
    croupier = Client()
    croupier.force_login(house["dealer"])
    refused = croupier.get("/staff/access-review/")
    assert refused.status_code == 403
    assert croupier.get("/staff/access-review.csv").status_code == 403


def test_the_screen_speaks_french(house: dict[str, User]) -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE="fr")
    client.force_login(house["boss"])
    text = client.get("/staff/access-review/").content.decode()
    assert "Revue des accès" in text and "inutilisés depuis 90 jours" in text


def test_the_api(house: dict[str, User]) -> None:
    api = APIClient()
    api.force_authenticate(house["auditor"])

    answer = api.get("/api/staff/access-review/")

    assert answer.status_code == 200
    first = answer.json()[0]
    assert first["username"] == "never" and first["unused"] is True
    assert first["roles"] == ["reception"] and first["last_login"] is None
    api.force_authenticate(house["dealer"])
    assert api.get("/api/staff/access-review/").status_code == 403
