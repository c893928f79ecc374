"""The demo's landing pages say in two lines what to try in each role (README.md, "Using it"):
on with `DEMO_HINTS` (`make demo`), in the reader's language, on the page `home` sends each
login to and nowhere else; off by default."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import Group, User
from django.test import Client

from establishment.http.demo_hints import HINTS
from establishment.roles import Role

pytestmark = pytest.mark.django_db


def _landing(role: Role, language: str = "en") -> str:
    user = User.objects.create_user(username=f"demo-{role}", password="password")
    user.groups.add(Group.objects.get_or_create(name=role)[0])
    client = Client(headers={"Accept-Language": language})
    client.force_login(user)
    response = client.get("/", follow=True)
    assert response.status_code == 200
    return response.content.decode()


def _hint(page: str) -> list[str]:
    found = re.search(r'<aside class="demo-hint" data-testid="demo-hint">(.*?)</aside>', page)
    assert found, "no hint on the landing page"
    return re.findall(r"<p>(.*?)</p>", found.group(1))


@pytest.mark.parametrize("role", [role for role, _lines in HINTS])
def test_each_demo_login_lands_on_two_lines_of_what_to_try(role: Role, settings: Any) -> None:
    settings.DEMO_HINTS = True

    lines = _hint(_landing(role))

    expected = dict(HINTS)[role]
    assert len(lines) == 2
    assert [line.replace("&#x27;", "'").replace("&quot;", '"') for line in lines] == [
        str(text) for text in expected
    ]


def test_the_hints_speak_french(settings: Any) -> None:
    settings.DEMO_HINTS = True

    lines = _hint(_landing(Role.RECEPTION, "fr"))

    assert lines[1].startswith("Essayez Paul MARTIN")


def test_no_hint_off_the_landing_page_or_without_the_setting(settings: Any) -> None:
    assert 'data-testid="demo-hint"' not in _landing(Role.INSPECTOR)
    settings.DEMO_HINTS = True
    user = User.objects.get(username=f"demo-{Role.INSPECTOR}")
    client = Client()
    client.force_login(user)
    assert 'data-testid="demo-hint"' not in client.get("/console/floor/duty/").content.decode()
