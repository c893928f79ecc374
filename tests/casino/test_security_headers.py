"""The security headers every answer carries (docs/security.md): the Content-Security-Policy
(django-csp) with no inline script, no eval and no inline style on the product's pages (the
API's readers allow inline styles and a blob worker on their two pages only), no framing, the
referrer kept to the site, no MIME sniffing, a cross-origin opener policy."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group, User
from django.test import Client

from establishment.roles import Role

pytestmark = pytest.mark.django_db


def _directives(header: str) -> dict[str, list[str]]:
    parts = (part.strip().split() for part in header.split(";") if part.strip())
    return {words[0]: words[1:] for words in parts}


@pytest.fixture
def manager() -> Client:
    user = User.objects.create_user(username="boss", password="Felt-green-2026")
    user.groups.add(Group.objects.get(name=Role.MANAGER))
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.parametrize("path", ["/login/", "/staff/", "/console/floor/", "/api/me/"])
def test_the_products_pages_allow_no_inline_script_eval_or_style(
    manager: Client, path: str
) -> None:
    answer = manager.get(path)

    policy = _directives(answer["Content-Security-Policy"])
    assert policy["script-src"] == ["'self'"] and policy["style-src"] == ["'self'"]
    assert policy["default-src"] == ["'self'"] and policy["object-src"] == ["'none'"]
    assert policy["frame-ancestors"] == ["'none'"] and policy["form-action"] == ["'self'"]
    assert answer["X-Frame-Options"] == "DENY"
    assert answer["X-Content-Type-Options"] == "nosniff"
    assert answer["Referrer-Policy"] == "same-origin"
    assert answer["Cross-Origin-Opener-Policy"] == "same-origin"


@pytest.mark.parametrize("path", ["/api/docs/", "/api/redoc/"])
def test_the_api_readers_allow_inline_styles_and_their_worker_only(
    manager: Client, path: str
) -> None:
    answer = manager.get(path)

    assert answer.status_code == 200
    policy = _directives(answer["Content-Security-Policy"])
    assert policy["script-src"] == ["'self'"]
    assert "'unsafe-inline'" in policy["style-src"] and "blob:" in policy["worker-src"]
    assert "<script>" not in answer.content.decode()  # the set-up script is a file too


def test_the_swagger_set_up_script_is_served_from_the_site(manager: Client) -> None:
    page = manager.get("/api/docs/").content.decode()
    assert 'src="/api/docs/?script=' in page
    script = manager.get("/api/docs/?script=")
    assert script.status_code == 200 and "SwaggerUIBundle" in script.content.decode()
