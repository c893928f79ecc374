"""A console session nobody uses ends (establishment/http/idle.py; docs/security.md): after
SESSION_IDLE_MINUTES without a request of the person's own, the next request goes to the login
page (an htmx one by HX-Redirect, back to the page it was on); the screens' polls do not keep
it alive; the last activity is written at most once a minute."""

from __future__ import annotations

import time
from typing import Any

import pytest
from django.contrib.auth.models import Group, User
from django.test import Client

from establishment.http.idle import LAST_SEEN
from establishment.roles import Role

pytestmark = pytest.mark.django_db

PAGE = "/staff/password/"  # a page every member of staff may open


@pytest.fixture
def client() -> Client:
    user = User.objects.create_user(username="dealer", password="Felt-green-2026")
    user.groups.add(Group.objects.get(name=Role.CROUPIER))
    browser = Client()
    browser.force_login(user)
    return browser


def _idle_for(client: Client, seconds: int) -> None:
    session = client.session
    session[LAST_SEEN] = int(time.time()) - seconds
    session.save()


def test_a_session_used_within_the_limit_stays(client: Client, settings: Any) -> None:
    settings.SESSION_IDLE_MINUTES = 30
    assert client.get(PAGE).status_code == 200
    _idle_for(client, 29 * 60)
    assert client.get(PAGE).status_code == 200
    assert client.session[LAST_SEEN] >= int(time.time()) - 5  # that request was activity


def test_an_idle_session_is_logged_out(client: Client, settings: Any) -> None:
    settings.SESSION_IDLE_MINUTES = 30
    client.get(PAGE)
    _idle_for(client, 31 * 60)

    answer = client.get(PAGE)

    assert answer.status_code == 302 and answer["Location"] == f"/login/?next={PAGE}"
    assert "_auth_user_id" not in client.session
    assert client.get(PAGE).status_code == 302  # and stays logged out


def test_an_idle_htmx_request_sends_the_page_to_the_login(client: Client, settings: Any) -> None:
    settings.SESSION_IDLE_MINUTES = 30
    client.get(PAGE)
    _idle_for(client, 31 * 60)

    answer = client.get(
        "/console/floor/",
        headers={"HX-Request": "true", "HX-Current-URL": "http://testserver/console/floor/?x=1"},
    )

    assert answer["HX-Redirect"] == "/login/?next=/console/floor/%3Fx%3D1"


def test_polls_do_not_keep_a_session_alive(client: Client, settings: Any) -> None:
    settings.SESSION_IDLE_MINUTES = 30
    client.get(PAGE)
    _idle_for(client, 20 * 60)
    before = client.session[LAST_SEEN]
    assert client.get(PAGE, headers={"X-Poll": "1"}).status_code == 200
    assert client.session[LAST_SEEN] == before
    _idle_for(client, 31 * 60)
    assert client.get(PAGE, headers={"X-Poll": "1"}).status_code == 302


def test_the_last_activity_is_written_at_most_once_a_minute(client: Client, settings: Any) -> None:
    settings.SESSION_IDLE_MINUTES = 30
    _idle_for(client, 30)
    kept = client.session[LAST_SEEN]
    client.get(PAGE)
    assert client.session[LAST_SEEN] == kept
    _idle_for(client, 61)
    client.get(PAGE)
    assert client.session[LAST_SEEN] > kept


def test_zero_turns_it_off(client: Client, settings: Any) -> None:
    settings.SESSION_IDLE_MINUTES = 0
    _idle_for(client, 10 * 3600)
    assert client.get(PAGE).status_code == 200
