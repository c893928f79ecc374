"""The OpenAPI schema: generated without a warning, valid, complete; Swagger UI and Redoc are
served by the project itself (no CDN)."""

from __future__ import annotations

import re

import pytest
from django.contrib.staticfiles import finders
from django.core.management import call_command
from django.test import Client
from drf_spectacular.validation import validate_schema

from establishment.roles import Role
from tests.api.conftest import ClientFor, StaffMaker

pytestmark = pytest.mark.django_db


def test_the_schema_is_generated_without_warnings_and_is_valid(tmp_path: object) -> None:
    # --fail-on-warn: a view the generator cannot read (a missing serializer, a name collision)
    # fails the build instead of leaving a hole a generated client would fall into.
    call_command("spectacular", "--fail-on-warn", "--validate", "--file", f"{tmp_path}/api.yaml")


def test_the_schema_describes_every_resource_and_the_error_shape(
    staff: StaffMaker, client_for: ClientFor
) -> None:
    client = client_for(staff(Role.AUDITOR))

    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()

    validate_schema(schema)  # type: ignore[no-untyped-call]
    paths = set(schema["paths"])
    for wanted in (
        "/api/gaming-sessions/",
        "/api/tables/create/",
        "/api/table-sessions/{table_session_id}/state/",
        "/api/table-sessions/{table_session_id}/record/",
        "/api/table-sessions/{table_session_id}/undo/",
        "/api/table-sessions/{table_session_id}/seats/",
        "/api/table-sessions/{table_session_id}/assignments/create/",
        "/api/table-sessions/{table_session_id}/sabots/",
        "/api/table-sessions/{table_session_id}/events/",
        "/api/coups/{coup_id}/void-request/",
        "/api/void-requests/{void_request_id}/decide/",
        "/api/ledger/accounts/",
        "/api/ledger/transactions/",
        "/api/settlement-reports/{report_id}/files/{name}",
    ):
        assert wanted in paths
    record = schema["paths"]["/api/table-sessions/{table_session_id}/record/"]["post"]
    header = [p for p in record["parameters"] if p["in"] == "header"]
    assert header[0]["name"] == "Idempotency-Key" and header[0]["required"] is True
    assert {"201", "400", "401", "403", "404", "409", "422"} <= set(record["responses"])
    error = schema["components"]["schemas"]["Error"]
    assert error["required"] == ["code", "message", "extra"]
    assert {"tokenAuth", "cookieAuth"} <= set(schema["components"]["securitySchemes"])
    operation_ids = [
        operation["operationId"] for item in schema["paths"].values() for operation in item.values()
    ]
    assert len(operation_ids) == len(set(operation_ids))


@pytest.mark.parametrize("page", ["docs", "redoc"])
def test_the_documentation_is_served_without_a_cdn(
    page: str, staff: StaffMaker, client_for: ClientFor
) -> None:
    client = client_for(staff(Role.AUDITOR))

    html = client.get(f"/api/{page}/").content.decode()

    assets = re.findall(r'(?:src|href)="([^"]+\.(?:js|css|png))"', html)
    assert assets
    for asset in assets:
        assert asset.startswith("/static/drf_spectacular_sidecar/"), asset
        assert finders.find(asset.removeprefix("/static/")), asset
    assert "cdn" not in html.lower() and "unpkg" not in html.lower()


@pytest.mark.parametrize("url", ["/api/players/", "/api/games/", "/api/tables/create/"])
def test_the_browsable_api_works_with_the_session(
    url: str, staff: StaffMaker, client: Client
) -> None:
    client.force_login(staff(Role.MANAGER))

    answer = client.get(url, headers={"Accept": "text/html"})

    assert answer.status_code in (200, 405)
    assert answer["Content-Type"].startswith("text/html")
