"""The auditor's desk in a real browser (docs/audit.md): an alert shown to the roles it
concerns, in the banner and on the desk, acknowledged with a reason by a manager; the auditor
finds that acknowledgement in the audit log by filtering, pages and downloads it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conftest import screenshot
from tests.e2e.driver import settled


def test_an_alert_is_acknowledged_and_found_in_the_audit_log(new_page: Any) -> None:
    manager = new_page("manager")
    manager.goto("/reports/")
    banner = manager.get_by_test_id("alerts-banner")
    assert "1 alert to acknowledge" in banner.inner_text()
    banner.get_by_role("link").click()
    settled(manager)
    row = manager.get_by_test_id("alerts").locator("tbody tr").first
    assert "croupier1: 7 undo(s) and 2 void request(s) in the night." in row.inner_text()
    screenshot(manager, "audit-alerts")
    row.get_by_role("button", name="Acknowledge").click()  # no reason: the browser asks for one
    assert "/alerts/" in manager.url and manager.get_by_test_id("alerts-banner").count() == 1
    row.get_by_label("Why it can be set aside").fill("Training night, seen with the inspector")
    row.get_by_role("button", name="Acknowledge").click()
    settled(manager)
    assert manager.get_by_test_id("alerts-banner").count() == 0

    auditor = new_page("auditor")
    auditor.goto("/")
    auditor.get_by_test_id("navigation").get_by_role("link", name="Audit", exact=True).click()
    settled(auditor)
    assert "The auditor's desk" in auditor.locator("h1").inner_text()
    auditor.get_by_role("link", name="Audit log").first.click()
    settled(auditor)
    filters = auditor.get_by_test_id("audit-filters")
    filters.get_by_label("Action").fill("alert_acknowledged")
    filters.get_by_role("button", name="Filter").click()
    settled(auditor)
    rows = auditor.get_by_test_id("audit-rows").locator("tbody tr")
    assert rows.count() == 1
    assert "manager" in rows.first.inner_text()
    assert "Training night" in rows.first.inner_text()
    screenshot(auditor, "audit-log")
    with auditor.expect_download() as download:
        auditor.get_by_test_id("audit-csv").click()
    lines = Path(download.value.path()).read_text(encoding="utf-8").splitlines()
    assert lines[0].startswith("at,actor,action") and len(lines) == 2
    auditor.goto("/audit/log/?table=nothing")
    assert auditor.get_by_role("alert").count() >= 1
