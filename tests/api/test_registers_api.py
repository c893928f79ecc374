"""The registers through the API (docs/registers.md), as on their screens: read, sign with the
signer's own password, close, rectify; the caller's role checked before his body."""

from __future__ import annotations

import pytest

from establishment.roles import Role
from reports.models import Register, SettlementReport
from tests.api.conftest import ClientFor, StaffMaker
from tests.ledger.test_settlement import Night
from tests.registers.conftest import settled  # noqa: F401 (the fixture)
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
