"""The registers through the API (docs/registers.md), as on their screens: read, sign with the
signer's own password, close, rectify; the caller's role checked before his body."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from establishment.roles import Role
from reports.models import Register, SettlementReport
from tests.api.conftest import ClientFor, StaffMaker
from tests.ledger.conftest import settled  # noqa: F401 (the fixture)
from tests.ledger.test_settlement import Night
from tests.registers.test_registers import _count_all, _journee

pytestmark = pytest.mark.django_db


def test_managers_sign_a_journee_and_auditors_read_it(
    settled: tuple[Night, SettlementReport],  # noqa: F811
    staff: StaffMaker,
    client_for: ClientFor,
) -> None:
    night, report = settled
    _count_all(night, report)
    day = _journee(report).isoformat()
    first, second = client_for(night.manager), client_for(staff(Role.MANAGER))
    auditor = client_for(staff(Role.AUDITOR))
    url = f"/api/registers/journees/{day}/sign/"
    assert auditor.post(url, {"password": "password"}, format="json").status_code == 403
    stale = first.post(url, {"password": "password", "expected_sha256": "0" * 64}, format="json")
    assert (stale.status_code, stale.json()["code"]) == (409, "conflict")
    assert "read it again" in stale.json()["message"]
    assert not Register.objects.filter(kind="model_12").exists()  # nothing changed
    assert first.post(url, {"password": "password", "expected_sha256": "x"}).status_code == 400
    wrong = first.post(url, {"password": "nope"}, format="json")
    assert (wrong.status_code, wrong.json()["code"]) == (403, "confirmation_failed")
    assert first.post(url, {}, format="json").status_code == 400
    bad_day = first.post("/api/registers/journees/2026-13-45/sign/", {"password": "password"})
    assert bad_day.status_code == 409
    signed = first.post(url, {"password": "password"}, format="json")  # without it: no check
    assert signed.status_code == 201
    assert signed.json()["kind"] == "model_12" and len(signed.json()["signatures"]) == 1
    again = first.post(url, {"password": "password"}, format="json")
    assert again.json()["code"] == "second_person_required"
    seen = {"password": "password", "expected_sha256": signed.json()["sha256"]}
    done = second.post(url, seen, format="json").json()
    assert [s["signed_as"] for s in done["signatures"]] == ["director", "committee"]
    listed = auditor.get("/api/registers/?kind=model_12").json()
    assert [r["key"] for r in listed["results"]] == [day]
    detail = auditor.get(f"/api/registers/{done['public_id']}/").json()
    assert detail["content"]["total_in_words"]["fr"]
    assert detail["sha256"] == Register.objects.get(kind="model_12").sha256
    month = _journee(report).strftime("%Y-%m")
    closed = first.post(f"/api/registers/months/{month}/close/", {"password": "password"})
    assert closed.json()["code"] == "invalid_state"  # the month is not over
    assert auditor.get("/api/registers/00000000-0000-0000-0000-000000000000/").status_code == 404


def test_a_count_through_the_api_freezes_model_11(
    settled: tuple[Night, SettlementReport],  # noqa: F811
    staff: StaffMaker,
    client_for: ClientFor,
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    """The count is answered before its model 11 is stored (202, the séance named); the worker
    stores it once the count has committed, and it is read by the séance's key."""
    night, report = settled
    row = json.loads(report.content)["tables"][0]
    witness = staff(Role.INSPECTOR)
    api = client_for(night.manager)
    url = f"/api/settlement-reports/{report.public_id}/counts/"
    body = {
        "table": row["table"],
        "counted_chips": row["cagnotte_expected"],
        "password": "password",
        "witness": witness.username,
        "witness_password": "wrong",
    }
    refused = api.post(url, body, format="json")
    assert (refused.status_code, refused.json()["code"]) == (403, "confirmation_failed")
    with django_capture_on_commit_callbacks(execute=True) as sent:
        done = api.post(url, {**body, "witness_password": "password"}, format="json")
        assert done.status_code == 202
        assert (done.json()["table_session"], done.json()["model_11"]) == (
            row["table_session"],
            "preparing",
        )
        assert not Register.objects.filter(kind="model_11").exists()
    assert len(sent) == 1  # the model 11 task, sent once the count committed
    listed = api.get(f"/api/registers/?kind=model_11&key={row['table_session']}").json()
    assert len(listed["results"]) == 1
    frozen = api.get(f"/api/registers/{listed['results'][0]['public_id']}/").json()
    assert frozen["kind"] == "model_11"
    assert frozen["content"]["count"]["witness"] == witness.username
    assert frozen["signatures"][0]["signed_by"] == night.manager.username


def test_the_stock_and_the_house_through_the_api(staff: StaffMaker, client_for: ClientFor) -> None:
    inspector, manager = client_for(staff(Role.INSPECTOR)), client_for(staff(Role.MANAGER))
    delivery = {"kind": "sabot", "first": 1, "last": 3, "decks": 6, "received_from": "CdF"}
    received = inspector.post("/api/stock/receive/", delivery, format="json")
    assert received.status_code == 201 and len(received.json()) == 3
    again = inspector.post("/api/stock/receive/", delivery, format="json")
    assert (again.status_code, again.json()["code"]) == (409, "stock_unavailable")
    croupier = client_for(staff(Role.CROUPIER))
    assert croupier.post("/api/stock/receive/", delivery, format="json").status_code == 403
    missing = {
        "kind": "sabot",
        "table_session": "00000000-0000-0000-0000-000000000000",
        "numbers": [1],
    }
    assert inspector.post("/api/stock/assign/", missing, format="json").status_code == 404
    destroyed = inspector.post(
        "/api/stock/destroy/", {"kind": "sabot", "number": 3, "reason": "torn"}, format="json"
    )
    assert destroyed.json()[0]["destroyed_reason"] == "torn"
    assert len(inspector.get("/api/stock/").json()["results"]) == 3

    assert manager.get("/api/house/").json()["current"]["time_zone"] == "Europe/Paris"
    changed = manager.post("/api/house/change/", {"cents_per_chip": 10, "reason": "new chips"})
    assert changed.status_code == 201 and changed.json()["cents_per_chip"] == 10
    refused = manager.post("/api/house/change/", {"time_zone": "Nowhere", "reason": "x"})
    assert refused.status_code == 422 and "time_zone" in refused.json()["extra"]["fields"]
    assert inspector.get("/api/house/").status_code == 403
