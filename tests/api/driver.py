"""An outside program's view of the API: run a scenario of tests/scenarios/ over HTTP alone.

Everything goes through the API's URLs with tokens obtained from `POST /api/auth/token/`: the
players are registered, a gaming session opened, a table created and opened with the
scenario's seating, a croupier put on duty, then every action posted to `record/` with the
sequence number the state asked for and a fresh `Idempotency-Key`. Refused actions must come
back 422 with the rules' code. The results are read back from the API too: coups, ledger
accounts and transactions, and the table's final state.
"""

from __future__ import annotations

import uuid
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import User
from rest_framework.test import APIClient

from tables.engine.settlement import CAGNOTTE, RELIQUAT_PREFIX, RESERVE_FUND
from tables.postings import table_session_place

API = "/api"


def token_client(user: User, password: str = "password") -> APIClient:
    """A client that logs in as a machine would: username and password for a token."""
    client = APIClient()
    answer = client.post(
        f"{API}/auth/token/", {"username": user.username, "password": password}, format="json"
    )
    assert answer.status_code == 200, answer.content
    client.credentials(HTTP_AUTHORIZATION=f"Token {answer.json()['token']}")
    return client


def ok(response: Any, status: int = 200) -> Any:
    assert response.status_code == status, (response.status_code, response.content[:2000])
    return response.json()


def pages(client: APIClient, url: str, **query: Any) -> Iterator[dict[str, Any]]:
    """Every item of a paginated list, following `next` (pages of 100, the smallest of the
    lists' largest pages: a larger `page_size` is refused)."""
    answer = ok(client.get(url, {**query, "page_size": 100}))
    while True:
        yield from answer["results"]
        if not answer["next"]:
            return
        answer = ok(client.get(answer["next"]))


@dataclass
class ApiRun:
    table_session: str
    gaming_session: str
    seq: int
    refused: list[tuple[int, str]] = field(default_factory=list)
    bodies: list[dict[str, Any]] = field(default_factory=list)


def people_of(scenario: Mapping[str, Any]) -> list[str]:
    people = list(scenario.get("seats", {}).values()) + list(scenario.get("standing", []))
    people += [a["player"] for a in scenario["actions"] if a.get("type") in ("sit", "add_standing")]
    valid = (
        p
        for p in people
        if isinstance(p, str)
        and p
        and p not in (CAGNOTTE, RESERVE_FUND, "croupier")
        and not p.startswith(RELIQUAT_PREFIX)
        and len(p) <= 32
    )
    return list(dict.fromkeys(valid))


def session_open(
    manager: APIClient, croupier_username: str, scenario: Mapping[str, Any], number: int = 1
) -> ApiRun:
    """Players, a gaming session, a table with the scenario's settings, opened, a croupier."""
    for code in people_of(scenario):
        known = ok(manager.get(f"{API}/players/", {"member_number": code}))
        if not known["results"]:
            ok(
                manager.post(
                    f"{API}/players/create/", {"name": f"Player {code}", "member_number": code}
                ),
                201,
            )
    gaming_session = ok(manager.post(f"{API}/gaming-sessions/open/"), 201)["public_id"]
    table_body: dict[str, Any] = {
        "number": number,
        "game": scenario["game"],
        "settings": scenario.get("settings", {}),
    }
    if "seat_count" in scenario:
        table_body["seat_count"] = scenario["seat_count"]
    table = ok(manager.post(f"{API}/tables/create/", table_body), 201)["public_id"]
    opened = ok(
        manager.post(
            f"{API}/table-sessions/open/",
            {
                "table": table,
                "gaming_session": gaming_session,
                "seats": scenario.get("seats", {}),
                "standing": scenario.get("standing", []),
            },
        ),
        201,
    )["public_id"]
    ok(
        manager.post(
            f"{API}/table-sessions/{opened}/assignments/create/",
            {"staff": croupier_username, "role": "croupier"},
        ),
        201,
    )
    state = ok(manager.get(f"{API}/table-sessions/{opened}/state/"))
    return ApiRun(opened, gaming_session, state["seq"])


def action_post(client: APIClient, run: ApiRun, index: int, action: Mapping[str, Any]) -> None:
    """Post one action; a 201 moves the sequence on, a 422 is a refusal with the rules' code."""
    answer = client.post(
        f"{API}/table-sessions/{run.table_session}/record/",
        {"expected_seq": run.seq + 1, "action": dict(action)},
        format="json",
        headers={"Idempotency-Key": str(uuid.uuid4())},
    )
    body = answer.json()
    if answer.status_code == 201:
        run.seq = body["seq"]
        run.bodies.append(body)
    elif answer.status_code == 422:
        assert set(body) == {"code", "message", "extra"}, body
        run.refused.append((index, body["code"]))
    else:
        raise AssertionError(f"action {index} {action}: {answer.status_code} {body}")


def run_through_api(
    manager: APIClient, croupier: APIClient, croupier_username: str, scenario: Mapping[str, Any]
) -> ApiRun:
    run = session_open(manager, croupier_username, scenario)
    for index, action in enumerate(scenario["actions"]):
        action_post(croupier, run, index, {k: v for k, v in action.items() if k != "expect_error"})
    return run


# -- reading the results back ----------------------------------------------------------------


def _owner(account: Mapping[str, Any]) -> str:
    kind = account["kind"]
    if kind == "cagnotte":
        return CAGNOTTE
    if kind == "reserve_fund":
        return RESERVE_FUND
    if kind == "reliquat":
        return RELIQUAT_PREFIX + str(account["player"])
    return str(account["player"])


def accounts_get(auditor: APIClient, run: ApiRun) -> dict[str, dict[str, Any]]:
    """The accounts of the run's gaming session and table session, by public id."""
    found = {
        a["public_id"]: a
        for a in pages(auditor, f"{API}/ledger/accounts/", gaming_session=run.gaming_session)
    }
    found |= {
        a["public_id"]: a
        for a in pages(
            auditor, f"{API}/ledger/accounts/", place=table_session_place(run.table_session)
        )
    }
    return found


def totals_get(auditor: APIClient, run: ApiRun) -> dict[str, int]:
    """Each owner's balance, named as the engine names owners (zero balances left out)."""
    return {
        _owner(account): account["balance_chips"]
        for account in accounts_get(auditor, run).values()
        if account["balance_chips"] != 0
    }


def transfers_get(auditor: APIClient, run: ApiRun) -> Counter[tuple[str, str, int, str]]:
    """Every transfer booked for the table session, rebuilt from its ledger entries: each
    transfer is a debit of its source followed by a credit of its target."""
    owners = {key: _owner(account) for key, account in accounts_get(auditor, run).items()}
    found: Counter[tuple[str, str, int, str]] = Counter()
    for transaction in pages(
        auditor, f"{API}/ledger/transactions/", place=table_session_place(run.table_session)
    ):
        entries = transaction["entries"]
        assert sum(e["amount_chips"] * (1 if e["side"] == "credit" else -1) for e in entries) == 0
        for debit, credit in zip(entries[::2], entries[1::2], strict=True):
            assert (debit["side"], credit["side"]) == ("debit", "credit")
            assert debit["amount_chips"] == credit["amount_chips"]
            found[
                (
                    owners[debit["account"]],
                    owners[credit["account"]],
                    debit["amount_chips"],
                    debit["reason"],
                )
            ] += 1
    return found


def levy_charges_get(reader: APIClient, run: ApiRun) -> list[dict[str, Any]]:
    """The fees the house charged at the table session from its seating (docs/rules/levy.md)."""
    return list(pages(reader, f"{API}/table-sessions/{run.table_session}/levy-charges/"))


def coups_get(reader: APIClient, run: ApiRun) -> list[dict[str, Any]]:
    coups = list(pages(reader, f"{API}/table-sessions/{run.table_session}/coups/"))
    return sorted(coups, key=lambda coup: coup["settled_seq"])


# -- guided by the schema --------------------------------------------------------------------


class Guide:
    """Calls the API by operation id, reading each operation's method and path from the
    schema at /api/schema/, as a generated client would."""

    def __init__(self, client: APIClient) -> None:
        self.client = client
        schema = ok(client.get(f"{API}/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json"))
        self.operations: dict[str, tuple[str, str]] = {
            operation["operationId"]: (method, path)
            for path, item in schema["paths"].items()
            for method, operation in item.items()
        }

    def __call__(
        self,
        operation_id: str,
        body: Any = None,
        *,
        headers: Mapping[str, str] | None = None,
        query: Mapping[str, Any] | None = None,
        **path: str,
    ) -> Any:
        method, template = self.operations[operation_id]
        url = template.format(**path)
        if method == "get":
            return self.client.get(url, query or {}, headers=dict(headers or {}))
        return getattr(self.client, method)(url, body, format="json", headers=dict(headers or {}))

    def all(self, operation_id: str, query: Mapping[str, Any], **path: str) -> list[Any]:
        """Every item of a paginated list operation."""
        items: list[Any] = []
        page = 1
        while True:
            found: dict[str, Any] = dict(path)
            answer = ok(self(operation_id, query={**query, "page": page}, **found))
            items += answer["results"]
            if not answer["next"]:
                return items
            page += 1
