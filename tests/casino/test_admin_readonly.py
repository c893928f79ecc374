"""The admin writes nothing (issue 13; establishment/http/readonly_admin.py).

Logged in as a superuser, every model the admin shows of a domain app (the establishment, the
books, the tables, the reports, and the staff's accounts, groups and API tokens) is posted to
its add, change and delete pages and its bulk delete action: every answer is a refusal (403) or
a page drawn again, never a 500, and not one row of any domain table changes.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.apps import apps
from django.contrib import admin
from django.contrib.auth.models import Group, User
from django.db.models import Model
from django.test import Client
from django.urls import reverse
from rest_framework.authtoken.models import Token, TokenProxy
from rest_framework.test import APIClient

from establishment.roles import Role
from ledger.models import Transaction
from tables.models import Coup, Sabot
from tables.services import sabot_open
from tests.api.fixtures import open_table
from tests.api.test_play import COUP, play

pytestmark = pytest.mark.django_db

DOMAIN_APPS = {"establishment", "ledger", "tables", "reports", "auth", "authtoken"}

# Whatever a form of any of these models might take: every post carries all of it.
PAYLOAD: dict[str, Any] = {
    "name": "intruder",
    "member_number": "HACK-1",
    "number": "99",
    "game": "pontoon",
    "seat_count": "8",
    "settings": "{}",
    "is_active": "on",
    "username": "intruder",
    "password": "Intruder-password-2026",
    "password1": "Intruder-password-2026",
    "password2": "Intruder-password-2026",
    "is_superuser": "on",
    "user": "1",
    "kind": "bank",
    "memo": "intruded",
    "opened_at_0": "2026-01-01",
    "opened_at_1": "10:00:00",
    "_save": "Save",
}


def _dump() -> dict[str, list[dict[str, Any]]]:
    """Every row of every table of the domain apps (many-to-many tables included)."""
    rows: dict[str, list[dict[str, Any]]] = {}
    for model in apps.get_models(include_auto_created=True):
        if model._meta.app_label in DOMAIN_APPS and not model._meta.proxy:
            rows[model._meta.label] = list(model._default_manager.order_by("pk").values())
    return rows


def _domain_admins() -> list[tuple[type[Model], Any]]:
    return [
        (model, model_admin)
        for model, model_admin in admin.site._registry.items()
        if model._meta.app_label in DOMAIN_APPS
    ]


def _object_id(model: type[Model]) -> str:
    if model is TokenProxy:  # DRF's token admin names a token by its user's id
        return str(Token.objects.values_list("user_id", flat=True).first())
    found = model._default_manager.order_by("pk").values_list("pk", flat=True).first()
    assert found is not None, f"make a {model._meta.label} row for this test"
    return str(found)


@pytest.fixture
def the_house() -> None:
    """A row of every model the admin shows: an open table where a coup was played (a sabot,
    the books' accounts and transactions), players, staff, groups and a token."""
    table = open_table()
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=table.croupier).key}")
    play(api, table, COUP)
    sabot_open(table_session=table.table_session, opened_by=table.croupier)
    assert Coup.objects.exists() and Transaction.objects.exists() and Sabot.objects.exists()


def test_every_domain_model_is_shown_read_only(the_house: None) -> None:
    superuser = User.objects.create_superuser("root", password="root-password-2026")
    browser = Client()
    browser.force_login(superuser)  # before the dump: logging in writes last_login
    registered = _domain_admins()
    labels = {model._meta.label for model, _admin in registered}
    assert {"tables.Table", "ledger.Transaction", "auth.User", "auth.Group"} <= labels
    before = _dump()

    for model, model_admin in registered:
        page = f"admin:{model._meta.app_label}_{model._meta.model_name}_"
        object_id = _object_id(model)
        request = browser.get("/admin/").wsgi_request
        assert not model_admin.has_add_permission(request)
        assert not model_admin.has_change_permission(request)
        assert not model_admin.has_delete_permission(request)
        # It can be seen, by the superuser.
        assert browser.get(reverse(f"{page}changelist")).status_code == 200
        change = reverse(f"{page}change", args=[object_id])
        assert browser.get(change).status_code == 200, change

        # (where, what, the answer): a refusal, or for the bulk action the list drawn again
        # without it (Django offers no action the user may not take).
        posts: list[tuple[str, dict[str, Any], int]] = [
            (reverse(f"{page}add"), PAYLOAD, 403),
            (change, PAYLOAD, 403),
            (reverse(f"{page}delete", args=[object_id]), {"post": "yes"}, 403),
            (
                reverse(f"{page}changelist"),
                {"action": "delete_selected", "_selected_action": [object_id], "post": "yes"},
                200,
            ),
        ]
        if model is User:
            password = reverse("admin:auth_user_password_change", args=[object_id])
            posts.append((password, PAYLOAD, 403))
        for url, body, status in posts:
            answer = browser.post(url, body)
            assert answer.status_code == status, (url, answer.status_code)

    assert _dump() == before
    assert not User.objects.filter(username="intruder").exists()


def test_the_staff_are_managed_on_the_staff_screen_not_in_the_admin() -> None:
    superuser = User.objects.create_superuser("root", password="root-password-2026")
    browser = Client()
    browser.force_login(superuser)

    html = browser.get(reverse("admin:auth_user_changelist")).content.decode()

    assert reverse("admin:auth_user_add") not in html  # no "Add user" button
    # A superuser without the manager's role is refused the staff screen as anyone would be.
    assert browser.get("/staff/").status_code == 403
    superuser.groups.add(Group.objects.get(name=Role.MANAGER))
    assert browser.get("/staff/").status_code == 200
