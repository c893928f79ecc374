from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import TableSessionFactory, UserFactory

pytestmark = pytest.mark.django_db


def test_the_login_page_renders(client: Client) -> None:
    response = client.get(reverse("login"))
    assert response.status_code == 200
    assert b'name="password"' in response.content


def test_home_needs_a_login(client: Client) -> None:
    response = client.get(reverse("home"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_home_lists_the_tables(client: Client) -> None:
    table_session = TableSessionFactory.create()
    client.force_login(UserFactory.create())
    response = client.get(reverse("home"))
    assert response.status_code == 200
    assert f'id="table-{table_session.table.public_id}"'.encode() in response.content


def test_logging_in_works(client: Client) -> None:
    UserFactory.create(username="croupier", password="secret-password-123")
    response = client.post(
        reverse("login"), {"username": "croupier", "password": "secret-password-123"}
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("home")
