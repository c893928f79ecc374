"""What the schema-driven fuzzer found, each fixed at its source (tests/api/test_schemathesis.py):
a value of the wrong type is refused with the API's error shape, never read as something else
and never a 500; every path under /api/ answers JSON."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils import translation
from rest_framework.test import APIClient

from establishment.http.schema import NOT_BLANK
from establishment.roles import Role
from tables.models import Table
from tests.api.conftest import ClientFor, StaffMaker

pytestmark = pytest.mark.django_db


@pytest.fixture
def manager(staff: StaffMaker, client_for: ClientFor) -> APIClient:
    return client_for(staff(Role.MANAGER, Role.INSPECTOR, Role.AUDITOR))


def _invalid(response: object, field: str) -> list[str]:
    assert response.status_code == 400, response.content  # type: ignore[attr-defined]
    body = response.json()  # type: ignore[attr-defined]
    assert body["code"] == "invalid"
    assert field in body["extra"]["fields"], body
    messages: list[str] = body["extra"]["fields"][field]
    return messages


# -- pagination ------------------------------------------------------------------------------


@pytest.mark.parametrize("page_size", ["null", "abc", "0", "-1", "501", "2.5", "false"])
def test_a_page_size_that_is_not_a_whole_number_in_range_is_refused(
    manager: APIClient, page_size: str
) -> None:
    _invalid(manager.get(f"/api/players/?page_size={page_size}"), "page_size")


@pytest.mark.parametrize("page", ["null", "abc", "0", "-3", "last"])
def test_a_page_number_that_is_not_a_whole_number_from_1_is_refused(
    manager: APIClient, page: str
) -> None:
    _invalid(manager.get(f"/api/players/?page={page}"), "page")


def test_a_page_past_the_last_is_not_found_and_says_so(manager: APIClient) -> None:
    response = manager.get("/api/players/?page=9")

    assert response.status_code == 404
    assert response.json()["message"] == (
        "There is no page 9 of this list: send a page from 1 to the last."
    )


def test_a_page_size_within_the_bounds_is_read(manager: APIClient) -> None:
    response = manager.get("/api/players/?page_size=500&page=1")

    assert response.status_code == 200


def test_the_accounts_page_is_held_to_its_own_largest_size(manager: APIClient) -> None:
    _invalid(manager.get("/api/ledger/accounts/?page_size=101"), "page_size")
    assert manager.get("/api/ledger/accounts/?page_size=100").status_code == 200


def test_the_schema_documents_the_bounds_of_a_page(manager: APIClient) -> None:
    schema = manager.get("/api/schema/?format=json").json()
    parameters = {
        p["name"]: p["schema"] for p in schema["paths"]["/api/players/"]["get"]["parameters"]
    }

    assert parameters["page"] == {"type": "integer", "minimum": 1}
    assert parameters["page_size"] == {"type": "integer", "minimum": 1, "maximum": 500}


# -- filters ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "field"),
    [
        ("/api/table-sessions/?table=", "table"),
        ("/api/void-requests/?table_session=", "table_session"),
        ("/api/ledger/transactions/?posted_before=", "posted_before"),
        ("/api/tables/?is_active=maybe", "is_active"),
        ("/api/tables/?is_active=", "is_active"),
    ],
)
def test_an_empty_or_unreadable_filter_is_refused_not_ignored(
    manager: APIClient, url: str, field: str
) -> None:
    _invalid(manager.get(url), field)


def test_an_empty_text_filter_still_reads_as_no_filter(manager: APIClient) -> None:
    assert manager.get("/api/registers/?key=").status_code == 200


def test_a_yes_or_no_filter_reads_true_and_false(manager: APIClient) -> None:
    assert manager.get("/api/tables/?is_active=true").status_code == 200
    assert manager.get("/api/tables/?is_active=false").status_code == 200


# -- bodies ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"name": "Dupont", "member_number": 17}, "member_number"),
        ({"name": 3, "member_number": "M17"}, "name"),
        ({"name": ["Dupont"], "member_number": "M17"}, "name"),
    ],
)
def test_a_number_where_a_text_is_expected_is_refused_not_turned_into_text(
    manager: APIClient, body: dict[str, object], field: str
) -> None:
    assert _invalid(manager.post("/api/players/create/", body, format="json"), field) == [
        "Expected a text."
    ]


@pytest.mark.parametrize("number", ["5", True, 5.5, [5]])
def test_a_table_number_must_be_a_whole_number_not_a_text(
    manager: APIClient, number: object
) -> None:
    body = {"number": number, "game": "chemin_de_fer"}

    assert _invalid(manager.post("/api/tables/create/", body, format="json"), "number") == [
        "Expected a whole number."
    ]
    assert not Table.objects.exists()


def test_the_settings_of_a_table_as_a_list_are_refused(manager: APIClient) -> None:
    body = {"number": 5, "game": "chemin_de_fer", "settings": [1, 2]}

    response = manager.post("/api/tables/create/", body, format="json")

    assert response.status_code == 422
    assert response.json()["code"] == "E_SETTING"
    assert not Table.objects.exists()


def test_wrong_types_inside_a_list_are_named_by_their_place(manager: APIClient) -> None:
    body = {"table": "not-used", "gaming_session": "x", "standing": ["M1", 2]}

    response = manager.post("/api/table-sessions/open/", body, format="json")

    assert _invalid(response, "standing") == {"1": ["Expected a text."]}  # type: ignore[comparison-overlap]


def test_a_yes_or_no_must_be_true_or_false(manager: APIClient) -> None:
    response = manager.post(
        "/api/table-sessions/00000000-0000-0000-0000-000000000000/close/",
        {"force": "yes"},
        format="json",
    )

    # The table session does not exist: 404 before the body is read.
    assert response.status_code == 404


def test_the_refusal_of_a_wrong_type_is_in_french_for_a_french_reader(
    manager: APIClient,
) -> None:
    with translation.override("fr"):
        response = manager.post(
            "/api/players/create/",
            {"name": "Dupont", "member_number": 17},
            format="json",
            HTTP_ACCEPT_LANGUAGE="fr",
        )

    assert response.status_code == 400
    assert response.json()["extra"]["fields"]["member_number"] == ["Attendu : un texte."]
    assert response.json()["message"] == (
        "La requête n'est pas valide ; extra.fields dit ce qui ne va pas."
    )


def test_a_username_that_does_not_exist_is_a_422_not_a_malformed_request(
    manager: APIClient,
) -> None:
    from tests.api.fixtures import open_table

    table = open_table(number=4)
    url = f"/api/table-sessions/{table.table_session.public_id}/assignments/create/"

    response = manager.post(url, {"staff": "nobody-here", "role": "croupier"}, format="json")

    assert response.status_code == 422
    assert response.json()["code"] == "does_not_exist"
    assert "staff" in response.json()["extra"]["fields"]


def test_a_text_of_spaces_is_documented_as_refused() -> None:
    import re

    pattern = re.compile(NOT_BLANK)
    every_space = [chr(c) for c in range(0x110000) if not chr(c).strip()]

    assert every_space and not any(pattern.search(c) for c in every_space)
    assert pattern.search("  a ") and pattern.search("\ufeff")


def test_a_nul_character_in_a_text_is_refused(manager: APIClient) -> None:
    response = manager.post(
        "/api/players/create/", {"name": "Du\x00pont", "member_number": "M1"}, format="json"
    )

    assert _invalid(response, "name") == ["Null characters are not allowed."]


# -- every path under /api/ answers JSON -----------------------------------------------------


@pytest.mark.parametrize(
    "path",
    [
        "/api/table-sessions/%C3%80%0AG/open-coup/void/",
        "/api/tables/%0A/",
        "/api/%0D%0A",
        "/api/\x01x/",
        "/api/tables/%01/",
        "/api/tables/not-a-uuid/",
        "/api/table-sessions/123/state/",
        "/api/coups/00000000-0000-0000-0000-00000000000g/",
    ],
)
def test_paths_with_control_characters_or_bad_ids_answer_a_json_404(
    manager: APIClient, path: str
) -> None:
    response = manager.get(path)

    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert response.json()["code"] == "not_found"


@pytest.mark.parametrize("method", ["put", "patch", "delete"])
def test_a_method_an_endpoint_does_not_have_is_a_json_405(manager: APIClient, method: str) -> None:
    response = getattr(manager, method)("/api/players/")

    assert response.status_code == 405
    assert response["Content-Type"] == "application/json"
    assert response.json()["code"] == "method_not_allowed"
    assert "GET" in response["Allow"]


@pytest.mark.parametrize(
    "path", ["/api/players/", "/api/tables/create/", "/api/schema/", "/api/docs/", "/api/me/"]
)
def test_without_credentials_every_endpoint_answers_json(path: str) -> None:
    response = Client().get(path, HTTP_ACCEPT="*/*")

    assert response.status_code in (401, 403)
    assert response["Content-Type"].startswith("application/json")
    assert response.json()["code"] in ("not_authenticated", "permission_denied")


def test_a_user_without_a_staff_role_is_told_so_in_json(client_for: ClientFor) -> None:
    from tests.factories import UserFactory

    response = client_for(UserFactory.create(roles=[])).get("/api/players/")

    assert response.status_code == 403
    assert response.json()["code"] == "permission_denied"
