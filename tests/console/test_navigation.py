"""One navigation per role (establishment/http/navigation.py, drawn by templates/base.html).

Each role sees its screens, in one order; several roles see the union, each link once; a screen
whose URL name does not resolve yet is left out; the page shown is marked `aria-current`.
"""

from __future__ import annotations

import re
from types import ModuleType
from typing import Any

import pytest
from django.contrib.auth.models import Group, User
from django.test import Client
from django.urls import include, path

from establishment.http.navigation import LINKS, navigation_links
from establishment.roles import Role
from tests.console import navigation_urls

pytestmark = pytest.mark.django_db

FULL = "tests.console.navigation_urls"

# The brief of issue 13, item 4: each role's links, in the order they are drawn.
EXPECTED: dict[Role, list[str]] = {
    Role.CROUPIER: ["home"],
    Role.INSPECTOR: ["floor", "voids", "players", "duty", "stock"],
    Role.RECEPTION: ["players", "exclusions"],
    Role.MANAGER: ["floor", "stock", "reports", "registers", "staff", "tables", "house"],
    Role.AUDITOR: ["reports", "registers", "audit", "access"],
    Role.CHANGEUR: [],
}
# A page every member of staff may open, drawn with base.html.
EVERYONE_PAGE = "/staff/password/"


def _user(*roles: Role, username: str = "someone") -> User:
    user = User.objects.create_user(username=username, password="password")
    for role in roles:
        user.groups.add(Group.objects.get(name=role))
    return user


def _client(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _screens(html: str) -> list[str]:
    found = re.search(r'<nav class="screens".*?</nav>', html, re.S)
    assert found, "no navigation drawn"
    return re.findall(r'data-nav="([\w-]+)"', found.group(0))


def _current(html: str) -> list[str]:
    return re.findall(r'data-nav="([\w-]+)" aria-current="page"', html)


@pytest.mark.parametrize("role", list(EXPECTED))
def test_each_role_sees_its_screens_in_order(role: Role, settings: Any) -> None:
    settings.ROOT_URLCONF = FULL
    html = _client(_user(role)).get(EVERYONE_PAGE).content.decode()

    assert _screens(html) == EXPECTED[role]
    # Everyone's: his own password, the language switch, logging out.
    assert 'data-nav="password"' in html
    assert 'name="language"' in html and "Log out" in html


def test_several_roles_see_the_union_once_in_the_one_order(settings: Any) -> None:
    settings.ROOT_URLCONF = FULL
    user = _user(Role.AUDITOR, Role.INSPECTOR, Role.MANAGER, Role.CROUPIER)

    shown = _screens(_client(user).get(EVERYONE_PAGE).content.decode())

    wanted = {key for keys in EXPECTED.values() for key in keys} - {"exclusions"}
    assert shown == [link.key for link in LINKS if link.key in wanted]
    assert len(shown) == len(set(shown))


def test_a_screen_whose_url_does_not_resolve_is_left_out(settings: Any) -> None:
    # The project as it is without the screens other changes bring: no reception, registers or
    # audit yet.
    partial = ModuleType("partial_urls")
    partial.urlpatterns = [  # type: ignore[attr-defined]
        *navigation_urls.PROJECT,
        path("console/", include("tables.console.urls")),
    ]
    settings.ROOT_URLCONF = partial
    user = _user(Role.INSPECTOR, Role.MANAGER, Role.AUDITOR, Role.RECEPTION)

    response = _client(user).get(EVERYONE_PAGE)

    assert response.status_code == 200
    assert _screens(response.content.decode()) == [
        "floor",
        "voids",
        "duty",
        "stock",
        "reports",
        "staff",
        "tables",
        "house",
        "access",
    ]


def test_the_projects_navigation_only_links_screens_that_exist() -> None:
    user = _user(Role.INSPECTOR, Role.MANAGER, Role.AUDITOR, Role.RECEPTION, Role.CROUPIER)
    client = _client(user)

    for link in navigation_links(user, "/"):
        assert client.get(link.url).status_code in (200, 302), link


def test_the_page_shown_is_marked_current(settings: Any) -> None:
    settings.ROOT_URLCONF = FULL
    manager = _user(Role.MANAGER, Role.CROUPIER, username="boss")
    client = _client(manager)

    assert _current(client.get("/console/tables/manage/").content.decode()) == ["tables"]
    assert _current(client.get("/staff/").content.decode()) == ["staff"]
    # A page under a screen marks that screen; the home page only marks itself.
    assert _current(client.get("/staff/members/boss/").content.decode()) == ["staff"]
    assert _current(client.get(EVERYONE_PAGE).content.decode()) == ["password"]
    croupier = _client(_user(Role.CROUPIER, username="dealer"))
    assert _current(croupier.get("/").content.decode()) == ["home"]
    assert _current(croupier.get(EVERYONE_PAGE).content.decode()) == ["password"]


def test_links_are_reachable_by_keyboard_and_large_enough(settings: Any) -> None:
    settings.ROOT_URLCONF = FULL
    html = _client(_user(Role.MANAGER)).get(EVERYONE_PAGE).content.decode()

    # Plain links in a labelled nav (Tab reaches them), and a way past them to the page.
    assert re.search(r'<nav class="screens" aria-label="[^"]+"', html)
    assert '<a class="skip" href="#main">' in html and 'id="main"' in html


def test_no_navigation_for_a_visitor_not_logged_in() -> None:
    html = Client().get("/login/").content.decode()
    assert 'class="screens"' not in html


def test_a_partial_does_not_draw_the_navigation(settings: Any) -> None:
    settings.ROOT_URLCONF = FULL
    client = _client(_user(Role.MANAGER))

    html = client.get("/console/tables/manage/", HTTP_HX_REQUEST="true").content.decode()

    assert 'class="screens"' not in html and 'id="tables"' in html


def test_the_croupiers_table_screen_is_his_table_in_the_navigation(
    floor: Any, croupier_client: Client
) -> None:
    html = croupier_client.get(f"/console/tables/{floor.table_session.public_id}/").content
    assert _current(html.decode()) == ["home"]
