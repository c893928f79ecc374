"""A whole session of every game through the API alone, guided by the schema: players
registered, a gaming session opened, a table created and opened, a croupier put on duty, the
coups recorded, the table closed (reliquats returned, reserve fund divided, COM-3.8) and the
night closed; the books then hold what the engine says, to the chip."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from establishment.roles import Role
from tables.engine.scenario import replay, result_of, scenario_load
from tests.api.conftest import StaffMaker
from tests.api.driver import Guide, ok, people_of, token_client
from tests.scenario_service import valid_scenarios

pytestmark = pytest.mark.django_db

END_SESSION = {"type": "end_session", "actor": "croupier"}


def _longest_session_per_game() -> list[tuple[str, dict[str, Any]]]:
    """For each game, the valid scenario with the most coups that ends where a table may close."""
    best: dict[str, tuple[int, str, dict[str, Any]]] = {}
    for label, data in valid_scenarios():
        result = result_of(data["name"], replay(scenario_load(data)))
        if "end_session" not in result["legal_actions"]:
            continue
        coups = len(result["coups"])
        if data["game"] not in best or coups > best[data["game"]][0]:
            best[data["game"]] = (coups, label, data)
    return [(label, data) for _coups, label, data in best.values()]


@pytest.mark.parametrize(
    "scenario", [pytest.param(data, id=label) for label, data in _longest_session_per_game()]
)
def test_a_whole_session_through_the_api_guided_by_the_schema(
    scenario: dict[str, Any], staff: StaffMaker
) -> None:
    closed_at_the_end = {**scenario, "actions": [*scenario["actions"], END_SESSION]}
    expected = result_of(scenario["name"], replay(scenario_load(closed_at_the_end)))
    croupier_user = staff(Role.CROUPIER)
    manager = Guide(token_client(staff(Role.MANAGER)))
    croupier = Guide(token_client(croupier_user))
    auditor = Guide(token_client(staff(Role.AUDITOR)))

    for code in people_of(scenario):
        ok(manager("player_create", {"name": f"Player {code}", "member_number": code}), 201)
    night = ok(manager("gaming_session_open"), 201)["public_id"]
    table_body = {"number": 5, "game": scenario["game"], "settings": scenario.get("settings", {})}
    if "seat_count" in scenario:
        table_body["seat_count"] = scenario["seat_count"]
    table = ok(manager("table_create", table_body), 201)["public_id"]
    opening = {
        "table": table,
        "gaming_session": night,
        "seats": scenario.get("seats", {}),
        "standing": scenario.get("standing", []),
    }
    session = ok(manager("table_session_open", opening), 201)["public_id"]
    assignment = {"staff": croupier_user.username, "role": "croupier"}
    ok(manager("assignment_create", assignment, table_session_id=session), 201)

    for action in scenario["actions"]:
        state = ok(croupier("table_state", table_session_id=session))
        body = {
            "expected_seq": state["next_expected_seq"],
            "action": {k: v for k, v in action.items() if k != "expect_error"},
        }
        answer = croupier(
            "action_record",
            body,
            headers={"Idempotency-Key": str(uuid.uuid4())},
            table_session_id=session,
        )
        assert answer.status_code in (201, 422), answer.json()
        if answer.status_code == 422:
            assert answer.json()["code"] == action.get("expect_error", answer.json()["code"])

    closed = ok(manager("table_session_close", table_session_id=session))
    night_closed = ok(manager("gaming_session_close", gaming_session_id=night))

    assert closed["is_open"] is False and night_closed["is_open"] is False
    coups = auditor.all("coup_list", {}, table_session_id=session)
    assert sorted(c["number"] for c in coups) == [c["number"] for c in expected["coups"]]
    owners = {}
    for query in ({"gaming_session": night}, {"table_session": session}):
        for account in auditor.all("account_list", query):
            if account["balance_chips"]:
                owners[(account["kind"], account["player"])] = account["balance_chips"]
    totals = {
        (player or kind): balance
        for (kind, player), balance in owners.items()
        if kind not in ("reliquat",)
    }
    wanted = {owner: amount for owner, amount in expected["totals"].items() if ":" not in owner}
    assert totals == wanted
    assert not [k for k in owners if k[0] == "reliquat"]  # every reliquat went back (COM-7.2)
