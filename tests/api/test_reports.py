"""Settlement reports through the API: read and download, managers and auditors only."""

from __future__ import annotations

import hashlib

import pytest

from establishment.roles import Role
from reports.models import SettlementReport
from tests.api.conftest import ClientFor, StaffMaker
from tests.api.fixtures import settlement_report_make
from tests.factories import GamingSessionFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def report() -> SettlementReport:
    return settlement_report_make(GamingSessionFactory.create())


def test_a_report_is_read_with_its_content_and_files(
    report: SettlementReport, staff: StaffMaker, client_for: ClientFor
) -> None:
    auditor = client_for(staff(Role.AUDITOR))

    listed = auditor.get("/api/settlement-reports/", {"status": "ready"}).json()
    shown = auditor.get(f"/api/settlement-reports/{report.public_id}/").json()

    assert [r["public_id"] for r in listed["results"]] == [str(report.public_id)]
    assert shown["content"] == {"tables": [], "totals": {"P1": 100}}
    assert shown["sha256"] == report.sha256 and shown["sign_off"] is None
    assert [f["name"] for f in shown["files"]] == ["players.csv"]


def test_a_report_file_is_downloaded_with_its_digest(
    report: SettlementReport, staff: StaffMaker, client_for: ClientFor
) -> None:
    manager = client_for(staff(Role.MANAGER))
    url = f"/api/settlement-reports/{report.public_id}/files/players.csv"

    answer = manager.get(url, headers={"Accept": "text/csv"})
    missing = manager.get(f"/api/settlement-reports/{report.public_id}/files/nothing.pdf")

    assert answer.status_code == 200
    assert answer["Content-Type"] == "text/csv"
    assert answer.content == b"player,result\nP1,100\n"
    assert answer["X-Content-SHA256"] == hashlib.sha256(answer.content).hexdigest()
    assert "attachment" in answer["Content-Disposition"]
    assert missing.status_code == 404 and missing.json()["code"] == "not_found"


@pytest.mark.parametrize(("role", "status"), [(Role.INSPECTOR, 403), (Role.CROUPIER, 403)])
def test_only_managers_and_auditors_read_reports(
    report: SettlementReport, staff: StaffMaker, client_for: ClientFor, role: Role, status: int
) -> None:
    client = client_for(staff(role))

    assert client.get(f"/api/settlement-reports/{report.public_id}/").status_code == status
    url = f"/api/settlement-reports/{report.public_id}/files/players.csv"
    assert client.get(url).status_code == status
