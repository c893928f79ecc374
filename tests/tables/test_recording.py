"""The recording service: every scenario of the corpus booked through `record` gives the
engine's coups, transfers and totals, and refuses what the engine refuses (issue: storing coups).
"""

from __future__ import annotations

from typing import Any

import pytest

from tables.engine.scenario import replay, result_of, scenario_load
from tables.models import Coup
from tests.scenario_service import ledger_totals, run_through_service, valid_scenarios

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "scenario", [pytest.param(data, id=label) for label, data in valid_scenarios()]
)
def test_inv1_booked_entries_equal_the_engine_transfers(scenario: dict[str, Any]) -> None:
    expected = result_of(scenario["name"], replay(scenario_load(scenario)))
    run = run_through_service(scenario)

    assert run.refused == [(r["index"], r["code"]) for r in expected["rejections"]]
    assert ledger_totals(run.table_session) == expected["totals"]
    coups = list(Coup.objects.filter(table_session=run.table_session).order_by("settled_seq"))
    # A coup row is written at settlement; transfers the engine adds afterwards about the
    # same coup's bank (a reliquat set aside, CF-5.5) are booked as their own transaction.
    assert [(c.number, c.outcome, c.faults) for c in coups] == [
        (c["number"], c["outcome"], c["faults"]) for c in expected["coups"]
    ]
    for stored, engine in zip(coups, expected["coups"], strict=True):
        assert stored.transfers == engine["transfers"][: len(stored.transfers)]
