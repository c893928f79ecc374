"""The settlement report: figures from the scenario corpus, idempotency, renderings."""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth.models import User

from establishment.models import GamingSession, Player
from establishment.roles import Role
from establishment.services import gaming_session_open
from reports.builders import canonical_json, sha256_hex
from reports.models import ReportFile, ReportStatus, SettlementReport
from reports.services import settlement_content_build, settlement_report_generate
from tables.engine.settlement import CAGNOTTE, RELIQUAT_PREFIX, RESERVE_FUND
from tables.models import AssignmentRole, TableSession
from tables.services import gaming_session_close, staff_assign, table_session_close
from tests.factories import UserFactory
from tests.scenario_service import SCENARIOS, ServiceRun, _valid_code, step, table_for

pytestmark = pytest.mark.django_db

# Scenarios of every game, each ending where a table can be closed; played at separate tables
# of ONE gaming session (players with the same code are the same player across tables).
SESSION_SCENARIOS = (
    "chemin_de_fer/examples/CF-X4.json",
    "chemin_de_fer/CF-6-5-fixed-banker.json",
    "chemin_de_fer/CF-5-3-tie-then-reliquat-rules.json",
    "chemin_de_fer/CF-6-8-end-session.json",
    "landsknecht/examples/LR-X4.json",
    "pontoon/PT-6-1-session-bank-passes.json",
    "lansquenet_classique/examples/LC-X4.json",
    "lansquenet_moderne/LM-6-6-2-everybody-declines-vacant.json",
)


def _scenario(path: str) -> dict[str, Any]:
    data = json.loads((SCENARIOS / path).read_text(encoding="utf-8"))
    scenario: dict[str, Any] = data[0] if isinstance(data, list) else data
    return scenario


@dataclass
class Night:
    gaming_session: GamingSession
    manager: User
    runs: dict[str, ServiceRun]


def play_night(paths: tuple[str, ...] = SESSION_SCENARIOS) -> Night:
    manager = UserFactory.create(roles=[Role.MANAGER, Role.INSPECTOR])
    gaming_session = gaming_session_open(opened_by=manager)
    runs: dict[str, ServiceRun] = {}
    for path in paths:
        scenario = _scenario(path)
        people = list(scenario.get("seats", {}).values()) + list(scenario.get("standing", []))
        people += [
            a["player"] for a in scenario["actions"] if a.get("type") in ("sit", "add_standing")
        ]
        for code in dict.fromkeys(p for p in people if _valid_code(p)):
            Player.objects.get_or_create(member_number=code, defaults={"name": f"Player {code}"})
        table_session = table_for(scenario, gaming_session, manager)
        # A croupier of its own at each table: a person is on duty at one table at a time.
        croupier = UserFactory.create(roles=[Role.CROUPIER])
        staff_assign(
            table_session=table_session,
            staff=croupier,
            role=AssignmentRole.CROUPIER,
            assigned_by=manager,
        )
        run = ServiceRun(table_session, croupier, seq=table_session.events.count())
        for action in scenario["actions"]:
            if "expect_error" in action:
                continue
            step(run, action)
        runs[path] = run
    return Night(gaming_session, manager, runs)


def night_close(night: Night) -> None:
    """Close every table of the night, then the night (it does not close over an open table)."""
    for table_session in TableSession.objects.filter(
        gaming_session=night.gaming_session, closed_at__isnull=True
    ).order_by("pk"):
        table_session_close(table_session=table_session, user=night.manager)
    gaming_session_close(gaming_session=night.gaming_session, user=night.manager)


def close_night(night: Night, capture: Callable[..., Any]) -> SettlementReport:
    with capture(execute=True):
        night_close(night)
    return SettlementReport.objects.get(gaming_session=night.gaming_session)


def expected_figures(paths: tuple[str, ...]) -> dict[str, Any]:
    """Totals computed from the scenarios' own expectations, without the books or the engine.

    Closing a table returns every reliquat to its banker (COM-7.2): a reliquat still held at the
    end of a scenario goes to its banker's result.
    """
    per_table: list[dict[str, int]] = []
    levies: list[list[int]] = []
    for path in paths:
        expect = _scenario(path)["expect"]
        totals: dict[str, int] = defaultdict(int)
        for owner, amount in expect["totals"].items():
            if owner.startswith(RELIQUAT_PREFIX):
                totals[owner[len(RELIQUAT_PREFIX) :]] += amount
            else:
                totals[owner] += amount
        per_table.append(dict(totals))
        levies.append(
            [
                sum(t["amount"] for t in coup["transfers"] if t["reason"] == "cagnotte")
                for coup in expect["coups"]
            ]
        )
    players: dict[str, int] = defaultdict(int)
    for totals in per_table:
        for owner, amount in totals.items():
            if owner not in (CAGNOTTE, RESERVE_FUND):
                players[owner] += amount
    return {"per_table": per_table, "levies": levies, "players": dict(players)}


def test_report_figures_equal_the_scenarios_expectations(
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    night = play_night()
    report = close_night(night, django_capture_on_commit_callbacks)

    assert report.status == ReportStatus.READY, report.error
    content = json.loads(report.content)
    assert content["reconciliation"]["differences"] == []
    assert report.reconciled is True
    expected = expected_figures(SESSION_SCENARIOS)

    tables = content["tables"]
    assert len(tables) == len(SESSION_SCENARIOS)
    for table, totals, levies in zip(
        tables, expected["per_table"], expected["levies"], strict=True
    ):
        players = {p["player"]: p["result"] for p in table["players"] if p["result"]}
        assert players == {
            o: a for o, a in totals.items() if o not in (CAGNOTTE, RESERVE_FUND) and a
        }
        book = [c["levy"] for c in table["coups"] if not c["voided"]]
        assert book == levies
        assert table["cagnotte_expected"] == totals.get(CAGNOTTE, 0)
        assert table["coups_played"] == len(levies)
    cagnotte = {row["table"]: row for row in content["cagnotte"]}
    for table, totals in zip(tables, expected["per_table"], strict=True):
        assert cagnotte[table["table"]]["booked"] == totals.get(CAGNOTTE, 0)
    assert {p["player"]: p["total"] for p in content["players"] if p["total"]} == {
        code: amount for code, amount in expected["players"].items() if amount
    }
    cagnotte_total = sum(t.get(CAGNOTTE, 0) for t in expected["per_table"])
    assert content["totals"]["cagnotte"] == cagnotte_total
    assert sum(content["totals"].values()) == 0


def test_report_content_is_deterministic_and_hashed(
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    night = play_night(SESSION_SCENARIOS[:3])
    report = close_night(night, django_capture_on_commit_callbacks)

    night.gaming_session.refresh_from_db()
    again, _reconciliation = settlement_content_build(gaming_session=night.gaming_session)
    assert canonical_json(again) == report.content
    assert sha256_hex(report.content) == report.sha256
    assert "generated_at" not in report.content
    names = set(ReportFile.objects.filter(report=report).values_list("name", flat=True))
    assert names == {"settlement.pdf", "players.csv", "coups.csv", "cagnotte.csv"}


def test_settling_twice_stores_one_report(
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    night = play_night(SESSION_SCENARIOS[:2])
    report = close_night(night, django_capture_on_commit_callbacks)

    again = settlement_report_generate(gaming_session_id=night.gaming_session.pk)

    assert again is not None and again.pk == report.pk
    assert SettlementReport.objects.filter(gaming_session=night.gaming_session).count() == 1
    assert again.attempts == 1
    assert ReportFile.objects.filter(report=report).count() == 4
