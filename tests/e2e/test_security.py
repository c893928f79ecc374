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


def _violations(page: Any) -> list[str]:
    found: list[str] = []
    page.on(
        "console",
        lambda message: (
            found.append(message.text)
            if "Content Security Policy" in message.text
            or "Content-Security-Policy" in message.text
            else None
        ),
    )
    return found


def test_every_screen_keeps_to_the_content_security_policy(new_page: Any, server: str) -> None:
    """No inline script, no eval, no inline style on the product's screens; the API's readers
    have their own allowance (docs/security.md)."""
    manager = new_page("manager")
    seen = _violations(manager)
    for path in (
        "/console/floor/",
        "/staff/",
        "/staff/access-review/",
        "/house/",
        "/registers/",
        "/reports/",
        "/admin/",
        "/admin/auth/user/",
        "/api/docs/",
        "/api/redoc/",
    ):
        answer = manager.goto(path)
        assert answer.status == 200, path
        assert "script-src 'self'" in answer.headers["content-security-policy"], path
        manager.wait_for_timeout(1500 if path == "/api/redoc/" else 300)
    # Redoc (the last page) asks Google for its web fonts and its vendor's site for a logo:
    # refused, as any request off the site (it draws with the system's fonts).
    offsite = [text for text in seen if "'https://" in text and server not in text]
    assert seen[: len(seen) - len(offsite)] == [] and seen[len(seen) - len(offsite) :] == offsite
    croupier = new_page("croupier1")
    seen = _violations(croupier)
    croupier.goto("/")
    croupier.get_by_role("link", name="Table 1", exact=False).first.click()
    croupier.locator("#desk").wait_for()
    # The table's poll runs without eval, and says it is a poll (it keeps no session alive).
    with croupier.expect_request(lambda request: "/seq/?" in request.url, timeout=6000) as poll:
        pass
    assert poll.value.headers.get("x-poll") == "1"
    assert seen == []
    assert all("blocked" in text for text in offsite)
