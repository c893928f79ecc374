"""Run a scenario of tests/scenarios/ through the recording service, as a croupier would.

A gaming session, a table with the scenario's game and settings, a croupier on duty, the
players seated with `sit` (and standing ones with `add_standing`), then every action through
`tables.services.record`. Shared by the service tests and the API's replay-equivalence test.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.contrib.auth.models import User
from django.test import TestCase

from establishment.models import GamingSession, Player
from establishment.roles import Role
from establishment.services import gaming_session_open
from ledger.models import Account, AccountKind
from ledger.selectors import account_balance_get
from tables.engine.settlement import CAGNOTTE, RELIQUAT_PREFIX, RESERVE_FUND
from tables.models import AssignmentRole, Table, TableSession
from tables.postings import table_session_place
from tables.services import (
    RuleRefusedError,
    record,
    staff_assign,
    table_create,
    table_session_open as open_table,
)
from tables.services.journal import last_seq_get
from tests.factories import UserFactory

SCENARIOS = Path(__file__).resolve().parent / "scenarios"


def scenario_documents(path: Path) -> list[dict[str, Any]]:
    data = json.loads(path.read_text(encoding="utf-8"))
    return data if isinstance(data, list) else [data]


def valid_scenarios() -> list[tuple[str, dict[str, Any]]]:
    """Every scenario of the corpus that is not meant to be refused as invalid."""
    found = []
    for path in sorted(SCENARIOS.glob("*/**/*.json")):
        for index, data in enumerate(scenario_documents(path)):
            if "expect_invalid" not in data:
                found.append((f"{path.relative_to(SCENARIOS)}#{index}", data))
    return found


@dataclass
class ServiceRun:
    table_session: TableSession
    croupier: User
    refused: list[tuple[int, str]] = field(default_factory=list)
    seq: int = 0


_table_numbers = iter(range(1, 1_000_000))


def table_for(
    scenario: Mapping[str, Any], gaming_session: GamingSession, manager: User
) -> TableSession:
    """A table of the scenario's game, opened with the scenario's seating."""
    game = scenario["game"]
    number = next(_table_numbers)
    while Table.objects.filter(number=number, is_active=True).exists():
        number = next(_table_numbers)
    table = table_create(
        created_by=manager,
        number=number,
        game=game,
        settings=scenario.get("settings", {}),
        seat_count=scenario.get("seat_count"),
    )
    return open_table(
        table=table,
        gaming_session=gaming_session,
        opened_by=manager,
        seats={int(seat): code for seat, code in scenario.get("seats", {}).items()},
        standing=scenario.get("standing", []),
    )


def _valid_code(code: object) -> bool:
    return (
        isinstance(code, str)
        and code != ""
        and code not in (CAGNOTTE, RESERVE_FUND, "croupier")
        and not code.startswith(RELIQUAT_PREFIX)
    )


def service_run_start(scenario: Mapping[str, Any]) -> ServiceRun:
    """The scenario's table opened in a gaming session of its own, its players registered and
    a croupier on duty: nothing recorded yet."""
    manager = UserFactory.create(roles=[Role.MANAGER])
    croupier = UserFactory.create(roles=[Role.CROUPIER])
    gaming_session = gaming_session_open(opened_by=manager)
    people = list(scenario.get("seats", {}).values()) + list(scenario.get("standing", []))
    people += [a["player"] for a in scenario["actions"] if a.get("type") in ("sit", "add_standing")]
    for code in dict.fromkeys(p for p in people if _valid_code(p)):
        Player.objects.get_or_create(member_number=code, defaults={"name": f"Player {code}"})
    table_session = table_with_croupier(scenario, gaming_session, manager, croupier)
    return ServiceRun(table_session, croupier, seq=last_seq_get(table_session))


def table_with_croupier(
    scenario: Mapping[str, Any], gaming_session: GamingSession, manager: User, croupier: User
) -> TableSession:
    """The scenario's table opened in `gaming_session` (`table_for`), `croupier` on duty."""
    table_session = table_for(scenario, gaming_session, manager)
    staff_assign(
        table_session=table_session,
        staff=croupier,
        role=AssignmentRole.CROUPIER,
        assigned_by=manager,
    )
    return table_session


def run_through_service(scenario: Mapping[str, Any]) -> ServiceRun:
    run = service_run_start(scenario)
    for index, action in enumerate(scenario["actions"]):
        clean = {k: v for k, v in action.items() if k != "expect_error"}
        try:
            step(run, clean)
        except RuleRefusedError as error:
            run.refused.append((index, error.rule_code))
    return run


def step(run: ServiceRun, action: Mapping[str, Any]) -> None:
    """Record one action. The test's transaction never commits, so the on-commit callbacks
    (the journal cache, as in production) are run as if it had."""
    with TestCase.captureOnCommitCallbacks(execute=True):
        done = record(
            table_session=run.table_session,
            action=action,
            expected_seq=run.seq + 1,
            user=run.croupier,
            idempotency_key=str(uuid.uuid4()),
            client="tests",
        )
    run.seq = done.seq


def ledger_totals(table_session: TableSession) -> dict[str, int]:
    """Each owner's balance in the books, named as the engine names owners."""
    totals: dict[str, int] = {}
    accounts = Account.objects.filter(
        gaming_session=table_session.gaming_session
    ) | Account.objects.filter(place=table_session_place(table_session.public_id))
    for account in accounts.select_related("player").distinct():
        balance = account_balance_get(account=account)
        if balance == 0:
            continue
        if account.kind == AccountKind.CAGNOTTE:
            owner = CAGNOTTE
        elif account.kind == AccountKind.RESERVE_FUND:
            owner = RESERVE_FUND
        elif account.kind == AccountKind.RELIQUAT:
            assert account.player is not None
            owner = RELIQUAT_PREFIX + account.player.member_number
        else:
            assert account.player is not None
            owner = account.player.member_number
        totals[owner] = balance
    return totals
