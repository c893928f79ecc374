"""The registers through the API (docs/registers.md), as on their screens: read, sign with the
signer's own password, close, rectify; the caller's role checked before his body."""

from __future__ import annotations

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
    wrong = first.post(url, {"password": "nope"}, format="json")
    assert (wrong.status_code, wrong.json()["code"]) == (403, "confirmation_failed")
    assert first.post(url, {}, format="json").status_code == 400
    bad_day = first.post("/api/registers/journees/2026-13-45/sign/", {"password": "password"})
    assert bad_day.status_code == 409
    signed = first.post(url, {"password": "password"}, format="json")
    assert signed.status_code == 201
    assert signed.json()["kind"] == "model_12" and len(signed.json()["signatures"]) == 1
    again = first.post(url, {"password": "password"}, format="json")
    assert again.json()["code"] == "second_person_required"
    done = second.post(url, {"password": "password"}, format="json").json()
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
) -> None:
    night, report = settled
    import json

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
    done = api.post(url, {**body, "witness_password": "password"}, format="json")
    assert done.status_code == 201
    assert done.json()["kind"] == "model_11"
    assert done.json()["content"]["count"]["witness"] == witness.username


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
