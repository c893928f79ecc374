"""The navigation end to end: each role logs in, finds its screens in the navigation, and each
opens without an error; the manager's tables and staff screens at work (a reception account made
on the staff screen, a table made and a setting refused on the tables screen). Screenshots of both
screens go to var/e2e/.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.urls import NoReverseMatch, reverse

from establishment.http.navigation import LINKS
from establishment.roles import Role
from tests.e2e.conftest import screenshot

pytestmark = pytest.mark.slow

RECEPTION = ("desk1", "Front-desk-2026")  # made by the manager on the staff screen
DEMO = {
    Role.CROUPIER: "croupier1",
    Role.INSPECTOR: "inspector",
    Role.MANAGER: "manager",
    Role.AUDITOR: "auditor",
}


def _resolves(name: str) -> bool:
    try:
        reverse(name)
    except NoReverseMatch:
        return False
    return True


def expected(role: Role) -> list[str]:
    """The role's links that exist in this build (the others land with their screens)."""
    return [link.key for link in LINKS if role in link.roles and _resolves(link.url_name)]


@pytest.fixture
def log_in(browser: Any, server: str) -> Iterator[Any]:
    contexts: list[Any] = []

    def make(username: str, password: str | None = None) -> Any:
        context = browser.new_context(
            base_url=server, viewport={"width": 1366, "height": 900}, locale="en-GB"
        )
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(8000)
        page.goto("/login/")
        page.get_by_label("Username").fill(username)
        page.get_by_label("Password").fill(password or f"{username}-demo")
        page.get_by_role("button", name="Log in").click()
        page.wait_for_url(lambda url: "/login/" not in url)
        return page

    yield make
    for context in contexts:
        context.close()


def _links(page: Any) -> list[str]:
    nav = page.locator("nav.screens a[data-nav]")
    return [nav.nth(i).get_attribute("data-nav") for i in range(nav.count())]


def _each_link_opens(page: Any) -> None:
    nav = page.locator("nav.screens a[data-nav]")
    for i in range(nav.count()):
        link = page.locator("nav.screens a[data-nav]").nth(i)
        key = link.get_attribute("data-nav")
        with page.expect_navigation() as went:
            link.click()
        response = went.value
        assert response is not None and response.status == 200, (key, response)
        assert (
            page.locator(f'nav.screens a[data-nav="{key}"]').get_attribute("aria-current") == "page"
        ), key
        assert "Server Error" not in page.content()
    # Everyone's own password screen.
    page.locator('a[data-nav="password"]').click()
    page.wait_for_url(re.compile(r"/staff/password/$"))
    assert page.locator("h1").inner_text() == "Change my password"


def test_the_manager_makes_a_reception_account_then_every_role_finds_its_screens(
    log_in: Any,
) -> None:
    manager = log_in("manager")
    manager.locator('nav.screens a[data-nav="staff"]').click()
    manager.wait_for_url(re.compile(r"/staff/$"))
    form = manager.locator("form[action='/staff/create/']")
    form.locator("input[name=username]").fill(RECEPTION[0])
    form.locator("input[name=first_name]").fill("Front")
    form.locator("input[name=last_name]").fill("Desk")
    form.locator("input[name=roles][value=reception]").check()
    # A password the validators refuse first: refused in place, nothing made.
    form.locator("input[name=password]").fill("12345")
    form.locator("input[name=password_again]").fill("12345")
    form.get_by_role("button", name="Create the account").click()
    problem = manager.get_by_test_id("problem")
    problem.wait_for()
    assert "too short" in problem.inner_text()
    form = manager.locator("form[action='/staff/create/']")
    assert form.locator("input[name=username]").input_value() == RECEPTION[0]  # kept
    form.locator("input[name=password]").fill(RECEPTION[1])
    form.locator("input[name=password_again]").fill(RECEPTION[1])
    form.get_by_role("button", name="Create the account").click()
    manager.get_by_test_id("notice").wait_for()
    assert manager.locator(f'tr[data-staff="{RECEPTION[0]}"] [data-role="reception"]').count()
    screenshot(manager, "staff-screen")

    for role, username in DEMO.items():
        page = manager if role == Role.MANAGER else log_in(username)
        page.goto("/staff/password/")
        assert _links(page) == expected(role), role
        _each_link_opens(page)
    desk = log_in(*RECEPTION)
    desk.goto("/staff/password/")
    assert _links(desk) == expected(Role.RECEPTION)
    _each_link_opens(desk)


def test_the_managers_tables_screen(log_in: Any) -> None:
    page = log_in("manager")
    page.locator('nav.screens a[data-nav="tables"]').click()
    page.wait_for_url(re.compile(r"/console/tables/manage/$"))
    assert page.locator("tr[data-table]").count() >= 5  # the demo's tables

    create = page.locator("form[action='/console/tables/manage/create/']")
    create.locator("input[name=number]").fill("41")
    create.locator("select[name=game]").select_option("pontoon")
    create.locator("input[name=name]").fill("Terrasse")
    create.get_by_role("button", name="Create the table").click()
    page.get_by_test_id("notice").wait_for()
    row = page.locator('tr[data-table="41"]')
    assert row.locator("input[name=name]").input_value() == "Terrasse"

    # A setting the rules refuse: the engine's words, in place, what was typed kept.
    row.locator("textarea[name=settings]").fill('{"cagnotte_rate_bp": 10001}')
    row.get_by_role("button", name="Save").click()
    problem = page.get_by_test_id("problem")
    problem.wait_for()
    assert "cagnotte_rate_bp" in problem.inner_text() and "10000" in problem.inner_text()
    row = page.locator('tr[data-table="41"]')
    assert "10001" in row.locator("textarea[name=settings]").input_value()

    row.locator("textarea[name=settings]").fill('{"cagnotte_rate_bp": 300}')
    row.locator("input[name=seat_count]").fill("7")
    row.get_by_role("button", name="Save").click()
    page.get_by_text("Table 41 changed").wait_for()
    row = page.locator('tr[data-table="41"]')
    assert row.locator("input[name=seat_count]").input_value() == "7"
    assert '"cagnotte_rate_bp": 300' in row.locator("textarea[name=settings]").input_value()

    row.get_by_role("button", name="Take out of service").click()
    page.get_by_text("Table 41 is out of service.").wait_for()
    screenshot(page, "tables-screen")
    page.locator('tr[data-table="41"]').get_by_role("button", name="Put back in service").click()
    page.get_by_text("Table 41 is back in service.").wait_for()
