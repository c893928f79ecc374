"""Replay equivalence: every valid scenario of tests/scenarios/, run through the API
alone, gives the coups, transfers, totals, refusals and final state of
`python -m tables.engine replay`."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from establishment.roles import Role
from tables.engine.scenario import replay, result_of, scenario_load
from tests.api.conftest import StaffMaker
from tests.api.driver import (
    API,
    coups_get,
    levy_charges_get,
    ok,
    run_through_api,
    token_client,
    totals_get,
    transfers_get,
)
from tests.scenario_service import valid_scenarios

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "scenario", [pytest.param(data, id=label) for label, data in valid_scenarios()]
)
def test_a_scenario_through_the_api_gives_the_engines_result(
    scenario: dict[str, Any], staff: StaffMaker
) -> None:
    expected = result_of(scenario["name"], replay(scenario_load(scenario)))
    croupier = staff(Role.CROUPIER)
    manager = token_client(staff(Role.MANAGER))
    auditor = token_client(staff(Role.AUDITOR))

    run = run_through_api(manager, token_client(croupier), croupier.username, scenario)

    # Refusals: the same actions, with the rules' codes, as 422.
    assert run.refused == [(r["index"], r["code"]) for r in expected["rejections"]]
    # Coups: as the engine settled them. A coup's row is written at settlement; transfers the
    # engine adds afterwards about the same coup's bank (CF-5.5) are booked on their own.
    coups = coups_get(auditor, run)
    assert [(c["number"], c["outcome"], c["faults"]) for c in coups] == [
        (c["number"], c["outcome"], c["faults"]) for c in expected["coups"]
    ]
    for stored, engine in zip(coups, expected["coups"], strict=True):
        assert stored["transfers"] == engine["transfers"][: len(stored["transfers"])]
    # Transfers: every one the engine made (coups and session), booked once.
    engine_transfers = Counter(
        (t["from"], t["to"], t["amount"], t["reason"])
        for t in [
            *(t for c in expected["coups"] for t in c["transfers"]),
            *expected["session_transfers"],
        ]
    )
    # And the fees the house charged from the seating, which are no coup's (docs/rules/levy.md,
    # LV-3): each player's fee to the table's cagnotte, with the model's reason.
    totals = dict(expected["totals"])
    for charge in levy_charges_get(auditor, run):
        player, amount = charge["player"]["member_number"], charge["amount"]
        engine_transfers[(player, "cagnotte", amount, charge["levy_model"])] += 1
        totals[player] = totals.get(player, 0) - amount
        totals["cagnotte"] = totals.get("cagnotte", 0) + amount
    assert transfers_get(auditor, run) == engine_transfers
    # Totals: each owner's balance in the books.
    assert totals_get(auditor, run) == {owner: chips for owner, chips in totals.items() if chips}
    # The table where the engine left it.
    state = ok(auditor.get(f"{API}/table-sessions/{run.table_session}/state/"))
    assert (state["phase"], state["banker"]) == (expected["state"], expected["banker"])
    assert state["legal_types"] == expected["legal_actions"]
