"""The table screen's regions kept by their inputs (tables/console/regions.py) are the regions a
fresh rendering draws, at every step of every worked example, in English and in French; the
cagnotte the screen shows (COM-6.4, from the engine's replay) is the books' balance at every
step."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from establishment.models import StaffPreference
from tables.console import regions
from tables.selectors import cagnotte_balance_get, table_state_get
from tables.services import RuleRefusedError
from tests.scenario_service import scenario_documents, service_run_start, step

pytestmark = pytest.mark.django_db

EXAMPLES = sorted((Path(__file__).resolve().parents[1] / "scenarios").glob("*/examples/*.json"))
KEY = re.compile(r'name="key" value="[0-9a-f]+"')


def _examples() -> list[Any]:
    found = []
    for path in EXAMPLES:
        for index, data in enumerate(scenario_documents(path)):
            found.append(pytest.param(data, id=f"{path.stem}#{index}"))
    return found


def _screen(client: Client, url: str, *, cached: bool, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setattr(regions, "ENABLED", cached)
    response = client.get(url, headers={"HX-Request": "true"})
    assert response.status_code == 200
    return KEY.sub('name="key" value=""', response.content.decode())


@pytest.mark.parametrize("scenario", _examples())
def test_kept_regions_equal_fresh_ones_at_every_step(
    scenario: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    run = service_run_start(scenario)
    table_session, croupier = run.table_session, run.croupier
    client = Client()
    client.force_login(croupier)
    url = reverse("console:table", kwargs={"table_session": table_session.public_id})
    preference = StaffPreference.objects.create(user=croupier, language="en")

    for index, action in enumerate(scenario["actions"]):
        try:
            step(run, {k: v for k, v in action.items() if k != "expect_error"})
        except RuleRefusedError:
            continue
        preference.language = "fr" if index % 2 else "en"
        preference.save()
        kept = _screen(client, url, cached=True, monkeypatch=monkeypatch)
        fresh = _screen(client, url, cached=False, monkeypatch=monkeypatch)
        assert kept == fresh, f"after action {index} {action}"
        shown = table_state_get(table_session=table_session).cagnotte_chips
        assert shown == cagnotte_balance_get(
            table=table_session.table, gaming_session=table_session.gaming_session
        )
