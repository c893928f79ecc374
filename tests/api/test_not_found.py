"""A path under the API that names no endpoint answers in the API's shape, not an HTML page."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from establishment.roles import Role
from tests.api.conftest import ClientFor, StaffMaker

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("method", ["get", "post", "put", "patch", "delete", "options"])
def test_an_unknown_path_is_a_json_404_for_every_method(anonymous: APIClient, method: str) -> None:
    response = getattr(anonymous, method)("/api/no-such-thing/")

    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    body = response.json()
    assert body["code"] == "not_found"
    assert "/api/no-such-thing/" in body["message"] and "/api/schema/" in body["message"]
    assert body["extra"] == {}


def test_an_unknown_path_says_the_same_to_a_logged_in_client(
    staff: StaffMaker, client_for: ClientFor
) -> None:
    client = client_for(staff(Role.AUDITOR))

    response = client.get("/api/ledger/nothing-here/")

    assert response.status_code == 404
    assert response.json()["code"] == "not_found"


def test_an_endpoint_without_its_final_slash_is_redirected_on_get(
    staff: StaffMaker, client_for: ClientFor
) -> None:
    client = client_for(staff(Role.CROUPIER))

    response = client.get("/api/players", {"page_size": 3})

    assert response.status_code == 301
    assert response["Location"] == "/api/players/?page_size=3"
    assert client.get(response["Location"]).status_code == 200


def test_a_post_without_the_final_slash_is_told_the_right_path(anonymous: APIClient) -> None:
    response = anonymous.post("/api/auth/token", {"username": "x", "password": "y"})

    assert response.status_code == 404
    assert response.json()["message"] == (
        "No endpoint at /api/auth/token; did you mean /api/auth/token/ (with the final slash)?"
    )


def test_known_endpoints_are_untouched_by_the_catch_all(anonymous: APIClient) -> None:
    response = anonymous.post("/api/auth/token/", {"username": "x", "password": "y"})

    assert response.status_code != 404
    assert anonymous.get("/api/me/").status_code in (401, 403)
