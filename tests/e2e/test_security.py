"""Failed logins in a real browser (docs/security.md): five wrong passwords lock the account,
the right one is then refused with the reason and the time it ends; the manager sees the lock
on the member's page and lifts it; the account logs in again. The access review as the
manager reads it."""

from __future__ import annotations

from typing import Any

from tests.e2e.conftest import screenshot
from tests.e2e.driver import settled

LOCKED = "reception"  # unlocked again at the end: the test leaves no lock behind


def _try(page: Any, password: str) -> None:
    page.goto("/login/")
    page.get_by_label("Username").fill(LOCKED)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_load_state()


def test_a_locked_account_is_refused_then_unlocked_by_a_manager(
    new_page: Any, browser: Any, server: str
) -> None:
    manager = new_page("manager")  # logged in before the lock: the address is locked too
    context = browser.new_context(base_url=server, viewport={"width": 1366, "height": 900})
    try:
        page = context.new_page()
        page.set_default_timeout(8000)
        for _ in range(5):
            _try(page, "not-the-password")
        _try(page, f"{LOCKED}-demo")

        refusal = page.get_by_test_id("locked-out")
        assert "locked for 15 minutes" in refusal.inner_text()
        assert "/login/" in page.url
        screenshot(page, "login-locked-out")

        manager.goto(f"/staff/members/{LOCKED}/")
        locked = manager.get_by_test_id("locked")
        assert "Locked out after too many failed logins" in locked.inner_text()
        screenshot(manager, "staff-member-locked")
        locked.get_by_role("button", name="Unlock").click()
        settled(manager)
        assert manager.get_by_test_id("locked").count() == 0
        assert "can try to log in again" in manager.get_by_test_id("notice").inner_text()

        _try(page, f"{LOCKED}-demo")
        page.wait_for_url(lambda url: "/login/" not in url)
    finally:
        context.close()

    manager.goto("/staff/access-review/")
    assert "accounts" in manager.get_by_test_id("access-summary").inner_text()
    assert manager.locator(f'tr[data-staff="{LOCKED}"]').count() == 1
    screenshot(manager, "access-review")
