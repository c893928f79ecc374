"""The recording service: every scenario of the corpus booked through `record` gives the
engine's coups, transfers and totals, and refuses what the engine refuses (issue: storing coups).
"""

from __future__ import annotations

from typing import Any

import pytest

from tables.engine.scenario import replay, result_of, scenario_load
from tables.engine.settlement import CAGNOTTE
from tables.models import Coup, LevyCharge
from tests.scenario_service import ledger_totals, run_through_service, valid_scenarios

pytestmark = pytest.mark.django_db


def _with_seating_fees(totals: dict[str, int], run: Any) -> dict[str, int]:
    """The engine's totals and the fees the house charged from the seating, which are no
    coup's (docs/rules/levy.md, LV-3): each player's fee to the table's cagnotte."""
    booked = dict(totals)
    for charge in LevyCharge.objects.filter(table_session=run.table_session):
        code = charge.player.member_number
        booked[code] = booked.get(code, 0) - charge.amount
        booked[CAGNOTTE] = booked.get(CAGNOTTE, 0) + charge.amount
    return {owner: amount for owner, amount in booked.items() if amount}


@pytest.mark.parametrize(
    "scenario", [pytest.param(data, id=label) for label, data in valid_scenarios()]
)
def test_inv1_booked_entries_equal_the_engine_transfers(scenario: dict[str, Any]) -> None:
    expected = result_of(scenario["name"], replay(scenario_load(scenario)))
    run = run_through_service(scenario)

    assert run.refused == [(r["index"], r["code"]) for r in expected["rejections"]]
    assert ledger_totals(run.table_session) == _with_seating_fees(expected["totals"], run)
    coups = list(Coup.objects.filter(table_session=run.table_session).order_by("settled_seq"))
    # A coup row is written at settlement; transfers the engine adds afterwards about the
    # same coup's bank (a reliquat set aside, CF-5.5) are booked as their own transaction.
    assert [(c.number, c.outcome, c.faults) for c in coups] == [
        (c["number"], c["outcome"], c["faults"]) for c in expected["coups"]
    ]
    for stored, engine in zip(coups, expected["coups"], strict=True):
        assert stored.transfers == engine["transfers"][: len(stored.transfers)]
