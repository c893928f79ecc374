"""A small open table for the API tests: a chemin de fer table opened with four players, a
croupier on duty, through the services (the API's own setup is tested by the replay tests)."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.utils import timezone

from establishment.models import GamingSession, Player
from establishment.roles import Role
from establishment.services import gaming_session_open
from reports.models import ReportFile, ReportStatus, SettlementReport
from tables.models import AssignmentRole, TableSession
from tables.services import staff_assign, table_create, table_session_open
from tables.services.journal import last_seq_get
from tests.factories import UserFactory

SEATS = {1: "P1", 2: "P2", 3: "P3", 4: "P4"}


@dataclass
class OpenTable:
    table_session: TableSession
    gaming_session: GamingSession
    manager: User
    croupier: User

    @property
    def url(self) -> str:
        return f"/api/table-sessions/{self.table_session.public_id}/"

    @property
    def next_seq(self) -> int:
        return last_seq_get(self.table_session) + 1


def open_table(number: int = 7, seats: dict[int, str] | None = None) -> OpenTable:
    manager = UserFactory.create(roles=[Role.MANAGER])
    croupier = UserFactory.create(roles=[Role.CROUPIER])
    seating = seats if seats is not None else SEATS
    for code in seating.values():
        Player.objects.get_or_create(member_number=code, defaults={"name": f"Player {code}"})
    # One gaming session open at a time: a second table in the same test shares the night.
    night = GamingSession.objects.filter(closed_at__isnull=True).first()
    gaming_session = night or gaming_session_open(opened_by=manager)
    table = table_create(
        number=number, game="chemin_de_fer", settings={"decks": 6}, created_by=manager
    )
    table_session = table_session_open(
        table=table, gaming_session=gaming_session, opened_by=manager, seats=seating
    )
    staff_assign(
        table_session=table_session,
        staff=croupier,
        role=AssignmentRole.CROUPIER,
        assigned_by=manager,
    )
    return OpenTable(table_session, gaming_session, manager, croupier)


def settlement_report_make(gaming_session: GamingSession) -> SettlementReport:
    """A ready settlement report with one CSV file, as the worker stores it (reports.tasks)."""
    content = json.dumps({"tables": [], "totals": {"P1": 100}}, sort_keys=True)
    now = timezone.now()
    made = SettlementReport.objects.create(
        gaming_session=gaming_session,
        status=ReportStatus.READY,
        requested_at=now,
        generated_at=now,
        content=content,
        sha256=hashlib.sha256(content.encode()).hexdigest(),
        reconciled=True,
    )
    data = b"player,result\nP1,100\n"
    ReportFile.objects.create(
        report=made,
        name="players.csv",
        media_type="text/csv",
        data=data,
        sha256=hashlib.sha256(data).hexdigest(),
    )
    return made
